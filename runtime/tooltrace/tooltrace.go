package tooltrace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// scope is the instrumentation scope of the spans and metrics.
const scope = "github.com/toolgen/toolgen/runtime/tooltrace"

// The attribute keys of the OpenTelemetry semantic conventions for
// generative AI that the spans carry.
const (
	keyOperation = attribute.Key("gen_ai.operation.name")
	keyToolName  = attribute.Key("gen_ai.tool.name")
	keyCallID    = attribute.Key("gen_ai.tool.call.id")
	keyToolType  = attribute.Key("gen_ai.tool.type")
	keyErrorType = attribute.Key("error.type")
)

// The values of error.type for the refusals and the timeout.
const (
	ErrorPermission = "permission_denied"
	ErrorArguments  = "invalid_arguments"
	ErrorTimeout    = "timeout"
	ErrorTool       = "tool_error"
)

// An Option configures Middleware.
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider records the spans with tp instead of the global
// tracer provider.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider records the metrics with mp instead of the global
// meter provider.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// Middleware returns the tool middleware that traces every call (see the
// package doc). Add it with tool.WithMiddleware; added first, it sees every
// call, refused ones included.
func Middleware(opts ...Option) func(next tool.Handler) tool.Handler {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = otel.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = otel.GetMeterProvider()
	}
	tracer := c.tp.Tracer(scope)
	meter := c.mp.Meter(scope)
	// Instruments that cannot be made are no-ops: a metrics fault must
	// not stop tool calls.
	duration, err := meter.Float64Histogram("toolgen.tool.call.duration",
		metric.WithDescription("The duration of tool calls, from the executor's gate to the tool's answer."), metric.WithUnit("s"))
	if err != nil {
		otel.Handle(err)
	}
	refused, err := meter.Int64Counter("toolgen.tool.call.refused",
		metric.WithDescription("Tool calls the allow-list or the schema gate refused."), metric.WithUnit("{call}"))
	if err != nil {
		otel.Handle(err)
	}
	return func(next tool.Handler) tool.Handler {
		return func(ctx context.Context, call tool.Call, tc tool.Context) tool.Result {
			name := tool.NormalizeName(call.Name)
			attrs := []attribute.KeyValue{
				keyOperation.String("execute_tool"),
				keyToolName.String(name),
				keyToolType.String("function"),
			}
			if call.ID != "" {
				attrs = append(attrs, keyCallID.String(call.ID))
			}
			ctx, span := tracer.Start(ctx, "execute_tool "+name, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
			start := time.Now()
			res := next(ctx, call, tc)
			elapsed := time.Since(start).Seconds()
			nameAttr := keyToolName.String(name)
			if res.IsError {
				typ := errorType(res.Err)
				span.SetAttributes(keyErrorType.String(typ))
				span.SetStatus(codes.Error, firstLine(res.Content))
				if typ == ErrorPermission || typ == ErrorArguments {
					span.AddEvent("tool call refused", trace.WithAttributes(
						keyErrorType.String(typ), attribute.String("message", res.Content)))
					if refused != nil {
						refused.Add(ctx, 1, metric.WithAttributes(nameAttr, keyErrorType.String(typ)))
					}
				}
				if duration != nil {
					duration.Record(ctx, elapsed, metric.WithAttributes(nameAttr, keyErrorType.String(typ)))
				}
			} else if duration != nil {
				duration.Record(ctx, elapsed, metric.WithAttributes(nameAttr))
			}
			span.End()
			return res
		}
	}
}

// errorType is error.type for an error result's Err.
func errorType(err error) string {
	var vs schema.Violations
	var te *tool.TimeoutError
	switch {
	case err == nil:
		return ErrorTool
	case errors.Is(err, tool.ErrNotAllowed):
		return ErrorPermission
	case errors.As(err, &vs):
		return ErrorArguments
	case errors.As(err, &te):
		return ErrorTimeout
	}
	return fmt.Sprintf("%T", err)
}

// firstLine is the first line of s, for a span status.
func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
