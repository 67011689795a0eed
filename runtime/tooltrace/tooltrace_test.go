package tooltrace_test

import (
	"context"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tooltrace"
)

// TestPassThrough: with the global (no-op) providers the middleware
// answers every call exactly as the executor would without it, a panic
// included. The spans and metrics themselves are checked with the SDK in
// the runtime/tooltrace/otlptest module, so that the SDK stays out of
// toolgen's go.mod.
func TestPassThrough(t *testing.T) {
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{
		tool.New(tool.Definition{Name: "Ok", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("fine") }),
		tool.New(tool.Definition{Name: "Crash", InputSchema: map[string]any{"type": "object"}},
			func(context.Context, tool.Input, tool.Context) tool.Result { panic("boom") }),
	} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	plain := tool.NewExecutor(reg)
	traced := tool.NewExecutor(reg, tool.WithMiddleware(tooltrace.Middleware()))
	for _, name := range []string{"Ok", "Crash", "Missing"} {
		a := plain.Execute(context.Background(), tool.Call{ID: "1", Name: name}, tool.NewContext())
		b := traced.Execute(context.Background(), tool.Call{ID: "1", Name: name}, tool.NewContext())
		if a.Content != b.Content || a.IsError != b.IsError {
			t.Errorf("%s: plain %q, traced %q", name, a.Content, b.Content)
		}
	}
}
