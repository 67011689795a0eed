package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/schema"
)

// readSchema is the schema of a Read-like tool used across these tests.
var readSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"file_path": map[string]any{"type": "string"},
		"limit":     map[string]any{"type": "integer"},
		"mode":      map[string]any{"type": "string", "enum": []any{"text", "bytes"}},
	},
	"required":             []any{"file_path"},
	"additionalProperties": false,
}

// readTool echoes what it read through the Input accessors.
func readTool() Tool {
	return New(Definition{Name: "Read", Description: "Reads a file.", InputSchema: readSchema},
		func(_ context.Context, in Input, _ Context) Result {
			p, err := Param[string](in, "file_path")
			if err != nil {
				return FailureFrom(err)
			}
			limit, err := ParamOr[int](in, "limit", 2000)
			if err != nil {
				return FailureFrom(err)
			}
			return Success(fmt.Sprintf("read %s limit %d", p, limit))
		})
}

func newTestExecutor(t *testing.T, tools []Tool, opts ...Option) (*Executor, *logBuffer) {
	t.Helper()
	r := NewRegistry()
	for _, tl := range tools {
		if err := r.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	logs := &logBuffer{}
	opts = append([]Option{WithLogger(slog.New(logs))}, opts...)
	return NewExecutor(r, opts...), logs
}

func input(t *testing.T, js string) Input {
	t.Helper()
	in, err := DecodeInput([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestExecutorGate(t *testing.T) {
	const notRun = " The tool was not executed."
	tests := []struct {
		name  string
		mode  schema.Mode
		call  string
		args  string
		want  Result
		level slog.Level // the highest level logged, -100 when nothing above DEBUG
	}{
		{name: "good call", mode: schema.Enforce, call: "Read", args: `{"file_path":"/a"}`,
			want: Success("read /a limit 2000"), level: -100},
		{name: "functions prefix", mode: schema.Enforce, call: "functions.Read", args: `{"file_path":"/a","limit":3.0}`,
			want: Success("read /a limit 3"), level: -100},
		{name: "missing required", mode: schema.Enforce, call: "Read", args: `{}`,
			want: Failure("Parameter 'file_path' is required (string)." + notRun), level: slog.LevelWarn},
		{name: "null is missing", mode: schema.Enforce, call: "Read", args: `{"file_path":null}`,
			want: Failure("Parameter 'file_path' is required (string)." + notRun), level: slog.LevelWarn},
		{name: "typo", mode: schema.Enforce, call: "Read", args: `{"file_paht":"/a","file_path":"/b"}`,
			want: Failure("Unknown parameter 'file_paht'. Did you mean 'file_path'?" + notRun), level: slog.LevelWarn},
		{name: "wrong type", mode: schema.Enforce, call: "Read", args: `{"file_path":"/a","limit":3.5}`,
			want: Failure("Parameter 'limit' must be an integer." + notRun), level: slog.LevelWarn},
		{name: "enum", mode: schema.Enforce, call: "Read", args: `{"file_path":"/a","mode":"lines"}`,
			want: Failure("Parameter 'mode' must be one of [text, bytes], but was 'lines'." + notRun), level: slog.LevelWarn},
		{name: "string 10 rejected under enforce", mode: schema.Enforce, call: "Read", args: `{"file_path":"/a","limit":"10"}`,
			want: Failure("Parameter 'limit' must be an integer." + notRun), level: slog.LevelWarn},
		{name: "string 10 coerced under warn", mode: schema.Warn, call: "Read", args: `{"file_path":"/a","limit":"10"}`,
			want: Success("read /a limit 10"), level: slog.LevelWarn},
		{name: "warn runs the tool", mode: schema.Warn, call: "Read", args: `{}`,
			want: Failure("Parameter 'file_path' is required (string)." + notRun), level: slog.LevelWarn},
		{name: "off skips the gate", mode: schema.Off, call: "Read", args: `{"file_path":"/a","limit":"10","extra":1}`,
			want: Success("read /a limit 10"), level: -100},
		{name: "unknown tool", mode: schema.Enforce, call: "Raed", args: `{}`,
			want: Failure("Unknown tool 'Raed'. Did you mean 'Read'?"), level: slog.LevelWarn},
		{name: "unknown tool far", mode: schema.Enforce, call: "Zzzzzz", args: `{}`,
			want: Failure("Unknown tool 'Zzzzzz'."), level: slog.LevelWarn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, logs := newTestExecutor(t, []Tool{readTool()}, WithSchemaMode(tt.mode))
			got := e.Execute(context.Background(), Call{ID: "c1", Name: tt.call, Input: input(t, tt.args)}, NewContext())
			if diff := cmp.Diff(tt.want, got, cmpResult); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if lvl := logs.maxLevel(); lvl != tt.level {
				t.Errorf("highest log level = %v, want %v; logs:\n%s", lvl, tt.level, logs)
			}
		})
	}
}

// cmpResult compares results by what the model sees.
var cmpResult = cmp.Comparer(func(a, b Result) bool { return a.Content == b.Content && a.IsError == b.IsError })

func TestEnforceResultCarriesViolations(t *testing.T) {
	e, _ := newTestExecutor(t, []Tool{readTool()}, WithSchemaMode(schema.Enforce))
	res := e.Execute(context.Background(), Call{Name: "Read", Input: input(t, `{"limit":"x","mode":1}`)}, Context{})
	var vs schema.Violations
	if !errors.As(res.Err, &vs) || len(vs) != 3 {
		t.Fatalf("Err = %#v, want 3 schema violations", res.Err)
	}
	if got := strings.Count(res.Content, "\n"); got != 2 {
		t.Errorf("content has %d line breaks, want one violation per line:\n%s", got, res.Content)
	}
}

func TestPermissionBeforeSchema(t *testing.T) {
	var order []string
	deny := WithPermission(func(_ context.Context, _ Tool, c Call, _ Context) error {
		order = append(order, "permission")
		return errors.New("Tool 'Read' is not allowed.")
	})
	pre := WithPreHook(func(context.Context, Call, Context) error {
		order = append(order, "pre")
		return nil
	})
	e, _ := newTestExecutor(t, []Tool{readTool()}, WithSchemaMode(schema.Enforce), deny, pre)
	// The arguments are wrong in every way; the model must hear only the denial.
	res := e.Execute(context.Background(), Call{Name: "Read", Input: input(t, `{"file_paht":1}`)}, Context{})
	if diff := cmp.Diff(Failure("Tool 'Read' is not allowed."), res, cmpResult); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"permission"}, order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestHooks(t *testing.T) {
	var seen []string
	e, _ := newTestExecutor(t, []Tool{readTool()},
		WithPreHook(func(_ context.Context, c Call, tc Context) error {
			seen = append(seen, "pre1:"+tc.CallID())
			return nil
		}),
		WithPreHook(func(_ context.Context, c Call, _ Context) error {
			seen = append(seen, "pre2")
			if p, _ := c.Input.Get("file_path"); p == "/secret" {
				return errors.New("reading /secret is blocked by policy")
			}
			return nil
		}),
		WithPostHook(func(_ context.Context, _ Call, _ Context, r Result) Result {
			seen = append(seen, "post")
			r.Content = strings.ToUpper(r.Content)
			return r
		}),
	)
	res := e.Execute(context.Background(), Call{ID: "id7", Name: "Read", Input: input(t, `{"file_path":"/a"}`)}, Context{})
	if diff := cmp.Diff(Success("READ /A LIMIT 2000"), res, cmpResult); diff != "" {
		t.Errorf("rewritten result (-want +got):\n%s", diff)
	}
	res = e.Execute(context.Background(), Call{Name: "Read", Input: input(t, `{"file_path":"/secret"}`)}, Context{})
	if diff := cmp.Diff(Failure("Tool 'Read' was not executed: reading /secret is blocked by policy"), res, cmpResult); diff != "" {
		t.Errorf("blocked result (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"pre1:id7", "pre2", "post", "pre1:", "pre2"}, seen); diff != "" {
		t.Errorf("hook order (-want +got):\n%s", diff)
	}
}

func TestPanicsBecomeResults(t *testing.T) {
	boom := New(Definition{Name: "Boom"}, func(context.Context, Input, Context) Result { panic("kaboom") })
	raw := rawTool{name: "Raw", exec: func() Result { panic(errors.New("raw kaboom")) }}
	e, logs := newTestExecutor(t, []Tool{boom, raw, readTool()},
		WithPostHook(func(_ context.Context, c Call, _ Context, r Result) Result {
			if c.Name == "Read" {
				panic("post-hook kaboom")
			}
			return r
		}))
	for _, tc := range []struct{ name, want string }{
		{"Boom", "Tool 'Boom' failed with an internal error: kaboom"},
		{"Raw", "Tool 'Raw' failed with an internal error: raw kaboom"},
		{"Read", "Tool 'Read post-hook' failed with an internal error: post-hook kaboom"},
	} {
		res := e.Execute(context.Background(), Call{Name: tc.name, Input: input(t, `{"file_path":"/a"}`)}, Context{})
		if diff := cmp.Diff(Failure(tc.want), res, cmpResult); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
		var pe *panicError
		if !errors.As(res.Err, &pe) || len(pe.Stack) == 0 {
			t.Errorf("%s: Err = %v, want a *panicError with a stack", tc.name, res.Err)
		}
	}
	if logs.maxLevel() != slog.LevelError {
		t.Errorf("a panic must be logged at ERROR; logs:\n%s", logs)
	}
	if text := logs.String(); !strings.Contains(text, "tool panicked") || !strings.Contains(text, "kaboom") {
		t.Errorf("the log must say the tool panicked, and with what; logs:\n%s", text)
	}
	// The executor keeps serving.
	if res := e.Execute(context.Background(), Call{Name: "Boom"}, Context{}); !res.IsError {
		t.Error("second call to a panicking tool did not give an error result")
	}
}

// rawTool implements Tool directly, without New's recover.
type rawTool struct {
	name string
	def  Definition
	exec func() Result
	conc Concurrency
	intr Interrupt
}

func (r rawTool) Definition() Definition {
	d := r.def
	d.Name = r.name
	d.Concurrency, d.Interrupt = r.conc, r.intr
	return d
}
func (r rawTool) Execute(context.Context, Input, Context) Result { return r.exec() }

func TestBadSchemas(t *testing.T) {
	// A schema that does not compile checks nothing: under Enforce the call
	// is refused with the tool's name and the schema's problem, under Warn
	// it is logged and runs, under Off it runs.
	run := func() Result { return Success("ran") }
	tools := []Tool{
		rawTool{name: "NoSchema", exec: run},
		rawTool{name: "BadRequired", def: Definition{InputSchema: map[string]any{"type": "object", "required": "x"}}, exec: run},
		rawTool{name: "BadProps", def: Definition{InputSchema: map[string]any{"properties": []any{1}}}, exec: run},
		rawTool{name: "BadType", def: Definition{InputSchema: map[string]any{"properties": map[string]any{"x": map[string]any{"type": "strng"}}}}, exec: run},
		rawTool{name: "RemoteRef", def: Definition{InputSchema: map[string]any{"properties": map[string]any{"x": map[string]any{"$ref": "https://example.com/x.json"}}}}, exec: run},
	}
	wantEnforce := map[string]string{
		"NoSchema":    "ran",
		"BadRequired": `Tool 'BadRequired' cannot be called: its input schema is broken ("required" must be a list of strings, got string). This is a fault of the tool, not of the call. The tool was not executed.`,
		"BadProps":    `Tool 'BadProps' cannot be called: its input schema is broken ("properties" must be an object, got array). This is a fault of the tool, not of the call. The tool was not executed.`,
		"BadType":     "Tool 'BadType' cannot be called: its input schema is broken (the schema is not a valid JSON schema: at /properties/x/type: ",
		"RemoteRef":   "Tool 'RemoteRef' cannot be called: its input schema is broken (the schema does not compile: ",
	}
	for _, mode := range []schema.Mode{schema.Enforce, schema.Warn, schema.Off} {
		e, logs := newTestExecutor(t, tools, WithSchemaMode(mode))
		for _, tl := range tools {
			n := tl.Definition().Name
			res := e.Execute(context.Background(), Call{Name: n, Input: input(t, `{"x":1}`)}, Context{})
			want := wantEnforce[n]
			if mode != schema.Enforce {
				want = "ran"
			}
			if !strings.HasPrefix(res.Content, want) || res.IsError != (want != "ran") {
				t.Errorf("%v %s: got %q, want %q", mode, n, res.Content, want)
			}
		}
		switch mode {
		case schema.Enforce:
			if !strings.Contains(logs.String(), "ERROR schema gate refused the call: the tool's schema does not compile tool=BadType") {
				t.Errorf("enforce: the refusal must be logged; logs:\n%s", logs)
			}
		case schema.Warn:
			if !strings.Contains(logs.String(), "WARN schema gate skipped: the tool's schema does not compile; running the tool anyway (mode warn) tool=BadProps") {
				t.Errorf("warn: a schema that does not compile must be logged; logs:\n%s", logs)
			}
		case schema.Off:
			if strings.Contains(logs.String(), "schema") {
				t.Errorf("off: the gate must ignore the schema; logs:\n%s", logs)
			}
		}
		defs := e.Definitions()
		if len(defs) != len(tools) || defs[0].InputSchema == nil {
			t.Errorf("Definitions must give every tool a schema: %+v", defs)
		}
	}
}

func TestRegisterLogsBadSchema(t *testing.T) {
	logs := &logBuffer{}
	old := slog.Default()
	slog.SetDefault(slog.New(logs))
	defer slog.SetDefault(old)
	r := NewRegistry()
	bad := rawTool{name: "Bad", def: Definition{InputSchema: map[string]any{"properties": map[string]any{"x": map[string]any{"type": "strng"}}}}}
	good := rawTool{name: "Good", def: Definition{InputSchema: map[string]any{"properties": map[string]any{"x": map[string]any{"type": "string"}}}}}
	for _, tl := range []Tool{bad, good} {
		if err := r.Register(tl); err != nil {
			t.Fatalf("Register(%s): %v", tl.Definition().Name, err)
		}
	}
	got := logs.String()
	if !strings.Contains(got, "WARN tool registered with an input schema that does not compile; under schema enforce every call to it is refused tool=Bad err=") {
		t.Errorf("the bad schema must be logged at registration; logs:\n%s", got)
	}
	if strings.Contains(got, "tool=Good") {
		t.Errorf("a good schema must not be logged; logs:\n%s", got)
	}
}

func TestMetadataReachesTheTool(t *testing.T) {
	var got map[string]string
	probe := New(Definition{Name: "Probe"}, func(_ context.Context, _ Input, tc Context) Result {
		got = tc.Metadata()
		if tc.ReadFiles() == nil {
			return Failure("no read-files set")
		}
		return Success("ok")
	})
	e, _ := newTestExecutor(t, []Tool{probe})
	res := e.Execute(context.Background(), Call{ID: "call-9", Name: "Probe", Metadata: map[string]string{"trace_id": "from-call"}}, Context{})
	if res.IsError {
		t.Fatal(res.Content)
	}
	want := map[string]string{"trace_id": "from-call", "call_id": "call-9"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
}

func TestReadFilesSharedAcrossCallsOfAZeroContext(t *testing.T) {
	var sets []*ReadFiles
	probe := New(Definition{Name: "Probe"}, func(_ context.Context, _ Input, tc Context) Result {
		sets = append(sets, tc.ReadFiles())
		return Success("")
	})
	e, _ := newTestExecutor(t, []Tool{probe})
	e.Execute(context.Background(), Call{Name: "Probe"}, Context{})
	e.Execute(context.Background(), Call{Name: "Probe"}, Context{})
	run := NewContext()
	e.Execute(context.Background(), Call{Name: "Probe"}, run)
	if sets[0] == nil || sets[0] != sets[1] || sets[2] != run.ReadFiles() {
		t.Errorf("read-files sets: %p %p %p (run %p)", sets[0], sets[1], sets[2], run.ReadFiles())
	}
}

func TestCancelledBeforeRun(t *testing.T) {
	ran := false
	tl := New(Definition{Name: "T"}, func(context.Context, Input, Context) Result { ran = true; return Success("") })
	e, _ := newTestExecutor(t, []Tool{tl})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := e.Execute(ctx, Call{Name: "T"}, Context{})
	if ran || res.Content != "Tool 'T' was not executed: the call was cancelled." {
		t.Errorf("ran=%v result=%+v", ran, res)
	}
}

func TestNilSourceAndOddNames(t *testing.T) {
	e := NewExecutor(nil, WithLogger(slog.New(&logBuffer{})))
	for _, name := range []string{"", "functions.", "a\x00b", strings.Repeat("x", 10000), "Read\n"} {
		res := e.Execute(context.Background(), Call{Name: name}, Context{})
		if !res.IsError || !strings.HasPrefix(res.Content, "Unknown tool '") {
			t.Errorf("name %.20q: %+v", name, res)
		}
	}
	if d := e.Definitions(); d != nil {
		t.Errorf("Definitions of a nil source = %v", d)
	}
}

// overlap records how many tool calls run at once.
type overlap struct {
	active, max atomic.Int32
}

func (o *overlap) enter() {
	n := o.active.Add(1)
	for {
		m := o.max.Load()
		if n <= m || o.max.CompareAndSwap(m, n) {
			return
		}
	}
}

func (o *overlap) leave() { o.active.Add(-1) }

// gatedTool blocks each call until release is closed, recording overlap.
func gatedTool(name string, conc Concurrency, intr Interrupt, o *overlap, release <-chan struct{}) Tool {
	return rawTool{name: name, conc: conc, intr: intr, exec: func() Result {
		o.enter()
		defer o.leave()
		<-release
		return Success(name)
	}}
}

// waitBound is how long a test waits for what should happen soon: a tenth
// of the time the test has left, so that load, which only makes things
// slower, cannot fail the test, while a hang is still reported before go
// test's own timeout; a minute where the test has no deadline.
func waitBound(t *testing.T) time.Duration {
	if d, ok := t.Deadline(); ok {
		return time.Until(d) / 10
	}
	return time.Minute
}

// waitFor polls cond for up to waitBound: a deadline for a broken test,
// not a timing assertion.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitBound(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestBatchDecision(t *testing.T) {
	var o overlap
	never := make(chan struct{})
	close(never)
	tools := []Tool{
		gatedTool("SafeA", Safe, Cooperative, &o, never),
		gatedTool("SafeB", Safe, NonInterruptible, &o, never),
		gatedTool("Seq", Sequential, Cooperative, &o, never),
		gatedTool("SafeExternal", Safe, ExternallyTerminated, &o, never),
	}
	tests := []struct {
		name  string
		opts  []Option
		calls []string
		want  bool
	}{
		{"disabled by default", nil, []string{"SafeA", "SafeB"}, false},
		{"all safe", []Option{WithConcurrency(4, 4)}, []string{"SafeA", "SafeB", "functions.SafeA"}, true},
		{"one call", []Option{WithConcurrency(4, 4)}, []string{"SafeA"}, false},
		{"one sequential", []Option{WithConcurrency(4, 4)}, []string{"SafeA", "Seq"}, false},
		{"one unknown", []Option{WithConcurrency(4, 4)}, []string{"SafeA", "Nope"}, false},
		{"thread interrupt", []Option{WithConcurrency(4, 4)}, []string{"SafeA", "SafeThread"}, false},
		{"externally terminated", []Option{WithConcurrency(4, 4)}, []string{"SafeA", "SafeExternal"}, false},
		{"max below two", []Option{WithConcurrency(1, 1)}, []string{"SafeA", "SafeB"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newTestExecutor(t, tools, tt.opts...)
			var calls []Call
			for _, n := range tt.calls {
				calls = append(calls, Call{Name: n})
			}
			if got := e.Parallel(calls); got != tt.want {
				t.Errorf("Parallel = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBatchRunsInParallelAndKeepsOrder(t *testing.T) {
	var o overlap
	release := make(chan struct{})
	var tools []Tool
	var calls []Call
	for i := range 4 {
		n := fmt.Sprintf("T%d", i)
		tools = append(tools, gatedTool(n, Safe, Cooperative, &o, release))
		calls = append(calls, Call{Name: n})
	}
	e, _ := newTestExecutor(t, tools, WithConcurrency(8, 4))
	done := make(chan []Result)
	go func() { done <- e.ExecuteBatch(context.Background(), calls, Context{}) }()
	// All four are inside their tools at the same time: they overlap.
	waitFor(t, func() bool { return o.active.Load() == 4 })
	close(release)
	results := <-done
	var got []string
	for _, r := range results {
		got = append(got, r.Content)
	}
	if diff := cmp.Diff([]string{"T0", "T1", "T2", "T3"}, got); diff != "" {
		t.Errorf("results out of call order (-want +got):\n%s", diff)
	}
}

func TestBatchPerBatchCap(t *testing.T) {
	var o overlap
	release := make(chan struct{})
	tl := gatedTool("T", Safe, Cooperative, &o, release)
	e, _ := newTestExecutor(t, []Tool{tl}, WithConcurrency(8, 2))
	calls := make([]Call, 6)
	for i := range calls {
		calls[i] = Call{Name: "T"}
	}
	done := make(chan []Result)
	go func() { done <- e.ExecuteBatch(context.Background(), calls, Context{}) }()
	waitFor(t, func() bool { return o.active.Load() == 2 })
	close(release)
	<-done
	if got := o.max.Load(); got != 2 {
		t.Errorf("max overlap = %d, want the per-batch cap 2", got)
	}
}

func TestGlobalPoolAcrossBatches(t *testing.T) {
	var o overlap
	release := make(chan struct{})
	tl := gatedTool("T", Safe, Cooperative, &o, release)
	e, _ := newTestExecutor(t, []Tool{tl}, WithConcurrency(3, 3))
	calls := []Call{{Name: "T"}, {Name: "T"}, {Name: "T"}}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); e.ExecuteBatch(context.Background(), calls, Context{}) }()
	}
	waitFor(t, func() bool { return o.active.Load() == 3 })
	close(release)
	wg.Wait()
	if got := o.max.Load(); got != 3 {
		t.Errorf("max overlap across two batches = %d, want the global cap 3", got)
	}
}

func TestSequentialBatchNeverOverlaps(t *testing.T) {
	var o overlap
	open := make(chan struct{})
	close(open)
	e, _ := newTestExecutor(t, []Tool{
		gatedTool("Safe", Safe, Cooperative, &o, open),
		gatedTool("Seq", Sequential, Cooperative, &o, open),
	}, WithConcurrency(4, 4))
	res := e.ExecuteBatch(context.Background(), []Call{{Name: "Safe"}, {Name: "Seq"}, {Name: "Safe"}}, Context{})
	if o.max.Load() != 1 || len(res) != 3 || res[1].Content != "Seq" {
		t.Errorf("max overlap %d, results %+v", o.max.Load(), res)
	}
}

func TestBatchCancellationStopsWaitingWork(t *testing.T) {
	var o overlap
	release := make(chan struct{})
	tl := gatedTool("T", Safe, Cooperative, &o, release)
	e, _ := newTestExecutor(t, []Tool{tl}, WithConcurrency(2, 1))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan []Result)
	go func() { done <- e.ExecuteBatch(ctx, []Call{{Name: "T"}, {Name: "T"}, {Name: "T"}}, Context{}) }()
	waitFor(t, func() bool { return o.active.Load() == 1 })
	cancel()
	close(release)
	res := <-done
	if res[0].IsError {
		t.Errorf("the running call should finish: %+v", res[0])
	}
	for i, r := range res[1:] {
		if !r.IsError || !strings.Contains(r.Content, "cancelled") {
			t.Errorf("waiting call %d = %+v, want a cancelled result", i+1, r)
		}
	}
}

// logBuffer is a slog handler that keeps records for assertions.
type logBuffer struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logBuffer) Enabled(context.Context, slog.Level) bool { return true }
func (l *logBuffer) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.records = append(l.records, r.Clone())
	return nil
}
func (l *logBuffer) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logBuffer) WithGroup(string) slog.Handler      { return l }

func (l *logBuffer) maxLevel() slog.Level {
	l.mu.Lock()
	defer l.mu.Unlock()
	lvl := slog.Level(-100)
	for _, r := range l.records {
		if r.Level > slog.LevelDebug && r.Level > lvl {
			lvl = r.Level
		}
	}
	return lvl
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b bytes.Buffer
	for _, r := range l.records {
		fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
		r.Attrs(func(a slog.Attr) bool {
			fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
			return true
		})
		b.WriteByte('\n')
	}
	return b.String()
}

func TestResultBound(t *testing.T) {
	big := New(Definition{Name: "Big"}, func(context.Context, Input, Context) Result {
		return Success(strings.Repeat("é", 10)) // 20 bytes, 2 per rune
	})
	e, _ := newTestExecutor(t, []Tool{big}, WithMaxResultBytes(7))
	res := e.Execute(context.Background(), Call{Name: "Big"}, Context{})
	want := "ééé\n[Tool 'Big' returned 20 bytes; the output was cut at 6.]"
	if res.Content != want {
		t.Errorf("content %q, want %q (cut at a rune boundary)", res.Content, want)
	}
	unbounded, _ := newTestExecutor(t, []Tool{big}, WithMaxResultBytes(0))
	if res := unbounded.Execute(context.Background(), Call{Name: "Big"}, Context{}); len(res.Content) != 20 {
		t.Errorf("unbounded: %q", res.Content)
	}
}

func TestCancelGrace(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	stuck := func(intr Interrupt) Tool {
		return rawTool{name: "Stuck" + intr.String(), intr: intr, exec: func() Result {
			started <- struct{}{}
			<-release
			return Success("late")
		}}
	}
	e, logs := newTestExecutor(t, []Tool{stuck(Cooperative), stuck(NonInterruptible)}, WithCancelGrace(10*time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Cancelled before it ran: never started.
	if res := e.Execute(ctx, Call{Name: "Stuckcooperative"}, Context{}); res.Content != "Tool 'Stuckcooperative' was not executed: the call was cancelled." {
		t.Errorf("%+v", res)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	res := e.Execute(ctx, Call{Name: "Stuckcooperative"}, Context{})
	var ab *abandonedError
	if !errors.As(res.Err, &ab) || !errors.Is(res.Err, context.Canceled) {
		t.Errorf("abandoned call: %+v", res)
	}
	if logs.maxLevel() != slog.LevelError {
		t.Errorf("an abandoned tool must be logged at ERROR:\n%s", logs)
	}
	// A non-interruptible tool is waited for.
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
		time.Sleep(30 * time.Millisecond) // past the grace: the executor must still wait
		close(release)
	}()
	if res := e.Execute(ctx, Call{Name: "Stucknon-interruptible"}, Context{}); res.Content != "late" {
		t.Errorf("non-interruptible: %+v", res)
	}
}

// TestNestedBatchCannotExhaustThePool: a tool that runs a batch of its own
// through the same executor (a sub-agent, say) while its outer batch holds
// every slot of the global pool still finishes: the inner calls run on the
// slot their caller holds, one after another, instead of waiting for a
// slot that only they could free.
func TestNestedBatchCannotExhaustThePool(t *testing.T) {
	var e *Executor
	var inner atomic.Int32
	leaf := New(Definition{Name: "Leaf", Concurrency: Safe, Interrupt: Cooperative}, func(context.Context, Input, Context) Result {
		inner.Add(1)
		return Success("leaf")
	})
	var o overlap
	release := make(chan struct{})
	outer := New(Definition{Name: "Outer", Concurrency: Safe, Interrupt: Cooperative}, func(ctx context.Context, _ Input, tc Context) Result {
		o.enter()
		<-release // every outer call holds its slot before any goes on
		o.leave()
		var out []string
		for _, r := range e.ExecuteBatch(ctx, []Call{{Name: "Leaf"}, {Name: "Leaf"}, {Name: "Leaf"}}, tc) {
			out = append(out, r.Content)
		}
		return Success(strings.Join(out, ","))
	})
	e, _ = newTestExecutor(t, []Tool{leaf, outer}, WithConcurrency(2, 2))
	done := make(chan []Result, 1)
	go func() {
		done <- e.ExecuteBatch(context.Background(), []Call{{Name: "Outer"}, {Name: "Outer"}}, Context{})
	}()
	waitFor(t, func() bool { return o.active.Load() == 2 })
	close(release)
	select {
	case results := <-done:
		for i, r := range results {
			if r.IsError || r.Content != "leaf,leaf,leaf" {
				t.Errorf("outer call %d: %+v", i, r)
			}
		}
		if n := inner.Load(); n != 6 {
			t.Errorf("%d inner calls ran, want 6", n)
		}
	case <-time.After(waitBound(t)):
		t.Fatal("nested batches deadlocked on the global pool")
	}
}

// TestLongErrorsAreClippedInTheLog: a tool failing with its whole output
// (or a flood of violations) gives a bounded log line.
func TestLongErrorsAreClippedInTheLog(t *testing.T) {
	huge := strings.Repeat("é", 100000)
	long := New(Definition{Name: "Long"}, func(context.Context, Input, Context) Result {
		return FailureFrom(errors.New(huge))
	})
	e, logs := newTestExecutor(t, []Tool{long})
	res := e.Execute(context.Background(), Call{Name: "Long"}, Context{})
	if !res.IsError {
		t.Fatal("want an error result")
	}
	text := logs.String()
	if len(text) > 4*maxLoggedError || !strings.Contains(text, "(200000 bytes in all)") {
		t.Errorf("log of %d bytes, want it clipped with the length:\n%.300s", len(text), text)
	}
	if !utf8.ValidString(text) {
		t.Error("the clipped log is not valid UTF-8")
	}
}

func TestGateNullableAndPatterns(t *testing.T) {
	// Foreign schemas as MCP servers publish them: OpenAI-strict style
	// nullable required parameters, and patternProperties beside
	// additionalProperties false.
	run := func() Result { return Success("ran") }
	strictStyle := rawTool{name: "Strict", exec: run, def: Definition{InputSchema: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"x":    map[string]any{"type": []any{"string", "null"}},
			"mode": map[string]any{"type": []any{"string", "null"}, "enum": []any{"a", "b", nil}},
			"n":    map[string]any{"type": "integer"},
		},
		"required":             []any{"x", "mode", "n"},
		"additionalProperties": false,
	}}}
	patterns := rawTool{name: "Patterns", exec: run, def: Definition{InputSchema: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"path": map[string]any{"type": "string"}},
		"patternProperties":    map[string]any{"^x-": map[string]any{"type": "integer"}},
		"additionalProperties": false,
	}}}
	e, _ := newTestExecutor(t, []Tool{strictStyle, patterns}, WithSchemaMode(schema.Enforce))
	tests := []struct {
		tool, args, want string
	}{
		{"Strict", `{"x":null,"mode":null,"n":1}`, "ran"},
		{"Strict", `{"x":"s","mode":"a","n":1}`, "ran"},
		{"Strict", `{"mode":null,"n":1}`, "Parameter 'x' is required (string). The tool was not executed."},
		{"Strict", `{"x":null,"mode":null,"n":null}`, "Parameter 'n' is required (integer). The tool was not executed."},
		{"Strict", `{"x":null,"mode":"c","n":1}`, "Parameter 'mode' must be one of [a, b, null], but was 'c'. The tool was not executed."},
		{"Patterns", `{"path":"/a","x-depth":2}`, "ran"},
		{"Patterns", `{"path":"/a","x-depth":"2"}`, "Parameter 'x-depth' must be an integer. The tool was not executed."},
		{"Patterns", `{"path":"/a","paht":"/b"}`, "Unknown parameter 'paht'. Did you mean 'path'? The tool was not executed."},
	}
	for _, tt := range tests {
		for _, how := range []string{"DecodeInput", "NewInput"} {
			in := input(t, tt.args)
			if how == "NewInput" {
				var m map[string]any
				if err := json.Unmarshal([]byte(tt.args), &m); err != nil {
					t.Fatal(err)
				}
				in = NewInput(m)
			}
			res := e.Execute(context.Background(), Call{Name: tt.tool, Input: in}, Context{})
			if res.Content != tt.want {
				t.Errorf("%s %s via %s: got %q, want %q", tt.tool, tt.args, how, res.Content, tt.want)
			}
		}
	}
}

// TestCompiledAtFirstCall: registration reads a schema without compiling
// the complete validation (schema.Check); the executor compiles it at the
// tool's first call. A reference to nothing, which only that compilation
// finds, is not logged at registration and refuses the first call.
func TestCompiledAtFirstCall(t *testing.T) {
	logs := &logBuffer{}
	old := slog.Default()
	slog.SetDefault(slog.New(logs))
	defer slog.SetDefault(old)
	r := NewRegistry()
	dangling := rawTool{name: "Dangling", exec: func() Result { return Success("ran") },
		def: Definition{InputSchema: map[string]any{"properties": map[string]any{"x": map[string]any{"$ref": "#/$defs/x"}}}}}
	if err := r.Register(dangling); err != nil {
		t.Fatal(err)
	}
	if logs.String() != "" {
		t.Errorf("registration compiled the complete validation; logs:\n%s", logs)
	}
	e := NewExecutor(r, WithSchemaMode(schema.Enforce), WithLogger(slog.New(logs)))
	res := e.Execute(context.Background(), Call{Name: "Dangling", Input: input(t, `{"x":1}`)}, Context{})
	if want := "Tool 'Dangling' cannot be called: its input schema is broken (the schema does not compile: "; !res.IsError || !strings.HasPrefix(res.Content, want) {
		t.Errorf("first call = %q, want it to start %q", res.Content, want)
	}
}
