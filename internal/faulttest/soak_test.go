package faulttest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestSoak is the load test, opt-in: TOOLGEN_SOAK=10m go test -race -run
// Soak ./internal/faulttest runs it for ten minutes. It never runs in a
// plain go test; TestSoakShort runs the same mix for a few seconds.
func TestSoak(t *testing.T) {
	v := os.Getenv("TOOLGEN_SOAK")
	if v == "" {
		t.Skip("set TOOLGEN_SOAK to a duration (e.g. 10m) to run the soak test")
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		t.Fatalf("TOOLGEN_SOAK=%q: want a positive duration such as 10m", v)
	}
	soak(t, d)
}

// TestSoakShort runs the soak mix for a few seconds in every go test.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	soak(t, 3*time.Second)
}

// soakRig is one executor over a catalog of the builtin tools and a few
// of the test's own, with an allow-list that denies some of what the
// workers ask.
type soakRig struct {
	ws   string
	cat  *catalog.Catalog
	exec *tool.Executor
	bg   *builtin.BackgroundManager
}

// The number of deferred tools ToolSearch can find.
const soakDeferred = 40

func newSoakRig(t *testing.T) *soakRig {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), fmt.Appendf(nil, "TOKEN-%d\n", i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh := shell.NewLocal()
	bg := builtin.NewBackgroundManager(sh, builtin.BackgroundLimits{})
	cat := catalog.New()
	if err := builtin.RegisterCatalog(cat, builtin.Options{Root: ws, Shell: sh, Background: bg, Deferred: []string{"Grep"}}); err != nil {
		t.Fatal(err)
	}
	// Sum answers with the call's ID and a+b, so the checker knows which
	// call a result belongs to.
	sum := tool.New(tool.Definition{
		Name: "Sum", Description: "Adds two integers.",
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "integer"}, "id": map[string]any{"type": "string"}},
			"required":             []any{"a", "b", "id"},
			"additionalProperties": false,
		},
		Concurrency: tool.Safe,
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		a, _ := tool.Param[int](in, "a")
		b, _ := tool.Param[int](in, "b")
		id, _ := tool.Param[string](in, "id")
		return tool.Success(fmt.Sprintf("%s=%d", id, a+b))
	})
	// Nap sleeps for ms milliseconds or until ctx ends.
	nap := tool.New(tool.Definition{
		Name: "Nap", Description: "Sleeps.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"ms": map[string]any{"type": "integer"}, "id": map[string]any{"type": "string"}}},
		Concurrency: tool.Safe,
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		ms, _ := tool.Param[int](in, "ms")
		id, _ := tool.Param[string](in, "id")
		select {
		case <-time.After(time.Duration(ms) * time.Millisecond):
			return tool.Success(id + " rested")
		case <-ctx.Done():
			return tool.FailureWith(id+" woken: "+ctx.Err().Error(), ctx.Err())
		}
	})
	for _, x := range []tool.Tool{sum, nap} {
		if err := cat.Register(x); err != nil {
			t.Fatal(err)
		}
	}
	for i := range soakDeferred {
		name := fmt.Sprintf("Widget%d", i)
		w := tool.New(tool.Definition{Name: name, Description: fmt.Sprintf("Frobnicates widget number %d for the soak test.", i),
			InputSchema: map[string]any{"type": "object"},
			Concurrency: tool.Safe,
		},
			func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
				return tool.Success(name + " done")
			})
		if err := cat.RegisterAs(w, tool.Deferred); err != nil {
			t.Fatal(err)
		}
	}
	entries := []string{"Read(" + ws + "/**)", "Glob(" + ws + "/**)", "Grep(" + ws + "/**)", "Bash(echo:*)", "Bash(sleep:*)", "ToolSearch", "Sum", "Nap"}
	for i := range soakDeferred {
		entries = append(entries, fmt.Sprintf("Widget%d", i))
	}
	list, err := permission.ParseWith(entries, permission.WithCompoundCommands())
	if err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(cat, tool.WithAllowList(list), tool.WithConcurrency(8, 4), tool.WithLogger(discard))
	return &soakRig{ws: ws, cat: cat, exec: exec, bg: bg}
}

// A soakCall is a call with the check its result must pass.
type soakCall struct {
	call  tool.Call
	check func(tool.Result) error
}

func wantContent(sub string, isErr bool) func(tool.Result) error {
	return func(r tool.Result) error {
		if r.IsError != isErr || !strings.Contains(r.Content, sub) {
			return fmt.Errorf("want IsError=%v and %q, got IsError=%v %q", isErr, sub, r.IsError, r.Content)
		}
		return nil
	}
}

// wantCancelled accepts a Nap call that the deadline woke, or that it
// stopped before it started.
func wantCancelled(id string) func(tool.Result) error {
	return func(r tool.Result) error {
		if !r.IsError || !strings.Contains(r.Content, id+" woken") && !strings.Contains(r.Content, "Tool 'Nap' was not executed") {
			return fmt.Errorf("want a cancelled call, got IsError=%v %q", r.IsError, r.Content)
		}
		return nil
	}
}

func wantDenied(r tool.Result) error {
	if !r.IsError || !strings.Contains(r.Content, "not allowed") {
		return fmt.Errorf("want a denial, got IsError=%v %q", r.IsError, r.Content)
	}
	return nil
}

// batch returns the n-th batch of worker w: a mix that cycles through
// parallel-safe batches, shell commands (one in five with a timeout),
// ToolSearch activations, denied calls and cancelled calls.
func (rig *soakRig) batch(w, n int) (calls []soakCall, timeout time.Duration) {
	id := func(k int) string { return fmt.Sprintf("w%d-b%d-c%d", w, n, k) }
	in := tool.NewInput
	switch n % 6 {
	case 0, 1: // a parallel-safe batch
		for k := range 3 + n%4 {
			i := (w + n + k) % 20
			switch k % 4 {
			case 0:
				calls = append(calls, soakCall{tool.Call{ID: id(k), Name: "Sum", Input: in(map[string]any{"a": k, "b": n, "id": id(k)})},
					wantContent(fmt.Sprintf("%s=%d", id(k), k+n), false)})
			case 1:
				calls = append(calls, soakCall{tool.Call{ID: id(k), Name: "Read", Input: in(map[string]any{"file_path": fmt.Sprintf("%s/f%d.txt", rig.ws, i)})},
					wantContent(fmt.Sprintf("TOKEN-%d", i), false)})
			case 2:
				calls = append(calls, soakCall{tool.Call{ID: id(k), Name: "Glob", Input: in(map[string]any{"pattern": fmt.Sprintf("f%d.txt", i), "path": rig.ws})},
					wantContent(fmt.Sprintf("f%d.txt", i), false)})
			case 3:
				calls = append(calls, soakCall{tool.Call{ID: id(k), Name: "Nap", Input: in(map[string]any{"ms": 1, "id": id(k)})},
					wantContent(id(k)+" rested", false)})
			}
		}
	case 2: // shell
		if n%5 == 2 {
			calls = append(calls, soakCall{tool.Call{ID: id(0), Name: "Bash", Input: in(map[string]any{"command": "sleep 30", "timeout": 1000})},
				wantContent("[timed out after 1000ms]", true)})
		} else {
			calls = append(calls, soakCall{tool.Call{ID: id(0), Name: "Bash", Input: in(map[string]any{"command": "echo " + id(0) + " && echo done"})},
				wantContent(id(0)+"\ndone", false)})
		}
	case 3: // ToolSearch activates a deferred tool, which then runs
		name := fmt.Sprintf("Widget%d", (w*7+n)%soakDeferred)
		calls = append(calls,
			soakCall{tool.Call{ID: id(0), Name: "ToolSearch", Input: in(map[string]any{"query": "select:" + name})}, wantContent(`"name":"`+name+`"`, false)},
			soakCall{tool.Call{ID: id(1), Name: name, Input: in(map[string]any{})}, wantContent(name+" done", false)},
			soakCall{tool.Call{ID: id(2), Name: "functions.ToolSearch", Input: in(map[string]any{"query": "grep search file contents"})}, wantContent("Grep", false)})
	case 4: // denied
		calls = append(calls,
			soakCall{tool.Call{ID: id(0), Name: "Write", Input: in(map[string]any{"file_path": rig.ws + "/x", "content": "x"})}, wantDenied},
			soakCall{tool.Call{ID: id(1), Name: "Read", Input: in(map[string]any{"file_path": "/etc/passwd"})}, wantDenied},
			soakCall{tool.Call{ID: id(2), Name: "Bash", Input: in(map[string]any{"command": "echo a > " + rig.ws + "/m"})}, wantDenied},
			soakCall{tool.Call{ID: id(3), Name: "Edit", Input: in(map[string]any{"file_path": rig.ws + "/f1.txt", "old_string": "T", "new_string": "X"})}, wantDenied})
	case 5: // cancelled by the batch's deadline
		calls = append(calls,
			soakCall{tool.Call{ID: id(0), Name: "Nap", Input: in(map[string]any{"ms": 10_000, "id": id(0)})}, wantCancelled(id(0))},
			soakCall{tool.Call{ID: id(1), Name: "Nap", Input: in(map[string]any{"ms": 10_000, "id": id(1)})}, wantCancelled(id(1))})
		timeout = 20 * time.Millisecond
	}
	return calls, timeout
}

// children returns the processes whose parent is this one.
func children(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	me := os.Getpid()
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid int
		if _, err := fmt.Sscan(s[i+1:], &state, &ppid); err == nil && ppid == me {
			out = append(out, strings.TrimSpace(s[:i+1]))
		}
	}
	return out
}

func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func soak(t *testing.T, d time.Duration) {
	if runtime.GOOS != "linux" {
		t.Skip("the soak test scans /proc")
	}
	ignore := goleak.IgnoreCurrent()
	rig := newSoakRig(t)
	// Warm up so the baseline includes what the first calls allocate
	// once (compiled schemas, search indexes).
	for w := range 2 {
		for n := range 6 {
			calls, timeout := rig.batch(w, n)
			if n%6 == 2 {
				continue
			}
			rig.run(t, calls, timeout, context.Background(), rig.cat.NewRun())
		}
	}
	base := heapAlloc()
	baseG := runtime.NumGoroutine()

	workers := 4 * runtime.GOMAXPROCS(0)
	deadline := time.Now().Add(d)
	var calls, batches, failures atomic.Int64
	kinds := []string{"parallel-safe", "parallel-safe", "shell", "tool-search", "denied", "cancelled"}
	var perKind [6]atomic.Int64
	var mu sync.Mutex
	var errs []string
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			view := rig.cat.NewRun()
			for n := 0; time.Now().Before(deadline); n++ {
				cs, timeout := rig.batch(w, n)
				if n%50 == 49 {
					view = rig.cat.NewRun() // a new turn
				}
				e := rig.run(t, cs, timeout, context.Background(), view)
				calls.Add(int64(len(cs)))
				perKind[n%6].Add(int64(len(cs)))
				batches.Add(1)
				if len(e) > 0 {
					failures.Add(int64(len(e)))
					mu.Lock()
					if len(errs) < 20 {
						errs = append(errs, e...)
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("load done %v after the deadline", time.Since(deadline).Round(time.Millisecond))
	for _, e := range errs {
		t.Error(e)
	}
	if err := rig.bg.Close(); err != nil {
		t.Errorf("closing the background manager: %v", err)
	}

	// Processes: every command's group was killed and reaped.
	var left []string
	for range 50 {
		if left = children(t); len(left) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("process check done %v after the deadline", time.Since(deadline).Round(time.Millisecond))
	if len(left) > 0 {
		t.Errorf("%d processes left: %v", len(left), left)
	}
	// Goroutines and memory.
	var after uint64
	for range 50 {
		after = heapAlloc()
		if runtime.NumGoroutine() <= baseG && after <= base+base/2+8<<20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if after > base+base/2+8<<20 {
		t.Errorf("heap %d KiB after the load, baseline %d KiB", after>>10, base>>10)
	}
	t.Logf("heap check done %v after the deadline", time.Since(deadline).Round(time.Millisecond))
	if err := goleak.Find(ignore); err != nil {
		t.Errorf("goroutines leaked: %v", err)
	}
	by := map[string]int64{}
	for i, k := range kinds {
		by[k] += perKind[i].Load()
	}
	t.Logf("calls by kind: %d in parallel-safe batches, %d shell commands (one in five timing out), %d in ToolSearch batches, %d denied, %d cancelled",
		by["parallel-safe"], by["shell"], by["tool-search"], by["denied"], by["cancelled"])
	secs := d.Seconds()
	t.Logf("soak %v, %d workers: %d calls in %d batches (%.0f calls/s), %d wrong results; heap %d KiB -> %d KiB; goroutines %d -> %d; processes left %d",
		d, workers, calls.Load(), batches.Load(), float64(calls.Load())/secs, failures.Load(), base>>10, after>>10, baseG, runtime.NumGoroutine(), len(left))
}

// run executes one batch and checks that it got one result per call, in
// order, each the one its call should get.
func (rig *soakRig) run(t *testing.T, cs []soakCall, timeout time.Duration, ctx context.Context, view *catalog.View) []string {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	calls := make([]tool.Call, len(cs))
	for i, c := range cs {
		calls[i] = c.call
	}
	tc := tool.NewContext(catalog.ViewKey.Bind(view), tool.WorkDirKey.Bind(rig.ws))
	var res []tool.Result
	if len(calls) == 1 {
		res = []tool.Result{rig.exec.Execute(ctx, calls[0], tc)}
	} else {
		res = rig.exec.ExecuteBatch(ctx, calls, tc)
	}
	if len(res) != len(cs) {
		return []string{fmt.Sprintf("batch of %d calls got %d results", len(cs), len(res))}
	}
	var errs []string
	for i, c := range cs {
		if err := c.check(res[i]); err != nil {
			errs = append(errs, fmt.Sprintf("%s %s: %v", c.call.ID, c.call.Name, err))
		}
	}
	return errs
}
