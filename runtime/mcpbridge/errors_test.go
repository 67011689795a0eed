package mcpbridge_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestUndeclaredCapabilities: a server that declared no prompts or
// resources answers prompts/list and resources/list with -32601 (before,
// with empty lists); one with a prompt added answers prompts/list.
func TestUndeclaredCapabilities(t *testing.T) {
	ctx := context.Background()
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg), nil)
	defer srv.Close()
	cs := connect(t, srv.MCPServer(), nil)
	code := func(err error) int64 {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return je.Code
		}
		return 0
	}
	if _, err := cs.ListPrompts(ctx, nil); code(err) != jsonrpc.CodeMethodNotFound {
		t.Errorf("prompts/list without the capability: err = %v, want -32601", err)
	}
	if _, err := cs.ListResources(ctx, nil); code(err) != jsonrpc.CodeMethodNotFound {
		t.Errorf("resources/list without the capability: err = %v, want -32601", err)
	}
	if _, err := cs.ListResourceTemplates(ctx, nil); code(err) != jsonrpc.CodeMethodNotFound {
		t.Errorf("resources/templates/list without the capability: err = %v, want -32601", err)
	}

	withPrompt := mcpbridge.NewServer(tool.NewExecutor(reg), nil)
	defer withPrompt.Close()
	withPrompt.MCPServer().AddPrompt(&mcp.Prompt{Name: "hello"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
	})
	cs2 := connect(t, withPrompt.MCPServer(), nil)
	res, err := cs2.ListPrompts(ctx, nil)
	if err != nil || len(res.Prompts) != 1 {
		t.Errorf("prompts/list with a prompt = %v, %v", res, err)
	}
	if _, err := cs2.ListResources(ctx, nil); code(err) != jsonrpc.CodeMethodNotFound {
		t.Errorf("resources/list without the capability beside prompts: err = %v, want -32601", err)
	}
}

// TestNoErrorCodeZero: an error the SDK raises without a JSON-RPC code (a
// second initialize on a session) is sent with -32603, not code 0.
func TestNoErrorCodeZero(t *testing.T) {
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			ctx := testContext(t)
			ts := sv.serve(t, newBlockTool(), nil)
			s := openRaw(ctx, t, ts.URL, "2025-11-25")
			resp := s.post(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`, true)
			body := readAll(resp)
			if strings.Contains(body, `"code":0`) || !strings.Contains(body, `"code":-32603`) {
				t.Errorf("second initialize answered %s", body)
			}
		})
	}
}

// TestExecutorWarningsReachTheClient: what the executor warns about a call
// (under schema.Warn, a violation it runs the tool anyway with) reaches the
// client as notifications/message when the executor logs through
// ClientLogs, and still reaches the server's own log.
func TestExecutorWarningsReachTheClient(t *testing.T) {
	ctx := testContext(t)
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	var own strings.Builder
	var mu sync.Mutex
	logger := slog.New(mcpbridge.ClientLogs(slog.NewTextHandler(&lockedWriter{w: &own, mu: &mu}, nil)))
	srv := mcpbridge.NewServer(tool.NewExecutor(reg, tool.WithSchemaMode(schema.Warn), tool.WithLogger(logger)), nil)
	defer srv.Close()
	got := make(chan *mcp.LoggingMessageParams, 4)
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { got <- r.Params },
	})
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "warning"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Echo", Arguments: map[string]any{"message": "hi", "times": "x"}}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-got:
		data, _ := p.Data.(map[string]any)
		if p.Level != "warning" || p.Logger != "Echo" || !strings.Contains(fmt.Sprint(data["msg"]), "schema gate") {
			t.Errorf("log notification = %+v", p)
		}
	case <-ctx.Done():
		t.Fatal("no notifications/message for the executor's warning")
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(own.String(), "schema gate") {
		t.Errorf("the server's own log lost the warning: %q", own.String())
	}
}

type lockedWriter struct {
	w  *strings.Builder
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestSDKToolsAreCalled: a tool added to MCPServer with the SDK's AddTool
// is listed and called by the SDK (it was answered as an unknown tool);
// the executor's tools and unknown names are as before.
func TestSDKToolsAreCalled(t *testing.T) {
	ctx := context.Background()
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg), nil)
	defer srv.Close()
	srv.MCPServer().AddTool(&mcp.Tool{Name: "native", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "from the SDK"}}}, nil
		})
	cs := connect(t, srv.MCPServer(), nil)
	if got, isErr := callText(t, cs, "native", map[string]any{}); got != "from the SDK" || isErr {
		t.Errorf("native = %q (isError %v)", got, isErr)
	}
	if got, _ := callText(t, cs, "Echo", map[string]any{"message": "hi"}); got != "hi" {
		t.Errorf("Echo = %q", got)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Nope"}); err == nil || !strings.Contains(err.Error(), "Unknown tool 'Nope'") {
		t.Errorf("Nope: err = %v", err)
	}
}
