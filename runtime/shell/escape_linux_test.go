package shell

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// A shell under test, with the containment it is meant to use.
type testShell struct {
	name string
	sh   Shell
}

// containedShells are the shells whose runs must leave nothing behind:
// Local with its automatic cgroup (skipped where this process may not
// create one), Local with the /proc sweep, and the sandbox (skipped where
// bubblewrap cannot run).
func containedShells(t *testing.T) []testShell {
	t.Helper()
	requireProc(t)
	shells := []testShell{{name: "local sweep", sh: &Local{noAuto: true}}}
	if l := NewLocal(); strings.HasPrefix(l.Containment(), "cgroup") {
		shells = append(shells, testShell{name: "local cgroup", sh: l})
	} else {
		t.Logf("no local cgroup case: %s", l.Containment())
	}
	if testing.Short() {
		t.Log(shortNoSandbox)
	} else if s, err := NewSandbox(SandboxOptions{Root: t.TempDir()}); err == nil {
		shells = append(shells, testShell{name: "sandbox", sh: s})
	} else if errors.Is(err, ErrSandboxUnavailable) {
		t.Logf("no sandbox case: %v", err)
	} else {
		t.Fatal(err)
	}
	return shells
}

// shortNoSandbox is what -short says it leaves out: every command run in
// the sandbox starts bubblewrap and new namespaces (about 0.3 s each on two
// busy cores, some 20 s for the package). `make test` runs them.
const shortNoSandbox = "-short: no sandbox cases (each command starts bubblewrap); make test runs them"

// newTestSandbox returns a sandbox over o (Root a fresh temporary
// directory when empty), or skips where this machine cannot run one.
func newTestSandbox(t *testing.T, o SandboxOptions) *Sandbox {
	t.Helper()
	requireProc(t)
	if testing.Short() {
		t.Skip(shortNoSandbox)
	}
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	s, err := NewSandbox(o)
	if errors.Is(err, ErrSandboxUnavailable) {
		t.Skipf("the sandbox cannot run here: %v", err)
	}
	if err != nil {
		t.Fatalf("NewSandbox: %v", err)
	}
	return s
}

// newArgv0 returns a process name unique to this test run, for `exec -a`.
func newArgv0(t *testing.T) string {
	b := make([]byte, 6)
	rand.Read(b)
	mark := "toolgen-test-" + hex.EncodeToString(b)
	t.Cleanup(func() { // a failing test leaves nothing running either
		for _, pid := range argv0Procs(mark) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return mark
}

// argv0Procs lists the live processes whose argv[0] is name, wherever
// they are: this machine's /proc sees every pid namespace.
func argv0Procs(name string) []int {
	var pids []int
	prefix := []byte(name + "\x00")
	for _, pid := range procPIDs() {
		cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil || !bytes.HasPrefix(cmdline, prefix) {
			continue
		}
		if st, ok := readStat(pid); ok && st.state != 'Z' && st.state != 'X' {
			pids = append(pids, pid)
		}
	}
	return pids
}

// waitProcs polls until ok holds for the number of processes named name,
// or stop is closed, or the bound passes; it returns the last count.
func waitProcs(name string, bound time.Duration, stop <-chan struct{}, ok func(int) bool) int {
	deadline := time.Now().Add(bound)
	for {
		n := len(argv0Procs(name))
		if ok(n) || time.Now().After(deadline) {
			return n
		}
		select {
		case <-stop:
			return len(argv0Procs(name))
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// boundFor is how long a test may wait for something that takes
// milliseconds on a quiet machine: a third of what is left before the
// test's deadline, at most a minute.
func boundFor(t *testing.T) time.Duration {
	b := time.Minute
	if d, ok := t.Deadline(); ok {
		b = min(b, time.Until(d)/3)
	}
	return b
}

// TestNothingEscapes runs, in every contained shell, the commands an
// outside review found leaving processes running after the run ended, and
// counts the survivors in /proc: zero. Each command starts its escapes
// (named by `exec -a`), says "started" and waits on stdin; the test counts
// the escapes while they run (so that a zero afterwards means something),
// then lets the command go on to its end: exit, a timeout or a
// cancellation (the Bash tool's KillShell).
func TestNothingEscapes(t *testing.T) {
	if testing.Short() {
		t.Skip("process-tree escapes under three containments take about a minute; run without -short")
	}
	const wait = `echo started; read -r _; `
	tests := []struct {
		name    string
		launch  string // starts the processes named $M
		n       int    // how many
		end     string // after the go-ahead
		timeout time.Duration
		cancel  bool
		// sweepSurvivors are the processes the sweep cannot find (they
		// dropped the run's mark); cleaned up by the test.
		sweepSurvivors int
	}{
		{name: "setsid, timeout", launch: `setsid bash -c 'exec -a "$M" sleep 303' & `, n: 1, end: "sleep 5", timeout: 2 * time.Second},
		{name: "set -m and disown, exit", launch: `set -m; (exec -a "$M" sleep 302) & disown; `, n: 1, end: "exit 0"},
		{name: "setsid, killed (KillShell)", launch: `setsid bash -c 'exec -a "$M" sleep 301' & `, n: 1, end: "sleep 1000", cancel: true},
		{name: "double fork and setsid, exit", launch: `(setsid bash -c '(exec -a "$M" sleep 300 &)' &); `, n: 1, end: "exit 0"},
		{name: "nohup in a new session, exit 3", launch: `setsid nohup bash -c 'exec -a "$M" sleep 304' >/dev/null 2>&1 & `, n: 1, end: "exit 3"},
		{name: "500 processes, exit", launch: `for i in $(seq 500); do (exec -a "$M" sleep 1000) & done; `, n: 500, end: "exit 0"},
		{name: "environment cleared, setsid, exit", launch: `env -i setsid bash -c "exec -a $M sleep 299" & `, n: 1, end: "exit 0", sweepSurvivors: 1},
	}
	for _, ts := range containedShells(t) {
		t.Run(ts.name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					defer goleak.VerifyNone(t)
					mark := newArgv0(t)
					bound := boundFor(t)
					stdinR, stdinW, err := os.Pipe()
					if err != nil {
						t.Fatal(err)
					}
					defer stdinR.Close()
					defer stdinW.Close()
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
					returned := make(chan struct{})
					seen := 0
					watched := make(chan struct{})
					go func() {
						defer close(watched)
						select {
						case <-started:
						case <-returned:
							return
						}
						seen = waitProcs(mark, bound, returned, func(n int) bool { return n >= tt.n })
						stdinW.Write([]byte("go\n"))
						if tt.cancel {
							cancel()
						}
					}()
					timeout := tt.timeout
					if timeout == 0 {
						timeout = bound
					}
					res, err := ts.sh.Execute(ctx, Command{Line: tt.launch + wait + tt.end}, Options{
						Timeout: timeout, KillGrace: 200 * time.Millisecond, Env: []string{"M=" + mark},
						Stdin: stdinR, LiveStdout: live, MergeOutput: true,
					})
					close(returned)
					<-watched

					switch {
					case tt.timeout > 0:
						var te *TimeoutError
						if !errors.As(err, &te) {
							t.Errorf("error = %v, want a *TimeoutError", err)
						}
					case tt.cancel:
						if !errors.Is(err, context.Canceled) {
							t.Errorf("error = %v, want a cancellation", err)
						}
					default:
						want, _ := strconv.Atoi(strings.TrimPrefix(tt.end, "exit "))
						if err != nil || res.ExitCode != want {
							t.Errorf("Execute = exit %d, %v; want exit %d (output %q)", res.ExitCode, err, want, res.Stdout)
						}
					}
					if seen < tt.n {
						t.Fatalf("saw %d of the %d processes while the command ran (output %q)", seen, tt.n, res.Stdout)
					}
					want := 0
					if ts.name == "local sweep" {
						want = tt.sweepSurvivors
					}
					left := waitProcs(mark, boundFor(t), nil, func(n int) bool { return n <= want })
					if left != want {
						t.Errorf("%d processes survived the run, want %d", left, want)
					}
				})
			}
		})
	}
}

// TestLocalContainment shows what Local chooses and that it can be read
// before any run.
func TestLocalContainment(t *testing.T) {
	requireProc(t)
	sweep := (&Local{noAuto: true}).Containment()
	if !strings.HasPrefix(sweep, "process group and /proc sweep") {
		t.Errorf("Containment() with the automatic cgroup off = %q", sweep)
	}
	got := NewLocal().Containment()
	_, cgErr := ownCgroup()
	t.Logf("NewLocal().Containment() = %q", got)
	if !strings.HasPrefix(got, "cgroup ") && !strings.HasPrefix(got, "process group") {
		t.Errorf("Containment() = %q, want it to begin with cgroup or process group", got)
	}
	if strings.HasPrefix(got, "cgroup ") && cgErr != nil {
		t.Errorf("Containment() = %q, but there is no cgroup v2: %v", got, cgErr)
	}
}

// TestAutoCgroupIsRemoved checks that the per-run cgroups of the
// automatic containment do not pile up.
func TestAutoCgroupIsRemoved(t *testing.T) {
	requireProc(t)
	l := NewLocal()
	if !strings.HasPrefix(l.Containment(), "cgroup") {
		t.Skipf("no automatic cgroup here: %s", l.Containment())
	}
	res, err := l.Execute(context.Background(), Command{Line: "cat /proc/self/cgroup"}, Options{Timeout: boundFor(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(res.Stdout, []byte(fmt.Sprintf("/toolgen-shell-%d-", os.Getpid()))) {
		t.Errorf("the command ran in %q, not in a cgroup of its own", res.Stdout)
	}
	entries, _ := os.ReadDir(l.cgroup)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("toolgen-shell-%d-", os.Getpid())) {
			t.Errorf("cgroup %s left behind", filepath.Join(l.cgroup, e.Name()))
		}
	}
}
