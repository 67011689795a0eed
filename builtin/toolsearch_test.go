package builtin

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func names(ts []tool.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Definition().Name)
	}
	return out
}

func TestToolSearchActivates(t *testing.T) {
	c := catalog.New()
	opts := Options{Root: t.TempDir(), Deferred: []string{GrepName, GlobName, EditName}}
	if err := RegisterCatalog(c, opts); err != nil {
		t.Fatal(err)
	}
	run := c.NewRun()
	exec := tool.NewExecutor(run, tool.WithSchemaMode(schema.Enforce))
	tc := tool.NewContext(catalog.ViewKey.Bind(run))

	if diff := cmp.Diff([]string{ReadName, WriteName, TodoWriteName, ToolSearchName}, names(run.All())); diff != "" {
		t.Errorf("offered before the search (-want +got):\n%s", diff)
	}
	in, _ := tool.DecodeInput([]byte(`{"query":"search file contents regular expression","max_results":1}`))
	res := exec.Execute(context.Background(), tool.Call{Name: ToolSearchName, Input: in}, tc)
	if res.IsError {
		t.Fatal(res.Content)
	}
	var got struct {
		Functions []struct {
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"functions"`
	}
	if err := json.Unmarshal([]byte(res.Content), &got); err != nil {
		t.Fatalf("%v in %s", err, res.Content)
	}
	if len(got.Functions) != 1 || got.Functions[0].Name != GrepName || got.Functions[0].Parameters["properties"] == nil {
		t.Fatalf("found %s", res.Content)
	}
	if diff := cmp.Diff([]string{ReadName, WriteName, GrepName, TodoWriteName, ToolSearchName}, names(run.All())); diff != "" {
		t.Errorf("offered after the search (-want +got):\n%s", diff)
	}
	// A fork starts with nothing activated.
	if diff := cmp.Diff([]string{ReadName, WriteName, TodoWriteName, ToolSearchName}, names(run.Fork().All())); diff != "" {
		t.Errorf("fork (-want +got):\n%s", diff)
	}
}

func TestToolSearchErrors(t *testing.T) {
	c := catalog.New()
	if err := RegisterCatalog(c, Options{Root: t.TempDir(), Deferred: []string{GrepName}}); err != nil {
		t.Fatal(err)
	}
	ts, _ := c.Find(ToolSearchName)
	tests := []struct {
		name, args string
		tc         tool.Context
		want       string
	}{
		{"empty query", `{"query":"  "}`, tool.NewContext(catalog.ViewKey.Bind(c.NewRun())), "Query cannot be empty"},
		{"no view", `{"query":"grep"}`, tool.NewContext(), "ToolSearch is not set up on this server: the call's tool context has no catalog view (the operator binds catalog.ViewKey to the run's view, as mcpbridge.Serve does)"},
		{"no match", `{"query":"zzzqqq"}`, tool.NewContext(catalog.ViewKey.Bind(c.NewRun())), `{"functions": []}`},
		{"max_results clamped", `{"query":"select:Grep","max_results":500}`, tool.NewContext(catalog.ViewKey.Bind(c.NewRun())), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, _ := tool.DecodeInput([]byte(tt.args))
			res := ts.Execute(context.Background(), in, tt.tc)
			if tt.want == "" {
				if res.IsError {
					t.Fatal(res.Content)
				}
				return
			}
			if res.Content != tt.want {
				t.Errorf("content = %q, want %q", res.Content, tt.want)
			}
		})
	}
}

func TestNoToolSearchWithoutDeferredTools(t *testing.T) {
	ts, err := Tools(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names(ts) {
		if n == ToolSearchName {
			t.Error("ToolSearch registered where nothing is deferred")
		}
	}
}

// TestClampedValuesPassTheGate holds a clamped field to its promise on
// every path a call can take: out of its range, under schema.Enforce,
// from a map as from bytes, the value is clamped and the tool runs (the
// schema must not state as minimum/maximum a range the tool accepts
// beyond).
func TestClampedValuesPassTheGate(t *testing.T) {
	reg := tool.NewRegistry()
	sh := &fakeShell{}
	if err := Register(reg, Options{Root: t.TempDir(), Shell: sh, Tools: []string{BashName}}); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce))
	fromBytes, err := tool.DecodeInput([]byte(`{"command":"echo hi","timeout":999999999}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   tool.Input
		want time.Duration
	}{
		{"map", tool.NewInput(map[string]any{"command": "echo hi", "timeout": 999999999}), 600 * time.Second},
		{"bytes", fromBytes, 600 * time.Second},
		{"low", tool.NewInput(map[string]any{"command": "echo hi", "timeout": 1}), time.Second},
	} {
		res := exec.Execute(context.Background(), tool.Call{ID: "1", Name: BashName, Input: tc.in}, tool.NewContext())
		if res.IsError {
			t.Errorf("%s: a clamped timeout was refused: %s", tc.name, res.Content)
			continue
		}
		sh.mu.Lock()
		got := sh.runs[len(sh.runs)-1].opts.Timeout
		sh.mu.Unlock()
		if got != tc.want {
			t.Errorf("%s: the command ran with timeout %v, want %v", tc.name, got, tc.want)
		}
	}
}
