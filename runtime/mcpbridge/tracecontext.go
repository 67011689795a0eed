package mcpbridge

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
)

// A tool call carries the caller's W3C trace context in its _meta, under
// "traceparent" and "tracestate", as MCP describes for OpenTelemetry: the
// server continues the client's trace (a span that package tooltrace, or
// any middleware, starts is a child of the client's), and a remote tool's
// call sends the trace its caller is in. Without a trace in ctx nothing is
// sent; without one in _meta the call's context is unchanged.

// traceContext is the W3C trace context propagator MCP's _meta uses.
var traceContext propagation.TraceContext

// withTraceMeta returns ctx with the trace context that meta carries, if any.
func withTraceMeta(ctx context.Context, meta mcp.Meta) context.Context {
	if meta == nil {
		return ctx
	}
	carrier := propagation.MapCarrier{}
	for _, k := range traceContext.Fields() {
		if v, ok := meta[k].(string); ok && v != "" {
			carrier[k] = v
		}
	}
	if len(carrier) == 0 {
		return ctx
	}
	return traceContext.Extract(ctx, carrier)
}

// setTraceMeta puts the trace context of ctx, if any, into params' _meta.
func setTraceMeta(ctx context.Context, params *mcp.CallToolParams) {
	carrier := propagation.MapCarrier{}
	traceContext.Inject(ctx, carrier)
	if len(carrier) == 0 {
		return
	}
	if params.Meta == nil {
		params.Meta = mcp.Meta{}
	}
	for k, v := range carrier {
		params.Meta[k] = v
	}
}
