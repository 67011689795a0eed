package gentest

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen/toolgen/gen_test/tracker"
	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// lazyIssue is what a Go developer returns: every slice, map and pointer
// left nil where there is nothing, the nested ones too.
func lazyIssue(_ context.Context, in tracker.GetIssueInput, _ tool.Context) (*tracker.Issue, error) {
	return &tracker.Issue{
		Number:    in.Number,
		Title:     "Crash on start",
		Comments:  []tracker.Comment{{Author: "ada", Body: "Seen it too."}},
		Fields:    map[string][]string{"os": nil},
		Milestone: &tracker.Milestone{Title: "v1"},
	}, nil
}

// wantIssue is its JSON as the output schema describes it: [] and {} for
// the nil slices and maps, null only for the pointer the schema lets be null.
const wantIssue = `{"number":7,"title":"Crash on start","labels":[],"assignee":null,"watchers":[],` +
	`"comments":[{"author":"ada","body":"Seen it too.","reactions":{}}],"fields":{"os":[]},` +
	`"milestone":{"title":"v1","blockers":[]},"checks":[[],[]]}`

// TestOutputNilsAreSentEmpty: a generated output tool sends nil slices and
// maps as [] and {}, in its text and its structured content, and the
// executor's output check (under Enforce) accepts the result; the value
// the function returned is not written.
func TestOutputNilsAreSentEmpty(t *testing.T) {
	var returned *tracker.Issue
	tl := tracker.NewGetIssueTool(func(ctx context.Context, in tracker.GetIssueInput, tc tool.Context) (*tracker.Issue, error) {
		var err error
		returned, err = lazyIssue(ctx, in, tc)
		return returned, err
	})
	reg := tool.NewRegistry()
	if err := reg.Register(tl); err != nil {
		t.Fatal(err)
	}
	e := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
	res := e.Execute(context.Background(), tool.Call{Name: "GetIssue", Input: tool.NewInput(map[string]any{"number": 7})}, tool.Context{})
	if res.IsError || res.Content != wantIssue {
		t.Fatalf("result %q (error %v)\nwant %q", res.Content, res.IsError, wantIssue)
	}
	structured, err := json.Marshal(res.Structured)
	if err != nil || string(structured) != wantIssue {
		t.Errorf("structured content %s (%v)\nwant %s", structured, err, wantIssue)
	}
	if returned.Labels != nil || returned.Fields["os"] != nil || returned.Milestone.Blockers != nil || returned.Comments[0].Reactions != nil {
		t.Errorf("the value the tool's function returned was written: %+v", returned)
	}
}

// TestOutputAcceptedByAClient serves the tool over MCP and reads it with
// the go-sdk client, holding the structured content to the advertised
// output schema with a JSON Schema validator, as the TypeScript SDK's
// client does with ajv (before, "labels": null broke "type": "array" and
// the client threw the result away).
func TestOutputAcceptedByAClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := tool.NewRegistry()
	if err := reg.Register(tracker.NewGetIssueTool(lazyIssue)); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg, tool.WithLogger(slog.New(slog.DiscardHandler))), &mcpbridge.ServerOptions{Name: "tracker", Version: "v0.0.1"})
	defer srv.Close()
	serverT, clientT := mcp.NewInMemoryTransports()
	go func() { _ = srv.Run(ctx, serverT) }()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0.0.1"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	list, err := session.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 1 {
		t.Fatalf("tools/list: %v, %v", list, err)
	}
	validator := compileClientSide(t, list.Tools[0].OutputSchema)
	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "GetIssue", Arguments: map[string]any{"number": 7}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call: %v, %+v", err, res)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalJSON(wantIssue), normalJSON(string(data))); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := validator.Validate(doc); err != nil {
		t.Errorf("the client refuses the structured content: %v", err)
	}
}

// compileClientSide compiles an advertised output schema as a client does.
func compileClientSide(t *testing.T, s any) *jsonschema.Schema {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem:///output.json", doc); err != nil {
		t.Fatal(err)
	}
	v, err := c.Compile("mem:///output.json")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func normalJSON(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	return v
}
