package shell

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

// BenchmarkLocalTrue and BenchmarkExecCommandTrue run side by side: the cost
// of the local shell's containment (process group, pipes, capture, the
// scrubbed environment, the wait-without-reap) over a bare exec.
func BenchmarkLocalTrue(b *testing.B) {
	sh := NewLocal()
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
