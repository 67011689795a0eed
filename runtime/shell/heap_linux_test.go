package shell

import (
	"context"
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestGigabyteOutputKeepsHeapFlat runs a command printing 1 GiB with
// MaxCaptureBytes 1 MiB. Bound: the heap in use never grows by more than
// 8 MiB over its level before the run, and the run allocates less than
// 16 MiB in total (the capture holds 1 MiB; copying uses one 32 KiB buffer
// per stream). Keeping the output would cost 1024 MiB.
func TestGigabyteOutputKeepsHeapFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("prints 1 GiB through a pipe")
	}
	if _, err := exec.LookPath("head"); err != nil {
		t.Skip("no head(1)")
	}
	defer goleak.VerifyNone(t)
	const (
		gib          = 1 << 30
		limit        = 1 << 20
		maxHeapGrow  = 8 << 20
		maxAllocated = 16 << 20
	)
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // sample the heap while the command prints
		defer wg.Done()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	res, err := NewLocal().Execute(context.Background(), Command{Line: "head -c 1073741824 /dev/zero"},
		Options{Timeout: 50 * time.Second, MaxCaptureBytes: limit})
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if res.StdoutBytes != gib || !res.Truncated || res.ExitCode != 0 {
		t.Fatalf("StdoutBytes %d Truncated %v ExitCode %d, want %d, true, 0", res.StdoutBytes, res.Truncated, res.ExitCode, gib)
	}
	if len(res.Stdout) > limit+64 {
		t.Errorf("kept %d bytes, want at most %d", len(res.Stdout), limit+64)
	}
	grow := int64(peak) - int64(before.HeapInuse)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("1 GiB in %v: HeapInuse grew by at most %.2f MiB, TotalAlloc grew by %.2f MiB",
		res.Duration, float64(grow)/(1<<20), float64(alloc)/(1<<20))
	if grow > maxHeapGrow {
		t.Errorf("HeapInuse grew by %d bytes, bound %d", grow, maxHeapGrow)
	}
	if alloc > maxAllocated {
		t.Errorf("allocated %d bytes during the run, bound %d", alloc, maxAllocated)
	}
}
