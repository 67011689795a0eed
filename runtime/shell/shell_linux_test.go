package shell

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"go.uber.org/goleak"
)

// outcome is the part of a Result the table tests compare.
type outcome struct {
	ExitCode       int
	Stdout, Stderr string
	Truncated      bool
	Signal         syscall.Signal
}

func outcomeOf(r Result) outcome {
	return outcome{r.ExitCode, string(r.Stdout), string(r.Stderr), r.Truncated, r.Signal}
}

func TestExecuteResults(t *testing.T) {
	defer goleak.VerifyNone(t)
	bashEnv := filepath.Join(t.TempDir(), "bash_env.sh")
	if err := os.WriteFile(bashEnv, []byte("echo BASH_ENV-RAN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("echo BASHRC-RAN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BASH_ENV", bashEnv)
	t.Setenv("ENV", bashEnv)
	t.Setenv("BASH_FUNC_true%%", "() { echo FUNC-RAN; }")
	t.Setenv("BASH_FUNC_echo%%", "() { builtin echo FUNC-RAN; }")
	t.Setenv("SHELLOPTS", "xtrace")
	t.Setenv("TOOLGEN_SHELL_PARENT", "parent")
	dir := t.TempDir()

	tests := []struct {
		name string
		line string
		opts Options
		want outcome
	}{
		{name: "success", line: "echo hello", want: outcome{Stdout: "hello\n"}},
		{name: "empty line", line: "", want: outcome{}},
		{name: "exit code is a value", line: "echo out; exit 3", want: outcome{ExitCode: 3, Stdout: "out\n"}},
		{name: "false", line: "false", want: outcome{ExitCode: 1}},
		{name: "separate streams", line: "echo out; echo err >&2; echo out2", want: outcome{Stdout: "out\nout2\n", Stderr: "err\n"}},
		{name: "merged streams keep order", line: "echo 1; echo 2 >&2; echo 3; echo 4 >&2",
			opts: Options{MergeOutput: true}, want: outcome{Stdout: "1\n2\n3\n4\n"}},
		{name: "not found is 127", line: "no-such-command-toolgen",
			want: outcome{ExitCode: 127, Stderr: "bash: line 1: no-such-command-toolgen: command not found\n"}},
		{name: "syntax error is 2", line: "if then", want: outcome{ExitCode: 2,
			Stderr: "bash: -c: line 1: syntax error near unexpected token `then'\nbash: -c: line 1: `if then'\n"}},
		{name: "death by signal", line: "kill -KILL $$", want: outcome{ExitCode: 128 + 9, Signal: syscall.SIGKILL}},
		{name: "stdin is EOF at once", line: "cat; echo done", want: outcome{Stdout: "done\n"}},
		{name: "read gets EOF", line: "read -r x; echo $?", want: outcome{Stdout: "1\n"}},
		{name: "stdin from options", line: "cat", opts: Options{Stdin: strings.NewReader("fed\n")}, want: outcome{Stdout: "fed\n"}},
		{name: "stdin not read", line: "echo ignored", opts: Options{Stdin: bytes.NewReader(make([]byte, 1<<20))}, want: outcome{Stdout: "ignored\n"}},
		{name: "binary output", line: `printf '\x00\xff\xfe\x80A'`, want: outcome{Stdout: "\x00\xff\xfe\x80A"}},
		{name: "dir", line: "pwd", opts: Options{Dir: dir}, want: outcome{Stdout: dir + "\n"}},
		{name: "env set", line: `echo "$A $B"`, opts: Options{Env: []string{"A=1", "B=x=y"}}, want: outcome{Stdout: "1 x=y\n"}},
		{name: "env overrides parent", line: `echo "$TOOLGEN_SHELL_PARENT"`, opts: Options{Env: []string{"TOOLGEN_SHELL_PARENT=child"}}, want: outcome{Stdout: "child\n"}},
		{name: "parent env inherited by default", line: `echo "$TOOLGEN_SHELL_PARENT"`, want: outcome{Stdout: "parent\n"}},
		{name: "PassEnv allow-list", line: `echo "[$TOOLGEN_SHELL_PARENT]"; test -n "$PATH" && echo path`,
			opts: Options{PassEnv: MinimalEnv}, want: outcome{Stdout: "[]\npath\n"}},
		{name: "PassEnv prefix", line: `echo "[$TOOLGEN_SHELL_PARENT]"`, opts: Options{PassEnv: []string{"TOOLGEN_*"}}, want: outcome{Stdout: "[parent]\n"}},
		{name: "empty PassEnv passes nothing", line: `echo "[$TOOLGEN_SHELL_PARENT]"`, opts: Options{PassEnv: []string{}}, want: outcome{Stdout: "[]\n"}},
		// BASH_ENV, ENV and the functions would print; SHELLOPTS=xtrace would trace to stderr.
		{name: "BASH_ENV ENV functions SHELLOPTS scrubbed", line: `true; echo "[$BASH_ENV][$ENV][$SHELLOPTS]" | grep -c xtrace; env | grep -c BASH_FUNC_`,
			want: outcome{ExitCode: 1, Stdout: "0\n0\n"}},
		{name: "scrubbed even when set explicitly", line: `echo "[$BASH_ENV]"`, opts: Options{Env: []string{"BASH_ENV=" + bashEnv}}, want: outcome{Stdout: "[]\n"}},
		{name: "no bashrc under ssh", line: "echo cmd", opts: Options{Env: []string{"HOME=" + home, "SSH_CLIENT=10.0.0.1 22 22", "SHLVL=0"}},
			want: outcome{Stdout: "cmd\n"}},
		{name: "head and tail kept", line: "seq 1 1000", opts: Options{MaxCaptureBytes: 20},
			want: outcome{Stdout: "1\n2\n3\n4\n5\n[... 3873 bytes omitted ...]\n\n999\n1000\n", Truncated: true}},
		{name: "stderr capped alone", line: "seq 1 1000 >&2; echo ok", opts: Options{MaxCaptureBytes: 10},
			want: outcome{Stdout: "ok\n", Stderr: "1\n2\n3\n[... 3883 bytes omitted ...]\n1000\n", Truncated: true}},
		{name: "cut on utf-8 boundaries", line: `printf 'ééééé'`, opts: Options{MaxCaptureBytes: 5},
			want: outcome{Stdout: "é\n[... 6 bytes omitted ...]\né", Truncated: true}},
		{name: "exact fit not truncated", line: "printf 0123456789", opts: Options{MaxCaptureBytes: 10}, want: outcome{Stdout: "0123456789"}},
	}
	sh := NewLocal()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.opts.Timeout == 0 {
				tt.opts.Timeout = 10 * time.Second
			}
			res, err := sh.Execute(context.Background(), Command{Line: tt.line}, tt.opts)
			if err != nil {
				t.Fatalf("Execute: %v", err)
			}
			if diff := cmp.Diff(tt.want, outcomeOf(res)); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
			if res.Duration <= 0 {
				t.Errorf("Duration = %v, want > 0", res.Duration)
			}
		})
	}
}

func TestExecuteCounts(t *testing.T) {
	defer goleak.VerifyNone(t)
	res, err := NewLocal().Execute(context.Background(), Command{Line: "head -c 5000 /dev/zero; head -c 7 /dev/zero >&2"},
		Options{Timeout: 10 * time.Second, MaxCaptureBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	got := struct {
		Out, Err int64
		Trunc    bool
		LenOut   int
	}{res.StdoutBytes, res.StderrBytes, res.Truncated, len(res.Stdout)}
	want := struct {
		Out, Err int64
		Trunc    bool
		LenOut   int
	}{5000, 7, true, 100 + len("\n[... 4900 bytes omitted ...]\n")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}

func TestExecuteStartErrors(t *testing.T) {
	defer goleak.VerifyNone(t)
	tests := []struct {
		name string
		line string
		opts Options
	}{
		{name: "missing dir", line: "true", opts: Options{Dir: "/no/such/dir/toolgen"}},
		{name: "negative timeout", line: "true", opts: Options{Timeout: -time.Second}},
		{name: "negative cap", line: "true", opts: Options{MaxCaptureBytes: -1}},
		{name: "negative grace", line: "true", opts: Options{KillGrace: -1}},
		{name: "bad env entry", line: "true", opts: Options{Env: []string{"NOEQUALS"}}},
		{name: "nul in env", line: "true", opts: Options{Env: []string{"A=b\x00c"}}},
		{name: "nul in line", line: "echo \x00"},
		{name: "not a cgroup", line: "true", opts: Options{Cgroup: t.TempDir()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := NewLocal().Execute(context.Background(), Command{Line: tt.line}, tt.opts)
			var se *StartError
			if !errors.As(err, &se) {
				t.Fatalf("error = %v (%T), want *StartError", err, err)
			}
			if se.Unwrap() == nil || !strings.HasPrefix(err.Error(), "shell: cannot start command: ") {
				t.Errorf("StartError %q without a cause or prefix", err)
			}
			if diff := cmp.Diff(Result{}, res); diff != "" {
				t.Errorf("Result not zero (-want +got):\n%s", diff)
			}
		})
	}
}

// A timedOut is one run of runTimingOut.
type timedOut struct {
	res     Result
	err     error
	te      *TimeoutError
	elapsed time.Duration
	timeout time.Duration
}

// runTimingOut runs line in the local shell with opts(timeout), which must
// time out, from a timeout of 50 ms. While the run is not ready (a loaded
// machine had not got the command as far as the test needs, what says)
// and room times the timeout doubled is within boundFor(t), it runs again
// with twice the timeout. It returns the last run.
func runTimingOut(t *testing.T, line string, opts func(time.Duration) Options, room time.Duration,
	ready func(*TimeoutError) bool, what string) timedOut {
	t.Helper()
	for timeout := 50 * time.Millisecond; ; timeout *= 2 {
		r := timedOut{timeout: timeout}
		start := time.Now()
		r.res, r.err = NewLocal().Execute(context.Background(), Command{Line: line}, opts(timeout))
		r.elapsed = time.Since(start)
		if !errors.As(r.err, &r.te) {
			t.Fatalf("error = %v (%T), want *TimeoutError", r.err, r.err)
		}
		if ready(r.te) || room*timeout > boundFor(t) {
			return r
		}
		t.Logf("the command had not %s in %v (a loaded machine): again with twice the time", what, timeout)
	}
}

func TestTimeoutCarriesPartialOutput(t *testing.T) {
	defer goleak.VerifyNone(t)
	// A loaded machine may not have run both echoes within the timeout,
	// which tests no partial output: such a run is repeated with twice the
	// time, up to boundFor(t).
	r := runTimingOut(t, "echo partial; echo err-partial >&2; sleep 1000; echo never",
		func(timeout time.Duration) Options { return Options{Timeout: timeout} }, 2,
		func(te *TimeoutError) bool { return len(te.Stdout) > 0 && len(te.Stderr) > 0 }, "written both lines")
	res, err, te, elapsed, timeout := r.res, r.err, r.te, r.elapsed, r.timeout
	want := &TimeoutError{Timeout: timeout, Stdout: []byte("partial\n"), Stderr: []byte("err-partial\n")}
	if diff := cmp.Diff(want, te); diff != "" {
		t.Errorf("TimeoutError (-want +got):\n%s", diff)
	}
	if want := "shell: command timed out after " + timeout.String(); err.Error() != want {
		t.Errorf("message = %q, want %q", err, want)
	}
	if diff := cmp.Diff(outcome{ExitCode: -1, Stdout: "partial\n", Stderr: "err-partial\n", Signal: syscall.SIGTERM}, outcomeOf(res)); diff != "" {
		t.Errorf("Result (-want +got):\n%s", diff)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Errorf("a shell timeout must not look like a ctx error: %v", err)
	}
	if elapsed > boundFor(t) {
		t.Errorf("took %v, want about the timeout, not the command's own length (sleep 1000)", elapsed)
	}
}

func TestTimeoutIgnoringTERMIsKilledAfterGrace(t *testing.T) {
	defer goleak.VerifyNone(t)
	// A TERM that comes before the trap is set ends bash at once, which
	// tests no grace: when the command had not said "trapped" by the
	// timeout (a loaded machine), the run is repeated with twice the
	// times, up to boundFor(t).
	r := runTimingOut(t, `trap "" TERM; echo trapped; while :; do sleep 0.05; done`,
		func(timeout time.Duration) Options { return Options{Timeout: timeout, KillGrace: timeout * 3 / 2} }, 5,
		func(te *TimeoutError) bool { return len(te.Stdout) > 0 }, "set its trap")
	res, te, elapsed, timeout := r.res, r.te, r.elapsed, r.timeout
	if string(te.Stdout) != "trapped\n" || res.Signal != syscall.SIGKILL {
		t.Errorf("stdout %q signal %v, want %q and SIGKILL", te.Stdout, res.Signal, "trapped\n")
	}
	if least := timeout * 5 / 2; elapsed < least || elapsed > boundFor(t) {
		t.Errorf("took %v, want timeout+grace (%v) or a little more", elapsed, least)
	}
}

// TestCancellation stops a command once it has written its first line, so
// that the partial output is known however slowly a loaded machine starts
// bash: the context ends when the command's live output shows "before\n",
// not after a fixed 200 ms that a busy machine could spend starting bash.
func TestCancellation(t *testing.T) {
	defer goleak.VerifyNone(t)
	cause := errors.New("user pressed stop")
	tests := []struct {
		name string
		// ctx returns the command's context, the function that ends it
		// (called once the first line is out) and a cleanup.
		ctx      func() (ctx context.Context, end, cleanup func())
		wantIs   []error
		wantText string
	}{
		{name: "cancel", ctx: func() (context.Context, func(), func()) {
			ctx, cancel := context.WithCancel(context.Background())
			return ctx, cancel, cancel
		}, wantIs: []error{context.Canceled}, wantText: "shell: command canceled: context canceled"},
		{name: "cancel with cause", ctx: func() (context.Context, func(), func()) {
			ctx, cancel := context.WithCancelCause(context.Background())
			return ctx, func() { cancel(cause) }, func() { cancel(nil) }
		}, wantIs: []error{context.Canceled, cause}, wantText: "shell: command canceled: user pressed stop"},
		{name: "ctx deadline", ctx: func() (context.Context, func(), func()) {
			ctx := newCuedDeadline()
			return ctx, ctx.pass, ctx.pass
		}, wantIs: []error{context.DeadlineExceeded}, wantText: "shell: command canceled: context deadline exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, end, cleanup := tt.ctx()
			defer cleanup()
			live := &cueWriter{cue: "before\n", then: end}
			res, err := NewLocal().Execute(ctx, Command{Line: "echo before; sleep 1000"}, Options{Timeout: boundFor(t), LiveStdout: live})
			var ce *CanceledError
			if !errors.As(err, &ce) {
				t.Fatalf("error = %v (%T), want *CanceledError", err, err)
			}
			for _, target := range tt.wantIs {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = false", err, target)
				}
			}
			var te *TimeoutError
			if errors.As(err, &te) {
				t.Errorf("cancellation reported as a timeout")
			}
			if err.Error() != tt.wantText {
				t.Errorf("message = %q, want %q", err, tt.wantText)
			}
			if string(ce.Stdout) != "before\n" || string(res.Stdout) != "before\n" || res.ExitCode != -1 {
				t.Errorf("partial output %q / %q exit %d, want %q and -1", ce.Stdout, res.Stdout, res.ExitCode, "before\n")
			}
		})
	}
}

// cueWriter calls then, once, when the bytes written to it contain cue.
type cueWriter struct {
	cue  string
	then func()
	mu   sync.Mutex
	seen []byte
	done bool
}

func (w *cueWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, p...)
	if !w.done && bytes.Contains(w.seen, []byte(w.cue)) {
		w.done = true
		w.then()
	}
	return len(p), nil
}

// cuedDeadline is a context whose deadline passes when pass is called:
// from then on Done is closed and Err is context.DeadlineExceeded, as for a
// deadline of context.WithDeadline, at a moment the test chooses.
type cuedDeadline struct {
	context.Context // Background: no values, no deadline to report
	once            sync.Once
	done            chan struct{}
}

func newCuedDeadline() *cuedDeadline {
	return &cuedDeadline{Context: context.Background(), done: make(chan struct{})}
}

func (c *cuedDeadline) pass() { c.once.Do(func() { close(c.done) }) }

func (c *cuedDeadline) Done() <-chan struct{} { return c.done }

func (c *cuedDeadline) Err() error {
	select {
	case <-c.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

func TestAlreadyCanceled(t *testing.T) {
	defer goleak.VerifyNone(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	mark := filepath.Join(t.TempDir(), "ran")
	_, err := NewLocal().Execute(ctx, Command{Line: "touch " + mark}, Options{Timeout: time.Second})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Errorf("the command ran under a canceled context")
	}
}

func TestLiveOutput(t *testing.T) {
	defer goleak.VerifyNone(t)
	t.Run("merged", func(t *testing.T) {
		var live bytes.Buffer
		res, err := NewLocal().Execute(context.Background(), Command{Line: "seq 1 3; echo e >&2; seq 4 5000"},
			Options{Timeout: 10 * time.Second, MergeOutput: true, LiveStdout: &live, MaxCaptureBytes: 16})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exec.Command("bash", "-c", "seq 1 3; echo e; seq 4 5000").Output()
		if diff := cmp.Diff(string(want), live.String()); diff != "" {
			t.Errorf("live output is not the whole stream (-want +got):\n%s", diff)
		}
		if !res.Truncated || res.StdoutBytes != int64(len(want)) {
			t.Errorf("Truncated %v StdoutBytes %d, want true and %d", res.Truncated, res.StdoutBytes, len(want))
		}
	})
	t.Run("one writer for both streams", func(t *testing.T) {
		var live bytes.Buffer // not safe for concurrent use: the shell must serialise (-race)
		_, err := NewLocal().Execute(context.Background(), Command{Line: "for i in $(seq 200); do echo o$i; echo e$i >&2; done"},
			Options{Timeout: 10 * time.Second, LiveStdout: &live, LiveStderr: &live})
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(live.String(), "\n"); n != 400 {
			t.Errorf("live lines = %d, want 400", n)
		}
	})
	t.Run("failing writer does not hurt the command", func(t *testing.T) {
		res, err := NewLocal().Execute(context.Background(), Command{Line: "seq 1 100000 | tail -n 1; exit 4"},
			Options{Timeout: 10 * time.Second, LiveStdout: failingWriter{}})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(outcome{ExitCode: 4, Stdout: "100000\n"}, outcomeOf(res)); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("while running", func(t *testing.T) {
		got := make(chan string, 1)
		w := writerFunc(func(p []byte) (int, error) {
			select {
			case got <- string(p):
			default:
			}
			return len(p), nil
		})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			_, err := NewLocal().Execute(ctx, Command{Line: "echo first; sleep 1000"}, Options{Timeout: time.Minute, LiveStdout: w})
			done <- err
		}()
		select {
		case s := <-got:
			if s != "first\n" {
				t.Errorf("live = %q", s)
			}
		case <-time.After(boundFor(t)):
			t.Error("no live output while the command runs")
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v", err)
		}
	})
}

type failingWriter struct{}

func (failingWriter) Write(p []byte) (int, error) { return 0, errors.New("sink full") }

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestStdinBlockingReaderDoesNotHang(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	start := time.Now()
	res, err := NewLocal().Execute(context.Background(), Command{Line: "echo no-stdin-needed"},
		Options{Timeout: 10 * time.Second, Stdin: pr})
	if err != nil || string(res.Stdout) != "no-stdin-needed\n" {
		t.Fatalf("Execute = %q, %v", res.Stdout, err)
	}
	if d := time.Since(start); d > boundFor(t) {
		t.Errorf("took %v: a blocked stdin reader held Execute", d)
	}
	pw.Close() // lets the copying goroutine finish
	goleak.VerifyNone(t)
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"héllo", "héllo"},
		{"a\xffb", "a\uFFFDb"},
		{"\xff\xfe\xfd", "\uFFFD"},
		{"\x00nul", "\x00nul"},
		{"cut\xc3", "cut\uFFFD"},
	}
	for _, tt := range tests {
		if got := Text([]byte(tt.in)); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBuildEnv(t *testing.T) {
	parent := []string{"PATH=/bin", "HOME=/h", "BASH_ENV=/x", "ENV=/y", "BASH_FUNC_f%%=() { :; }", "SECRET=s", "LC_ALL=C", "LC_TIME=C", "SHELLOPTS=xtrace", "BASHOPTS=extglob", "MALFORMED"}
	tests := []struct {
		name        string
		pass, extra []string
		want        []string
	}{
		{name: "inherit", want: []string{"PATH=/bin", "HOME=/h", "SECRET=s", "LC_ALL=C", "LC_TIME=C"}},
		{name: "minimal", pass: MinimalEnv, want: []string{"PATH=/bin", "HOME=/h", "LC_ALL=C", "LC_TIME=C"}},
		{name: "none", pass: []string{}, extra: []string{"A=1"}, want: []string{"A=1"}},
		{name: "override in place", pass: []string{"PATH", "HOME"}, extra: []string{"PATH=/usr/bin", "X=", "BASH_FUNC_g%%=() { :; }"},
			want: []string{"PATH=/usr/bin", "HOME=/h", "X="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := buildEnv(parent, tt.pass, tt.extra)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestScrubbing sets variables that make bash run code before the command,
// checks that a bare bash does run it (so the test means something) and
// that Local does not.
func TestScrubbing(t *testing.T) {
	defer goleak.VerifyNone(t)
	script := filepath.Join(t.TempDir(), "startup.sh")
	if err := os.WriteFile(script, []byte("echo STARTUP-RAN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"BASH_ENV=" + script, "BASH_FUNC_ls%%=() { echo FUNC-RAN; }"}
	cmd := exec.Command("bash", "-c", "ls /")
	cmd.Env = append(os.Environ(), env...)
	bare, _ := cmd.Output()
	if !bytes.Contains(bare, []byte("STARTUP-RAN")) || !bytes.Contains(bare, []byte("FUNC-RAN")) {
		t.Fatalf("control: bare bash did not run BASH_ENV and the function: %q", bare)
	}
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		t.Setenv(k, v)
	}
	res, err := NewLocal().Execute(context.Background(), Command{Line: "ls / >/dev/null; echo ok"}, Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outcome{Stdout: "ok\n"}, outcomeOf(res)); diff != "" {
		t.Errorf("startup code ran (-want +got):\n%s", diff)
	}
}
