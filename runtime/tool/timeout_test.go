package tool

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestToolTimeout(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	tools := []Tool{
		// Stops when its context ends, saying only the context's error.
		New(Definition{Name: "Wait", Timeout: 20 * time.Millisecond}, func(ctx context.Context, _ Input, _ Context) Result {
			<-ctx.Done()
			return FailureFrom(ctx.Err())
		}),
		// Stops with what it had done by then.
		New(Definition{Name: "Partial", Timeout: 20 * time.Millisecond}, func(ctx context.Context, _ Input, _ Context) Result {
			<-ctx.Done()
			return FailureWith("3 of 10 pages fetched", ctx.Err())
		}),
		// Ignores its context: abandoned after the cancel grace.
		New(Definition{Name: "Deaf", Timeout: 20 * time.Millisecond}, func(context.Context, Input, Context) Result {
			<-release
			return Success("late")
		}),
		// Finishes its work although its time ran out: a success stays one.
		New(Definition{Name: "Late", Timeout: 20 * time.Millisecond}, func(ctx context.Context, _ Input, _ Context) Result {
			<-ctx.Done()
			return Success("done anyway")
		}),
		New(Definition{Name: "Quick", Timeout: time.Hour}, func(ctx context.Context, _ Input, _ Context) Result {
			if _, ok := ctx.Deadline(); !ok {
				return Failure("no deadline")
			}
			return Success("quick")
		}),
	}
	e, _ := newTestExecutor(t, tools, WithCancelGrace(20*time.Millisecond))
	for _, tt := range []struct {
		name, want string
		timedOut   bool
	}{
		{"Wait", "[timed out after 20ms]", true},
		{"Partial", "3 of 10 pages fetched\n[timed out after 20ms]", true},
		{"Deaf", "Tool 'Deaf' did not finish: it timed out after 20ms, and the tool did not stop within 20ms. Its state is unknown.", true},
		{"Late", "done anyway", false},
		{"Quick", "quick", false},
	} {
		res := e.Execute(context.Background(), Call{Name: tt.name}, Context{})
		if res.Content != tt.want || res.IsError != tt.timedOut {
			t.Errorf("%s: %q (error %v), want %q (error %v)", tt.name, res.Content, res.IsError, tt.want, tt.timedOut)
		}
		var te *TimeoutError
		if got := errors.As(res.Err, &te); got != tt.timedOut || tt.timedOut && !errors.Is(res.Err, context.DeadlineExceeded) {
			t.Errorf("%s: Err %v; want a *TimeoutError: %v", tt.name, res.Err, tt.timedOut)
		}
	}
}

// TestTimeoutIsNotTheCallersCancel: when the caller's own context ends
// first, the answer is the usual one, not the tool's timeout.
func TestTimeoutIsNotTheCallersCancel(t *testing.T) {
	started := make(chan struct{})
	tl := New(Definition{Name: "Wait", Timeout: time.Hour}, func(ctx context.Context, _ Input, _ Context) Result {
		close(started)
		<-ctx.Done()
		return FailureFrom(ctx.Err())
	})
	e, _ := newTestExecutor(t, []Tool{tl})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res := e.Execute(ctx, Call{Name: "Wait"}, Context{})
	var te *TimeoutError
	if res.Content != "context canceled" || errors.As(res.Err, &te) {
		t.Errorf("%+v", res)
	}
}
