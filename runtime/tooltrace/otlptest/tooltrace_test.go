package otlptest

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tooltrace"
)

func echo() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "Echo",
		Description: "Repeats a message back.",
		InputSchema: map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}},
	}, func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
		m, err := tool.Param[string](in, "message")
		if err != nil {
			return tool.FailureFrom(err)
		}
		return tool.Success(m)
	})
}

// TestMiddleware: one span per call, named and attributed by the GenAI
// conventions, a child of the caller's span; refusals by the allow-list
// and the schema gate carry an event with the model's sentence and count
// as refused; every call is timed.
func TestMiddleware(t *testing.T) {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{echo(), tool.New(tool.Definition{Name: "Secret", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("x") })} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	list, err := permission.Parse("Echo")
	if err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithAllowList(list), tool.WithSchemaMode(schema.Enforce),
		tool.WithMiddleware(tooltrace.Middleware(tooltrace.WithTracerProvider(tp), tooltrace.WithMeterProvider(mp))))

	ctx, parent := tp.Tracer("test").Start(context.Background(), "agent turn")
	calls := []tool.Call{
		{ID: "c1", Name: "Echo", Input: tool.NewInput(map[string]any{"message": "hi"})},
		{ID: "c2", Name: "Echo", Input: tool.NewInput(map[string]any{})},
		{ID: "c3", Name: "Secret", Input: tool.NewInput(map[string]any{})},
	}
	var answers []string
	for _, c := range calls {
		answers = append(answers, exec.Execute(ctx, c, tool.NewContext()).Content)
	}
	parent.End()

	type got struct {
		Name     string
		Parent   bool
		Attrs    map[string]string
		Status   codes.Code
		Events   []string
		Messages []string
	}
	var all []got
	for _, s := range spans.Ended() {
		if s.Name() == "agent turn" {
			continue
		}
		g := got{Name: s.Name(), Parent: s.Parent().SpanID() == parent.SpanContext().SpanID(), Attrs: map[string]string{}, Status: s.Status().Code}
		for _, a := range s.Attributes() {
			g.Attrs[string(a.Key)] = a.Value.Emit()
		}
		for _, e := range s.Events() {
			g.Events = append(g.Events, e.Name)
			for _, a := range e.Attributes {
				if a.Key == "message" {
					g.Messages = append(g.Messages, a.Value.AsString())
				}
			}
		}
		all = append(all, g)
	}
	attrs := func(name, id string, extra ...string) map[string]string {
		m := map[string]string{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.type": "function", "gen_ai.tool.call.id": id}
		for i := 0; i+1 < len(extra); i += 2 {
			m[extra[i]] = extra[i+1]
		}
		return m
	}
	want := []got{
		{Name: "execute_tool Echo", Parent: true, Attrs: attrs("Echo", "c1"), Status: codes.Unset},
		{Name: "execute_tool Echo", Parent: true, Attrs: attrs("Echo", "c2", "error.type", "invalid_arguments"), Status: codes.Error,
			Events: []string{"tool call refused"}, Messages: []string{answers[1]}},
		{Name: "execute_tool Secret", Parent: true, Attrs: attrs("Secret", "c3", "error.type", "permission_denied"), Status: codes.Error,
			Events: []string{"tool call refused"}, Messages: []string{answers[2]}},
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("spans (-want +got):\n%s", diff)
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					counts[m.Name] += int64(p.Count)
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					v, _ := p.Attributes.Value(attribute.Key("error.type"))
					counts[m.Name+"/"+v.AsString()] += p.Value
				}
			}
		}
	}
	wantCounts := map[string]int64{"toolgen.tool.call.duration": 3, "toolgen.tool.call.refused/invalid_arguments": 1, "toolgen.tool.call.refused/permission_denied": 1}
	if diff := cmp.Diff(wantCounts, counts); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
}

// BenchmarkExecute: an executor without the middleware pays nothing for
// the package; with it and the global (no-op) providers, the cost of the
// spans that go nowhere; with an SDK recording, the full cost.
func BenchmarkExecute(b *testing.B) {
	reg := tool.NewRegistry()
	if err := reg.Register(echo()); err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
	cases := []struct {
		name string
		opts []tool.Option
	}{
		{"off", nil},
		{"noop-providers", []tool.Option{tool.WithMiddleware(tooltrace.Middleware())}},
		{"sdk", []tool.Option{tool.WithMiddleware(tooltrace.Middleware(tooltrace.WithTracerProvider(tp)))}},
	}
	call := tool.Call{ID: "c", Name: "Echo", Input: tool.NewInput(map[string]any{"message": "hi"})}
	for _, c := range cases {
		exec := tool.NewExecutor(reg, c.opts...)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = exec.Execute(context.Background(), call, tool.NewContext())
			}
		})
	}
}
