package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// argv0Procs lists the live processes whose argv[0] is name (as `exec -a
// name` sets it), leaving out zombies and processes on their way out.
func argv0Procs(t *testing.T, name string) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		argv0, _, _ := bytes.Cut(cmdline, []byte{0})
		if string(argv0) != name {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		if _, state, ok := parseProcStat(stat); !ok || state == 'Z' || state == 'X' {
			continue
		}
		if status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status")); err == nil && killPending(status) {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// waitArgv0 waits until n processes named name run, within the test's
// deadline.
func waitArgv0(t *testing.T, name string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	if d, ok := t.Deadline(); ok {
		deadline = d.Add(-5 * time.Second)
	}
	for {
		pids := argv0Procs(t, name)
		if len(pids) >= n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d processes named %s, want %d", len(pids), name, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// killArgv0 kills what is left of the processes named name, at the end of
// the test.
func killArgv0(t *testing.T, name string) {
	t.Cleanup(func() {
		for _, pid := range argv0Procs(t, name) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// TestKillShellTellsTheTruth kills background commands that started a
// process with setsid, through the executor, and checks KillShell's answer
// against the processes /proc shows: with the local shell's process group
// alone the setsid'd process survives and KillShell names it; with a
// cgroup or the shell's sweep of its mark nothing survives, and KillShell
// says so.
//
// Under the bubblewrap sandbox, where this machine has one, nothing
// survives either.
func TestKillShellTellsTheTruth(t *testing.T) {
	noLeaks(t)
	t.Run("local", func(t *testing.T) {
		sh := shell.NewLocal()
		t.Logf("containment: %s", sh.Containment())
		killTruth(t, sh, "", sh.Guarantees().Processes != shell.StopsGroup)
	})
	t.Run("sandbox", func(t *testing.T) {
		if testing.Short() {
			t.Skip("-short: no sandbox case (each command starts bubblewrap); make test runs it")
		}
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		sb, err := shell.NewSandbox(shell.SandboxOptions{Root: root})
		if errors.Is(err, shell.ErrSandboxUnavailable) {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		killTruth(t, sb, root, true)
	})
}

// killTruth is TestKillShellTellsTheTruth for one shell, whose commands
// run in root ("" for a fresh directory); contained says whether the shell
// stops every process.
func killTruth(t *testing.T, sh shell.Shell, root string, contained bool) {
	call, bg := bashExecutor(t, Options{Shell: sh, Root: root})

	for i, tc := range []struct {
		name  string
		after string // what the command does once the escapee is started; NAME is replaced
		ended bool   // the command has ended when KillShell comes
	}{
		{"running", "exec -a NAME sleep 1000", false},
		{"ended", "exit 0", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := fmt.Sprintf("toolgen-test-%x", rand.Uint64())
			killArgv0(t, name)
			killArgv0(t, name+"-main")
			id := "bash_" + strconv.Itoa(i+1)
			command := fmt.Sprintf("setsid bash -c 'exec -a %s sleep 1000' </dev/null >/dev/null 2>&1 & ", name) + strings.ReplaceAll(tc.after, "NAME", name+"-main")
			if res := call("Bash", bashArgs(command, "run_in_background", true)); res.IsError {
				t.Fatalf("start: %+v", res)
			}
			var escapee []int
			if tc.ended {
				waitEnded(t, bg, id)
				if !contained {
					escapee = waitArgv0(t, name, 1)
				}
			} else {
				// Running: the escapee shows up, contained or not.
				escapee = waitArgv0(t, name, 1)
				waitArgv0(t, name+"-main", 1)
			}

			res := call("KillShell", map[string]any{"shell_id": id})

			want := 0 // survivors
			if !contained {
				want = 1
			}
			left := settledArgv0(t, name, want)
			if contained && len(left) != 0 {
				t.Errorf("the shell says it contains every process (%s), but %v survived", containmentOf(sh), left)
			}
			if !contained && len(left) != 1 {
				t.Errorf("with the process group alone the setsid'd process should survive; %d did", len(left))
			}
			if main := argv0Procs(t, name+"-main"); len(main) != 0 {
				t.Errorf("the command itself survived: %v", main)
			}
			answer := killAnswer(id, tc.ended, left, escapee)
			if diff := cmp.Diff(answer, res.Content); diff != "" {
				t.Errorf("KillShell (-want +got):\n%s", diff)
			}
			if res.IsError != tc.ended {
				t.Errorf("IsError = %v", res.IsError)
			}
		})
	}
}

// settledArgv0 is argv0Procs once processes killed a moment ago have gone:
// it waits until at most want are left, for up to waitBound (a loaded
// machine can take longer than the 0.2 s this once waited to reap them).
func settledArgv0(t *testing.T, name string, want int) []int {
	stop := time.Now().Add(waitBound(t))
	for d := time.Millisecond; ; d = min(2*d, 50*time.Millisecond) {
		left := argv0Procs(t, name)
		if len(left) <= want || time.Now().After(stop) {
			return left
		}
		time.Sleep(d)
	}
}

// killAnswer is what KillShell should answer for the command id, given
// the processes left (named in escapee, their PIDs).
func killAnswer(id string, ended bool, left, escapee []int) string {
	survivors := ""
	if len(left) > 0 {
		survivors = fmt.Sprintf("1 process it started is still running (it left the command's process group, which this shell does not stop): PID %d (sleep).", escapee[0])
	}
	switch {
	case ended && len(left) > 0:
		return fmt.Sprintf("Background command %s has already ended (completed with exit code 0); there is nothing to kill. %s", id, survivors)
	case ended:
		return fmt.Sprintf("Background command %s has already ended (completed with exit code 0); there is nothing to kill.", id)
	case len(left) > 0:
		return fmt.Sprintf("Background command %s was killed, but %s", id, survivors)
	}
	return fmt.Sprintf("Background command %s was killed, and no process it started was found still running.", id)
}

// leakyShell is a shell that contains nothing: each command starts, with
// the command's environment entries, a process in a session of its own
// (argv[0] is the command line) and leaves it running. A command line
// ending in " &" then ends at once; any other runs until it is canceled.
type leakyShell struct{}

func (leakyShell) Execute(ctx context.Context, cmd shell.Command, opts shell.Options) (shell.Result, error) {
	name, detach := strings.CutSuffix(cmd.Line, " &")
	c := exec.Command("sleep", "1000")
	c.Args[0] = name
	c.Path, _ = exec.LookPath("sleep")
	c.Env = append([]string{"PATH=" + os.Getenv("PATH")}, opts.Env...)
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := c.Start(); err != nil {
		return shell.Result{}, &shell.StartError{Err: err}
	}
	go c.Wait() // reaped by the test's cleanup kill
	if detach {
		return shell.Result{}, nil
	}
	<-ctx.Done()
	return shell.Result{ExitCode: -1}, &shell.CanceledError{Err: ctx.Err(), Cause: context.Cause(ctx)}
}

// TestKillShellNamesSurvivors checks the answer for a shell that lets
// processes escape: KillShell finds them by the command's marker and names
// them, whether the command was running or had ended.
func TestKillShellNamesSurvivors(t *testing.T) {
	call, bg := bashExecutor(t, Options{Shell: leakyShell{}})
	for i, ended := range []bool{false, true} {
		name := fmt.Sprintf("toolgen-test-%x", rand.Uint64())
		killArgv0(t, name)
		id := "bash_" + strconv.Itoa(i+1)
		line := name
		if ended {
			line += " &"
		}
		if res := call("Bash", bashArgs(line, "run_in_background", true)); res.IsError {
			t.Fatalf("start: %+v", res)
		}
		escapee := waitArgv0(t, name, 1)
		if ended {
			waitEnded(t, bg, id)
		}
		res := call("KillShell", map[string]any{"shell_id": id})
		if diff := cmp.Diff(killAnswer(id, ended, escapee, escapee), res.Content); diff != "" {
			t.Errorf("ended %v: KillShell (-want +got):\n%s", ended, diff)
		}
		if left := argv0Procs(t, name); len(left) != 1 {
			t.Errorf("ended %v: %d processes left, want the escapee", ended, len(left))
		}
	}
}

// TestContainmentInDescriptions checks that the Bash and KillShell
// descriptions end with what the shell guarantees, and that nothing is
// claimed of a shell that says nothing.
func TestContainmentInDescriptions(t *testing.T) {
	local := shell.NewLocal()
	type shellCase struct {
		name string
		sh   shell.Shell
		want string
	}
	cases := []shellCase{
		{"local", local, guaranteeText(local.Guarantees())},
		{"unknown", &fakeShell{}, containUnknown},
	}
	for _, network := range []bool{false, true} {
		sb, err := shell.NewSandbox(shell.SandboxOptions{Root: t.TempDir(), Network: network})
		if err != nil {
			t.Logf("no sandbox: %v", err)
			break
		}
		want := containAll + " " + sandboxFiles + " " + sandboxNoNetwork
		if network {
			want = containAll + " " + sandboxFiles + " " + sandboxNetwork
		}
		cases = append(cases, shellCase{fmt.Sprintf("sandbox network %v", network), sb, want})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := Tools(Options{Shell: tc.sh, Tools: []string{BashName, BashOutputName, KillShellName}})
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range ts {
				d := tl.Definition()
				switch d.Name {
				case BashName, KillShellName:
					if !strings.HasSuffix(d.Description, ". "+tc.want) {
						t.Errorf("%s: description ends %q, want %q", d.Name, tail(d.Description), tc.want)
					}
				}
				if strings.Contains(d.Description, "every process the command starts is stopped") {
					t.Errorf("%s claims what no shell promised: %q", d.Name, d.Description)
				}
			}
		})
	}
	for _, tc := range []struct {
		g    shell.Guarantees
		want string
	}{
		{shell.Guarantees{Processes: shell.StopsAll}, containAll},
		{shell.Guarantees{Processes: shell.StopsMarked}, containSwept},
		{shell.Guarantees{Processes: shell.StopsGroup}, containGroup},
		{shell.Guarantees{}, containGroup},
		{shell.Guarantees{Processes: shell.StopsAll, ConfinedWrites: true, NoNetwork: true}, containAll + " " + sandboxFiles + " " + sandboxNoNetwork},
		{shell.Guarantees{Processes: shell.StopsAll, ConfinedWrites: true}, containAll + " " + sandboxFiles + " " + sandboxNetwork},
		{shell.Guarantees{Processes: shell.StopsAll, ConfinedWrites: true, NoNetwork: true, UnixSockets: []string{"/run/a.sock", "/var/tmp/b.sock"}},
			containAll + " " + sandboxFiles + " There is no network: no connection leaves the command, not even to this machine, except to these unix sockets of it: /run/a.sock, /var/tmp/b.sock."},
	} {
		if got := guaranteeText(tc.g); got != tc.want {
			t.Errorf("guaranteeText(%+v) = %q, want %q", tc.g, got, tc.want)
		}
	}
	// The generated tools keep their behaviours under the wrapper.
	k := newShellKit(&fakeShell{}, "", nil)
	if !k.bashTool().Definition().Subject.Declared() || k.bashTool().Definition().SideEffect != tool.Destructive {
		t.Error("the Bash wrapper lost a behaviour")
	}
}

// BenchmarkMarkedProcs is the cost of one look through the process table
// for a command's marker, which KillShell makes two or more times.
func BenchmarkMarkedProcs(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := markedProcs("bash_1-benchmark"); err != nil {
			b.Fatal(err)
		}
	}
	ents, _ := os.ReadDir("/proc")
	b.ReportMetric(float64(len(ents)), "proc-entries")
}
