package mcpbridge_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// growTool registers the tool "Late" in reg when called: a source whose
// All() grows between calls, as a catalog's does when ToolSearch activates.
func growTool(reg *tool.Registry) tool.Tool {
	return tool.New(tool.Definition{Name: "Grow", Description: "Adds the tool Late.", InputSchema: objectSchema(map[string]any{})},
		func(context.Context, tool.Input, tool.Context) tool.Result {
			if err := reg.Register(namedTool("Late", "late")); err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success("grown")
		})
}

func TestServerEndToEnd(t *testing.T) {
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{echoTool(), namedTool("Secret", "secret"), growTool(reg)} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, reg, enforce(), tool.WithAllowList(mustParse(t, "Echo", "Grow", "Late")))

	if diff := cmp.Diff([]string{"Echo", "Grow"}, toolNames(t, f.cs)); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}

	// The schema travels unchanged.
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"message": map[string]any{"type": "string", "description": "The message to repeat."},
			"times":   map[string]any{"type": "integer"},
		},
		"required":             []any{"message"},
		"additionalProperties": false,
	}
	if diff := cmp.Diff(wantSchema, res.Tools[0].InputSchema); diff != "" {
		t.Errorf("Echo's schema (-want +got):\n%s", diff)
	}

	tests := []struct {
		name      string
		tool      string
		args      any
		want      string
		wantError bool
	}{
		// Answered with the JSON-RPC error MCP names for an unknown tool
		// (-32602), the gate's sentence its message: "not allowed" for a
		// tool that exists and the allow-list denies, "Unknown tool" for
		// a name no tool has, with a suggestion from the allowed tools
		// only (issue 32).
		{name: "denied by the allow-list", tool: "Secret", args: map[string]any{}, want: "-32602 Tool 'Secret' is not allowed."},
		{name: "unknown", tool: "Nope", args: map[string]any{}, want: "-32602 Unknown tool 'Nope'."},
		{name: "typo of a denied tool", tool: "Secrte", args: map[string]any{}, want: "-32602 Unknown tool 'Secrte'."},
		{name: "control characters in the name", tool: "Ec\x00ho", args: map[string]any{}, want: `-32602 Unknown tool 'Ec\u0000ho'. Did you mean 'Echo'?`},
		{"success", "Echo", map[string]any{"message": "hi", "times": 2}, "hihi", false},
		{"functions prefix", "functions.Echo", map[string]any{"message": "hi"}, "hi", false},
		{"schema violation under enforce", "Echo", map[string]any{"times": "x"},
			"Parameter 'message' is required (string).\nParameter 'times' must be an integer. The tool was not executed.", true},
		{"unknown parameter", "Echo", map[string]any{"message": "hi", "mesage": "x"},
			"Unknown parameter 'mesage'. Did you mean 'message'? The tool was not executed.", true},
		{"arguments not an object", "Echo", []any{1, 2},
			"Tool 'Echo' was not executed: tool arguments must be a JSON object, got an array.", true},
		{"arguments a string", "Echo", "hi",
			"Tool 'Echo' was not executed: tool arguments must be a JSON object, got a string.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if want, ok := strings.CutPrefix(tt.want, "-32602 "); ok {
				_, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
				var je *jsonrpc.Error
				if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams || je.Message != want {
					t.Errorf("CallTool(%q) err = %v, want JSON-RPC error -32602 %q", tt.tool, err, want)
				}
				return
			}
			got, isErr := callText(t, f.cs, tt.tool, tt.args)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if isErr != tt.wantError {
				t.Errorf("isError = %v, want %v", isErr, tt.wantError)
			}
		})
	}

	// A call that changes the offered set: the client hears list_changed and
	// the next tools/list has the new tool, which can then be called.
	drain(f.changed)
	if got, isErr := callText(t, f.cs, "Grow", nil); got != "grown" || isErr {
		t.Fatalf("Grow = %q, %v", got, isErr)
	}
	select {
	case <-f.changed:
	case <-testContext(t).Done():
		t.Fatal("no notifications/tools/list_changed after the tool set grew")
	}
	if diff := cmp.Diff([]string{"Echo", "Grow", "Late"}, toolNames(t, f.cs)); diff != "" {
		t.Errorf("tools/list after Grow (-want +got):\n%s", diff)
	}
	if got, isErr := callText(t, f.cs, "Late", nil); got != "late" || isErr {
		t.Errorf("Late = %q, %v", got, isErr)
	}

	// A tool that goes away is withdrawn, with another notification.
	drain(f.changed)
	reg.Unregister("Late")
	f.srv.Sync()
	select {
	case <-f.changed:
	case <-testContext(t).Done():
		t.Fatal("no notifications/tools/list_changed after a tool was removed")
	}
	if diff := cmp.Diff([]string{"Echo", "Grow"}, toolNames(t, f.cs)); diff != "" {
		t.Errorf("tools/list after Unregister (-want +got):\n%s", diff)
	}
}

func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}

func TestServerHugeArguments(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, reg)
	huge := strings.Repeat("x", jsonscan.MaxBytes+1)
	got, isErr := callText(t, f.cs, "Echo", map[string]any{"message": huge})
	if !isErr || !strings.Contains(got, "the limit is") || !strings.HasPrefix(got, "Tool 'Echo' was not executed: ") {
		t.Errorf("huge arguments: %q, isError %v", got, isErr)
	}
}

func TestServerDefinitionChanges(t *testing.T) {
	// A dynamic definition whose description changes is re-sent.
	var mu sync.Mutex
	desc := "first"
	dyn := tool.NewDynamic(func() tool.Definition {
		mu.Lock()
		defer mu.Unlock()
		return tool.Definition{Name: "Dyn", Description: desc, InputSchema: objectSchema(map[string]any{})}
	}, func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("ok") })
	// A schema MCP cannot carry is left out (and the rest still served).
	bad := tool.New(tool.Definition{Name: "Bad", InputSchema: map[string]any{"type": "array"}},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("") })
	// A schema without a type is served as an object.
	untyped := tool.New(tool.Definition{Name: "Untyped", InputSchema: map[string]any{"properties": map[string]any{}}},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("") })
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{dyn, bad, untyped} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, reg)
	res, err := f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range res.Tools {
		got[tl.Name] = tl.Description
	}
	if diff := cmp.Diff(map[string]string{"Dyn": "first", "Untyped": ""}, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	drain(f.changed)
	mu.Lock()
	desc = "second"
	mu.Unlock()
	callText(t, f.cs, "Dyn", nil)
	select {
	case <-f.changed:
	case <-testContext(t).Done():
		t.Fatal("no list_changed after a description changed")
	}
	res, err = f.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tools[0].Name != "Dyn" || res.Tools[0].Description != "second" {
		t.Errorf("after the change: %+v", res.Tools[0])
	}
	// The tool MCP cannot list is still answered by the gate when called.
	if got, isErr := callText(t, f.cs, "Bad", nil); isErr || got != "" {
		t.Errorf("Bad = %q, %v", got, isErr)
	}
}

func TestServerShutdown(t *testing.T) {
	slow := newSlowTool()
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{echoTool(), slow.tool()} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	f := newFixture(t, reg)

	type answer struct {
		text  string
		isErr bool
		err   error
	}
	inflight := make(chan answer, 1)
	go func() {
		res, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Slow", Arguments: map[string]any{}})
		if err != nil {
			inflight <- answer{err: err}
			return
		}
		inflight <- answer{text: contentText(res), isErr: res.IsError}
	}()
	<-slow.started

	shutdownDone := make(chan error, 1)
	shutdownCtx := testContext(t)
	go func() {
		shutdownDone <- f.srv.Shutdown(shutdownCtx)
	}()

	// While the slow call runs, a new call is refused with a result.
	waitFor(t, "shutdown to refuse calls", func() bool {
		got, _ := callText(t, f.cs, "Echo", map[string]any{"message": "hi"})
		return got != "hi"
	})
	got, isErr := callText(t, f.cs, "Echo", map[string]any{"message": "hi"})
	if want := "Tool 'Echo' was not executed: the server is shutting down."; got != want || !isErr {
		t.Errorf("call during shutdown = %q, %v; want %q", got, isErr, want)
	}

	close(slow.release)
	if a := <-inflight; a.err != nil || a.text != "done" || a.isErr {
		t.Errorf("in-flight call = %+v (%v), want done", a, a.err)
	}
	if err := <-shutdownDone; err != nil {
		t.Errorf("Shutdown = %v", err)
	}
}

func TestServerCloseCancelsCalls(t *testing.T) {
	slow := newSlowTool()
	reg := tool.NewRegistry()
	if err := reg.Register(slow.tool()); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, reg)
	errc := make(chan error, 1)
	go func() {
		_, err := f.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Slow"})
		errc <- err
	}()
	<-slow.started
	done := make(chan struct{})
	go func() {
		f.srv.Close()
		close(done)
	}()
	select {
	case <-done:
	case <-testContext(t).Done():
		t.Fatal("Close hangs on a call in flight")
	}
	select {
	case <-errc:
	case <-testContext(t).Done():
		t.Fatal("the client's call hangs after Close")
	}
}

func TestServerHTTP(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg), nil)
	ctx, cancel := context.WithCancel(context.Background())
	ln := listen(t)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "v0"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String()}, sessionful)
	if err != nil {
		t.Fatal(err)
	}
	if got, isErr := callText(t, cs, "Echo", map[string]any{"message": "over http"}); got != "over http" || isErr {
		t.Errorf("Echo over HTTP = %q, %v", got, isErr)
	}
	cs.Close()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-testContext(t).Done():
		t.Fatal("Serve did not return after ctx was cancelled")
	}
}
