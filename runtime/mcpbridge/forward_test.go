package mcpbridge_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// remoteServer is an MCP server (the SDK's, so that it can send what our
// server would not) with Work, which reports progress and logs, and
// Count, whose output schema asks for an integer count.
func remoteServer(t *testing.T, count any) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "v0"}, nil)
	s.AddTool(&mcp.Tool{Name: "Work", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				for i := 1; i <= 2; i++ {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 2, Message: "step"})
				}
			}
			//lint:ignore SA1019 MCP logging is what hosts read today.
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "work", Data: map[string]any{"msg": "disk almost full"}})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "Count", InputSchema: map[string]any{"type": "object"},
		OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}, "required": []any{"count"}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "counted"}}, StructuredContent: map[string]any{"count": count}}, nil
		})
	return s
}

// TestClientForwardsProgressAndLogs: a remote tool's progress (the client
// now sends a token) and log records reach the caller's tool.Context.
func TestClientForwardsProgressAndLogs(t *testing.T) {
	ctx := testContext(t)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := remoteServer(t, 1).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Wait()
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, mcpbridge.Forwarding(nil))
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if _, err := mcpbridge.Register(ctx, reg, cs, nil); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var progress []tool.Progress
	var logs strings.Builder
	tc := tool.NewContext(
		tool.ProgressKey.Bind(func(_ context.Context, p tool.Progress) {
			mu.Lock()
			progress = append(progress, p)
			mu.Unlock()
		}),
		tool.LoggerKey.Bind(slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, nil))))
	res := tool.NewExecutor(reg).Execute(ctx, tool.Call{Name: "Work", Input: tool.Input{}}, tc)
	if res.IsError || res.Content != "done" {
		t.Fatalf("Work = %+v", res)
	}
	waitFor(t, "the progress and the log record", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(progress) == 2 && strings.Contains(logs.String(), "disk almost full")
	})
	mu.Lock()
	defer mu.Unlock()
	if progress[1].Done != 2 || progress[1].Total != 2 || progress[1].Message != "step" {
		t.Errorf("progress = %+v", progress)
	}
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "remote_logger=work") {
		t.Errorf("log = %q", logs.String())
	}
}

// TestClientChecksStructuredContent: structured content that breaks the
// tool's output schema is a failure saying so (it was passed on as
// valid); content that matches is passed on.
func TestClientChecksStructuredContent(t *testing.T) {
	for _, tc := range []struct {
		count   any
		wantErr string
	}{
		{3, ""},
		{"three", "Tool 'Count' failed: its MCP server sent structured content that does not match the tool's output schema: Field 'count' must be an integer."},
	} {
		ctx := testContext(t)
		ct, st := mcp.NewInMemoryTransports()
		ss, err := remoteServer(t, tc.count).Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		reg := tool.NewRegistry()
		if _, err := mcpbridge.Register(ctx, reg, cs, nil); err != nil {
			t.Fatal(err)
		}
		res := tool.NewExecutor(reg).Execute(ctx, tool.Call{Name: "Count", Input: tool.Input{}}, tool.Context{})
		switch {
		case tc.wantErr == "" && (res.IsError || res.Structured == nil):
			t.Errorf("count %v: %+v, want the structured content passed on", tc.count, res)
		case tc.wantErr != "" && (!res.IsError || res.Content != tc.wantErr):
			t.Errorf("count %v: %+v, want the failure %q", tc.count, res, tc.wantErr)
		}
		cs.Close()
		ss.Wait()
	}
}
