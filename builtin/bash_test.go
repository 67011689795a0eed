package builtin

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// fakeShell records the options of each run and answers with a canned
// result.
type fakeShell struct {
	mu   sync.Mutex
	runs []fakeRun
	res  shell.Result
	err  error
}

type fakeRun struct {
	line string
	opts shell.Options
}

func (f *fakeShell) Execute(_ context.Context, cmd shell.Command, opts shell.Options) (shell.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, fakeRun{cmd.Line, opts})
	return f.res, f.err
}

func (f *fakeShell) last(t *testing.T) fakeRun {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.runs) == 0 {
		t.Fatal("the shell was not called")
	}
	return f.runs[len(f.runs)-1]
}

// callBash runs the generated Bash tool over k with the given arguments.
func callBash(t *testing.T, k *shellKit, args map[string]any, tc tool.Context) tool.Result {
	t.Helper()
	return k.bashTool().Execute(context.Background(), tool.NewInput(args), tc)
}

func TestBindBashTimeout(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any // nil: absent
		want int
	}{
		{"absent", nil, 120000},
		{"zero", 0, 1000},
		{"negative", -5, 1000},
		{"below", 999, 1000},
		{"in range", 5000, 5000},
		{"integral float", 2000.0, 2000},
		{"above", 600001, 600000},
		{"enormous", 1e12, 600000},
		{"beyond int64", 1e300, 600000},
		{"very negative", -1e300, 1000},
		{"numeric string", "3000", 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"command": "true"}
			if tc.in != nil {
				args["timeout"] = tc.in
			}
			in, err := bindBashInput(tool.NewInput(args))
			if err != nil {
				t.Fatalf("bind: %v", err)
			}
			if in.Timeout != tc.want {
				t.Errorf("timeout = %d, want %d", in.Timeout, tc.want)
			}
		})
	}
	// A fractional timeout is not an integer: the binder refuses it, as the
	// schema gate does.
	_, err := bindBashInput(tool.NewInput(map[string]any{"command": "true", "timeout": 1500.5}))
	if err == nil || !strings.Contains(err.Error(), "Parameter 'timeout' must be an integer") {
		t.Errorf("fractional timeout: err = %v", err)
	}
}

func TestBashTimeoutDirect(t *testing.T) {
	// What a direct Go caller passes (the binder has not run).
	for ms, want := range map[int]time.Duration{
		0: 120 * time.Second, -1: time.Second, 1: time.Second, 1500: 1500 * time.Millisecond,
		600_001: 600 * time.Second, int(^uint(0) >> 1): 600 * time.Second, -int(^uint(0)>>1) - 1: time.Second,
	} {
		if got := bashTimeout(ms); got != want {
			t.Errorf("bashTimeout(%d) = %v, want %v", ms, got, want)
		}
	}
}

func TestBashSchema(t *testing.T) {
	k := newShellKit(&fakeShell{}, "", nil)
	def := k.bashTool().Definition()
	if def.Name != "Bash" {
		t.Fatalf("name = %q", def.Name)
	}
	props := def.InputSchema["properties"].(map[string]any)
	to := props["timeout"].(map[string]any)
	// The timeout is clamped, not refused: the range is said in words, and
	// no minimum or maximum makes a validator refuse what the tool takes.
	desc, _ := to["description"].(string)
	if _, ok := to["minimum"]; ok || to["maximum"] != nil || to["default"] != 120000 || to["type"] != "integer" ||
		!strings.Contains(desc, "Values outside 1000 to 600000 are clamped to that range.") {
		t.Errorf("timeout schema = %v", to)
	}
	for _, p := range []string{"command", "timeout", "description", "run_in_background"} {
		if _, ok := props[p]; !ok {
			t.Errorf("no property %q", p)
		}
	}
	if req := def.InputSchema["required"].([]string); len(req) != 1 || req[0] != "command" {
		t.Errorf("required = %v", req)
	}
	out := k.bashOutputTool().Definition()
	if r := out.InputSchema["required"].([]string); out.Name != "BashOutput" || len(r) != 1 || r[0] != "bash_id" {
		t.Errorf("BashOutput: %s %v", out.Name, r)
	}
	kill := k.killShellTool().Definition()
	if r := kill.InputSchema["required"].([]string); kill.Name != "KillShell" || len(r) != 1 || r[0] != "shell_id" {
		t.Errorf("KillShell: %s %v", kill.Name, r)
	}
}

func TestBashBehaviours(t *testing.T) {
	k := newShellKit(&fakeShell{}, "", nil)
	b := k.bashTool()
	if c := b.Definition().Concurrency; c != tool.Sequential {
		t.Errorf("concurrency = %v", c)
	}
	if i := b.Definition().Interrupt; i != tool.ExternallyTerminated {
		t.Errorf("interrupt = %v", i)
	}
	if s := b.Definition().SideEffect; s != tool.Destructive {
		t.Errorf("side effect = %v", s)
	}
	sd := b.Definition().Subject
	if !sd.Declared() {
		t.Fatal("Bash declares no permission subject")
	}
	s, ok := sd.Read(tool.NewInput(map[string]any{"command": "ls -la"}))
	if !ok || s.Kind != tool.CommandSubject || s.Value != "ls -la" {
		t.Errorf("subject = %v %v", s, ok)
	}
	o := k.bashOutputTool()
	if o.Definition().Concurrency != tool.Safe || o.Definition().SideEffect != tool.Destructive {
		t.Errorf("BashOutput: %v %v", o.Definition().Concurrency, o.Definition().SideEffect)
	}
	kl := k.killShellTool()
	if kl.Definition().Concurrency != tool.Sequential || kl.Definition().SideEffect != tool.Destructive {
		t.Errorf("KillShell: %v %v", kl.Definition().Concurrency, kl.Definition().SideEffect)
	}
}

func TestBashPassesEveryLimit(t *testing.T) {
	sh := &fakeShell{}
	k := newShellKit(sh, "/the/root", nil)
	res := callBash(t, k, map[string]any{"command": "echo hi", "timeout": 2500}, tool.Context{})
	if res.IsError {
		t.Fatalf("result: %+v", res)
	}
	run := sh.last(t)
	want := shell.Options{
		Timeout:         2500 * time.Millisecond,
		MaxCaptureBytes: bashCaptureBytes,
		Dir:             "/the/root",
		MergeOutput:     true,
		KillGrace:       bashKillGrace,
	}
	if run.line != "echo hi" || run.opts.Timeout != want.Timeout || run.opts.MaxCaptureBytes != want.MaxCaptureBytes ||
		run.opts.Dir != want.Dir || !run.opts.MergeOutput || run.opts.KillGrace != want.KillGrace ||
		run.opts.Stdin != nil || run.opts.Env != nil || run.opts.Cgroup != "" {
		t.Errorf("run = %q %+v\nwant %+v", run.line, run.opts, want)
	}
	// The environment is the minimal one, never nil (nil passes the whole
	// environment of this process).
	if run.opts.PassEnv == nil {
		t.Error("PassEnv is nil: the command would inherit the whole environment")
	}
	if diff := cmp.Diff(shell.MinimalEnv, run.opts.PassEnv); diff != "" {
		t.Errorf("PassEnv (-want +got):\n%s", diff)
	}
	if run.opts.Timeout <= 0 || run.opts.MaxCaptureBytes <= 0 || run.opts.KillGrace <= 0 {
		t.Error("a limit was left to the shell's default")
	}
}

func TestBashWorkDir(t *testing.T) {
	for _, tc := range []struct {
		root, wd, want string
	}{
		{"/root", "", "/root"},
		{"/root", "/else", "/else"},
		{"/root", "sub/dir", "/root/sub/dir"},
		{"", "rel", "rel"},
		{"", "", ""},
	} {
		sh := &fakeShell{}
		k := newShellKit(sh, tc.root, nil)
		ctx := tool.NewContext()
		if tc.wd != "" {
			ctx = tool.NewContext(tool.WorkDirKey.Bind(tc.wd))
		}
		callBash(t, k, map[string]any{"command": "pwd"}, ctx)
		if got := sh.last(t).opts.Dir; got != tc.want {
			t.Errorf("root %q, workdir %q: dir = %q, want %q", tc.root, tc.wd, got, tc.want)
		}
	}
}

func TestBashBlankCommand(t *testing.T) {
	sh := &fakeShell{}
	k := newShellKit(sh, "", nil)
	for _, c := range []string{"", "   ", "\n\t "} {
		res := callBash(t, k, map[string]any{"command": c}, tool.Context{})
		if !res.IsError || res.Content != "The command is empty. Put the shell command to run in 'command'." {
			t.Errorf("%q: %+v", c, res)
		}
	}
	if len(sh.runs) != 0 {
		t.Errorf("the shell ran a blank command")
	}
	res := k.bashTool().Execute(context.Background(), tool.NewInput(map[string]any{}), tool.Context{})
	if !res.IsError || !strings.Contains(res.Content, "Parameter 'command' is required (string).") {
		t.Errorf("missing command: %+v", res)
	}
}

func TestBashResultMarkers(t *testing.T) {
	long := strings.Repeat("x", 40_000)
	wide := strings.Repeat("é", 40_000) // two bytes each
	timeout := 1500 * time.Millisecond
	for _, tc := range []struct {
		name    string
		res     shell.Result
		err     error
		want    string
		isError bool
	}{
		{"success", shell.Result{Stdout: []byte("hi\n")}, nil, "hi\n", false},
		{"success empty", shell.Result{}, nil, "", false},
		{"success over the cut", shell.Result{Stdout: []byte(long)}, nil, long[:30_000], false},
		{"wide over the cut", shell.Result{Stdout: []byte(wide)}, nil, strings.Repeat("é", 30_000), false},
		{"exit code", shell.Result{ExitCode: 3, Stdout: []byte("out\n")}, nil, "out\n[exit code: 3]", true},
		{"exit code no newline", shell.Result{ExitCode: 1, Stdout: []byte("out")}, nil, "out\n[exit code: 1]", true},
		{"exit code no output", shell.Result{ExitCode: 2}, nil, "[exit code: 2]", true},
		{"failing over the cut", shell.Result{ExitCode: 1, Stdout: []byte(long)}, nil, long[:30_000] + "\n[exit code: 1]", true},
		{"not found", shell.Result{ExitCode: 127, Stdout: []byte("bash: line 1: nope: command not found\n")}, nil,
			"bash: line 1: nope: command not found\n[exit code: 127]", true},
		{"signal", shell.Result{ExitCode: 137}, nil, "[exit code: 137]", true},
		{"timeout", shell.Result{ExitCode: -1}, &shell.TimeoutError{Timeout: timeout, Stdout: []byte("partial\n")},
			"partial\n[timed out after 1500ms]", true},
		{"timeout over the cut", shell.Result{ExitCode: -1}, &shell.TimeoutError{Timeout: timeout, Stdout: []byte(long)},
			long[:30_000] + "\n[timed out after 1500ms]", true},
		{"timeout no output", shell.Result{ExitCode: -1}, &shell.TimeoutError{Timeout: timeout}, "[timed out after 1500ms]", true},
		{"canceled", shell.Result{ExitCode: -1}, &shell.CanceledError{Err: context.Canceled, Stdout: []byte("so far")}, "so far\n[canceled]", true},
		{"start error", shell.Result{}, &shell.StartError{Err: errors.New("chdir /nope: no such file or directory")},
			"Command failed: chdir /nope: no such file or directory", true},
		{"other shell error", shell.Result{}, errors.New("sandbox unreachable"), "The shell failed: sandbox unreachable", true},
		{"separate stderr", shell.Result{ExitCode: 1, Stdout: []byte("a\n"), Stderr: []byte("b\n")}, nil, "a\nb\n[exit code: 1]", true},
		{"binary", shell.Result{Stdout: []byte("a\xff\xfeb\x80")}, nil, "a\uFFFDb\uFFFD", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := newShellKit(&fakeShell{res: tc.res, err: tc.err}, "", nil)
			res := callBash(t, k, map[string]any{"command": "x", "timeout": 1500}, tool.Context{})
			if res.Content != tc.want || res.IsError != tc.isError {
				t.Errorf("got %q (error %v), want %q (error %v)", trim(res.Content), res.IsError, trim(tc.want), tc.isError)
			}
			if !utf8.ValidString(res.Content) {
				t.Error("content is not valid UTF-8")
			}
			if tc.err != nil && !errors.Is(res.Err, tc.err) {
				t.Errorf("Err = %v, want %v", res.Err, tc.err)
			}
			var ee *ExitError
			if tc.err == nil && tc.res.ExitCode != 0 && (!errors.As(res.Err, &ee) || ee.Code != tc.res.ExitCode) {
				t.Errorf("Err = %v, want an *ExitError", res.Err)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-40:]
	}
	return s
}

func TestCutChars(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""}, {"abc", 3, "abc"}, {"abcd", 3, "abc"}, {"héllo", 2, "hé"}, {"日本語", 2, "日本"}, {"abc", 0, ""},
	} {
		if got := cutChars(tc.s, tc.n); got != tc.want {
			t.Errorf("cutChars(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	if got := charsPrefix([]byte("a\xffé日"), 3); got != 4 {
		t.Errorf("charsPrefix = %d, want 4", got)
	}
	if got := completeRunes([]byte("ab\xe6\x97")); got != 2 {
		t.Errorf("completeRunes = %d, want 2", got)
	}
	if got := completeRunes([]byte("ab日")); got != 5 {
		t.Errorf("completeRunes = %d, want 5", got)
	}
}

func TestRing(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct{ max, chunk int }{{1, 1}, {7, 3}, {7, 7}, {100, 16}, {5000, 512}, {5000, 5000}} {
		st := &outStore{chunk: tc.chunk, maxChunks: 1 << 30}
		r := ring{max: tc.max, store: st}
		var ref []byte
		var dropped int
		seq := byte(0)
		for range 2000 {
			if rng.IntN(3) == 0 {
				n := rng.IntN(tc.max + 1)
				r.discard(n)
				ref = ref[min(n, len(ref)):]
			} else {
				p := make([]byte, rng.IntN(2*tc.max+1))
				for i := range p {
					p[i] = seq
					seq++
				}
				dropped += r.write(p)
				ref = append(ref, p...)
				if over := len(ref) - tc.max; over > 0 {
					ref = ref[over:]
				}
			}
			if !bytes.Equal(r.bytes(), ref) {
				t.Fatalf("%+v: ring holds %v, want %v", tc, r.bytes(), ref)
			}
			if n := rng.IntN(len(ref) + 2); !bytes.Equal(r.prefix(n), ref[:min(n, len(ref))]) {
				t.Fatalf("%+v: prefix(%d) = %v, want %v", tc, n, r.prefix(n), ref[:min(n, len(ref))])
			}
			if r.contains(seq-1) != bytes.Contains(ref, []byte{seq - 1}) {
				t.Fatalf("%+v: contains(%d) disagrees", tc, seq-1)
			}
			// Storage: what the bytes need, plus one partly read chunk.
			if most := (tc.max+tc.chunk-1)/tc.chunk + 1; len(r.chunks) > most {
				t.Fatalf("%+v: %d chunks, want at most %d", tc, len(r.chunks), most)
			}
			if len(ref) == 0 && len(r.chunks) != 0 {
				t.Fatalf("%+v: an empty ring holds %d chunks", tc, len(r.chunks))
			}
			if held := st.allocated - len(st.free); held != len(r.chunks) || len(st.free) > maxFreeChunks {
				t.Fatalf("%+v: store counts %d held, %d free; the ring holds %d", tc, held, len(st.free), len(r.chunks))
			}
		}
		if int64(dropped) > r.total {
			t.Errorf("dropped %d of %d", dropped, r.total)
		}
	}
}

func TestFilterLines(t *testing.T) {
	re := regexp.MustCompile(`^a`)
	out, used := filterLines([]byte("a1\nb2\na3\npartial a"), re, true)
	if out != "a1\na3\n" || used != len("a1\nb2\na3\n") {
		t.Errorf("running: %q %d", out, used)
	}
	out, used = filterLines([]byte("a1\nb2\nab"), re, false)
	if out != "a1\nab\n" || used != 8 {
		t.Errorf("finished: %q %d", out, used)
	}
	// The result stops at the cut; the rest stays unread.
	line := strings.Repeat("a", 20_000) + "\n"
	buf := []byte(line + line + line)
	out, used = filterLines(buf, re, false)
	if out != line || used != len(line) {
		t.Errorf("cut: %d chars, used %d", len(out), used)
	}
	// One matching line longer than the cut is cut and consumed.
	huge := strings.Repeat("a", 40_000) + "\n"
	out, used = filterLines([]byte(huge), re, false)
	if utf8.RuneCountInString(out) != 30_001 || used != len(huge) {
		t.Errorf("huge: %d chars, used %d", utf8.RuneCountInString(out), used)
	}
}

func TestRenderRead(t *testing.T) {
	for _, tc := range []struct {
		r      BackgroundRead
		filter string
		want   string
	}{
		{BackgroundRead{ID: "bash_1", Status: StatusRunning}, "", "ID: bash_1\nStatus: running\nNo new output."},
		{BackgroundRead{ID: "bash_1", Status: StatusCompleted, ExitCode: 2, Output: "x\n"}, "",
			"ID: bash_1\nStatus: completed with exit code 2\nOutput since the last read:\nx\n"},
		{BackgroundRead{ID: "bash_2", Status: StatusTimedOut, Timeout: time.Second, Output: "y", More: true}, "",
			"ID: bash_2\nStatus: timed out after 1000ms\nOutput since the last read:\ny\n[More output is waiting: call BashOutput again.]"},
		{BackgroundRead{ID: "bash_3", Status: StatusKilled, Output: "e1\n"}, "^e",
			"ID: bash_3\nStatus: killed\nNew lines matching '^e':\ne1\n"},
		{BackgroundRead{ID: "bash_3", Status: StatusFailed, Reason: "could not start: boom"}, "^e",
			"ID: bash_3\nStatus: failed: could not start: boom\nNo new lines match the filter '^e'."},
		{BackgroundRead{ID: "bash_4", Status: StatusRunning, Dropped: 10, Kept: 5, Output: "z"}, "",
			"ID: bash_4\nStatus: running\n[... 10 bytes of output were dropped before this read: a background command keeps at most 5 bytes that have not been read; read more often, or filter ...]\nOutput since the last read:\nz"},
	} {
		if got := renderRead(tc.r, tc.filter); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

func TestShellToolsNeedAShell(t *testing.T) {
	if k := newShellKit(nil, "/x", nil); k != nil || k.bashTool() != nil || k.bashOutputTool() != nil || k.killShellTool() != nil {
		t.Error("tools without a shell")
	}
}

func TestBackgroundForgetsOldFinished(t *testing.T) {
	m := NewBackgroundManager(&fakeShell{}, BackgroundLimits{})
	defer m.Close()
	wait := func(id string) {
		// The fake command ends at once, and its task's done is closed
		// after its status is set (polling the status, even from a sleep of
		// 10 µs doubled, took most of the test's time).
		m.mu.Lock()
		task := m.tasks[id]
		m.mu.Unlock()
		<-task.done
	}
	// Finished commands, read to the end, beyond the cap.
	for range maxFinishedKept + 5 {
		id, err := m.Start(BackgroundCommand{Line: "true", Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		wait(id)
		if _, err := m.Read(id, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Start(BackgroundCommand{Line: "true", Timeout: time.Second}); err != nil {
		t.Fatal(err)
	}
	m.mu.Lock()
	n := len(m.tasks)
	m.mu.Unlock()
	if n > maxFinishedKept+1 {
		t.Errorf("%d commands remembered", n)
	}
	if _, err := m.Read("bash_1", regexp.MustCompile("x")); err == nil {
		t.Error("the oldest finished command is still known")
	}
	if _, err := m.Read("bash_260", nil); err != nil {
		t.Errorf("a recent command is forgotten: %v", err)
	}
}

func TestBackgroundPassesEveryLimit(t *testing.T) {
	sh := &fakeShell{res: shell.Result{Stdout: []byte("via result\n")}}
	m := NewBackgroundManager(sh, BackgroundLimits{KillGrace: 3 * time.Second})
	defer m.Close()
	id, err := m.Start(BackgroundCommand{Line: "echo x", Description: "says x", Dir: "/dir", Timeout: 5 * time.Second, PassEnv: []string{"PATH", "GOPATH"}})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if st, _ := m.status(id); st != "running" {
			break
		}
		time.Sleep(time.Millisecond)
	}
	o := sh.last(t).opts
	if o.Timeout != 5*time.Second || o.MaxCaptureBytes != bgCaptureBytes || o.Dir != "/dir" || !o.MergeOutput ||
		o.KillGrace != 3*time.Second || o.Stdin != nil || o.LiveStdout == nil || o.LiveStderr == nil {
		t.Errorf("options = %+v", o)
	}
	if diff := cmp.Diff([]string{"PATH", "GOPATH"}, o.PassEnv); diff != "" {
		t.Errorf("PassEnv (-want +got):\n%s", diff)
	}
	if len(o.Env) != 1 || !strings.HasPrefix(o.Env[0], "TOOLGEN_BACKGROUND_ID="+id+"-") {
		t.Errorf("Env = %q, want the command's marker", o.Env)
	}
	// A shell that wrote nothing live: the result's output is kept.
	r, err := m.Read(id, nil)
	if err != nil || r.Output != "via result\n" || r.Status != StatusCompleted || r.Description != "says x" {
		t.Errorf("read = %+v, %v", r, err)
	}
}

func TestBackgroundWithoutShell(t *testing.T) {
	m := NewBackgroundManager(nil, BackgroundLimits{})
	defer m.Close()
	if _, err := m.Start(BackgroundCommand{Line: "true", Timeout: time.Second}); err == nil || err.Error() != "Background commands are not available: no shell is configured." {
		t.Errorf("err = %v", err)
	}
}
