package mcpbridge_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tooltrace"
)

// TestTraceContext: a call made through a remote tool (mcpbridge.Register)
// sends the caller's trace context in _meta, and the server's span for the
// call (tooltrace's middleware on its executor) continues that trace as a
// child of the caller's span.
func TestTraceContext(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithMiddleware(tooltrace.Middleware(tooltrace.WithTracerProvider(tp))))
	srv := mcpbridge.NewServer(exec, &mcpbridge.ServerOptions{Name: "traced"})
	t.Cleanup(func() { srv.Close() })
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{})

	local := tool.NewRegistry()
	if _, err := mcpbridge.Register(context.Background(), local, cs, &mcpbridge.ClientOptions{Prefix: "remote_"}); err != nil {
		t.Fatal(err)
	}
	ctx, caller := tp.Tracer("agent").Start(context.Background(), "agent turn")
	res := tool.NewExecutor(local).Execute(ctx, tool.Call{Name: "remote_Echo", Input: tool.NewInput(map[string]any{"message": "hi"})}, tool.NewContext())
	caller.End()
	if res.IsError || res.Content != "hi" {
		t.Fatalf("remote call: %+v", res)
	}
	var found bool
	for _, s := range spans.Ended() {
		if s.Name() != "execute_tool Echo" {
			continue
		}
		found = true
		if s.SpanContext().TraceID() != caller.SpanContext().TraceID() || s.Parent().SpanID() != caller.SpanContext().SpanID() {
			t.Errorf("server span %s is in trace %s under %s; want the caller's trace %s under its span %s",
				s.Name(), s.SpanContext().TraceID(), s.Parent().SpanID(), caller.SpanContext().TraceID(), caller.SpanContext().SpanID())
		}
	}
	if !found {
		t.Errorf("no server span recorded; spans: %d", len(spans.Ended()))
	}
}
