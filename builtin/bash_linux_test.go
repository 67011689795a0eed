package builtin

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"go.uber.org/goleak"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// noLeaks fails the test if it leaves goroutines behind.
func noLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

var markSeq atomic.Int64

// newMark returns a variable assignment unique to this test run; a command
// that exports it marks every process it starts.
func newMark(t *testing.T) string {
	return fmt.Sprintf("TOOLGEN_BASH_TEST_MARK=%d-%d-%d", os.Getpid(), markSeq.Add(1), time.Now().UnixNano())
}

// marked lists the live processes whose environment holds mark.
func marked(t *testing.T, mark string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append(append([]byte{0}, env...), 0), []byte("\x00"+mark+"\x00")) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// The state follows the command name in parentheses.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		out = append(out, strconv.Itoa(pid)+" "+strings.TrimSpace(string(stat)))
	}
	return out
}

// noneMarked fails when processes holding mark are alive. A process
// killed a moment ago may still be on its way out: look for a short while.
func noneMarked(t *testing.T, mark string) {
	t.Helper()
	deadline := time.Now().Add(waitBound(t))
	for {
		left := marked(t, mark)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes survived:\n%s", strings.Join(left, "\n"))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// localKit returns the shell tools over this machine's bash in a fresh
// root, with a background manager closed at the end of the test.
func localKit(t *testing.T, limits BackgroundLimits) (*shellKit, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sh := shell.NewLocal()
	bg := NewBackgroundManager(sh, limits)
	t.Cleanup(func() {
		bg.Close()
		if n := bg.Running(); n != 0 {
			t.Errorf("%d background commands still running after Close", n)
		}
	})
	return newShellKit(sh, root, bg), root
}

func bashArgs(command string, kv ...any) map[string]any {
	m := map[string]any{"command": command}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func TestLocalBash(t *testing.T) {
	noLeaks(t)
	k, root := localKit(t, BackgroundLimits{})
	for _, tc := range []struct {
		name    string
		command string
		want    string
		isError bool
	}{
		{"success", "echo hello", "hello\n", false},
		{"no output", "true", "", false},
		{"merged in order", "echo a; echo b >&2; echo c; echo d >&2", "a\nb\nc\nd\n", false},
		{"exit code", "echo out; echo err >&2; exit 3", "out\nerr\n[exit code: 3]", true},
		{"exit code no newline", "printf out; exit 1", "out\n[exit code: 1]", true},
		{"not found", "no_such_command_toolgen_test", "bash: line 1: no_such_command_toolgen_test: command not found\n[exit code: 127]", true},
		{"signal", "kill -KILL $$", "[exit code: 137]", true},
		{"stdin at EOF", `cat; read -r x; echo "read=$?"`, "read=1\n", false},
		{"working directory", "pwd", root + "\n", false},
		{"binary", `printf 'a\377\376b\200'`, "a\uFFFDb\uFFFD", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := callBash(t, k, bashArgs(tc.command), tool.NewContext())
			if res.Content != tc.want || res.IsError != tc.isError {
				t.Errorf("got %q (error %v), want %q (error %v)", res.Content, res.IsError, tc.want, tc.isError)
			}
		})
	}
}

func TestLocalBashCut(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	// 40000 lines of "é" and a newline: 80000 characters, 120000 bytes.
	const gen = `yes $'\303\251' | head -n 40000`
	want := strings.Repeat("é\n", 15_000)

	res := callBash(t, k, bashArgs(gen), tool.NewContext())
	if res.IsError || res.Content != want {
		t.Errorf("success over the cut: %d characters (error %v), want exactly 30000 and no marker; ends %q",
			utf8.RuneCountInString(res.Content), res.IsError, tail(res.Content))
	}

	res = callBash(t, k, bashArgs(gen+"; exit 7"), tool.NewContext())
	if !res.IsError || res.Content != want+"[exit code: 7]" {
		t.Errorf("failure over the cut: ends %q (error %v)", tail(res.Content), res.IsError)
	}

	t.Run("timeout", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: waits out Bash's shortest timeout, a second (make test runs it)")
		}
		res := callBash(t, k, bashArgs(gen+"; sleep 30", "timeout", 1000), tool.NewContext())
		if !res.IsError || res.Content != want+"[timed out after 1000ms]" {
			t.Errorf("timeout over the cut: ends %q (error %v)", tail(res.Content), res.IsError)
		}
	})
}

func tail(s string) string {
	if len(s) > 40 {
		return "..." + s[len(s)-40:]
	}
	return s
}

func TestLocalBashTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the timeout clamp takes a second (make test runs it)")
	}
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	mark := newMark(t)
	start := time.Now()
	// A partial line, then a never-ending command with daemon-like
	// children, and a timeout of 0 (clamped to one second).
	res := callBash(t, k, bashArgs("export "+mark+"; echo partial; printf 'no newline'; sleep 1000 & (sleep 1000 &); nohup sleep 1000 >/dev/null 2>&1 & while :; do sleep 1; done",
		"timeout", 0), tool.NewContext())
	elapsed := time.Since(start)
	if want := "partial\nno newline\n[timed out after 1000ms]"; !res.IsError || res.Content != want {
		t.Errorf("got %q (error %v), want %q", res.Content, res.IsError, want)
	}
	if elapsed < time.Second || elapsed > waitBound(t) {
		t.Errorf("took %v, want the 1 s timeout or more, not the command's own length", elapsed)
	}
	noneMarked(t, mark)
}

func TestLocalBashDaemonsDoNotOutlive(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	mark := newMark(t)
	res := callBash(t, k, bashArgs("export "+mark+"; sleep 1000 & (sleep 1000 &); nohup sleep 1000 >/dev/null 2>&1 & echo started"), tool.NewContext())
	if res.IsError || res.Content != "started\n" {
		t.Errorf("got %q (error %v)", res.Content, res.IsError)
	}
	noneMarked(t, mark)
}

func TestLocalBashCanceled(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	mark := newMark(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Cancel once the command has written its line (it then touches
	// ready), not after a fixed time a loaded machine can spend starting
	// bash.
	ready := filepath.Join(t.TempDir(), "begun")
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(ready); err == nil {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	res := k.bashTool().Execute(ctx, tool.NewInput(bashArgs("export "+mark+"; echo begun; : >'"+ready+"'; sleep 1000 & sleep 1000")), tool.NewContext())
	if !res.IsError || res.Content != "begun\n[canceled]" {
		t.Errorf("got %q (error %v)", res.Content, res.IsError)
	}
	noneMarked(t, mark)
}

func TestLocalBashStartError(t *testing.T) {
	noLeaks(t)
	k, root := localKit(t, BackgroundLimits{})
	res := callBash(t, k, bashArgs("echo hi"), tool.NewContext(tool.WorkDirKey.Bind(filepath.Join(root, "missing"))))
	if !res.IsError || !strings.HasPrefix(res.Content, "Command failed: ") {
		t.Errorf("got %q (error %v)", res.Content, res.IsError)
	}
	// Only a command that could not start says so.
	for _, c := range []string{"exit 1", "no_such_command_toolgen_test"} {
		if res := callBash(t, k, bashArgs(c), tool.NewContext()); strings.Contains(res.Content, "Command failed") {
			t.Errorf("%s: %q", c, res.Content)
		}
	}
}

func TestLocalBashHugeOutput(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	size := 1 << 30 // 1 GiB
	if testing.Short() || raceEnabled() {
		size = 64 << 20
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	peak := watchHeap(t)
	res := callBash(t, k, bashArgs(fmt.Sprintf("head -c %d /dev/zero | tr '\\0' 'a'; echo; echo end", size)), tool.NewContext())
	high := peak()
	if res.IsError || res.Content != strings.Repeat("a", 30_000) {
		t.Errorf("got %d characters (error %v), ends %q", utf8.RuneCountInString(res.Content), res.IsError, tail(res.Content))
	}
	// The capture holds 256 KiB; allow generously for the runtime.
	if grew := int64(high) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("heap grew by %d MiB printing %d MiB", grew>>20, size>>20)
	}
}

// watchHeap samples the heap until the returned function is called, which
// returns the highest HeapAlloc seen.
func watchHeap(t *testing.T) func() uint64 {
	stop := make(chan struct{})
	done := make(chan uint64)
	go func() {
		var high uint64
		var ms runtime.MemStats
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			high = max(high, ms.HeapAlloc)
			select {
			case <-stop:
				done <- high
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		return <-done
	}
}

func TestLocalBashThroughExecutor(t *testing.T) {
	noLeaks(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := Register(reg, Options{Root: root, Shell: shell.NewLocal()}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Bash", "BashOutput", "KillShell"} {
		if _, ok := reg.Find(n); !ok {
			t.Fatalf("%s not registered", n)
		}
	}
	allow, err := permission.Parse("Bash(echo:*)", "BashOutput", "KillShell")
	if err != nil {
		t.Fatal(err)
	}
	ex := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithAllowList(allow), tool.WithLogger(slog.New(slog.DiscardHandler)))
	call := func(name string, args map[string]any) tool.Result {
		return ex.Execute(context.Background(), tool.Call{ID: "c1", Name: name, Input: tool.NewInput(args)}, tool.NewContext())
	}
	if res := call("Bash", bashArgs("echo hi")); res.IsError || res.Content != "hi\n" {
		t.Errorf("echo: %+v", res)
	}
	if res := call("Bash", bashArgs("pwd")); !res.IsError || strings.Contains(res.Content, root) {
		t.Errorf("pwd is not allowed: %+v", res)
	}
	if res := call("Bash", bashArgs("echo hi; rm -rf /")); !res.IsError || strings.HasPrefix(res.Content, "hi") {
		t.Errorf("compound command allowed: %+v", res)
	}
	if res := call("Bash", bashArgs("echo x", "timeout", "soon")); !res.IsError || !strings.Contains(res.Content, "Parameter 'timeout' must be an integer") {
		t.Errorf("bad timeout: %+v", res)
	}
	res := call("Bash", bashArgs("echo bg", "run_in_background", true))
	if res.IsError || !strings.HasPrefix(res.Content, "Command running in the background with ID: bash_1.") {
		t.Fatalf("background: %+v", res)
	}
	deadline := time.Now().Add(waitBound(t))
	for {
		res = call("BashOutput", map[string]any{"bash_id": "bash_1"})
		if strings.Contains(res.Content, "Status: completed") || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if res.IsError || !strings.Contains(res.Content, "Status: completed with exit code 0\n") {
		t.Errorf("BashOutput: %+v", res)
	}
	if res := call("KillShell", map[string]any{"shell_id": "bash_1"}); !res.IsError || !strings.Contains(res.Content, "has already ended (completed with exit code 0)") {
		t.Errorf("KillShell: %+v", res)
	}

	// Without a shell there are no shell tools.
	reg = tool.NewRegistry()
	if err := Register(reg, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Bash", "BashOutput", "KillShell"} {
		if _, ok := reg.Find(n); ok {
			t.Errorf("%s registered without a shell", n)
		}
	}
}

func TestToolsShareOneManagerPerCall(t *testing.T) {
	noLeaks(t)
	opts := Options{Root: t.TempDir(), Shell: shell.NewLocal(), Tools: []string{"Bash", "BashOutput", "KillShell"}}
	first, err := Tools(opts)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Tools(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 3 || len(second) != 3 {
		t.Fatalf("tools: %d %d", len(first), len(second))
	}
	run := func(tl tool.Tool, args map[string]any) tool.Result {
		return tl.Execute(context.Background(), tool.NewInput(args), tool.NewContext())
	}
	if res := run(first[0], bashArgs("sleep 1000", "run_in_background", true)); res.IsError {
		t.Fatal(res.Content)
	}
	// The first call's KillShell sees it; the second call's tools do not.
	if res := run(second[1], map[string]any{"bash_id": "bash_1"}); !res.IsError {
		t.Errorf("second BashOutput: %+v", res)
	}
	if res := run(first[2], map[string]any{"shell_id": "bash_1"}); res.IsError || res.Content != "Background command bash_1 was killed, and no process it started was found still running." {
		t.Errorf("first KillShell: %+v", res)
	}
}
