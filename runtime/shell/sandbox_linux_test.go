package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestNewSandboxErrors(t *testing.T) {
	requireProc(t)
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	failing := filepath.Join(t.TempDir(), "bwrap")
	if err := os.WriteFile(failing, []byte("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		opts        SandboxOptions
		unavailable bool
		want        string // in the message
	}{
		{name: "no root", opts: SandboxOptions{}, want: "Root is required"},
		{name: "missing root", opts: SandboxOptions{Root: filepath.Join(root, "nope")}, want: "Root: lstat"},
		{name: "root is a file", opts: SandboxOptions{Root: file}, want: "is not a directory"},
		{name: "root is /", opts: SandboxOptions{Root: "/"}, want: "whole file system writable"},
		{name: "missing writable", opts: SandboxOptions{Root: root, Writable: []string{filepath.Join(root, "nope")}}, want: "Writable: lstat"},
		{name: "writable /", opts: SandboxOptions{Root: root, Writable: []string{"/"}}, want: "whole file system writable"},
		{name: "hide holds root", opts: SandboxOptions{Root: root, Hide: []string{filepath.Dir(root)}}, want: "would hide " + root},
		{name: "no bwrap", opts: SandboxOptions{Root: root, Bwrap: filepath.Join(root, "no-such-bwrap")}, unavailable: true, want: "install the bubblewrap package"},
		{name: "bwrap cannot create namespaces", opts: SandboxOptions{Root: root, Bwrap: failing}, unavailable: true,
			want: "cannot create the sandbox (exit status 1): bwrap: No permissions to create new namespace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSandbox(tt.opts)
			if err == nil {
				t.Fatalf("NewSandbox = %v, want an error", s)
			}
			if got := errors.Is(err, ErrSandboxUnavailable); got != tt.unavailable {
				t.Errorf("errors.Is(%q, ErrSandboxUnavailable) = %v, want %v", err, got, tt.unavailable)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not say %q", err, tt.want)
			}
		})
	}
}

// outsideTmp makes a directory outside /tmp (the sandbox's /tmp is its
// own, so a host directory there is invisible rather than read-only).
func outsideTmp(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/tmp", "toolgen-shell-test-")
	if err != nil {
		t.Skipf("no directory outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func TestSandboxFileSystem(t *testing.T) {
	defer goleak.VerifyNone(t)
	root := t.TempDir()
	for _, d := range []string{"sub", ".git"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".git", "HEAD"), []byte("ref\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := outsideTmp(t)
	secret := filepath.Join(outside, "secret")
	for _, p := range []string{secret, filepath.Join(outside, "writable")} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(secret, "key"), []byte("KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secretFile := filepath.Join(outside, "token")
	if err := os.WriteFile(secretFile, []byte("TOKEN\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hostTmp, err := os.CreateTemp("", "toolgen-host-only-")
	if err != nil {
		t.Fatal(err)
	}
	hostTmp.Close()
	t.Cleanup(func() { os.Remove(hostTmp.Name()) })

	s := newTestSandbox(t, SandboxOptions{
		Root:     root,
		Writable: []string{filepath.Join(outside, "writable")},
		ReadOnly: []string{filepath.Join(root, ".git"), filepath.Join(root, "absent")},
		Hide:     []string{secret, secretFile, filepath.Join(outside, "absent")},
	})
	tests := []struct {
		name string
		line string
		dir  string
		want outcome
	}{
		{name: "write in the workspace", line: "echo hi > made && cat made", want: outcome{Stdout: "hi\n"}},
		{name: "runs in Root by default", line: "pwd", want: outcome{Stdout: root + "\n"}},
		{name: "relative Dir is from Root", line: "pwd; echo x > here", dir: "sub", want: outcome{Stdout: filepath.Join(root, "sub") + "\n"}},
		{name: "read /etc", line: "test -s /etc/passwd && head -c 0 /etc/passwd && echo read", want: outcome{Stdout: "read\n"}},
		{name: "write /etc", line: "echo x > /etc/toolgen-test || echo refused",
			want: outcome{Stdout: "refused\n", Stderr: "bash: line 1: /etc/toolgen-test: Read-only file system\n"}},
		{name: "write outside the workspace", line: "echo x > " + outside + "/escape || echo refused",
			want: outcome{Stdout: "refused\n", Stderr: "bash: line 1: " + outside + "/escape: Read-only file system\n"}},
		// $HOME is a tmpfs of the run's own: a write there succeeds and
		// stays inside (checked on the host below).
		{name: "write $HOME", line: `touch "$HOME/.toolgen-test" && echo inside`, want: outcome{Stdout: "inside\n"}},
		{name: "write /var/tmp", line: "touch /var/tmp/toolgen-test 2>/dev/null || echo refused", want: outcome{Stdout: "refused\n"}},
		{name: "writable path", line: "echo w > " + outside + "/writable/f && cat " + outside + "/writable/f", want: outcome{Stdout: "w\n"}},
		{name: "read-only path in the workspace", line: "cat .git/HEAD; echo x > .git/HEAD || echo refused",
			want: outcome{Stdout: "ref\nrefused\n", Stderr: "bash: line 1: .git/HEAD: Read-only file system\n"}},
		{name: "hidden directory", line: "ls -A " + secret + "; cat " + secret + "/key 2>/dev/null || echo unreadable; touch " + secret + "/k 2>/dev/null || echo refused",
			want: outcome{Stdout: "unreadable\nrefused\n"}},
		{name: "hidden file", line: "cat " + secretFile + " 2>/dev/null || echo unreadable; echo x > " + secretFile + " || echo refused",
			want: outcome{Stdout: "unreadable\nrefused\n", Stderr: "bash: line 1: " + secretFile + ": Permission denied\n"}},
		{name: "only the standard descriptors", line: "ls /proc/self/fd", want: outcome{Stdout: "0\n1\n2\n3\n"}},
		{name: "private /tmp", line: "test -e " + hostTmp.Name() + " || echo absent; echo t > /tmp/mine && cat /tmp/mine", want: outcome{Stdout: "absent\nt\n"}},
		{name: "private /run", line: "ls -A /run | grep -v systemd | wc -l", want: outcome{Stdout: "0\n"}},
		{name: "no capabilities", line: "grep CapEff /proc/self/status", want: outcome{Stdout: "CapEff:\t0000000000000000\n"}},
		{name: "no remount", line: "mount -o remount,rw / 2>/dev/null || echo refused", want: outcome{Stdout: "refused\n"}},
		{name: "cgroups read-only", line: `for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/unified/cgroup.procs; do [ -e $f ] && { echo $$ > $f; } 2>/dev/null && echo wrote; done; echo done`,
			want: outcome{Stdout: "done\n"}},
		{name: "own pid namespace", line: "echo $$; ls /proc | grep -c '^[0-9]'", want: outcome{Stdout: "2\n4\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Execute(context.Background(), Command{Line: tt.line}, Options{Timeout: boundFor(t), Dir: tt.dir})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, outcomeOf(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, p := range []string{filepath.Join(root, "made"), filepath.Join(root, "sub", "here"), filepath.Join(outside, "writable", "f")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the sandbox's write did not reach the host: %v", err)
		}
	}
	for _, p := range []string{filepath.Join(outside, "escape"), "/etc/toolgen-test", filepath.Join(os.TempDir(), "mine"), filepath.Join(os.Getenv("HOME"), ".toolgen-test")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written from the sandbox", p)
			os.Remove(p)
		}
	}
}

func TestSandboxDirErrors(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink("/etc", filepath.Join(root, "etc")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSandbox(t, SandboxOptions{Root: root})
	tests := []struct{ name, dir, want string }{
		{name: "outside", dir: "/etc", want: "outside the sandbox's workspace"},
		{name: "link out of the workspace", dir: "etc", want: "outside the sandbox's workspace"},
		{name: "dot dot", dir: "..", want: "outside the sandbox's workspace"},
		{name: "missing", dir: "nope", want: "no such file or directory"},
		{name: "a file", dir: "file", want: "is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Execute(context.Background(), Command{Line: "pwd"}, Options{Timeout: boundFor(t), Dir: tt.dir})
			var se *StartError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want a *StartError saying %q", err, tt.want)
			}
			if diff := cmp.Diff(Result{}, res); diff != "" {
				t.Errorf("Result not zero (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSandboxNetwork connects to a listener of this test on 127.0.0.1:
// refused with the network off (the sandbox's loopback is its own), made
// with it on.
func TestSandboxNetwork(t *testing.T) {
	defer goleak.VerifyNone(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
			accepted <- struct{}{}
		}
	}()
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	line := "exec 3<>/dev/tcp/127.0.0.1/" + port + " && echo connected"
	for _, tt := range []struct {
		network bool
		want    outcome
	}{
		{network: false, want: outcome{ExitCode: 1}},
		{network: true, want: outcome{Stdout: "connected\n"}},
	} {
		t.Run("network "+strconv.FormatBool(tt.network), func(t *testing.T) {
			s := newTestSandbox(t, SandboxOptions{Network: tt.network})
			res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
			if err != nil {
				t.Fatal(err)
			}
			got := outcomeOf(res)
			got.Stderr = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nstderr: %s", diff, res.Stderr)
			}
			select {
			case <-accepted:
				if !tt.network {
					t.Error("the listener accepted a connection from a sandbox without network")
				}
			default:
				if tt.network {
					t.Error("the listener saw no connection")
				}
			}
		})
	}
}

func TestSandboxEnvironment(t *testing.T) {
	defer goleak.VerifyNone(t)
	s := newTestSandbox(t, SandboxOptions{})
	t.Setenv("TOOLGEN_TEST_SECRET", "s3cret-value")
	t.Setenv("TMPDIR", "/host/tmp")
	t.Setenv("BASH_ENV", "/nonexistent-but-scrubbed")
	// bash sets PWD, SHLVL and _ itself.
	line := `env | cut -d= -f1 | grep -vx -e PWD -e SHLVL -e _ | sort | tr '\n' ' '; echo; echo "TMPDIR=$TMPDIR"`
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{name: "minimal", want: "HOME LANG PATH TERM TMPDIR USER \nTMPDIR=/tmp\n"},
		{name: "PassEnv adds host variables, never TMPDIR", opts: Options{PassEnv: []string{"TOOLGEN_TEST_*", "TMPDIR", "BASH_ENV"}},
			want: "HOME LANG PATH TERM TMPDIR TOOLGEN_TEST_SECRET USER \nTMPDIR=/tmp\n"},
		{name: "Env sets, scrubbed names stay out", opts: Options{Env: []string{"A=1", "TMPDIR=/tmp/x", "BASH_FUNC_f%%=() { :; }"}},
			want: "A HOME LANG PATH TERM TMPDIR USER \nTMPDIR=/tmp/x\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Timeout = boundFor(t)
			res, err := s.Execute(context.Background(), Command{Line: line}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outcome{Stdout: tt.want}, outcomeOf(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("a secret of the host is not printed", func(t *testing.T) {
		res, err := s.Execute(context.Background(), Command{Line: "printenv; cat /proc/1/environ /proc/self/environ 2>/dev/null"}, Options{Timeout: boundFor(t), PassEnv: MinimalEnv})
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(res.Stdout, []byte("s3cret-value")) {
			t.Errorf("the host's secret reached the command:\n%s", res.Stdout)
		}
	})
}

func TestSandboxLimits(t *testing.T) {
	defer goleak.VerifyNone(t)
	show := "ulimit -t; ulimit -f; ulimit -u; ulimit -v"
	tests := []struct {
		name   string
		limits Limits
		line   string
		want   outcome
	}{
		{name: "defaults", line: show, want: outcome{Stdout: "600\n1048576\n1024\n8388608\n"}},
		{name: "none", limits: Limits{CPUTime: -1, FileSize: -1, Processes: -1, Memory: -1}, line: "ulimit -t; ulimit -f; ulimit -v",
			want: outcome{Stdout: "unlimited\nunlimited\nunlimited\n"}},
		{name: "rounded", limits: Limits{CPUTime: 1500 * time.Millisecond, FileSize: 1000, Processes: 64, Memory: 100<<20 + 5}, line: show,
			want: outcome{Stdout: "2\n1\n64\n102400\n"}},
		{name: "file size binds", limits: Limits{FileSize: 64 << 10}, line: "head -c 100000 /dev/zero > big; echo $?; wc -c < big",
			want: outcome{Stdout: "153\n65536\n"}},
		{name: "memory binds", limits: Limits{Memory: 64 << 20}, line: `(x=$(head -c 100000000 /dev/zero | tr '\0' a)) 2>/dev/null && echo allocated || echo refused`,
			want: outcome{Stdout: "refused\n"}},
		{name: "tmp size binds", limits: Limits{TmpSize: 1 << 20}, line: "head -c 2000000 /dev/zero > /tmp/big 2>/dev/null; echo $?; wc -c < /tmp/big; df -k /run | tail -n 1 | tr -s ' ' | cut -d ' ' -f 2",
			want: outcome{Stdout: "1\n1048576\n1024\n"}},
		{name: "dev shm size binds", limits: Limits{TmpSize: 1 << 20}, line: "head -c 2000000 /dev/zero > /dev/shm/big 2>/dev/null; echo $?; wc -c < /dev/shm/big; df -k /dev/shm | tail -n 1 | tr -s ' ' | cut -d ' ' -f 2",
			want: outcome{Stdout: "1\n1048576\n1024\n"}},
		{name: "dev is read-only and usable", limits: Limits{TmpSize: 1 << 20}, line: "head -c 2000000 /dev/zero > /dev/big 2>/dev/null || echo refused; echo x > /dev/null && head -c 3 /dev/urandom | wc -c",
			want: outcome{Stdout: "refused\n3\n"}},
		{name: "the command cannot raise them", limits: Limits{FileSize: 64 << 10}, line: "ulimit -f unlimited 2>/dev/null || echo refused",
			want: outcome{Stdout: "refused\n"}},
	}
	if !testing.Short() {
		tests = append(tests, struct {
			name   string
			limits Limits
			line   string
			want   outcome
		}{name: "cpu time binds", limits: Limits{CPUTime: time.Second}, line: "while :; do :; done", want: outcome{ExitCode: 128 + int(syscall.SIGKILL)}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSandbox(t, SandboxOptions{Limits: tt.limits})
			res, err := s.Execute(context.Background(), Command{Line: tt.line}, Options{Timeout: boundFor(t)})
			if err != nil {
				t.Fatal(err)
			}
			got := outcomeOf(res)
			got.Stderr = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s\nstderr: %s", diff, res.Stderr)
			}
		})
	}
}

// TestSandboxTimeoutEmptiesNamespace reads the command's pid namespace,
// lets the timeout stop a tree of processes in it, and then finds no
// process of this machine left in that namespace.
func TestSandboxTimeoutEmptiesNamespace(t *testing.T) {
	defer goleak.VerifyNone(t)
	s := newTestSandbox(t, SandboxOptions{})
	line := `readlink /proc/self/ns/pid; for i in 1 2 3; do (sleep 1000 &) ; setsid sleep 1000 & done; trap '' TERM; sleep 1000`
	res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: time.Second, KillGrace: 100 * time.Millisecond})
	var te *TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("error = %v, want a *TimeoutError", err)
	}
	ns := strings.TrimSpace(string(res.Stdout))
	if !strings.HasPrefix(ns, "pid:[") {
		t.Fatalf("output %q, want the namespace", res.Stdout)
	}
	if ns == mustReadlink(t, "/proc/self/ns/pid") {
		t.Fatalf("the command ran in this process's pid namespace %s", ns)
	}
	if res.ExitCode != -1 {
		t.Errorf("ExitCode = %d, want -1", res.ExitCode)
	}
	var left []int
	for _, pid := range procPIDs() {
		if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil && l == ns {
			left = append(left, pid)
		}
	}
	if len(left) > 0 {
		t.Errorf("processes left in the namespace %s: %v", ns, left)
	}
}

func mustReadlink(t *testing.T, p string) string {
	t.Helper()
	l, err := os.Readlink(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestShellsHonourOptions runs the same Options through Local and the
// sandbox: each field means the same in both.
func TestShellsHonourOptions(t *testing.T) {
	requireProc(t)
	defer goleak.VerifyNone(t)
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	shells := []testShell{{name: "local", sh: NewLocal()}}
	if testing.Short() {
		t.Log(shortNoSandbox)
	} else if s, err := NewSandbox(SandboxOptions{Root: root}); err == nil {
		shells = append(shells, testShell{name: "sandbox", sh: s})
	} else if !errors.Is(err, ErrSandboxUnavailable) {
		t.Fatal(err)
	} else {
		t.Logf("sandbox skipped: %v", err)
	}
	type check struct {
		want    outcome
		errType string // "", "start", "timeout", "canceled"
		// signal is the Signal the sandbox reports where it differs from
		// Local's want.Signal (bwrap reports a death by signal as 128+n).
		sandboxSignal *syscall.Signal
	}
	noSignal := syscall.Signal(0)
	tests := []struct {
		name  string
		line  string
		opts  Options
		stdin string                                                      // a fresh reader of it for each run
		ctx   func(d time.Duration) (context.Context, context.CancelFunc) // d: the deadline, 300 ms doubled on each retry
		check
	}{
		{name: "exit code", line: "echo out; echo err >&2; exit 3", check: check{want: outcome{ExitCode: 3, Stdout: "out\n", Stderr: "err\n"}}},
		{name: "death by signal", line: "kill -9 $$", check: check{want: outcome{ExitCode: 137, Signal: syscall.SIGKILL}, sandboxSignal: &noSignal}},
		{name: "not found", line: "no-such-command-toolgen 2>/dev/null", check: check{want: outcome{ExitCode: 127}}},
		{name: "Dir", line: "basename $PWD", opts: Options{Dir: filepath.Join(root, "sub")}, check: check{want: outcome{Stdout: "sub\n"}}},
		{name: "MergeOutput keeps order", line: "echo 1; echo 2 >&2; echo 3", opts: Options{MergeOutput: true}, check: check{want: outcome{Stdout: "1\n2\n3\n"}}},
		{name: "MaxCaptureBytes", line: "head -c 1000 /dev/zero | tr '\\0' a", opts: Options{MaxCaptureBytes: 10},
			check: check{want: outcome{Stdout: "aaaaa\n[... 990 bytes omitted ...]\naaaaa", Truncated: true}}},
		{name: "Stdin", line: "tr a-z A-Z", stdin: "hello\n", check: check{want: outcome{Stdout: "HELLO\n"}}},
		{name: "stdin at EOF", line: "cat; echo end", check: check{want: outcome{Stdout: "end\n"}}},
		{name: "Env", line: `echo "$TOOLGEN_X"`, opts: Options{Env: []string{"TOOLGEN_X=y"}}, check: check{want: outcome{Stdout: "y\n"}}},
		{name: "Timeout keeps partial output", line: "echo before; sleep 1000", opts: Options{Timeout: 300 * time.Millisecond},
			check: check{want: outcome{ExitCode: -1, Stdout: "before\n", Signal: syscall.SIGTERM}, errType: "timeout", sandboxSignal: &noSignal}},
		{name: "SIGTERM reaches the command", line: "trap 'echo got TERM; exit 7' TERM; echo ready; sleep 1000 & wait",
			opts:  Options{Timeout: 300 * time.Millisecond, KillGrace: 10 * time.Second},
			check: check{want: outcome{ExitCode: -1, Stdout: "ready\ngot TERM\n"}, errType: "timeout"}},
		{name: "KillGrace then SIGKILL", line: "trap '' TERM; echo ready; sleep 1000", opts: Options{Timeout: 300 * time.Millisecond, KillGrace: 100 * time.Millisecond},
			check: check{want: outcome{ExitCode: -1, Stdout: "ready\n", Signal: syscall.SIGKILL}, errType: "timeout", sandboxSignal: &noSignal}},
		{name: "cancellation", line: "echo before; sleep 1000", ctx: func(d time.Duration) (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), d)
		}, check: check{want: outcome{ExitCode: -1, Stdout: "before\n", Signal: syscall.SIGTERM}, errType: "canceled", sandboxSignal: &noSignal}},
		{name: "negative timeout", line: "true", opts: Options{Timeout: -1}, check: check{errType: "start"}},
		{name: "bad Env", line: "true", opts: Options{Env: []string{"NOEQUALS"}}, check: check{errType: "start"}},
		{name: "NUL in line", line: "echo \x00", check: check{errType: "start"}},
		{name: "not a cgroup", line: "true", opts: Options{Cgroup: root}, check: check{errType: "start"}},
	}
	// Local's cases run at once, each from a goroutine of its own (t.Run
	// may be called from several): four of them wait out 300 ms or more,
	// and t.Parallel would hold them to -parallel, two at a time on two
	// cores. The leak check above runs when every case has ended. The
	// sandbox's run one by one: side by side, "SIGTERM reaches the command"
	// lost its TERM in bubblewrap (no "got TERM", SIGKILL after the 10 s
	// grace) in 5 of 21 runs under -race, a stop that came before bwrap
	// had reported its namespace (TestSandboxStopDuringStartUp; fixed).
	for _, ts := range shells {
		t.Run(ts.name, func(t *testing.T) {
			var cases sync.WaitGroup
			defer cases.Wait()
			for _, tt := range tests {
				run := func(t *testing.T) {
					// A timeout or deadline of 300 ms can pass before a
					// loaded machine has started bash (the sandbox's
					// bubblewrap more so): the command then wrote nothing,
					// which tests no partial output. Such a run is repeated
					// with twice the time, up to boundFor(t); every other
					// outcome is judged as it is.
					var (
						res  Result
						err  error
						opts Options
						live bytes.Buffer
					)
					for scale := time.Duration(1); ; scale *= 2 {
						ctx, cancel := context.Background(), context.CancelFunc(func() {})
						if tt.ctx != nil {
							ctx, cancel = tt.ctx(scale * 300 * time.Millisecond)
						}
						opts = tt.opts
						opts.Timeout *= scale
						if tt.stdin != "" {
							opts.Stdin = strings.NewReader(tt.stdin)
						}
						if opts.Timeout == 0 {
							opts.Timeout = boundFor(t)
						}
						live.Reset()
						if opts.LiveStdout == nil && !opts.MergeOutput {
							opts.LiveStdout = &live
						}
						res, err = ts.sh.Execute(ctx, Command{Line: tt.line}, opts)
						cancel()
						late := tt.errType == "timeout" || tt.errType == "canceled"
						if !late || tt.want.Stdout == "" || len(res.Stdout) > 0 || 2*scale*300*time.Millisecond > boundFor(t) {
							break
						}
						t.Logf("the command wrote nothing in %v (a loaded machine): again with twice the time", scale*300*time.Millisecond)
					}
					var se *StartError
					var te *TimeoutError
					var ce *CanceledError
					switch tt.errType {
					case "":
						if err != nil {
							t.Fatalf("error = %v", err)
						}
					case "start":
						if !errors.As(err, &se) {
							t.Fatalf("error = %v, want a *StartError", err)
						}
						return
					case "timeout":
						if !errors.As(err, &te) || string(te.Stdout) != string(res.Stdout) {
							t.Fatalf("error = %v, want a *TimeoutError with the partial output", err)
						}
					case "canceled":
						if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
							t.Fatalf("error = %v, want a *CanceledError", err)
						}
					}
					want := tt.want
					if ts.name == "sandbox" && tt.sandboxSignal != nil {
						want.Signal = *tt.sandboxSignal
					}
					if diff := cmp.Diff(want, outcomeOf(res)); diff != "" {
						t.Errorf("(-want +got):\n%s", diff)
					}
					if opts.LiveStdout == &live && tt.errType == "" && !res.Truncated && !bytes.Equal(live.Bytes(), res.Stdout) {
						t.Errorf("LiveStdout got %q, Stdout %q", live.Bytes(), res.Stdout)
					}
				}
				if ts.name == "sandbox" {
					t.Run(tt.name, run)
				} else {
					cases.Go(func() { t.Run(tt.name, run) })
				}
			}
		})
	}
}

// TestSandboxConcurrentRuns runs commands side by side: each has its own
// /tmp and its own namespaces.
func TestSandboxConcurrentRuns(t *testing.T) {
	defer goleak.VerifyNone(t)
	s := newTestSandbox(t, SandboxOptions{})
	const n = 4
	errs := make(chan error, n)
	outs := make(chan string, n)
	for i := range n {
		go func() {
			res, err := s.Execute(context.Background(), Command{Line: "echo " + strconv.Itoa(i) + " > /tmp/f; sleep 0.2; cat /tmp/f"},
				Options{Timeout: boundFor(t)})
			errs <- err
			outs <- string(res.Stdout)
		}()
	}
	var got []string
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
		got = append(got, <-outs)
	}
	slices.Sort(got)
	want := []string{"0\n", "1\n", "2\n", "3\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSandboxDefaultHide gives the sandbox a home with credentials in it:
// with Hide nil they are unreadable, the rest of the home is readable, and
// an empty Hide hides nothing.
func TestSandboxDefaultHide(t *testing.T) {
	defer goleak.VerifyNone(t)
	home := outsideTmp(t)
	for name, body := range map[string]string{".ssh/id_ed25519": "PRIVATE", ".aws/credentials": "AWS", ".netrc": "NETRC", ".gitconfig": "[user]"} {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	line := `for f in .ssh/id_ed25519 .aws/credentials .netrc .gitconfig; do printf '%s=' $f; cat ~/$f 2>/dev/null || printf hidden; echo; done`
	tests := []struct {
		name     string
		hide     []string
		showHome bool
		want     string
	}{
		{name: "default", want: ".ssh/id_ed25519=hidden\n.aws/credentials=hidden\n.netrc=hidden\n.gitconfig=[user]\n"},
		// The home is hidden by default: without a hide list, what is not
		// in DefaultHomeVisible is still not there.
		{name: "none", hide: []string{}, want: ".ssh/id_ed25519=hidden\n.aws/credentials=hidden\n.netrc=hidden\n.gitconfig=[user]\n"},
		{name: "none with the home shown", hide: []string{}, showHome: true, want: ".ssh/id_ed25519=PRIVATE\n.aws/credentials=AWS\n.netrc=NETRC\n.gitconfig=[user]\n"},
		{name: "default with the home shown", showHome: true, want: ".ssh/id_ed25519=hidden\n.aws/credentials=hidden\n.netrc=hidden\n.gitconfig=[user]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSandbox(t, SandboxOptions{Hide: tt.hide, ShowHome: tt.showHome})
			res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outcome{Stdout: tt.want}, outcomeOf(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSandboxStopDuringStartUp stops sandboxed runs at points through
// bubblewrap's start-up and after it: before bwrap has reported its
// namespace, while the namespace's pid 1 is the only process in it, and
// once bash runs. Wherever the stop lands, its SIGTERM reaches the
// command: bash either dies of it before setting its trap (no output) or
// runs the trap. A run that printed "ready" without "got TERM" lost its
// SIGTERM and was ended by the SIGKILL after the grace, which is a
// minute here so that only a lost SIGTERM reaches it.
func TestSandboxStopDuringStartUp(t *testing.T) {
	s := newTestSandbox(t, SandboxOptions{})
	line := "trap 'echo got TERM; exit 7' TERM; echo ready; sleep 1000 & wait"
	for _, after := range []time.Duration{0, 200 * time.Microsecond, time.Millisecond, 3 * time.Millisecond,
		10 * time.Millisecond, 30 * time.Millisecond, 100 * time.Millisecond, 300 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		res, err := s.Execute(ctx, Command{Line: line}, Options{KillGrace: time.Minute})
		cancel()
		if err == nil {
			t.Errorf("stopped after %v: no error, want the cancellation's (stdout %q)", after, res.Stdout)
			continue
		}
		if out := string(res.Stdout); strings.Contains(out, "ready") && !strings.Contains(out, "got TERM") {
			t.Errorf("stopped after %v: stdout %q, exit %d after %v: the SIGTERM was lost", after, out, res.ExitCode, res.Duration)
		}
	}
}

// TestSandboxProcessCap: where each run gets a pids cgroup, a command that
// starts processes until the kernel refuses stops at Limits.Processes,
// root included. Elsewhere it skips, saying which bound holds instead.
func TestSandboxProcessCap(t *testing.T) {
	root := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, self, filepath.Join(root, "helper"))
	const limit = 64
	s := newTestSandbox(t, SandboxOptions{Root: root, Limits: Limits{Processes: limit}})
	if g := s.Guarantees(); g.ProcessBound != BoundPidsCgroup {
		t.Skipf("no pids cgroup per run can be made here (cgroup v2 with the pids controller, delegated or as root, or v1): the bound is %v (TestSandboxProcessCapWithoutCgroup tests pid_max)", g.ProcessBound)
	}
	res, err := s.Execute(context.Background(), Command{Line: "./helper"}, Options{Timeout: boundFor(t), MergeOutput: true, Env: []string{socketHelper + "=spawn"}})
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("helper said %q", res.Stdout)
	}
	t.Logf("started %d processes under a cap of %d", n, limit)
	// The namespace's pid 1, the command's bash and the helper count too.
	if n >= limit || n < limit/2 {
		t.Errorf("started %d processes under a cap of %d", n, limit)
	}
}

// TestSandboxBindSourceReplacedByLink: a ReadOnly, Writable or Cache path
// inside the workspace that a run replaces with a link (moving a
// directory on its way aside) makes the next run fail to start, where
// before it bound what the link named: the host's /root read, a host
// directory written.
func TestSandboxBindSourceReplacedByLink(t *testing.T) {
	outside := outsideTmp(t)
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"ReadOnly", "Writable", "Cache"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "a", "b")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			o := SandboxOptions{Root: root}
			switch kind {
			case "ReadOnly":
				o.ReadOnly = []string{dir}
			case "Writable":
				o.Writable = []string{dir}
			case "Cache":
				o.Cache = dir
			}
			s := newTestSandbox(t, o)
			res, err := s.Execute(context.Background(), Command{Line: "mv a a-old && mkdir a && ln -s " + outside + " a/b && echo planted"}, Options{Timeout: boundFor(t), MergeOutput: true})
			if err != nil || string(res.Stdout) != "planted\n" {
				t.Fatalf("planting the link: %q, %v", res.Stdout, err)
			}
			res, err = s.Execute(context.Background(), Command{Line: "cat " + outside + "/secret; echo written > " + outside + "/file; echo written > $HOME/.cache/file"}, Options{Timeout: boundFor(t), MergeOutput: true})
			var se *StartError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "the "+kind+" path "+dir+" is no longer itself") {
				t.Errorf("the run after the link was planted: %v (output %q), want a StartError naming %s", err, res.Stdout, dir)
			}
			if _, err := os.Stat(filepath.Join(outside, "file")); err == nil {
				t.Errorf("a host directory was written through the planted link")
			}
		})
	}
}

// TestSandboxMemoryCap: where each run gets a memory cgroup (v2, or a v1
// memory group on a hybrid host), a command that writes four times
// Limits.Memory into shared memory (the sandbox's /dev/shm, a tmpfs large
// enough to hold it), which no process's address space counts, is
// stopped or refused before it holds it all. Elsewhere it skips, saying so.
func TestSandboxMemoryCap(t *testing.T) {
	const limit = 64 << 20
	s := newTestSandbox(t, SandboxOptions{Limits: Limits{Memory: limit, TmpSize: 1 << 30}})
	g := s.Guarantees()
	if g.MemoryCap == 0 {
		t.Skip("no memory cgroup per run can be made here (cgroup v2 with the memory controller, delegated or as root, or a writable v1 memory hierarchy): memory is bounded per process only")
	}
	if g.MemoryCap != limit {
		t.Errorf("MemoryCap %d, want %d", g.MemoryCap, limit)
	}
	line := fmt.Sprintf(`head -c %d /dev/zero > /dev/shm/big; n=$(wc -c < /dev/shm/big); echo "wrote $n"; [ "$n" -ge %d ] && echo all`, 4*limit, 4*limit)
	res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	if res.ExitCode == 0 || strings.Contains(string(res.Stdout), "all") {
		t.Errorf("%d bytes written into shared memory under a memory cap of %d: exit %d, stdout %q", 4*limit, limit, res.ExitCode, res.Stdout)
	}
}
