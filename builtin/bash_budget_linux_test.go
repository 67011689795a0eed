package builtin

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/shell"
)

// TestBackgroundOutputNeverRead runs 400 background `seq 1 100000` (589 KB
// of output each, 236 MB in all) through the executor and never reads
// them: the heap holds the output budget and no more. The newest command's
// output is all there; the oldest's was dropped, and its read says so.
func TestBackgroundOutputNeverRead(t *testing.T) {
	noLeaks(t)
	n := 400
	if testing.Short() {
		n = 40 // still 24 MB, three times the budget
	}
	const seqOutput = 588_895 // bytes `seq 1 100000` prints
	sh := shell.NewLocal()
	bg := NewBackgroundManager(sh, BackgroundLimits{})
	call, _ := bashExecutor(t, Options{Shell: sh, Background: bg})

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	peak := watchHeap(t)

	// At most MaxRunning at once: wait for room when Start refuses.
	for i := 1; i <= n; {
		res := call("Bash", bashArgs("seq 1 100000", "run_in_background", true))
		switch {
		case !res.IsError:
			i++
		case strings.HasPrefix(res.Content, "Too many background commands are running"):
			for bg.Running() >= DefaultMaxBackground {
				time.Sleep(time.Millisecond)
			}
		default:
			t.Fatalf("start %d: %+v", i, res)
		}
	}
	for bg.Running() > 0 {
		time.Sleep(time.Millisecond)
	}
	high := peak()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	budget := uint64(DefaultBackgroundTotalOutputBytes)
	retained := int64(after.HeapInuse) - int64(before.HeapInuse)
	grew := int64(high) - int64(before.HeapAlloc)
	t.Logf("%d commands, %d MB printed: heap in use %+d KiB after GC (budget %d KiB), peak heap %+d KiB",
		n, n*seqOutput/1_000_000, retained/1024, budget/1024, grew/1024)
	// The budget, and 2 MiB for the runtime and the manager's records.
	if retained > int64(budget)+2<<20 {
		t.Errorf("heap in use grew by %d KiB with %d commands never read; the budget is %d KiB", retained/1024, n, budget/1024)
	}
	// Between collections garbage adds to it (GOGC=100: up to as much
	// again as is live).
	if grew > 3*int64(budget)+8<<20 {
		t.Errorf("peak heap grew by %d KiB; the budget is %d KiB", grew/1024, budget/1024)
	}

	// The newest command's output is whole (read through the manager,
	// which gives the exact bytes of each read).
	var want strings.Builder
	for i := 1; i <= 100000; i++ {
		want.WriteString(strconv.Itoa(i))
		want.WriteByte('\n')
	}
	last := "bash_" + strconv.Itoa(n)
	var out strings.Builder
	for {
		r, err := bg.Read(last, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Dropped > 0 || r.Status != StatusCompleted {
			t.Errorf("%s: %+v", last, r)
		}
		out.WriteString(r.Output)
		if !r.More {
			break
		}
	}
	if out.String() != want.String() {
		t.Errorf("%s: %d bytes, want %d", last, out.Len(), want.Len())
	}
	// An old one's output is gone, and its read says so. Past 256
	// finished commands the oldest are forgotten.
	old := max(1, n-200)
	_, end := readBackground(t, call, "bash_"+strconv.Itoa(old))
	if wantEnd := fmt.Sprintf("ID: bash_%d\nStatus: completed with exit code 0\n[... %d bytes of output were dropped before this read: a background command keeps at most %d bytes that have not been read, and all background commands together at most %d (the oldest output goes first); read more often, or filter ...]\nNo new output.",
		old, seqOutput, DefaultBackgroundOutputBytes, DefaultBackgroundTotalOutputBytes); end != wantEnd {
		t.Errorf("bash_%d: %q\nwant %q", old, end, wantEnd)
	}
	if n > maxFinishedKept+DefaultMaxBackground {
		if res := call("BashOutput", map[string]any{"bash_id": "bash_1"}); !res.IsError || !strings.HasPrefix(res.Content, "No background command has the ID 'bash_1'.") {
			t.Errorf("bash_1 is remembered past %d finished commands: %q", maxFinishedKept, trim(res.Content))
		}
	}
}
