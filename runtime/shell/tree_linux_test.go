package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

var treeSeq atomic.Int64

// The tree is three levels deep, with background `&` children at each
// level, a `(sleep 1000 &)` orphan and a nohup'd sleep. Each level appends
// a line to $TREE_READY once its children are launched; the top prints
// "started" when all three have. $TREE_TRAP runs first at each level.
const (
	treeLevel3 = `eval "$TREE_TRAP"; sleep 1000 & (sleep 1000 &); nohup sleep 1000 >/dev/null 2>&1 & echo >> "$TREE_READY"; sleep 1000`
	treeLevel2 = `eval "$TREE_TRAP"; bash "$TREE_DIR/level3.sh" & sleep 1000 & echo >> "$TREE_READY"; sleep 1000`
	treeTop    = `eval "$TREE_TRAP"
bash "$TREE_DIR/level2.sh" &
(sleep 1000 &)
nohup sleep 1000 >/dev/null 2>&1 &
echo >> "$TREE_READY"
until [ "$(wc -l < "$TREE_READY")" -ge 3 ]; do sleep 0.01; done
echo started
`
	// treeSize is the processes of the tree once it is up, not counting
	// the top's last command.
	treeSize = 11
)

// treeEnv writes the level scripts and returns the variables of a tree run.
func treeEnv(t *testing.T, mark, trap string) []string {
	dir := t.TempDir()
	for name, body := range map[string]string{"level2.sh": treeLevel2, "level3.sh": treeLevel3, "ready": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return []string{mark, "TREE_DIR=" + dir, "TREE_READY=" + filepath.Join(dir, "ready"), "TREE_TRAP=" + trap}
}

// marked lists the live (non-zombie) processes whose environment holds
// mark: every descendant of a run whose Env set it, wherever it went.
func marked(t *testing.T, mark string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	needle := []byte(mark + "\x00")
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, needle) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// state is the field after the parenthesised command name
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		found = append(found, e.Name()+":"+strings.ReplaceAll(strings.TrimSpace(string(cmdline)), "\x00", " "))
	}
	return found
}

// waitMarked polls until the number of marked processes satisfies ok.
func waitMarked(t *testing.T, mark string, within time.Duration, ok func(int) bool) []string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		p := marked(t, mark)
		if ok(len(p)) || time.Now().After(deadline) {
			return p
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func newMark() string {
	return fmt.Sprintf("TOOLGEN_SHELL_TREE=%d-%d", os.Getpid(), treeSeq.Add(1))
}

func requireProc(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
}

// TestKilledTreeLeavesNothing shows, by reading /proc, that no process of a
// tree survives the end of its run: a timeout, a cancellation, bash
// exiting while its background children still run, and bash ignoring TERM.
func TestKilledTreeLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("killed process trees take seconds each; run without -short")
	}
	requireProc(t)
	tests := []struct {
		name   string
		end    string // the top's last command
		trap   string
		cancel bool // cancel ctx once the tree is up
		check  func(t *testing.T, res Result, err error)
	}{
		{name: "timeout", end: "sleep 1000", check: func(t *testing.T, res Result, err error) {
			var te *TimeoutError
			if !errors.As(err, &te) || string(te.Stdout) != "started\n" {
				t.Errorf("error = %v, want *TimeoutError with the partial output", err)
			}
		}},
		{name: "cancel", end: "sleep 1000", cancel: true, check: func(t *testing.T, res Result, err error) {
			var ce *CanceledError
			if !errors.As(err, &ce) || !errors.Is(err, context.Canceled) || string(ce.Stdout) != "started\n" {
				t.Errorf("error = %v, want *CanceledError with the partial output", err)
			}
		}},
		{name: "bash exits first", end: "sleep 0.3; exit 7", check: func(t *testing.T, res Result, err error) {
			if err != nil || res.ExitCode != 7 || string(res.Stdout) != "started\n" {
				t.Errorf("Execute = %+v, %v; want exit 7 and no error", res, err)
			}
		}},
		{name: "TERM ignored all the way down", end: "sleep 1000", trap: "trap '' TERM", check: func(t *testing.T, res Result, err error) {
			var te *TimeoutError
			if !errors.As(err, &te) || res.Signal != syscall.SIGKILL {
				t.Errorf("error = %v signal %v, want *TimeoutError and SIGKILL", err, res.Signal)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer goleak.VerifyNone(t)
			mark := newMark()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			started := make(chan struct{})
			var once sync.Once
			live := writerFunc(func(p []byte) (int, error) {
				if bytes.Contains(p, []byte("started")) {
					once.Do(func() { close(started) })
				}
				return len(p), nil
			})
			var seen []string
			watchDone := make(chan struct{})
			go func() { // once the tree is up, count it; then cancel if asked
				defer close(watchDone)
				select {
				case <-started:
				case <-time.After(boundFor(t)):
					return
				}
				seen = waitMarked(t, mark, boundFor(t), func(n int) bool { return n >= treeSize })
				if tt.cancel {
					cancel()
				}
			}()
			// Timeout is generous so that a loaded machine still builds the
			// whole tree first; the timeout cases take that long.
			res, err := NewLocal().Execute(ctx, Command{Line: treeTop + tt.end},
				Options{Timeout: 4 * time.Second, KillGrace: 200 * time.Millisecond, Env: treeEnv(t, mark, tt.trap), LiveStdout: live})
			<-watchDone
			tt.check(t, res, err)
			if len(seen) < treeSize {
				t.Errorf("the tree never grew: saw %d processes, want %d:\n%s", len(seen), treeSize, strings.Join(seen, "\n"))
			}
			// SIGKILL has been sent to every member before Execute returned;
			// allow the kernel a moment to finish them.
			if left := waitMarked(t, mark, boundFor(t), func(n int) bool { return n == 0 }); len(left) > 0 {
				t.Errorf("processes survived the run:\n%s", strings.Join(left, "\n"))
				for _, p := range left {
					pid, _ := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
					syscallKill(pid)
				}
			}
		})
	}
}

// TestExplicitCgroup runs a command whose setsid'd child leaves the
// process group under Options.Cgroup: cgroup.kill ends it, and the run's
// cgroup is removed. It runs only where this process may create cgroup v2
// children.
func TestExplicitCgroup(t *testing.T) {
	requireProc(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid(1)")
	}
	defer goleak.VerifyNone(t)
	parent := writableCgroup(t)
	mark := newMark()
	// "done" once setsid has given the child a session of its own (field 6
	// of /proc/PID/stat), so that the timeout finds it out of the group.
	line := "setsid sleep 1000 >/dev/null 2>&1 < /dev/null & " +
		`until [ "$(cut -d' ' -f6 /proc/$!/stat)" != "$(cut -d' ' -f6 /proc/$$/stat)" ]; do sleep 0.01; done; ` +
		"echo done; sleep 1000"
	// The command gets that far in a few milliseconds (no retry in 20
	// runs at 100 ms under a load of 4 on two cores); a loaded machine
	// that has not is given the run again with twice the time, up to
	// boundFor(t). The timeout itself tests nothing: how long it is only
	// sets how long the test waits.
	for timeout := 100 * time.Millisecond; ; timeout *= 2 {
		res, err := NewLocal().Execute(context.Background(), Command{Line: line},
			Options{Timeout: timeout, Cgroup: parent, Env: []string{mark}, KillGrace: 100 * time.Millisecond})
		var te *TimeoutError
		if errors.As(err, &te) && string(res.Stdout) == "done\n" {
			break
		}
		if !errors.As(err, &te) || len(res.Stdout) > 0 || 2*timeout > boundFor(t) {
			t.Fatalf("Execute = %q, %v; want a timeout after done", res.Stdout, err)
		}
		t.Logf("the child had no session of its own after %v (a loaded machine): again with twice the time", timeout)
	}
	if left := waitMarked(t, mark, boundFor(t), func(n int) bool { return n == 0 }); len(left) > 0 {
		t.Errorf("processes survived cgroup.kill: %q", left)
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("toolgen-shell-%d-", os.Getpid())) {
			t.Errorf("cgroup %s left behind", e.Name())
		}
	}
}

// writableCgroup returns this process's cgroup v2 directory if children
// can be created in it, else skips.
func writableCgroup(t *testing.T) string {
	t.Helper()
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Skip("no /proc/self/cgroup")
	}
	var rel string
	for _, line := range strings.Split(string(own), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel = p
		}
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil || rel == "" {
		t.Skip("no cgroup v2 membership")
	}
	for _, line := range strings.Split(string(mounts), "\n") {
		before, after, ok := strings.Cut(line, " - ")
		if !ok || !strings.HasPrefix(after, "cgroup2 ") {
			continue
		}
		fields := strings.Fields(before)
		if len(fields) < 5 || fields[3] != "/" {
			continue
		}
		dir := filepath.Join(fields[4], rel)
		probe := filepath.Join(dir, fmt.Sprintf("toolgen-probe-%d", os.Getpid()))
		if err := os.Mkdir(probe, 0o755); err != nil {
			t.Skipf("cgroup v2 at %s not writable: %v", dir, err)
		}
		_, err := os.Stat(filepath.Join(probe, "cgroup.kill"))
		os.Remove(probe)
		if err != nil {
			t.Skip("no cgroup.kill (Linux < 5.14)")
		}
		return dir
	}
	t.Skip("no cgroup v2 mount")
	return ""
}
