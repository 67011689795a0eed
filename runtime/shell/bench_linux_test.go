package shell

import (
	"context"
	"errors"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkLocalTrue and BenchmarkExecCommandTrue run side by side: the cost
// of the local shell's containment (process group, pipes, capture, the
// scrubbed environment, the wait-without-reap, and the per-run cgroup
// where this process may create one) over a bare exec.
// BenchmarkLocalSweepTrue is Local without the automatic cgroup (the /proc
// sweep at the end of each run); BenchmarkSandboxTrue is the bubblewrap
// sandbox, with and without its own network namespace, and with the
// pid_max bound instead of a pids cgroup. Their ratio to
// BenchmarkLocalTrue is the per-command price of each containment.
func BenchmarkLocalTrue(b *testing.B) {
	benchmarkTrue(b, NewLocal())
}

func BenchmarkLocalSweepTrue(b *testing.B) {
	benchmarkTrue(b, &Local{noAuto: true})
}

func BenchmarkSandboxTrue(b *testing.B) {
	for _, tt := range []struct {
		name string
		opts SandboxOptions
	}{
		{"network=off", SandboxOptions{}},
		{"network=on", SandboxOptions{Network: true}},
		{"network=off/no_cgroup", SandboxOptions{noCgroup: true}},
	} {
		b.Run(tt.name, func(b *testing.B) {
			tt.opts.Root = b.TempDir()
			s, err := NewSandbox(tt.opts)
			if errors.Is(err, ErrSandboxUnavailable) {
				b.Skipf("the sandbox cannot run here: %v", err)
			}
			if err != nil {
				b.Fatal(err)
			}
			benchmarkTrue(b, s)
		})
	}
}

func benchmarkTrue(b *testing.B, sh Shell) {
	opts := Options{Timeout: time.Minute, MaxCaptureBytes: 1 << 20}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := sh.Execute(ctx, Command{Line: "true"}, opts)
		if err != nil || res.ExitCode != 0 {
			b.Fatal(res, err)
		}
	}
}

func BenchmarkExecCommandTrue(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareBwrapTrue is the floor BenchmarkSandboxTrue is compared
// with: bubblewrap's own cost for `bash -c true` in fresh namespaces, with
// nothing of the sandbox's (no binds, limits, filter or capture).
func BenchmarkBareBwrapTrue(b *testing.B) {
	bwrap, err := exec.LookPath("bwrap")
	if err != nil {
		b.Skip("bubblewrap is not installed:", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.Command(bwrap, "--ro-bind", "/", "/", "--unshare-all", "bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
