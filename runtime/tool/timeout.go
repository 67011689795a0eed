package tool

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// TimeoutError is the Err of a result for a call that ran past its tool's
// Definition.Timeout. errors.Is(err, context.DeadlineExceeded) holds.
type TimeoutError struct {
	Tool    string
	Timeout time.Duration
	// Err is the tool's own error, when it returned one.
	Err error
}

func (e *TimeoutError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("tool %q timed out after %s: %v", e.Tool, e.Timeout, e.Err)
	}
	return fmt.Sprintf("tool %q timed out after %s", e.Tool, e.Timeout)
}

// Unwrap returns context.DeadlineExceeded and the tool's own error.
func (e *TimeoutError) Unwrap() []error { return []error{context.DeadlineExceeded, e.Err} }

// timeoutMarker is the line that says a call ran out of time, worded as
// the Bash tool words a command's timeout.
func timeoutMarker(d time.Duration) string {
	return fmt.Sprintf("[timed out after %dms]", d.Milliseconds())
}

// runTimed runs a tool whose Definition sets a Timeout: with a context
// that ends after it, and, when that end is what stopped the call (not the
// caller's own context), with an answer that says so. A tool that returns
// an error after its time ran out is answered with what it said (unless
// that was only the context's error) followed by "[timed out after Nms]",
// as Bash answers a command it stopped; one that does not return within the
// executor's cancel grace is abandoned, with "timed out after Nms" as the
// reason. A tool that finishes its work with a success after the time ran
// out is answered with that success: the work is done, and an error would
// invite the model to do it again.
func (e *Executor) runTimed(ctx context.Context, t Tool, def Definition, name string, call Call, tc Context, log callLog) Result {
	tctx, cancel := context.WithTimeout(ctx, def.Timeout)
	defer cancel()
	res := e.run(tctx, t, def.Interrupt, name, call, tc, log)
	if ctx.Err() != nil || !errors.Is(tctx.Err(), context.DeadlineExceeded) || !res.IsError {
		return res
	}
	te := &TimeoutError{Tool: name, Timeout: def.Timeout, Err: res.Err}
	var ae *abandonedError
	if errors.As(res.Err, &ae) {
		te.Err = nil
		return FailureWith(fmt.Sprintf("Tool '%s' did not finish: it timed out after %dms, and the tool did not stop within %s. Its state is unknown.",
			name, def.Timeout.Milliseconds(), e.cancelGrace), &abandonedError{Tool: name, Cause: te})
	}
	content := res.Content
	if res.Err != nil && content == res.Err.Error() && errors.Is(res.Err, context.DeadlineExceeded) {
		content = "" // only the context's own words: the marker says it better
	}
	res.Content = withTimeoutMarker(content, timeoutMarker(def.Timeout))
	res.Parts = nil
	res.Structured = nil
	res.Err = te
	return res
}

// withTimeoutMarker appends marker to out on a line of its own.
func withTimeoutMarker(out, marker string) string {
	switch {
	case out == "":
		return marker
	case out[len(out)-1] == '\n':
		return out + marker
	}
	return out + "\n" + marker
}
