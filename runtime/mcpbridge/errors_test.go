package mcpbridge_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
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
