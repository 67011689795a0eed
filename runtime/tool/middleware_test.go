package tool

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission"
)

// recorder is a middleware that records its name before and after next.
func recorder(name string, mu *sync.Mutex, seen *[]string) func(Handler) Handler {
	return func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			mu.Lock()
			*seen = append(*seen, name+">"+call.Name)
			mu.Unlock()
			res := next(ctx, call, tc)
			mu.Lock()
			*seen = append(*seen, "<"+name)
			mu.Unlock()
			return res
		}
	}
}

func TestMiddlewareOrder(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	echo := New(Definition{Name: "Echo"}, func(context.Context, Input, Context) Result {
		mu.Lock()
		seen = append(seen, "tool")
		mu.Unlock()
		return Success("ok")
	})
	e, _ := newTestExecutor(t, []Tool{echo},
		WithMiddleware(recorder("a", &mu, &seen), recorder("b", &mu, &seen)),
		WithMiddleware(recorder("c", &mu, &seen)),
		WithPreHook(func(context.Context, Call, Context) error {
			seen = append(seen, "pre")
			return nil
		}),
		WithPostHook(func(_ context.Context, _ Call, _ Context, r Result) Result {
			seen = append(seen, "post")
			return r
		}))
	res := e.Execute(context.Background(), Call{Name: "functions.Echo"}, Context{})
	if diff := cmp.Diff(Success("ok"), res, cmpResult); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	// The first added is outermost; the hooks run inside the gate, around
	// the tool; the middleware sees the name as the model wrote it.
	want := []string{"a>functions.Echo", "b>functions.Echo", "c>functions.Echo", "pre", "tool", "post", "<c", "<b", "<a"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestMiddlewareSeesEveryCall: unknown and denied calls pass through the
// middleware too, and a call it changes goes through the whole gate.
func TestMiddlewareSeesEveryCall(t *testing.T) {
	list, err := permission.Parse("Read")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	var results []string
	spy := func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			names = append(names, call.Name)
			res := next(ctx, call, tc)
			results = append(results, res.Content)
			return res
		}
	}
	redirect := func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			if call.Name == "Sneaky" {
				call.Name = "Write" // not on the list: the gate still refuses it
			}
			return next(ctx, call, tc)
		}
	}
	e, _ := newTestExecutor(t, permTools(), WithAllowList(list), WithMiddleware(spy, redirect))
	for _, name := range []string{"Read", "Write", "Raed", "Sneaky"} {
		e.Execute(context.Background(), Call{Name: name, Input: input(t, `{"file_path":"/a"}`)}, Context{})
	}
	if diff := cmp.Diff([]string{"Read", "Write", "Raed", "Sneaky"}, names); diff != "" {
		t.Errorf("calls seen (-want +got):\n%s", diff)
	}
	want := []string{"Read ran", "Tool 'Write' is not allowed.", "Unknown tool 'Raed'. Did you mean 'Read'?", "Tool 'Write' is not allowed."}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("results seen (-want +got):\n%s", diff)
	}
}

// TestMiddlewareAnswersAlone: a middleware that does not call next (an
// access check) answers the call, and the tool does not run.
func TestMiddlewareAnswersAlone(t *testing.T) {
	ran := false
	tl := New(Definition{Name: "Pay"}, func(context.Context, Input, Context) Result { ran = true; return Success("paid") })
	auth := func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			if call.Metadata["user"] != "ada" {
				return Failure("Tool 'Pay' was not executed: sign in first.")
			}
			return next(ctx, call, tc)
		}
	}
	e, _ := newTestExecutor(t, []Tool{tl}, WithMiddleware(auth))
	if res := e.Execute(context.Background(), Call{Name: "Pay"}, Context{}); res.Content != "Tool 'Pay' was not executed: sign in first." || ran {
		t.Errorf("unauthenticated: %+v, ran %v", res, ran)
	}
	if res := e.Execute(context.Background(), Call{Name: "Pay", Metadata: map[string]string{"user": "ada"}}, Context{}); res.Content != "paid" || !ran {
		t.Errorf("authenticated: %+v, ran %v", res, ran)
	}
}

// TestMiddlewarePanicIsContained: a panic in a middleware, before or
// after next, answers the call with the panic sentence and is logged at
// ERROR; the executor goes on serving calls.
func TestMiddlewarePanicIsContained(t *testing.T) {
	echo := New(Definition{Name: "Echo"}, func(context.Context, Input, Context) Result { return Success("ok") })
	before := func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			if call.ID == "before" {
				panic("before next")
			}
			return next(ctx, call, tc)
		}
	}
	after := func(next Handler) Handler {
		return func(ctx context.Context, call Call, tc Context) Result {
			res := next(ctx, call, tc)
			if call.ID == "after" {
				var m map[string]int
				m["x"] = 1 // a runtime panic
			}
			return res
		}
	}
	e, logs := newTestExecutor(t, []Tool{echo}, WithMiddleware(before, after))
	for _, tt := range []struct{ id, want string }{
		{"before", "Tool 'Echo' failed with an internal error: before next"},
		{"after", "Tool 'Echo' failed with an internal error: assignment to entry in nil map"},
		{"fine", "ok"},
	} {
		res := e.Execute(context.Background(), Call{ID: tt.id, Name: "Echo"}, Context{})
		if res.Content != tt.want {
			t.Errorf("%s: %q, want %q", tt.id, res.Content, tt.want)
		}
		var pe *panicError
		if tt.id != "fine" && !errors.As(res.Err, &pe) {
			t.Errorf("%s: Err %v, want a *panicError", tt.id, res.Err)
		}
	}
	if logs.maxLevel() != slog.LevelError || !strings.Contains(logs.String(), "middleware panicked") {
		t.Errorf("a middleware's panic must be logged at ERROR:\n%s", logs)
	}
	// In a parallel batch too.
	par, _ := newTestExecutor(t, []Tool{New(Definition{Name: "Safe", Concurrency: Safe}, func(context.Context, Input, Context) Result { return Success("ok") })},
		WithConcurrency(4, 4), WithMiddleware(before))
	got := par.ExecuteBatch(context.Background(), []Call{{ID: "before", Name: "Safe"}, {ID: "x", Name: "Safe"}}, Context{})
	if got[0].Content != "Tool 'Safe' failed with an internal error: before next" || got[1].Content != "ok" {
		t.Errorf("batch: %+v", got)
	}
}

// TestBrokenMiddlewareFailsClosed: a middleware that panics while the
// chain is built, or returns no Handler, refuses every call rather than
// being skipped (it may be an access check).
func TestBrokenMiddlewareFailsClosed(t *testing.T) {
	ran := false
	tl := New(Definition{Name: "Pay"}, func(context.Context, Input, Context) Result { ran = true; return Success("paid") })
	for name, mw := range map[string]func(Handler) Handler{
		"panics": func(Handler) Handler { panic("no config") },
		"nil":    func(Handler) Handler { return nil },
	} {
		e, logs := newTestExecutor(t, []Tool{tl}, WithMiddleware(mw))
		res := e.Execute(context.Background(), Call{Name: "Pay"}, Context{})
		if res.Content != "Tool 'Pay' was not executed: the executor's middleware failed." || !res.IsError || ran {
			t.Errorf("%s: %+v, ran %v", name, res, ran)
		}
		if logs.maxLevel() != slog.LevelError {
			t.Errorf("%s: a broken middleware must be logged at ERROR:\n%s", name, logs)
		}
	}
}
