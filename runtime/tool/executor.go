package tool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/schema"
)

// Call is one tool call from a model response.
type Call struct {
	// ID is the provider's id for the call; it reaches the tool as the
	// metadata key "call_id".
	ID string
	// Name is the tool's name as the model wrote it.
	Name string
	// Input holds the arguments.
	Input Input
	// Metadata is the call's own metadata (a trace id, ...); it wins over
	// metadata added by executor options.
	Metadata map[string]string
}

// Executor is the one gate every tool call passes: normalise the name, find
// the tool, check permission, apply the schema gate, run pre-hooks, execute,
// run post-hooks. It is safe for concurrent use. It reads each call's tool
// Definition once; every behaviour it acts on is a field of it.
//
// # The gate and tools that check their own input
//
// One rule decides whether the schema gate runs: not under schema.Off, and
// not for a tool whose Definition sets ChecksInput (every generated tool
// does; a hand-written tool may). Such a tool's Execute binds the argument
// bytes itself and reports at least what the gate reports: required, type,
// enum and unknown names, from the same struct the schema comes from, in
// the same sentences, plus ranges, lengths, patterns, formats and nested
// members, which the gate does not check. So for it:
//
//   - under schema.Warn the gate would log and run the tool anyway, and the
//     tool then refuses the same call with its own violations: the result
//     is the same, and the violations are still logged (as a failed call,
//     at WARN);
//   - under schema.Enforce the tool's violations are the result instead of
//     the gate's; they list everything the gate would, in field order
//     rather than the gate's order. The one thing the gate refuses that a
//     binder accepts, a numeric string such as "10" for an integer, is
//     refused too: the executor hands the tool an Input that reads no
//     numeric string as a number, in its Document and in its accessors.
//
// Pre-hooks run before Execute, so for such a tool they see the arguments
// unchecked under every mode (as every tool's are under schema.Warn): a
// pre-hook that reads them must treat a missing or mistyped value as
// possible, whatever the mode. Every other tool goes through the gate, and
// under schema.Enforce its pre-hooks see only calls the gate let through.
//
// Permission is decided before either: a tool's subject is read from the
// bytes by scanning (see SubjectField.Read), so a denied call learns nothing
// of the schema.
type Executor struct {
	src       ToolSource
	mode      schema.Mode
	allow     allowList // a permission.List, when hasAllow
	hasAllow  bool
	permFuncs []PermissionFunc
	logger    *slog.Logger
	pre       []PreHook
	post      []PostHook
	readFiles *ReadFiles

	maxConc  int
	perBatch int
	pool     chan struct{}

	gates    sync.Map // tool name -> *gateEntry
	outGates sync.Map // tool name -> *outputGate

	offerFilter func(string) bool // e.Offers, made once
	cancelGrace time.Duration
	maxResult   int

	warnMu   sync.Mutex
	lastWarn string // the offer warnings last logged

	middleware []func(Handler) Handler // in the order added; the first is outermost
	chain      Handler                 // the middleware around handle; nil without any
}

// NewExecutor returns an executor over src (a *Registry or a catalog view).
func NewExecutor(src ToolSource, opts ...Option) *Executor {
	e := &Executor{src: src, mode: schema.Warn, readFiles: newReadFiles(),
		cancelGrace: defaultCancelGrace, maxResult: defaultMaxResultBytes}
	for _, o := range opts {
		if o != nil {
			o(e)
		}
	}
	if e.maxConc >= 2 {
		e.pool = make(chan struct{}, e.maxConc)
	}
	e.offerFilter = e.Offers
	e.chain = e.buildChain()
	return e
}

// callLog logs one call's events with its tool name and call id, building
// nothing when the level is disabled.
type callLog struct {
	l        *slog.Logger
	ctx      context.Context
	tool, id string
}

func (c callLog) enabled(level slog.Level) bool { return c.l.Enabled(c.ctx, level) }

func (c callLog) log(level slog.Level, msg string, args []any) {
	if !c.enabled(level) {
		return
	}
	c.l.Log(c.ctx, level, msg, append([]any{"tool", c.tool, "call_id", c.id}, args...)...)
}

func (c callLog) Debug(msg string, args ...any) { c.log(slog.LevelDebug, msg, args) }
func (c callLog) Warn(msg string, args ...any)  { c.log(slog.LevelWarn, msg, args) }
func (c callLog) Error(msg string, args ...any) { c.log(slog.LevelError, msg, args) }

func (e *Executor) log() *slog.Logger {
	if e.logger != nil {
		return e.logger
	}
	return slog.Default()
}

// Execute runs one call through the middleware (WithMiddleware) and the
// gate and returns its result. It never panics.
func (e *Executor) Execute(ctx context.Context, call Call, tc Context) Result {
	if e.chain != nil {
		return e.chain(ctx, call, tc)
	}
	return e.handle(ctx, call, tc)
}

// handle is the gate: the Handler the middleware wraps.
func (e *Executor) handle(ctx context.Context, call Call, tc Context) (res Result) {
	start := time.Now()
	name := NormalizeName(call.Name)
	log := callLog{l: e.log(), ctx: ctx, tool: name, id: call.ID}
	defer func() {
		if p := recover(); p != nil {
			res = panicResult(name, p, debug.Stack())
			log.Error("tool call panicked in the executor", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	t, ok := e.find(name)
	if !ok {
		res = e.unknown(name)
		log.Warn("tool call refused", "reason", res.Content)
		return res
	}
	// The definition is read once per call; every behaviour below is a
	// field of it.
	def, defErr := safeDefinition(t)
	tc = e.callContext(name, call, tc)
	if r, denied := e.checkPermission(ctx, t, def, name, call, tc); denied {
		log.Warn("tool call denied", "reason", r.Content, "err", r.Err)
		return r
	}
	switch {
	case e.mode == schema.Off:
	case def.ChecksInput:
		if e.mode == schema.Enforce {
			call.Input = call.Input.strictly()
		}
	default:
		if r, blocked := e.gate(def, defErr, name, call.Input, log); blocked {
			return r
		}
	}
	for _, h := range e.pre {
		if err := callPreHook(h, ctx, call, tc); err != nil {
			log.Warn("tool call blocked by a pre-hook", "reason", err)
			return FailureWith(fmt.Sprintf("Tool '%s' was not executed: %s", name, err.Error()), err)
		}
	}
	if err := ctx.Err(); err != nil {
		log.Warn("tool call cancelled before it ran", "err", err)
		return FailureWith(fmt.Sprintf("Tool '%s' was not executed: %s.", name, cancelWord(err)), err)
	}
	if def.Timeout > 0 {
		res = e.runTimed(ctx, t, def, name, call, tc, log)
	} else {
		res = e.run(ctx, t, def.Interrupt, name, call, tc, log)
	}
	for _, h := range e.post {
		res = callPostHook(h, ctx, call, tc, res, name)
	}
	res = e.checkOutput(def, name, res, log)
	switch pe, panicked := panicOf(res.Err); {
	case panicked:
		log.Error("tool panicked", "duration", time.Since(start), "panic", fmt.Sprint(pe.Value), "stack", string(pe.Stack))
	case res.IsError:
		log.Warn("tool call failed", "duration", time.Since(start), "err", clipped(res.Err), "content_len", len(res.Content))
	case log.enabled(slog.LevelDebug):
		log.Debug("tool call done", "duration", time.Since(start), "content_len", len(res.Content))
	}
	return res
}

// panicOf finds the panicError in err. It is called on every call's
// result: an error-free result costs no allocation.
func panicOf(err error) (*panicError, bool) {
	if err == nil {
		return nil, false
	}
	var pe *panicError
	ok := errors.As(err, &pe)
	return pe, ok
}

func cancelWord(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the deadline passed"
	}
	return "the call was cancelled"
}

func (e *Executor) find(name string) (Tool, bool) {
	if e.src == nil {
		return nil, false
	}
	t, ok := e.src.Find(name)
	return t, ok && t != nil
}

// unknown answers a call to a tool the source does not have: "Unknown
// tool 'X'.", with "Did you mean 'Y'?" when an offered tool's name is
// close. Under an allow-list the suggestion comes only from the tools it
// offers, so that it never names one the model may not call; "not
// allowed" is the answer for a tool that exists and is not allowed (see
// checkPermission), never for a typo.
func (e *Executor) unknown(name string) Result {
	msg := fmt.Sprintf("Unknown tool '%s'.", schema.Echo(name))
	if s, ok := schema.Suggest(name, e.offeredNames()); ok {
		msg += fmt.Sprintf(" Did you mean '%s'?", s)
	}
	return Failure(msg)
}

// callContext adds what the runtime gives every call: the read-files set
// when the caller's context has none, the merged metadata and, under an
// allow-list, the filter of the tool's own PATH patterns.
func (e *Executor) callContext(name string, call Call, tc Context) Context {
	if tc.readFiles == nil {
		tc.readFiles = e.readFiles
	}
	// Layers, not a merged copy: this runs on every call.
	if len(call.Metadata) > 0 {
		tc.meta = tc.meta.merge(call.Metadata)
	}
	// Always: an empty ID must not leave an outer call's id in place.
	tc.meta = tc.meta.withCallID(call.ID)
	if e.hasAllow {
		tc.offers = e.offerFilter
		// Always, like the id: an outer call's filter is not this tool's.
		tc.paths = e.allow.PathFilter(name)
	}
	return tc
}
