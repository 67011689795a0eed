package shell

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKernelRelease(t *testing.T) {
	type rel struct {
		Major, Minor int
		OK           bool
	}
	for _, tt := range []struct {
		in   string
		want rel
	}{
		{"6.18.44-generic", rel{6, 18, true}},
		{"6.14", rel{6, 14, true}},
		{"5.15.0-91-generic", rel{5, 15, true}},
		{"6.14-rc1", rel{6, 14, true}},
		{"7.0.1", rel{7, 0, true}},
		{"6", rel{}},
		{"6.x", rel{}},
		{"x.y", rel{}},
		{"", rel{}},
	} {
		major, minor, ok := kernelRelease(tt.in)
		got := rel{major, minor, ok}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("kernelRelease(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestPidMaxFor(t *testing.T) {
	for _, tt := range []struct{ processes, want int }{
		{1024, 1025}, {400, 401}, {300, 301}, {64, 301}, {1, 301},
	} {
		if got := pidMaxFor(tt.processes); got != tt.want {
			t.Errorf("pidMaxFor(%d) = %d, want %d", tt.processes, got, tt.want)
		}
	}
}

// TestSandboxProcessCapWithoutCgroup: where no pids cgroup can be made
// (forced here), each run's pid namespace gets pid_max, which binds root
// and which the command cannot raise; Guarantees names that bound. It
// skips, saying why, on a kernel without a pid_max per namespace.
func TestSandboxProcessCapWithoutCgroup(t *testing.T) {
	root := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, self, filepath.Join(root, "helper"))
	const limit = 400
	before := ownPidMax()
	s := newTestSandbox(t, SandboxOptions{Root: root, Limits: Limits{Processes: limit}, noCgroup: true})
	g := s.Guarantees()
	if g.ProcessBound == BoundNone {
		t.Skip("no pid_max per pid namespace here (Linux 6.14 or later): without a pids cgroup only RLIMIT_NPROC bounds the processes, and not for root")
	}
	if g.ProcessBound != BoundPidMax || g.ProcessCap != limit {
		t.Fatalf("Guarantees() = %+v, want the pid_max bound with a cap of %d", g, limit)
	}
	line := "echo 4194304 > /proc/sys/kernel/pid_max || echo refused; cat /proc/sys/kernel/pid_max; echo $0; grep CapEff /proc/self/status; ./helper"
	res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t), Env: []string{socketHelper + "=spawn"}})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if diff := cmp.Diff([]string{"refused", strconv.Itoa(limit + 1), "bash", "CapEff:\t0000000000000000"}, lines[:len(lines)-1]); diff != "" {
		t.Errorf("(-want +got):\n%s\nstderr: %s", diff, res.Stderr)
	}
	n, err := strconv.Atoi(lines[len(lines)-1])
	if err != nil {
		t.Fatalf("helper said %q", res.Stdout)
	}
	t.Logf("started %d processes under a cap of %d, as uid %d", n, limit, os.Getuid())
	// The namespace's pid 1, the command's bash, the helper and its
	// threads take pids too.
	if n >= limit || n < limit/2 {
		t.Errorf("started %d processes under a cap of %d", n, limit)
	}
	if after := ownPidMax(); after != before {
		t.Errorf("this process's pid_max went from %s to %s", before, after)
	}
}
