package builtin

import (
	"context"
	"encoding/json"
	"testing"

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
		{"no view", `{"query":"grep"}`, tool.NewContext(), "ToolSearchRegistry not available in tool context"},
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
