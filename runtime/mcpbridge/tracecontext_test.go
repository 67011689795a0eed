package mcpbridge_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestTraceContext: a call made through a remote tool (mcpbridge.Register)
// sends its caller's W3C trace context in _meta, and the server's call
// runs in that trace: the tool sees the caller's trace id and span as its
// remote parent. (The spans tooltrace records on either side are checked
// in the runtime/tooltrace/otlptest module, which has the SDK.)
func TestTraceContext(t *testing.T) {
	seen := make(chan trace.SpanContext, 1)
	reg := tool.NewRegistry()
	if err := reg.Register(tool.New(tool.Definition{Name: "Probe", InputSchema: objectSchema(map[string]any{})},
		func(ctx context.Context, _ tool.Input, _ tool.Context) tool.Result {
			seen <- trace.SpanContextFromContext(ctx)
			return tool.Success("ok")
		})); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg), &mcpbridge.ServerOptions{Name: "traced"})
	t.Cleanup(func() { srv.Close() })
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{})
	local := tool.NewRegistry()
	if _, err := mcpbridge.Register(context.Background(), local, cs, &mcpbridge.ClientOptions{Prefix: "remote_"}); err != nil {
		t.Fatal(err)
	}
	// The caller's span, as a tracing SDK would have put it in ctx.
	carrier := propagation.MapCarrier{"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
	ctx := propagation.TraceContext{}.Extract(context.Background(), carrier)
	caller := trace.SpanContextFromContext(ctx)
	if res := tool.NewExecutor(local).Execute(ctx, tool.Call{Name: "remote_Probe"}, tool.NewContext()); res.IsError {
		t.Fatalf("remote call: %+v", res)
	}
	got := <-seen
	if got.TraceID() != caller.TraceID() || got.SpanID() != caller.SpanID() || !got.IsRemote() {
		t.Errorf("the server's call ran in %s/%s (remote %v), want the caller's %s/%s", got.TraceID(), got.SpanID(), got.IsRemote(), caller.TraceID(), caller.SpanID())
	}
}
