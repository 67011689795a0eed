package tool

import (
	"context"
	"fmt"
	"runtime/debug"
)

// PreHook runs after the permission check and the schema gate, before the
// tool. A non-nil error blocks the call; its message is the reason the model
// is given.
type PreHook func(ctx context.Context, call Call, tc Context) error

// PostHook runs after the tool and may rewrite its result.
type PostHook func(ctx context.Context, call Call, tc Context, res Result) Result

// PermissionFunc is a permission check of the caller's own, consulted after
// the allow-list. A non-nil error denies the call; its message is what the
// model is told.
type PermissionFunc func(ctx context.Context, t Tool, call Call, tc Context) error

func callPreHook(h PreHook, ctx context.Context, call Call, tc Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("pre-hook failed with an internal error: %v", p)
		}
	}()
	return h(ctx, call, tc)
}

func callPostHook(h PostHook, ctx context.Context, call Call, tc Context, res Result, name string) (out Result) {
	defer func() {
		if p := recover(); p != nil {
			out = panicResult(name+" post-hook", p, debug.Stack())
		}
	}()
	return h(ctx, call, tc, res)
}

func callPermFunc(f PermissionFunc, ctx context.Context, t Tool, call Call, tc Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("Tool '%s' is not allowed: the permission check failed.", NormalizeName(call.Name))
		}
	}()
	return f(ctx, t, call, tc)
}
