package tool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
)

// ErrNotAllowed is matched (errors.Is) by the Err of every result for a
// call the allow-list denied.
var ErrNotAllowed = errors.New("tool call not allowed")

// DeniedError is the Err of a result for a call the allow-list denied.
// Detail says why, for logs only: it may name patterns and paths, so it is
// never shown to the model.
type DeniedError struct {
	Tool   string
	Detail string
}

func (e *DeniedError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("tool %q not allowed", e.Tool)
	}
	return fmt.Sprintf("tool %q not allowed: %s", e.Tool, e.Detail)
}

// Is makes errors.Is(err, ErrNotAllowed) true.
func (e *DeniedError) Is(target error) bool { return target == ErrNotAllowed }

// Call is one tool call from a model response.
type Call struct {
	// ID is the provider's id for the call; it reaches the tool as the
	// metadata key MetaCallID.
	ID string
	// Name is the tool's name as the model wrote it.
	Name string
	// Input holds the arguments.
	Input Input
	// Metadata is the call's own metadata (a trace id, ...); it wins over
	// metadata added by executor options.
	Metadata map[string]string
}

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

// DefaultCancelGrace is how long the executor waits, after a call's context
// ends, for a tool that has not returned.
const DefaultCancelGrace = 5 * time.Second

// DefaultMaxResultBytes bounds the content of a result the executor gives
// back: more is of no use to a model and costs its context.
const DefaultMaxResultBytes = 1 << 20

// WithCancelGrace sets how long the executor waits, once a call's context
// has ended, for a tool that has not returned (DefaultCancelGrace by
// default). After that the call is answered as abandoned and the tool's
// goroutine is left to finish on its own; a negative grace waits for ever.
// Tools declaring NonInterruptible are always waited for.
func WithCancelGrace(d time.Duration) Option { return func(e *Executor) { e.cancelGrace = d } }

// WithMaxResultBytes bounds the content of every result (DefaultMaxResultBytes
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

// WithMetadata adds a metadata pair to every call. A call's own metadata
// with the same key wins.
func WithMetadata(key, value string) Option {
	return func(e *Executor) {
		if e.meta == nil {
			e.meta = make(map[string]string)
		}
		e.meta[key] = value
	}
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
// bytes by scanning (see [StringSubject]), so a denied call learns nothing
// of the schema.
type Executor struct {
	src       ToolSource
	mode      schema.Mode
	allow     permission.List
	hasAllow  bool
	permFuncs []PermissionFunc
	logger    *slog.Logger
	pre       []PreHook
	post      []PostHook
	meta      map[string]string
	readFiles *ReadFiles

	maxConc  int
	perBatch int
	pool     chan struct{}

	gates sync.Map // tool name -> *gateEntry

	offerFilter func(string) bool // e.Offers, made once
	cancelGrace time.Duration
	maxResult   int

	warnMu   sync.Mutex
	lastWarn string // the offer warnings last logged
}

type gateEntry struct {
	schema uintptr
	v      *schema.Validator
	err    error
}

// NewExecutor returns an executor over src (a *Registry or a catalog view).
func NewExecutor(src ToolSource, opts ...Option) *Executor {
	e := &Executor{src: src, mode: schema.Warn, readFiles: NewReadFiles(),
		cancelGrace: DefaultCancelGrace, maxResult: DefaultMaxResultBytes}
	for _, o := range opts {
		if o != nil {
			o(e)
		}
	}
	if e.maxConc >= 2 {
		e.pool = make(chan struct{}, e.maxConc)
	}
	e.offerFilter = e.Offers
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

// Definitions returns the definitions to send to the model: every tool of
// the source the allow-list offers, in the source's order. A tool without a
// schema is given an empty object schema.
func (e *Executor) Definitions() []Definition {
	if e.src == nil {
		return nil
	}
	var (
		defs  []Definition
		descs []permission.Descriptor
	)
	all := e.src.All()
	var hints []Hints
	for _, t := range all {
		if t == nil {
			continue
		}
		d, err := safeDefinition(t)
		if err != nil {
			e.log().Error("tool definition failed", "err", err)
			continue
		}
		if d.InputSchema == nil {
			d.InputSchema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		if d.Hints == nil {
			if hints == nil {
				hints = make([]Hints, 0, len(all)) // one allocation for every tool's
			}
			hints = append(hints, hintsFromBehaviours(t))
			d.Hints = &hints[len(hints)-1]
		}
		defs = append(defs, d)
		descs = append(descs, permission.Descriptor{Name: d.Name, Level: SideEffectOf(t)})
	}
	if !e.hasAllow {
		return defs
	}
	offer := e.allow.Offered(descs)
	e.warnOffer(offer.Warnings)
	out := defs[:0]
	for _, d := range defs {
		if offer.Has(d.Name) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		e.warnOffer(append(offer.Warnings, "the allow-list leaves no tool offered to the model"))
	}
	return out
}

// warnOffer logs the allow-list's warnings about what is offered, once for
// each change: Definitions is re-read every turn of an agent loop.
func (e *Executor) warnOffer(warnings []string) {
	key := strings.Join(warnings, "\n")
	e.warnMu.Lock()
	changed := key != e.lastWarn
	e.lastWarn = key
	e.warnMu.Unlock()
	if !changed {
		return
	}
	for _, w := range warnings {
		e.log().Warn("allow-list: " + w)
	}
}

func (e *Executor) offers(name string) bool {
	return !e.hasAllow || e.allow.Offers(name)
}

// Execute runs one call through the gate and returns its result. It never
// panics.
func (e *Executor) Execute(ctx context.Context, call Call, tc Context) (res Result) {
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
	case checksInput(def, t):
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
	res = e.run(ctx, t, interruptOf(def, t), name, call, tc, log)
	for _, h := range e.post {
		res = callPostHook(h, ctx, call, tc, res, name)
	}
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

// maxLoggedError bounds the text of a tool's error in the log: a tool can
// fail with its whole output.
const maxLoggedError = 2048

// clipped returns err for the log, its text cut to maxLoggedError bytes
// (at a UTF-8 boundary) with the length it had.
func clipped(err error) any {
	if err == nil {
		return nil
	}
	text := err.Error()
	if len(text) <= maxLoggedError {
		return err
	}
	cut := maxLoggedError
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("... (%d bytes in all)", len(text))
}

// panicOf finds the PanicError in err. It is called on every call's
// result: an error-free result costs no allocation.
func panicOf(err error) (*PanicError, bool) {
	if err == nil {
		return nil, false
	}
	var pe *PanicError
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

// unknown answers a call to a tool the source does not have. Under an
// allow-list, a name it does not offer is answered "not allowed", whether or
// not such a tool exists, so the answer tells nothing about other tools.
func (e *Executor) unknown(name string) Result {
	// Under a ceiling alone, an absent name is answered as a tool above the
	// ceiling is, so that the answer does not tell them apart.
	ceilingOnly := e.hasAllow && !e.allow.Restricted() && e.allow.Ceiling() != permission.Unknown
	if !e.offers(name) || ceilingOnly {
		return FailureWith(notAllowed(name), &DeniedError{Tool: name, Detail: "the tool is not on the allow-list"})
	}
	msg := fmt.Sprintf("Unknown tool '%s'.", schema.Echo(name))
	if s, ok := schema.Suggest(name, e.offeredNames()); ok {
		msg += fmt.Sprintf(" Did you mean '%s'?", s)
	}
	return Failure(msg)
}

func notAllowed(name string) string {
	return permission.NotAllowed(name)
}

func (e *Executor) offeredNames() []string {
	if e.src == nil {
		return nil
	}
	var names []string
	for _, t := range e.src.All() {
		if t == nil {
			continue
		}
		if d, err := safeDefinition(t); err == nil && e.Offers(d.Name) {
			names = append(names, d.Name)
		}
	}
	return names
}

// callContext adds what the runtime gives every call: the read-files set
// when the caller's context has none, the merged metadata and, under an
// allow-list, the filter of the tool's own PATH patterns.
func (e *Executor) callContext(name string, call Call, tc Context) Context {
	if tc.readFiles == nil {
		tc.readFiles = e.readFiles
	}
	// Layers, not a merged copy: this runs on every call.
	if len(e.meta) > 0 {
		tc.meta = tc.meta.Merge(e.meta)
	}
	if len(call.Metadata) > 0 {
		tc.meta = tc.meta.Merge(call.Metadata)
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

// checkPermission applies the allow-list and the caller's permission
// functions. It runs before the schema gate, so that a denied tool's schema
// errors cannot tell the model the tool exists.
func (e *Executor) checkPermission(ctx context.Context, t Tool, def Definition, name string, call Call, tc Context) (Result, bool) {
	if e.hasAllow {
		req := permission.Request{
			Tool:    name,
			WorkDir: tc.WorkDir(),
			Level:   sideEffectOf(def, t),
		}
		if e.allow.ReadsCall(name) {
			subj, declared, ok := subjectOf(def, t, call.Input)
			req.HasSubject, req.Judged = declared, ok
			req.Rule = ruleOf(def, t, call.Input, tc)
			if declared && ok {
				req.Subject = &subj
			}
		}
		if d := e.allow.Decide(req); !d.Allowed {
			return FailureWith(d.Reason, &DeniedError{Tool: name, Detail: d.Detail}), true
		}
	}
	for _, f := range e.permFuncs {
		if err := callPermFunc(f, ctx, t, call, tc); err != nil {
			return FailureWith(err.Error(), err), true
		}
	}
	return Result{}, false
}

// gate applies the schema gate to a call per the executor's mode (Warn or
// Enforce); blocked is true when the call must not run. defErr is why the
// tool's definition could not be read, if it could not.
func (e *Executor) gate(def Definition, defErr error, name string, in Input, log callLog) (Result, bool) {
	if err := defErr; err != nil {
		log.Error("tool definition failed", "err", err)
		return FailureWith(fmt.Sprintf("Tool '%s' is not available: its definition failed.", name), err), true
	}
	v, err := e.validator(name, def.InputSchema)
	if err != nil {
		// A schema that does not compile checks nothing: under Enforce
		// that is an error, not a pass.
		if e.mode == schema.Enforce {
			log.Error("schema gate refused the call: the tool's schema does not compile", "err", err)
			return FailureWith(schemaErrorMessage(name, err), err), true
		}
		log.Warn("schema gate skipped: the tool's schema does not compile; running the tool anyway (mode warn)", "err", err)
		return Result{}, false
	}
	if v == nil {
		return Result{}, false
	}
	vs := v.Validate(in.gateArgs())
	if len(vs) == 0 {
		return Result{}, false
	}
	if e.mode == schema.Enforce {
		log.Warn("schema gate rejected the call", "violations", len(vs), "err", vs)
		return FailureWith(vs.Error(), vs), true
	}
	log.Warn("schema gate found violations; running the tool anyway (mode warn)", "violations", len(vs), "err", vs)
	return Result{}, false
}

// schemaErrorMessage is the result text of a call refused under
// schema.Enforce because the tool's input schema does not compile (err, as
// schema.Compile returns it):
//
//	Tool 'X' cannot be called: its input schema is broken (the schema is not a valid JSON schema: at /properties/a/type: ...). This is a fault of the tool, not of the call. The tool was not executed.
func schemaErrorMessage(name string, err error) string {
	return fmt.Sprintf("Tool '%s' cannot be called: its input schema is broken (%s). This is a fault of the tool, not of the call. The tool was not executed.",
		name, strings.TrimPrefix(err.Error(), "schema: "))
}

// validator returns the compiled gate for a tool's schema, cached while the
// tool returns the same schema map.
func (e *Executor) validator(name string, s map[string]any) (*schema.Validator, error) {
	if s == nil {
		return nil, nil
	}
	id := reflect.ValueOf(s).Pointer()
	if c, ok := e.gates.Load(name); ok {
		if g := c.(*gateEntry); g.schema == id {
			return g.v, g.err
		}
	}
	v, err := compileSafely(s)
	e.gates.Store(name, &gateEntry{schema: id, v: v, err: err})
	return v, err
}

func compileSafely(s map[string]any) (v *schema.Validator, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("schema compile panicked: %v", p)
		}
	}()
	return schema.Compile(s)
}

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
		return FailureWith(fmt.Sprintf("Tool '%s' did not finish: %s, and the tool did not stop within %s. Its state is unknown.", name, cancelWord(err), e.cancelGrace), &AbandonedError{Tool: name, Cause: err})
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

// limit cuts a result's content to the executor's limit, at a UTF-8
// boundary, and says so after the cut.
func (e *Executor) limit(name string, res Result) Result {
	if e.maxResult <= 0 || len(res.Content) <= e.maxResult {
		return res
	}
	cut := e.maxResult
	for cut > 0 && !utf8.RuneStart(res.Content[cut]) {
		cut--
	}
	res.Content = res.Content[:cut] + fmt.Sprintf("\n[Tool '%s' returned %d bytes; the output was cut at %d.]", name, len(res.Content), cut)
	res.Parts = limitParts(res.Parts, e.maxResult, res.Content)
	return res
}

// limitParts bounds the text of parts as limit bounds Content: once the
// text parts reach max bytes, the rest of the text is replaced by one text
// part holding the cut Content's marker; images, audio and blobs are kept
// (their tools bound them).
func limitParts(parts []Part, max int, cutContent string) []Part {
	if len(parts) == 0 {
		return parts
	}
	out := make([]Part, 0, len(parts)+1)
	used, cut := 0, false
	for _, p := range parts {
		isText := p.Kind == TextPart || (p.Kind == ResourcePart && p.Data == nil)
		switch {
		case !isText:
			out = append(out, p)
		case cut:
		case used+len(p.Text) <= max:
			used += len(p.Text)
			out = append(out, p)
		default:
			cut = true
			n := max - used
			for n > 0 && !utf8.RuneStart(p.Text[n]) {
				n--
			}
			p.Text = p.Text[:n]
			used = max
			out = append(out, p)
		}
	}
	if cut {
		if i := strings.LastIndex(cutContent, "\n[Tool '"); i >= 0 {
			out = append(out, TextOf(cutContent[i+1:]))
		}
	}
	return out
}

// AbandonedError is the Err of a result for a call whose tool did not
// return within the grace period after its context ended. The tool's
// goroutine is left running; the executor serves the next call.
type AbandonedError struct {
	Tool  string
	Cause error
}

func (e *AbandonedError) Error() string {
	return fmt.Sprintf("tool %q abandoned after its call ended: %v", e.Tool, e.Cause)
}

// Unwrap returns the context's error.
func (e *AbandonedError) Unwrap() error { return e.Cause }

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

// ExecuteBatch runs the calls of one model response and returns their
// results in call order. The calls run in parallel only when parallelism is
// enabled (WithConcurrency), there are two or more of them, and every tool
// is concurrency-safe with an interrupt behaviour that can share a worker;
// otherwise they run one after another. When ctx is cancelled, calls that
// have not started are answered as cancelled. A tool may run a batch of its
// own through the same executor: when the pool is full, that batch's calls
// run one after another on the slot the tool already holds.
func (e *Executor) ExecuteBatch(ctx context.Context, calls []Call, tc Context) []Result {
	results := make([]Result, len(calls))
	if !e.parallel(calls) {
		for i, c := range calls {
			results[i] = e.Execute(ctx, c, tc)
		}
		return results
	}
	slots := make(chan struct{}, e.perBatch)
	// A batch run by a call that holds a slot of the pool (a tool running
	// a batch of its own) must not wait for a slot: the outer calls may
	// hold them all, waiting for this batch. Its calls take a free slot
	// when there is one and otherwise run here, on the caller's.
	nested, inSlot := ctx.Value(heldSlot{e}) != nil, ctx
	if !nested {
		inSlot = context.WithValue(ctx, heldSlot{e}, true)
	}
	var wg sync.WaitGroup
	for i, c := range calls {
		if !acquire(ctx, slots) {
			results[i] = cancelled(c, ctx.Err())
			continue
		}
		if nested && !tryAcquire(e.pool) {
			results[i] = e.Execute(ctx, c, tc)
			<-slots
			continue
		}
		if !nested && !acquire(ctx, e.pool) {
			<-slots
			results[i] = cancelled(c, ctx.Err())
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-e.pool; <-slots }()
			results[i] = e.Execute(inSlot, c, tc)
		}()
	}
	wg.Wait()
	return results
}

// heldSlot marks the context of a call that holds a slot of e's pool.
type heldSlot struct{ e *Executor }

func tryAcquire(sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	default:
		return false
	}
}

func acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func cancelled(c Call, err error) Result {
	return FailureWith(fmt.Sprintf("Tool '%s' was not executed: %s.", schema.Echo(NormalizeName(c.Name)), cancelWord(err)), err)
}

// parallel decides whether a batch may run in parallel.
func (e *Executor) parallel(calls []Call) bool {
	if e.pool == nil || len(calls) < 2 {
		return false
	}
	for _, c := range calls {
		t, ok := e.find(NormalizeName(c.Name))
		if !ok {
			return false
		}
		if d, _ := safeDefinition(t); concurrencyOf(d, t) != Safe || !interruptOf(d, t).SharesWorker() {
			return false
		}
	}
	return true
}

// Parallel reports whether ExecuteBatch would run these calls in parallel.
func (e *Executor) Parallel(calls []Call) bool { return e.parallel(calls) }
