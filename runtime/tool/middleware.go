package tool

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
)

// Handler runs one tool call and answers it: the shape of
// Executor.Execute, and of what a middleware wraps (see WithMiddleware).
// It never panics and never returns a Go error; a failure is a Result with
// IsError set.
type Handler func(ctx context.Context, call Call, tc Context) Result

// WithMiddleware adds middleware around every call (Execute and each call
// of ExecuteBatch). The middleware added first is the outermost: with
// WithMiddleware(a, b), a call runs a, then b, then the gate and the tool,
// and the result passes back through b, then a.
//
// A middleware, func(next Handler) Handler in net/http's shape, wraps
// every call an executor runs: it gets the next Handler and returns one
// that may act before and after it, change the call, the context or the
// result, or answer without calling next at all (an authentication check,
// a rate limit):
//
//	logging := func(next tool.Handler) tool.Handler {
//		return func(ctx context.Context, call tool.Call, tc tool.Context) tool.Result {
//			start := time.Now()
//			res := next(ctx, call, tc)
//			slog.Info("tool call", "tool", tool.NormalizeName(call.Name), "error", res.IsError, "took", time.Since(start))
//			return res
//		}
//	}
//	ex := tool.NewExecutor(reg, tool.WithMiddleware(logging))
//
// A middleware sees every call as the model made it, before the executor
// normalises the name, finds the tool, checks permission and applies the
// schema gate, so it sees unknown, denied and refused calls too; next does
// all of that, then runs the pre-hooks, the tool and the post-hooks. A call
// a middleware changes goes through the whole gate as changed.
//
// A middleware is contained as a tool is: a panic in the Handler it
// returns answers the call with the panic sentence ("Tool 'X' failed with
// an internal error: ...") and is logged at ERROR. A middleware that
// panics while the executor builds its chain (in NewExecutor), or returns
// a nil Handler, fails closed: every call is answered that the tool was
// not executed, since a middleware may be an access check.
//
// Hooks (WithPreHook, WithPostHook) remain the place for code that must see
// only the calls permission and the schema gate let through: they run
// inside the gate, a middleware around it.
func WithMiddleware(mw ...func(next Handler) Handler) Option {
	return func(e *Executor) {
		for _, m := range mw {
			if m != nil {
				e.middleware = append(e.middleware, m)
			}
		}
	}
}

// errMiddlewareSetup is the Err of every result of an executor whose
// middleware could not be built.
var errMiddlewareSetup = errors.New("tool: the executor's middleware could not be built")

// buildChain wraps handle in the middleware, the first added outermost.
// It returns nil without middleware, so that Execute calls handle directly.
func (e *Executor) buildChain() Handler {
	if len(e.middleware) == 0 {
		return nil
	}
	h := Handler(e.handle)
	for i := len(e.middleware) - 1; i >= 0; i-- {
		next, err := e.wrap(e.middleware[i], h, i)
		if err != nil {
			e.log().Error("tool executor: a middleware could not be built; every call will be refused", "middleware", i, "err", err)
			return func(_ context.Context, call Call, _ Context) Result {
				name := NormalizeName(call.Name)
				return FailureWith(fmt.Sprintf("Tool '%s' was not executed: the executor's middleware failed.", name), fmt.Errorf("%w: %v", errMiddlewareSetup, err))
			}
		}
		h = next
	}
	return h
}

// wrap builds one layer: mw around next, its panics contained.
func (e *Executor) wrap(mw func(Handler) Handler, next Handler, i int) (h Handler, err error) {
	defer func() {
		if p := recover(); p != nil {
			h, err = nil, fmt.Errorf("middleware %d panicked while it was built: %v", i, p)
		}
	}()
	inner := mw(next)
	if inner == nil {
		return nil, fmt.Errorf("middleware %d returned a nil Handler", i)
	}
	return func(ctx context.Context, call Call, tc Context) (res Result) {
		defer func() {
			if p := recover(); p != nil {
				name := NormalizeName(call.Name)
				stack := debug.Stack()
				res = panicResult(name, p, stack)
				callLog{l: e.log(), ctx: ctx, tool: name, id: call.ID}.Error("tool middleware panicked", "middleware", i, "panic", fmt.Sprint(p), "stack", string(stack))
			}
		}()
		return inner(ctx, call, tc)
	}, nil
}
