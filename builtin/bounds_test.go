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

// TestReadHeapBounded: Read of a 20 MiB file of short lines with limit 2^30
// used to keep every line (433 MiB of heap); it stops at its byte cap.
func TestReadHeapBounded(t *testing.T) {
	e := newExecEnv(t)
	p := e.path("big.txt")
	repeatFile(t, p, "a\n", 20*mib)
	var res tool.Result
	peak := peakHeap(func() {
		res = e.call(context.Background(), ReadName, map[string]any{"file_path": p, "limit": 1 << 30})
	})
	t.Logf("Read of 20 MiB with limit 2^30: peak heap %.1f MiB, %d bytes of content", float64(peak)/mib, len(res.Content))
	if res.IsError {
		t.Fatalf("Read failed: %s", res.Content)
	}
	if peak > 96*mib {
		t.Errorf("peak heap %.1f MiB, want < 96 MiB", float64(peak)/mib)
	}
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
				repeatFile(t, e.path(fmt.Sprintf("d/f%03d.txt", i)), "a\n", tt.size)
			}
			var res tool.Result
			peak := peakHeap(func() { res = e.call(context.Background(), GrepName, tt.args) })
			t.Logf("peak heap %.1f MiB, %d bytes of content", float64(peak)/mib, len(res.Content))
			if res.IsError {
				t.Fatalf("Grep failed: %s", res.Content)
			}
			if peak > 128*mib {
				t.Errorf("peak heap %.1f MiB, want < 128 MiB", float64(peak)/mib)
			}
		})
	}
}
