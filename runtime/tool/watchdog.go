package tool

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// run executes the tool, turning a panic into an error result.
func (e *Executor) run(ctx context.Context, t Tool, interrupt Interrupt, name string, call Call, tc Context, log callLog) Result {
	// A context that can never end needs no watchdog, and neither does a
	// tool that declares it runs to completion whatever ctx says.
	if ctx.Done() == nil || e.cancelGrace < 0 || interrupt == NonInterruptible {
		return e.limit(name, e.execute(ctx, t, name, call, tc))
	}
	done := make(chan Result, 1)
	go func() { done <- e.execute(ctx, t, name, call, tc) }()
	select {
	case res := <-done:
		return e.limit(name, res)
	case <-ctx.Done():
	}
	grace := time.NewTimer(e.cancelGrace)
	defer grace.Stop()
	select {
	case res := <-done:
		return e.limit(name, res)
	case <-grace.C:
		err := ctx.Err()
		log.Error("tool did not return after its call was cancelled; abandoning it", "grace", e.cancelGrace, "err", err)
		return FailureWith(fmt.Sprintf("Tool '%s' did not finish: %s, and the tool did not stop within %s. Its state is unknown.", name, cancelWord(err), e.cancelGrace), &abandonedError{Tool: name, Cause: err})
	}
}

// execute calls the tool, turning a panic into an error result.
func (e *Executor) execute(ctx context.Context, t Tool, name string, call Call, tc Context) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = panicResult(name, p, debug.Stack())
		}
	}()
	return t.Execute(ctx, call.Input, tc)
}

// abandonedError is the Err of a result for a call whose tool did not
// return within the grace period after its context ended. The tool's
// goroutine is left running; the executor serves the next call.
type abandonedError struct {
	Tool  string
	Cause error
}

func (e *abandonedError) Error() string {
	return fmt.Sprintf("tool %q abandoned after its call ended: %v", e.Tool, e.Cause)
}

// Unwrap returns the context's error.
func (e *abandonedError) Unwrap() error { return e.Cause }
