package builtin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// execEnv is a workspace with the builtin tools registered and an executor
// over them, as an agent runs them.
type execEnv struct {
	t    *testing.T
	root string
	exec *tool.Executor
	tc   tool.Context
}

// newExecEnv registers the file tools over a fresh workspace; allow, when
// given, is the executor's allow-list, with "{root}" standing for the
// workspace root.
func newExecEnv(t *testing.T, allow ...string) *execEnv {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return newExecEnvAt(t, root, allow...)
}

func newExecEnvAt(t *testing.T, root string, allow ...string) *execEnv {
	t.Helper()
	reg := tool.NewRegistry()
	if err := Register(reg, Options{Root: root}); err != nil {
		t.Fatal(err)
	}
	opts := []tool.Option{quiet}
	if len(allow) > 0 {
		entries := make([]string, len(allow))
		for i, a := range allow {
			entries[i] = strings.ReplaceAll(a, "{root}", root)
		}
		l, err := permission.Parse(entries...)
		if err != nil {
			t.Fatal(err)
		}
		opts = append(opts, tool.WithAllowList(l))
	}
	return &execEnv{t: t, root: root, exec: tool.NewExecutor(reg, opts...), tc: tool.NewContext(tool.WorkDirKey.Bind(root))}
}

func (e *execEnv) path(name string) string { return filepath.Join(e.root, name) }

func (e *execEnv) file(name, content string) string {
	e.t.Helper()
	p := e.path(name)
	must(e.t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(e.t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// call runs one call through the executor.
func (e *execEnv) call(ctx context.Context, name string, args map[string]any) tool.Result {
	return e.exec.Execute(ctx, tool.Call{ID: "c1", Name: name, Input: tool.NewInput(args)}, e.tc)
}

// heapObjects is the runtime metric peakHeap samples: the bytes of live and
// not yet swept heap objects.
const heapObjects = "/memory/classes/heap/objects:bytes"

// peakHeap runs fn while a goroutine samples the heap every millisecond,
// and returns the highest heap seen above the heap before the call.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(sample)
	base := sample[0].Value.Uint64()
	var (
		peak uint64
		wg   sync.WaitGroup
		stop = make(chan struct{})
	)
	wg.Go(func() {
		s := []metrics.Sample{{Name: heapObjects}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	fn()
	close(stop)
	wg.Wait()
	metrics.Read(sample)
	peak = max(peak, sample[0].Value.Uint64())
	if peak < base {
		return 0
	}
	return peak - base
}

// repeatFile writes a file of size bytes made of line repeated.
func repeatFile(t *testing.T, p, line string, size int) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(p), 0o755))
	must(t, os.WriteFile(p, []byte(strings.Repeat(line, size/len(line))), 0o644))
}

// sparseFile writes a text head of head bytes and extends the file to size
// with a hole (NUL bytes that take no disk space).
func sparseFile(t *testing.T, p string, head int, size int64) {
	t.Helper()
	repeatFile(t, p, "some text on a line\n", head)
	if err := os.Truncate(p, size); err != nil {
		t.Skip("no sparse files here:", err)
	}
}

const mib = 1 << 20

// heapScale is what the heap tests divide their inputs by: the race
// detector makes each regular expression call many times slower and its
// allocations are not the tools', so under it the tests run the same calls
// on smaller inputs and do not bound the heap. -short halves the inputs
// and keeps the bounds: the regressions the tests guard would still take
// twice the bound or more (Read about 216 MiB of 96, Grep 257 MiB and
// 1.1 GiB of 128).
func heapScale() int {
	switch {
	case raceEnabled():
		return 8
	case testing.Short():
		return 2
	}
	return 1
}

// checkPeak fails the test when peak exceeds limit, unless the race
// detector runs.
func checkPeak(t *testing.T, peak, limit uint64) {
	t.Helper()
	if !raceEnabled() && peak > limit {
		t.Errorf("peak heap %.1f MiB, want < %d MiB", float64(peak)/mib, limit/mib)
	}
}

// TestReadHeapBounded: Read of a 20 MiB file of short lines with limit 2^30
// used to keep every line (433 MiB of heap); it stops at its byte cap.
func TestReadHeapBounded(t *testing.T) {
	e := newExecEnv(t)
	p := e.path("big.txt")
	size := 20 * mib / heapScale()
	repeatFile(t, p, "a\n", size)
	var res tool.Result
	peak := peakHeap(func() {
		res = e.call(context.Background(), ReadName, map[string]any{"file_path": p, "limit": 1 << 30})
	})
	t.Logf("Read of %.1f MiB with limit 2^30: peak heap %.1f MiB, %d bytes of content", float64(size)/mib, float64(peak)/mib, len(res.Content))
	if res.IsError {
		t.Fatalf("Read failed: %s", res.Content)
	}
	checkPeak(t, peak, 96*mib)
}

// TestGrepHeapBounded: a content Grep that pages far past its matches used
// to keep every line of the file (515 MiB for 4 MiB); one over many files
// kept every file's lines before the cap was checked (2.25 GiB).
func TestGrepHeapBounded(t *testing.T) {
	tests := []struct {
		name  string
		files int
		size  int
		args  map[string]any
	}{
		{name: "offset 2^40 on one 4 MiB file", files: 1, size: 4 * mib,
			args: map[string]any{"pattern": "a", "output_mode": "content", "offset": 1 << 40, "head_limit": 1}},
		{name: "default content over 256 files of 60 KB", files: 256, size: 60_000,
			args: map[string]any{"pattern": "a", "output_mode": "content"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newExecEnv(t)
			for i := range tt.files {
				repeatFile(t, e.path(fmt.Sprintf("d/f%03d.txt", i)), "a\n", tt.size/heapScale())
			}
			var res tool.Result
			peak := peakHeap(func() { res = e.call(context.Background(), GrepName, tt.args) })
			t.Logf("peak heap %.1f MiB, %d bytes of content", float64(peak)/mib, len(res.Content))
			if res.IsError {
				t.Fatalf("Grep failed: %s", res.Content)
			}
			checkPeak(t, peak, 128*mib)
		})
	}
}

// TestCancelledCallsEnd: a call whose deadline passes answers with an
// error result of its own (not the executor's "did not finish" for a tool
// it abandons), soon after the deadline, and leaves no goroutine behind.
// The work each call is given would take from seconds to minutes.
func TestCancelledCallsEnd(t *testing.T) {
	e := newExecEnv(t)
	sparse := e.path("sparse.txt")
	sparseFile(t, sparse, 16<<10, 30<<30)
	// A costly expression: RE2 is linear, but in the program's size too.
	slow := `(?:a|b|c|d|e|f|g|h|i|j|.){1,1000}Z`
	repeatFile(t, e.path("slow/lines.txt"), strings.Repeat("abcdefghij", 100)+"\n", 1<<20)
	repeatFile(t, e.path("slowline/one.txt"), "abcdefghij", 1<<20)
	tree := e.path("tree")
	for i := range 7 {
		for j := range 7 {
			for k := range 7 {
				must(t, os.MkdirAll(filepath.Join(tree, fmt.Sprint("d", i), fmt.Sprint("e", j), fmt.Sprint("f", k)), 0o755))
			}
		}
	}
	globArgs := map[string]any{"pattern": "**/*/**/*/**/nomatch", "path": tree}
	// The Glob's whole walk takes well under a second here; its deadline
	// is a tenth of what it takes, so that it is cut short on any machine.
	start := time.Now()
	if res := e.call(context.Background(), GlobName, globArgs); res.IsError || res.Content != noFilesFound {
		t.Fatalf("uncancelled Glob: %+v", res)
	}
	globDeadline := max(time.Since(start)/10, 5*time.Millisecond)

	tests := []struct {
		name     string
		tool     string
		args     map[string]any
		deadline time.Duration
		want     string // the start of the content
	}{
		{name: "Read of a 30 GiB sparse file", tool: ReadName, args: map[string]any{"file_path": sparse},
			deadline: 100 * time.Millisecond, want: "Read of " + sparse + " was cancelled: the deadline passed."},
		{name: "Read past a 30 GiB line", tool: ReadName, args: map[string]any{"file_path": sparse, "offset": 900},
			deadline: 100 * time.Millisecond, want: "Read of " + sparse + " was cancelled: the deadline passed."},
		{name: "Grep with a slow expression", tool: GrepName, args: map[string]any{"pattern": slow, "path": e.path("slow")},
			deadline: 100 * time.Millisecond, want: "Grep was cancelled: the deadline passed."},
		{name: "Grep with a slow expression on one long line", tool: GrepName, args: map[string]any{"pattern": slow, "path": e.path("slowline"), "output_mode": "content"},
			deadline: 100 * time.Millisecond, want: "Grep was cancelled: the deadline passed."},
		{name: "Grep multiline with a slow expression", tool: GrepName, args: map[string]any{"pattern": slow, "path": e.path("slow"), "multiline": true, "output_mode": "count"},
			deadline: 100 * time.Millisecond, want: "Grep was cancelled: the deadline passed."},
		{name: "Glob of a pattern that walks the tree many times", tool: GlobName, args: globArgs,
			deadline: globDeadline, want: "Glob was cancelled: the deadline passed."},
	}
	// The calls run at once, each from a goroutine of its own (t.Run may be
	// called from several; t.Parallel would hold them to -parallel), so the
	// goroutines are counted once, when every call has answered.
	base := runtime.NumGoroutine()
	var calls sync.WaitGroup
	for _, tt := range tests {
		run := func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), tt.deadline)
			defer cancel()
			start := time.Now()
			res := e.call(ctx, tt.tool, tt.args)
			late := time.Since(start) - tt.deadline
			t.Logf("answered %v after the deadline of %v: %q", late.Round(time.Millisecond), tt.deadline, res.Content)
			if strings.Contains(res.Content, "did not stop within") {
				t.Fatalf("the executor abandoned the tool: it did not stop within the cancel grace (5 s) of its deadline")
			}
			if !res.IsError || !strings.HasPrefix(res.Content, tt.want) {
				t.Errorf("result %+v, want an error starting %q", res, tt.want)
			}
		}
		calls.Go(func() { t.Run(tt.name, run) })
	}
	calls.Wait()
	waitGoroutines(t, base)
}

// waitGoroutines waits until no more goroutines run than base, for at most
// a tenth of the time the test has left.
func waitGoroutines(t *testing.T, base int) {
	t.Helper()
	stop := time.Now().Add(waitBound(t))
	for runtime.NumGoroutine() > base {
		if time.Now().After(stop) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines still run, %d before the call:\n%s", runtime.NumGoroutine(), base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}
