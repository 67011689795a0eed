package builtin

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/shell"
)

// printShell prints what the command line asks for and nothing else:
// "N C" writes N bytes C to LiveStdout, in writes of at most 1000 bytes,
// and ends; "N C wait" then waits until it is canceled.
type printShell struct{}

func (printShell) Execute(ctx context.Context, cmd shell.Command, opts shell.Options) (shell.Result, error) {
	var n int
	var c string
	var wait string
	fmt.Sscan(cmd.Line, &n, &c, &wait)
	p := []byte(strings.Repeat(c, 1000))
	for n > 0 {
		k := min(n, len(p))
		opts.LiveStdout.Write(p[:k])
		n -= k
	}
	if wait == "wait" {
		<-ctx.Done()
		return shell.Result{ExitCode: -1}, &shell.CanceledError{Err: ctx.Err(), Cause: context.Cause(ctx)}
	}
	return shell.Result{}, nil
}

// startPrint starts line on m and waits until it has printed its n bytes
// (and, unless it waits, ended).
func startPrint(t testing.TB, m *BackgroundManager, line string) string {
	t.Helper()
	id, err := m.Start(BackgroundCommand{Line: line, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	fmt.Sscan(line, &n)
	for {
		m.mu.Lock()
		tk := m.tasks[id]
		done := tk.out.total == int64(n) && (strings.HasSuffix(line, "wait") || tk.status != StatusRunning)
		m.mu.Unlock()
		if done {
			return id
		}
		time.Sleep(time.Millisecond)
	}
}

// held is how many bytes of unread output each command holds, and the
// store's chunks in use.
func held(m *BackgroundManager, ids ...string) ([]int, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []int
	for _, id := range ids {
		out = append(out, m.tasks[id].out.size)
	}
	return out, m.store.allocated
}

func TestBackgroundBudget(t *testing.T) {
	noLeaks(t)
	// Chunks of 1000 bytes, 4 in all.
	m := NewBackgroundManager(printShell{}, BackgroundLimits{MaxOutputBytes: 4000, MaxTotalOutputBytes: 4000})
	defer m.Close()
	if m.store.chunk != 1000 || m.store.maxChunks != 4 {
		t.Fatalf("store: chunk %d, %d chunks", m.store.chunk, m.store.maxChunks)
	}

	// Three finished commands fill the budget: 2000 + 1000 + 1000.
	a := startPrint(t, m, "2000 a")
	b := startPrint(t, m, "1000 b")
	c := startPrint(t, m, "1000 c")
	if got, chunks := held(m, a, b, c); !cmp.Equal(got, []int{2000, 1000, 1000}) || chunks != 4 {
		t.Fatalf("held %v in %d chunks", got, chunks)
	}
	// A fourth needs room: the first to finish gives its oldest chunk.
	d := startPrint(t, m, "1000 d")
	if got, chunks := held(m, a, b, c, d); !cmp.Equal(got, []int{1000, 1000, 1000, 1000}) || chunks != 4 {
		t.Fatalf("after d: held %v in %d chunks", got, chunks)
	}
	// A running command takes the rest of a, then b, then c.
	e := startPrint(t, m, "2500 e wait")
	if got, chunks := held(m, a, b, c, d, e); !cmp.Equal(got, []int{0, 0, 0, 1000, 2500}) || chunks != 4 {
		t.Fatalf("after e: held %v in %d chunks", got, chunks)
	}

	// Reads say what was dropped and why.
	budget := func(n int) string {
		return fmt.Sprintf("[... %d bytes of output were dropped before this read: a background command keeps at most 4000 bytes that have not been read, and all background commands together at most 4000 (the oldest output goes first); read more often, or filter ...]\n", n)
	}
	for _, tc := range []struct {
		id   string
		want string
	}{
		{a, "ID: " + a + "\nStatus: completed with exit code 0\n" + budget(2000) + "No new output."},
		{b, "ID: " + b + "\nStatus: completed with exit code 0\n" + budget(1000) + "No new output."},
		{c, "ID: " + c + "\nStatus: completed with exit code 0\n" + budget(1000) + "No new output."},
		{d, "ID: " + d + "\nStatus: completed with exit code 0\nOutput since the last read:\n" + strings.Repeat("d", 1000)},
		{e, "ID: " + e + "\nStatus: running\nOutput since the last read:\n" + strings.Repeat("e", 2500)},
		{a, "ID: " + a + "\nStatus: completed with exit code 0\nNo new output."},
	} {
		r, err := m.Read(tc.id, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, renderRead(r, "")); diff != "" {
			t.Errorf("read %s (-want +got):\n%s", tc.id, diff)
		}
	}
	// Read output is released: only spare chunks remain.
	if got, chunks := held(m, a, b, c, d, e); !cmp.Equal(got, []int{0, 0, 0, 0, 0}) || chunks > maxFreeChunks {
		t.Errorf("after the reads: held %v in %d chunks", got, chunks)
	}
}

// TestBackgroundBudgetRunning checks that, with no finished output left
// to drop, room is made in the running command that holds the most.
func TestBackgroundBudgetRunning(t *testing.T) {
	noLeaks(t)
	m := NewBackgroundManager(printShell{}, BackgroundLimits{MaxOutputBytes: 4000, MaxTotalOutputBytes: 4000})
	defer m.Close()
	a := startPrint(t, m, "3000 a wait")
	b := startPrint(t, m, "1000 b wait")
	c := startPrint(t, m, "1000 c wait")
	if got, chunks := held(m, a, b, c); !cmp.Equal(got, []int{2000, 1000, 1000}) || chunks != 4 {
		t.Fatalf("held %v in %d chunks", got, chunks)
	}
	r, _ := m.Read(a, nil)
	if r.Dropped != 1000 || r.BudgetDropped != 1000 || r.Output != strings.Repeat("a", 2000) {
		t.Errorf("a: dropped %d (budget %d), %d bytes", r.Dropped, r.BudgetDropped, len(r.Output))
	}
}

func TestBackgroundBudgetDefaults(t *testing.T) {
	for _, tc := range []struct {
		limits            BackgroundLimits
		chunk, chunks, kp int
	}{
		{BackgroundLimits{}, outChunkBytes, DefaultBackgroundTotalOutputBytes / outChunkBytes, DefaultBackgroundOutputBytes},
		{BackgroundLimits{MaxOutputBytes: -1, MaxTotalOutputBytes: -1}, outChunkBytes, DefaultBackgroundTotalOutputBytes / outChunkBytes, DefaultBackgroundOutputBytes},
		// A total below the per-command cap lowers it.
		{BackgroundLimits{MaxOutputBytes: 1 << 20, MaxTotalOutputBytes: 100}, 25, 4, 100},
		{BackgroundLimits{MaxOutputBytes: 10, MaxTotalOutputBytes: 25}, 2, 12, 10},
		{BackgroundLimits{MaxOutputBytes: 1, MaxTotalOutputBytes: 1}, 1, 1, 1},
	} {
		m := NewBackgroundManager(&fakeShell{}, tc.limits)
		if m.store.chunk != tc.chunk || m.store.maxChunks != tc.chunks || tc.limits.maxOutput() != tc.kp {
			t.Errorf("%+v: chunk %d, %d chunks, %d per command; want %d, %d, %d",
				tc.limits, m.store.chunk, m.store.maxChunks, tc.limits.maxOutput(), tc.chunk, tc.chunks, tc.kp)
		}
		m.Close()
	}
}

// BenchmarkBackgroundOutput writes output to a running command whose
// manager's budget is full of finished commands' output: each write makes
// room by dropping the oldest, and reuses its chunks.
func BenchmarkBackgroundOutput(b *testing.B) {
	m := NewBackgroundManager(printShell{}, BackgroundLimits{})
	defer m.Close()
	for range DefaultBackgroundTotalOutputBytes / DefaultBackgroundOutputBytes {
		startPrint(b, m, fmt.Sprintf("%d x", DefaultBackgroundOutputBytes))
	}
	id := startPrint(b, m, "1 y wait")
	m.mu.Lock()
	w := &taskWriter{m: m, t: m.tasks[id]}
	m.mu.Unlock()
	p := []byte(strings.Repeat("z", 32<<10))
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		w.Write(p)
	}
	b.StopTimer()
	m.mu.Lock()
	if m.store.allocated > m.store.maxChunks {
		b.Errorf("%d chunks allocated, budget %d", m.store.allocated, m.store.maxChunks)
	}
	m.mu.Unlock()
}
