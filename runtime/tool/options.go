package tool

import (
	"log/slog"
	"time"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
)

// Option configures an Executor.
type Option func(*Executor)

// WithSchemaMode sets how the schema gate treats violations: schema.Off
// skips it, schema.Warn (the default) logs them and runs the tool,
// schema.Enforce answers with them and does not run the tool.
func WithSchemaMode(m schema.Mode) Option { return func(e *Executor) { e.mode = m } }

// WithAllowList restricts the tools the model is offered and may call.
func WithAllowList(l permission.List) Option {
	return func(e *Executor) { e.allow = l; e.hasAllow = true }
}

// allowList is what the executor asks of its permission.List. The list is
// held through it, set only by WithAllowList, so that a program that
// never calls WithAllowList does not link the command judge behind
// permission.List.Decide (mvdan.cc/sh's parser).
type allowList interface {
	Offers(tool string) bool
	Ceiling() permission.SideEffect
	Restricted() bool
	Offered(tools []permission.Descriptor) permission.Offering
	ReadsCall(tool string) bool
	Decide(r permission.Request) permission.Decision
	PathFilter(tool string) permission.PathFilter
}

// WithPermission adds a permission check of the caller's own, consulted
// after the allow-list (if any) and before the schema gate.
func WithPermission(f PermissionFunc) Option {
	return func(e *Executor) {
		if f != nil {
			e.permFuncs = append(e.permFuncs, f)
		}
	}
}

// WithConcurrency enables parallel batches: at most maxConcurrency calls run
// at once across all batches of the executor, at most perBatchMax of them
// from one batch. perBatchMax is clamped to [1, maxConcurrency]; a
// maxConcurrency below 2 leaves parallelism off.
func WithConcurrency(maxConcurrency, perBatchMax int) Option {
	return func(e *Executor) {
		if maxConcurrency < 2 {
			e.maxConc, e.perBatch = 0, 0
			return
		}
		e.maxConc = maxConcurrency
		e.perBatch = min(max(perBatchMax, 1), maxConcurrency)
	}
}

// defaultCancelGrace is how long the executor waits, after a call's context
// ends, for a tool that has not returned.
const defaultCancelGrace = 5 * time.Second

// defaultMaxResultBytes bounds the content of a result the executor gives
// back: more is of no use to a model and costs its context.
const defaultMaxResultBytes = 1 << 20

// WithCancelGrace sets how long the executor waits, once a call's context
// has ended, for a tool that has not returned (5 seconds by
// default). After that the call is answered as abandoned and the tool's
// goroutine is left to finish on its own; a negative grace waits for ever.
// Tools declaring NonInterruptible are always waited for.
func WithCancelGrace(d time.Duration) Option { return func(e *Executor) { e.cancelGrace = d } }

// WithMaxResultBytes bounds the content of every result (1 MiB
// by default); longer content is cut at a UTF-8 boundary and followed by a
// note giving its size. Zero or less removes the bound.
func WithMaxResultBytes(n int) Option { return func(e *Executor) { e.maxResult = n } }

// WithLogger sets the logger; the default is slog.Default() at call time.
func WithLogger(l *slog.Logger) Option { return func(e *Executor) { e.logger = l } }

// WithPreHook adds a hook run before every tool; hooks run in the order added.
func WithPreHook(h PreHook) Option {
	return func(e *Executor) {
		if h != nil {
			e.pre = append(e.pre, h)
		}
	}
}

// WithPostHook adds a hook run after every tool; hooks run in the order added.
func WithPostHook(h PostHook) Option {
	return func(e *Executor) {
		if h != nil {
			e.post = append(e.post, h)
		}
	}
}
