package mcpbridge_test

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
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestOutputAcceptedByAClient serves a generated output tool over MCP and
// reads it with the go-sdk client, holding the structured content to the
// advertised output schema with a JSON Schema validator, as the TypeScript
// SDK's client does with ajv (before, "labels": null broke "type": "array"
// and the client threw the result away).
func TestOutputAcceptedByAClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg := tool.NewRegistry()
	lazy := func(_ context.Context, in tracker.GetIssueInput, _ tool.Context) (*tracker.Issue, error) {
		return tracker.LazyIssue(in.Number), nil
	}
	if err := reg.Register(tracker.NewGetIssueTool(lazy)); err != nil {
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
	var want any
	if err := json.Unmarshal([]byte(tracker.LazyIssueJSON), &want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, jsonValue(t, res.StructuredContent)); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
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
