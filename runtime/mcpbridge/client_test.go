package mcpbridge_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestClientAgainstOurServer connects the client adapter to our own server
// and runs the remote tools through a local executor: both gates apply.
func TestClientAgainstOurServer(t *testing.T) {
	remote := tool.NewRegistry()
	for _, tl := range []tool.Tool{echoTool(), namedTool("Secret", "secret")} {
		if err := remote.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, remote, enforce(), tool.WithAllowList(mustParse(t, "Echo")))

	local := tool.NewRegistry()
	names, err := mcpbridge.Register(context.Background(), local, f.cs, &mcpbridge.ClientOptions{Prefix: "remote_"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"remote_Echo"}, names); diff != "" {
		t.Errorf("registered (-want +got):\n%s", diff)
	}
	exec := tool.NewExecutor(local, tool.WithSchemaMode(schema.Enforce))
	tests := []struct {
		name      string
		call      tool.Call
		want      string
		wantError bool
	}{
		{"success", tool.Call{Name: "remote_Echo", Input: tool.NewInput(map[string]any{"message": "hi", "times": 3})}, "hihihi", false},
		{"local gate on the remote schema", tool.Call{Name: "remote_Echo", Input: tool.NewInput(map[string]any{"mesage": "hi"})},
			"Parameter 'message' is required (string).\nUnknown parameter 'mesage'. Did you mean 'message'? The tool was not executed.", true},
		{"unknown locally", tool.Call{Name: "remote_Secret"}, "Unknown tool 'remote_Secret'. Did you mean 'remote_Echo'?", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := exec.Execute(context.Background(), tt.call, tool.Context{})
			if diff := cmp.Diff(tt.want, res.Content); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if res.IsError != tt.wantError {
				t.Errorf("IsError = %v, want %v", res.IsError, tt.wantError)
			}
		})
	}

	// Registering twice reports the duplicates and registers nothing new.
	if _, err := mcpbridge.Register(context.Background(), local, f.cs, &mcpbridge.ClientOptions{Prefix: "remote_"}); !errors.Is(err, tool.ErrDuplicate) {
		t.Errorf("second Register: err = %v, want ErrDuplicate", err)
	}
}

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

// sdkServer is a server written directly with the SDK, the way third-party
// servers are: a typed tool, a raw tool whose schema our gate does not fully
// understand, a tool that fails, and one that blocks.
func sdkServer(block chan struct{}, blocked chan struct{}) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "third-party", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(in.A + in.B)}}}, nil, nil
		})
	s.AddTool(&mcp.Tool{
		Name: "lookup",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"key":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
				"where": map[string]any{"$ref": "#/$defs/where"},
				"limit": map[string]any{"type": "integer"},
			},
			"$defs":    map[string]any{"where": map[string]any{"type": "object"}},
			"required": []any{"key"},
		},
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: "args " + string(req.Params.Arguments)},
			&mcp.ImageContent{MIMEType: "image/png", Data: []byte{1, 2, 3}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///x", Text: "embedded"}},
		}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "fail", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk full"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "protocol_error", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("backend exploded")
		})
	s.AddTool(&mcp.Tool{Name: "block", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			blocked <- struct{}{}
			select {
			case <-block:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "unblocked"}}}, nil
		})
	return s
}

func TestClientAgainstSDKServer(t *testing.T) {
	block, blocked := make(chan struct{}), make(chan struct{}, 4)
	defer close(block)
	cs := connect(t, sdkServer(block, blocked), nil)

	tools, err := mcpbridge.Tools(context.Background(), cs, &mcpbridge.ClientOptions{CallTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tool.Tool{}
	var names []string
	for _, tl := range tools {
		byName[tl.Definition().Name] = tl
		names = append(names, tl.Definition().Name)
	}
	if diff := cmp.Diff([]string{"add", "block", "fail", "lookup", "protocol_error"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if got := byName["add"].Definition().SideEffect; got != tool.ReadOnly {
		t.Errorf("add's side effect = %v, want read-only", got)
	}
	if got := byName["add"].Definition().Concurrency; got != tool.Safe {
		t.Errorf("add's concurrency = %v, want safe", got)
	}
	if got := byName["fail"].Definition().SideEffect; got != tool.Destructive {
		t.Errorf("fail's side effect = %v, want destructive (MCP's default)", got)
	}
	// Schemas pass through unchanged, $ref and anyOf included (the gate
	// holds calls to all of them).
	wantLookup := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"key":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
			"where": map[string]any{"$ref": "#/$defs/where"},
			"limit": map[string]any{"type": "integer"},
		},
		"$defs":    map[string]any{"where": map[string]any{"type": "object"}},
		"required": []any{"key"},
	}
	if diff := cmp.Diff(wantLookup, byName["lookup"].Definition().InputSchema); diff != "" {
		t.Errorf("lookup's schema (-want +got):\n%s", diff)
	}

	reg := tool.NewRegistry()
	for _, tl := range tools {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce))
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		want      string
		wantError bool
	}{
		{"typed tool", "add", map[string]any{"a": 2, "b": 3}, "5", false},
		{"the SDK's own validation answers", "add", map[string]any{"a": "x"}, "", true},
		{"anyOf and $ref checked: valid", "lookup", map[string]any{"key": 7, "where": map[string]any{"a": 1}},
			"args {\"key\":7,\"where\":{\"a\":1}}\n[image: image/png, 3 bytes]\nembedded", false},
		{"anyOf and $ref checked: invalid", "lookup", map[string]any{"key": true, "where": "anything"},
			"Parameter 'key' must be a string or an integer.\nParameter 'where' must be an object. The tool was not executed.", true},
		{"the gate still checks what it understands", "lookup", map[string]any{"key": "k", "limit": "ten"},
			"Parameter 'limit' must be an integer. The tool was not executed.", true},
		{"error result", "fail", nil, "disk full", true},
		{"protocol error", "protocol_error", nil, "Tool 'protocol_error' failed: its MCP server answered with an error: backend exploded", true},
		{"call timeout", "block", nil, "Tool 'block' timed out after 200ms: its MCP server did not answer in time.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := exec.Execute(context.Background(), tool.Call{Name: tt.tool, Input: tool.NewInput(tt.args)}, tool.Context{})
			if tt.want != "" {
				if diff := cmp.Diff(tt.want, res.Content); diff != "" {
					t.Errorf("content (-want +got):\n%s", diff)
				}
			} else if res.Content == "" {
				t.Errorf("empty content")
			}
			if res.IsError != tt.wantError {
				t.Errorf("IsError = %v, want %v (content %q)", res.IsError, tt.wantError, res.Content)
			}
		})
	}
}

func TestClientLogsSchemaThatDoesNotCompile(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "sloppy", Version: "v1"}, nil)
	nop := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
	}
	s.AddTool(&mcp.Tool{Name: "typo", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "strng"}}}}, nop)
	s.AddTool(&mcp.Tool{Name: "fine", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}}, nop)
	cs := connect(t, s, nil)
	var logs bytes.Buffer
	reg := tool.NewRegistry()
	names, err := mcpbridge.Register(context.Background(), reg, cs, &mcpbridge.ClientOptions{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"fine", "typo"}, names); diff != "" {
		t.Errorf("registered (-want +got):\n%s", diff)
	}
	got := logs.String()
	if !strings.Contains(got, `msg="mcp tool's input schema does not compile; under schema enforce every call to it is refused" tool=typo err="schema: the schema is not a valid JSON schema: at /properties/x/type:`) {
		t.Errorf("the broken schema must be logged at registration; logs:\n%s", got)
	}
	if strings.Contains(got, "tool=fine") {
		t.Errorf("a good schema must not be logged; logs:\n%s", got)
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
	res := exec.Execute(context.Background(), tool.Call{Name: "typo", Input: tool.NewInput(map[string]any{"x": "a"})}, tool.Context{})
	if !res.IsError || !strings.HasPrefix(res.Content, "Tool 'typo' cannot be called: its input schema is broken (") {
		t.Errorf("enforce: %+v", res)
	}
}

func TestClientCallBoundedByContext(t *testing.T) {
	block, blocked := make(chan struct{}), make(chan struct{}, 4)
	defer close(block)
	cs := connect(t, sdkServer(block, blocked), nil)
	tools, err := mcpbridge.Tools(context.Background(), cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var blockTool tool.Tool
	for _, tl := range tools {
		if tl.Definition().Name == "block" {
			blockTool = tl
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	res := blockTool.Execute(ctx, tool.Input{}, tool.Context{})
	if want := "Tool 'block' did not finish: the deadline passed."; res.Content != want || !res.IsError {
		t.Errorf("got %q, %v; want %q", res.Content, res.IsError, want)
	}
	if d := time.Since(start); d > waitBound(t) {
		t.Errorf("the call took %v, not its 100ms deadline", d)
	}
}

// TestClientServerDisconnects kills the server's side of the connection in
// the middle of a call: the call answers an error result at once.
func TestClientServerDisconnects(t *testing.T) {
	block, blocked := make(chan struct{}), make(chan struct{}, 4)
	defer close(block)
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	srv := sdkServer(block, blocked)
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: c2sR, Writer: s2cW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: s2cR, Writer: c2sW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cs.Close()
		ss.Wait()
	}()
	tools, err := mcpbridge.Tools(context.Background(), cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var blockTool tool.Tool
	for _, tl := range tools {
		if tl.Definition().Name == "block" {
			blockTool = tl
		}
	}
	done := make(chan tool.Result, 1)
	go func() { done <- blockTool.Execute(context.Background(), tool.Input{}, tool.Context{}) }()
	<-blocked
	// The server process dies: both of its pipe ends close.
	s2cW.Close()
	c2sR.Close()
	select {
	case res := <-done:
		want := "Tool 'block' is not available: the connection to its MCP server is closed."
		if res.Content != want || !res.IsError {
			t.Errorf("got %q, %v; want %q", res.Content, res.IsError, want)
		}
	case <-testContext(t).Done():
		t.Fatal("the call hangs after the server disconnected")
	}
	// Later calls fail the same way, at once.
	res := blockTool.Execute(context.Background(), tool.Input{}, tool.Context{})
	if !res.IsError || !strings.Contains(res.Content, "connection to its MCP server is closed") {
		t.Errorf("call after the disconnect = %q, %v", res.Content, res.IsError)
	}
}

// TestSourceFollowsListChanged: a Source over our server follows the
// server's list_changed, so a local executor offers the remote tool that a
// remote call added.
func TestSourceFollowsListChanged(t *testing.T) {
	remote := tool.NewRegistry()
	for _, tl := range []tool.Tool{echoTool(), growTool(remote)} {
		if err := remote.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(remote), nil)
	defer srv.Close()
	src := mcpbridge.NewSource(nil)
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{ToolListChangedHandler: src.ToolListChanged})
	defer src.Wait()
	if err := src.Refresh(context.Background(), cs); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(src)
	defNames := func() []string {
		var names []string
		for _, d := range exec.Definitions() {
			names = append(names, d.Name)
		}
		return names
	}
	if diff := cmp.Diff([]string{"Echo", "Grow"}, defNames()); diff != "" {
		t.Errorf("definitions (-want +got):\n%s", diff)
	}
	if res := exec.Execute(context.Background(), tool.Call{Name: "Grow"}, tool.Context{}); res.IsError {
		t.Fatalf("Grow: %s", res.Content)
	}
	waitFor(t, "the source to see Late", func() bool { _, ok := src.Find("Late"); return ok })
	if diff := cmp.Diff([]string{"Echo", "Grow", "Late"}, defNames()); diff != "" {
		t.Errorf("definitions after Grow (-want +got):\n%s", diff)
	}
	if res := exec.Execute(context.Background(), tool.Call{Name: "Late"}, tool.Context{}); res.Content != "late" {
		t.Errorf("Late = %q", res.Content)
	}
}

// TestCallerDeadlineIsNotCallTimeout: when the caller's own deadline
// passes before ClientOptions.CallTimeout, the result says the deadline
// passed, not that the server took longer than CallTimeout.
func TestCallerDeadlineIsNotCallTimeout(t *testing.T) {
	block, blocked := make(chan struct{}), make(chan struct{}, 4)
	defer close(block)
	cs := connect(t, sdkServer(block, blocked), nil)
	tools, err := mcpbridge.Tools(context.Background(), cs, &mcpbridge.ClientOptions{CallTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var blockTool tool.Tool
	for _, tl := range tools {
		if tl.Definition().Name == "block" {
			blockTool = tl
		}
	}
	if blockTool == nil {
		t.Fatal("no block tool")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res := blockTool.Execute(ctx, tool.NewInput(map[string]any{}), tool.NewContext())
	if !res.IsError || strings.Contains(res.Content, "timed out after") || !strings.Contains(res.Content, "the deadline passed") {
		t.Errorf("result = %q, want the caller's deadline, not CallTimeout", res.Content)
	}
}
