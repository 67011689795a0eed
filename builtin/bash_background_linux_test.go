package builtin

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// startBg runs command in the background through the Bash tool and returns
// its ID.
func startBg(t *testing.T, k *shellKit, command string, kv ...any) string {
	t.Helper()
	res := callBash(t, k, bashArgs(command, append([]any{"run_in_background", true}, kv...)...), tool.NewContext())
	const prefix = "Command running in the background with ID: "
	if res.IsError || !strings.HasPrefix(res.Content, prefix) {
		t.Fatalf("start %q: %+v", command, res)
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(res.Content, prefix), ".")
	return id
}

func bashOutput(t *testing.T, k *shellKit, args map[string]any) tool.Result {
	t.Helper()
	return k.bashOutputTool().Execute(context.Background(), tool.NewInput(args), tool.NewContext())
}

func killShell(t *testing.T, k *shellKit, id string) tool.Result {
	t.Helper()
	return k.killShellTool().Execute(context.Background(), tool.NewInput(map[string]any{"shell_id": id}), tool.NewContext())
}

// waitEnded waits until the command id is no longer running.
func waitEnded(t *testing.T, m *BackgroundManager, id string) {
	t.Helper()
	deadline := time.Now().Add(waitBound(t))
	for {
		st, ok := m.status(id)
		if !ok {
			t.Fatalf("unknown id %s", id)
		}
		if st != "running" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still running", id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBackgroundLifecycle(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	dir := t.TempDir()
	gate := dir + "/go"
	id := startBg(t, k, fmt.Sprintf("echo one; echo two >&2; until [ -e %s ]; do sleep 0.01; done; echo three; exit 4", gate))
	// The command waits for the gate, which is made below: the call
	// returned without waiting for it.
	if st, _ := k.bg.status(id); st != "running" {
		t.Errorf("status after start = %q, want running", st)
	}
	if id != "bash_1" {
		t.Errorf("id = %q", id)
	}

	// Wait until the first lines are there, while it runs.
	var got strings.Builder
	deadline := time.Now().Add(waitBound(t))
	for !strings.Contains(got.String(), "two\n") && time.Now().Before(deadline) {
		res := bashOutput(t, k, map[string]any{"bash_id": id})
		if res.IsError || !strings.HasPrefix(res.Content, "ID: bash_1\nStatus: running\n") {
			t.Fatalf("while running: %+v", res)
		}
		if out, ok := strings.CutPrefix(res.Content, "ID: bash_1\nStatus: running\nOutput since the last read:\n"); ok {
			got.WriteString(out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got.String() != "one\ntwo\n" {
		t.Fatalf("output while running = %q", got.String())
	}
	if res := bashOutput(t, k, map[string]any{"bash_id": id}); res.Content != "ID: bash_1\nStatus: running\nNo new output." {
		t.Errorf("nothing new: %q", res.Content)
	}
	if err := writeFile(gate); err != nil {
		t.Fatal(err)
	}
	waitEnded(t, k.bg, id)
	res := bashOutput(t, k, map[string]any{"bash_id": id})
	if want := "ID: bash_1\nStatus: completed with exit code 4\nOutput since the last read:\nthree\n"; res.IsError || res.Content != want {
		t.Errorf("after the end: %q, want %q", res.Content, want)
	}
	// A finished command can be read again: nothing new.
	if res := bashOutput(t, k, map[string]any{"bash_id": id}); res.IsError || res.Content != "ID: bash_1\nStatus: completed with exit code 4\nNo new output." {
		t.Errorf("read again: %+v", res)
	}
	// And not killed.
	if res := killShell(t, k, id); !res.IsError || res.Content != "Background command bash_1 has already ended (completed with exit code 4); there is nothing to kill." {
		t.Errorf("kill finished: %+v", res)
	}
	if n := k.bg.Running(); n != 0 {
		t.Errorf("running = %d", n)
	}
}

func writeFile(p string) error { return os.WriteFile(p, nil, 0o644) }

func TestBackgroundKill(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	mark := newMark(t)
	id := startBg(t, k, "export "+mark+"; echo up; sleep 1000 & (sleep 1000 &); nohup sleep 1000 >/dev/null 2>&1 & sleep 1000")
	// Wait for the four sleeps themselves: a count of every marked
	// process passes 4 early, while the subshell's bash is still there,
	// and drops again when it exits.
	sleeps := func() int {
		n := 0
		for _, p := range marked(t, mark) {
			if strings.Contains(p, "(sleep)") {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(waitBound(t))
	for sleeps() < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := sleeps(); n < 4 {
		t.Fatalf("only %d of the 4 sleeps started", n)
	}
	res := killShell(t, k, id)
	if res.IsError || res.Content != "Background command "+id+" was killed, and no process it started was found still running." {
		t.Errorf("kill: %+v", res)
	}
	noneMarked(t, mark)
	// Output printed before the kill is still readable.
	res = bashOutput(t, k, map[string]any{"bash_id": id})
	if want := "ID: " + id + "\nStatus: killed\nOutput since the last read:\nup\n"; res.Content != want {
		t.Errorf("after kill: %q, want %q", res.Content, want)
	}
	if res := killShell(t, k, id); !res.IsError || !strings.Contains(res.Content, "has already ended (killed)") {
		t.Errorf("kill again: %+v", res)
	}
}

func TestBackgroundTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the timeout clamp takes a second (make test runs it)")
	}
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	mark := newMark(t)
	id := startBg(t, k, "export "+mark+"; echo before; sleep 1000 & sleep 1000", "timeout", 1000)
	waitEnded(t, k.bg, id)
	res := bashOutput(t, k, map[string]any{"bash_id": id})
	if want := "ID: " + id + "\nStatus: timed out after 1000ms\nOutput since the last read:\nbefore\n"; res.Content != want {
		t.Errorf("got %q, want %q", res.Content, want)
	}
	noneMarked(t, mark)
}

func TestBackgroundFailedStart(t *testing.T) {
	noLeaks(t)
	k, root := localKit(t, BackgroundLimits{})
	res := callBash(t, k, bashArgs("echo hi", "run_in_background", true), tool.NewContext(tool.WorkDirKey.Bind(root+"/missing")))
	if res.IsError {
		t.Fatalf("start: %+v", res)
	}
	waitEnded(t, k.bg, "bash_1")
	res = bashOutput(t, k, map[string]any{"bash_id": "bash_1"})
	if !strings.HasPrefix(res.Content, "ID: bash_1\nStatus: failed: could not start: ") {
		t.Errorf("got %q", res.Content)
	}
}

func TestBackgroundBadInput(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	for _, tc := range []struct {
		name string
		res  tool.Result
		want string
	}{
		{"unknown output", bashOutput(t, k, map[string]any{"bash_id": "bash_42"}),
			"No background command has the ID 'bash_42'. No background command is running now. IDs are given by Bash when run_in_background is true."},
		{"unknown kill", killShell(t, k, "nope"),
			"No background command has the ID 'nope'. No background command is running now. IDs are given by Bash when run_in_background is true."},
		{"blank output id", bashOutput(t, k, map[string]any{"bash_id": " "}),
			"bash_id is empty. Give the ID Bash returned for a command run with run_in_background."},
		{"blank kill id", killShell(t, k, ""),
			"shell_id is empty. Give the ID Bash returned for a command run with run_in_background."},
		{"missing id", bashOutput(t, k, map[string]any{}),
			"Parameter 'bash_id' is required (string). The tool was not executed."},
		{"wrong key", k.killShellTool().Execute(context.Background(), tool.NewInput(map[string]any{"bash_id": "bash_1"}), tool.Context{}),
			"Parameter 'shell_id' is required (string).\nUnknown parameter 'bash_id'. The tool was not executed."},
	} {
		if !tc.res.IsError || !strings.HasPrefix(tc.res.Content, tc.want) {
			t.Errorf("%s: %+v\nwant %q", tc.name, tc.res, tc.want)
		}
	}

	id := startBg(t, k, "echo keep; sleep 1000")
	waitOutput(t, k.bg, id)
	res := bashOutput(t, k, map[string]any{"bash_id": id, "filter": "("})
	if !res.IsError || !strings.HasPrefix(res.Content, "The filter '(' is not a valid regular expression (RE2 syntax): ") ||
		!strings.HasSuffix(res.Content, "No output was read.") {
		t.Errorf("invalid filter: %+v", res)
	}
	// The invalid filter consumed nothing.
	res = bashOutput(t, k, map[string]any{"bash_id": id})
	if !strings.HasSuffix(res.Content, "Output since the last read:\nkeep\n") {
		t.Errorf("after invalid filter: %q", res.Content)
	}
	// An unknown ID names the running ones.
	res = bashOutput(t, k, map[string]any{"bash_id": "bash_9"})
	if !strings.Contains(res.Content, "Running now: "+id+".") {
		t.Errorf("unknown with running: %q", res.Content)
	}
}

// waitOutput waits until the command id has printed something.
func waitOutput(t *testing.T, m *BackgroundManager, id string) {
	t.Helper()
	deadline := time.Now().Add(waitBound(t))
	for time.Now().Before(deadline) {
		m.mu.Lock()
		n := m.tasks[id].out.size
		m.mu.Unlock()
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s printed nothing", id)
}

func TestBackgroundFilter(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	id := startBg(t, k, `printf 'err 1\nok 2\nerr 3\npartial err'; sleep 1000`)
	deadline := time.Now().Add(waitBound(t))
	for {
		k.bg.mu.Lock()
		n := k.bg.tasks[id].out.size
		k.bg.mu.Unlock()
		if n == len("err 1\nok 2\nerr 3\npartial err") || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	res := bashOutput(t, k, map[string]any{"bash_id": id, "filter": "^err"})
	if want := "ID: " + id + "\nStatus: running\nNew lines matching '^err':\nerr 1\nerr 3\n"; res.Content != want {
		t.Errorf("got %q, want %q", res.Content, want)
	}
	// The unfinished last line waits for its end; the others were discarded.
	killShell(t, k, id)
	res = bashOutput(t, k, map[string]any{"bash_id": id})
	if want := "ID: " + id + "\nStatus: killed\nOutput since the last read:\npartial err"; res.Content != want {
		t.Errorf("got %q, want %q", res.Content, want)
	}
}

func TestBackgroundOutputCut(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	// 70000 characters.
	id := startBg(t, k, `head -c 70000 /dev/zero | tr '\0' 'a'`)
	waitEnded(t, k.bg, id)
	head := "ID: " + id + "\nStatus: completed with exit code 0\nOutput since the last read:\n"
	more := "\n[More output is waiting: call BashOutput again.]"
	for i, want := range []string{
		head + strings.Repeat("a", 30_000) + more,
		head + strings.Repeat("a", 30_000) + more,
		head + strings.Repeat("a", 10_000),
		"ID: " + id + "\nStatus: completed with exit code 0\nNo new output.",
	} {
		if res := bashOutput(t, k, map[string]any{"bash_id": id}); res.Content != want {
			t.Errorf("read %d: %d bytes, ends %q", i, len(res.Content), tail(res.Content))
		}
	}
}

func TestBackgroundOutputCap(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{MaxOutputBytes: 1000})
	id := startBg(t, k, `for i in $(seq 1000 1999); do echo $i; done`) // 5000 bytes
	waitEnded(t, k.bg, id)
	res := bashOutput(t, k, map[string]any{"bash_id": id})
	var want strings.Builder
	for i := 1800; i < 2000; i++ {
		fmt.Fprintf(&want, "%d\n", i)
	}
	if !strings.Contains(res.Content, "[... 4000 bytes of output were dropped before this read: a background command keeps at most 1000 bytes that have not been read; read more often, or filter ...]\n") ||
		!strings.HasSuffix(res.Content, "Output since the last read:\n"+want.String()) {
		t.Errorf("got %q", res.Content)
	}
}

func TestBackgroundMaxRunning(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{MaxRunning: 2})
	a := startBg(t, k, "sleep 1000")
	b := startBg(t, k, "sleep 1000")
	res := callBash(t, k, bashArgs("sleep 1000", "run_in_background", true), tool.NewContext())
	if want := "Too many background commands are running (the limit is 2): " + a + ", " + b + ". Stop one with KillShell, or wait until one ends."; !res.IsError || res.Content != want {
		t.Errorf("third: %+v", res)
	}
	killShell(t, k, a)
	startBg(t, k, "sleep 1000")
	if n := k.bg.Running(); n != 2 {
		t.Errorf("running = %d", n)
	}
}

func TestBackgroundClose(t *testing.T) {
	noLeaks(t)
	mark := newMark(t)
	sh := shell.NewLocal()
	m := NewBackgroundManager(sh, BackgroundLimits{})
	k := newShellKit(sh, t.TempDir(), m)
	ids := []string{
		startBg(t, k, "export "+mark+"; sleep 1000 & sleep 1000"),
		startBg(t, k, "export "+mark+"; (sleep 1000 &); while :; do sleep 1; done"),
	}
	deadline := time.Now().Add(waitBound(t))
	for len(marked(t, mark)) < 4 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > waitBound(t) {
		t.Errorf("Close took %v: it waited for the commands (sleep 1000) instead of stopping them", d)
	}
	if n := m.Running(); n != 0 {
		t.Errorf("running after Close = %d", n)
	}
	noneMarked(t, mark)
	for _, id := range ids {
		r, err := m.Read(id, nil)
		if err != nil || r.Status != StatusKilled || readStatus(r) != "killed: the agent's background manager was closed" {
			t.Errorf("%s: %+v %v", id, r, err)
		}
	}
	res := callBash(t, k, bashArgs("true", "run_in_background", true), tool.NewContext())
	if !res.IsError || res.Content != "Background commands are not available: the agent's background manager has been closed." {
		t.Errorf("after Close: %+v", res)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestBackgroundOutputCutWide(t *testing.T) {
	noLeaks(t)
	k, _ := localKit(t, BackgroundLimits{})
	// 70000 characters of four bytes: a read copies only what its 30000
	// characters can take.
	id := startBg(t, k, `yes $'\360\237\230\200' | head -n 70000 | tr -d '\n'`)
	waitEnded(t, k.bg, id)
	for i, want := range []int{30_000, 30_000, 10_000, 0} {
		r, err := k.bg.Read(id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := utf8.RuneCountInString(r.Output); got != want || strings.Trim(r.Output, "😀") != "" || r.More != (i < 2) {
			t.Errorf("read %d: %d characters (more %v), want %d", i, got, r.More, want)
		}
	}
}
