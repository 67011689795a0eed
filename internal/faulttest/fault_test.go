package faulttest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

var openObject = map[string]any{"type": "object"}

// echoTool is the call every fault test makes afterwards: the executor
// must still serve it.
var echoTool = tool.New(tool.Definition{Name: "Echo", Description: "Echoes.", InputSchema: openObject, Concurrency: tool.Safe},
	func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		s, _ := tool.ParamOr[string](in, "s", "")
		return tool.Success("echo " + s)
	})

// served checks that exec still answers an ordinary call.
func served(t *testing.T, exec *tool.Executor) {
	t.Helper()
	res := exec.Execute(context.Background(), tool.Call{Name: "Echo", Input: tool.NewInput(map[string]any{"s": "next"})}, tool.NewContext())
	if res.IsError || res.Content != "echo next" {
		t.Errorf("the next call got %+v, want \"echo next\"", res)
	}
}

func newExec(t *testing.T, tools ...tool.Tool) *tool.Executor {
	t.Helper()
	return newExecWith(t, nil, tools...)
}

func newExecWith(t *testing.T, opts []tool.Option, tools ...tool.Tool) *tool.Executor {
	t.Helper()
	r := tool.NewRegistry()
	for _, x := range append(tools, echoTool) {
		if err := r.Register(x); err != nil {
			t.Fatal(err)
		}
	}
	return tool.NewExecutor(r, append([]tool.Option{tool.WithConcurrency(8, 8), tool.WithLogger(discard)}, opts...)...)
}

// TestPanics: tools that panic with assorted values, in Execute and in
// Definition, alone and in a parallel batch, end in an error result and
// the executor serves the next call.
func TestPanics(t *testing.T) {
	values := []any{"boom", errors.New("an error value"), 42, nil, struct{ A []int }{[]int{1}}, strings.Repeat("x", 10_000)}
	for i, v := range values {
		t.Run(fmt.Sprintf("value-%d", i), func(t *testing.T) {
			p := tool.New(tool.Definition{Name: "Panic", Description: "Panics.", InputSchema: openObject, Concurrency: tool.Safe},
				func(context.Context, tool.Input, tool.Context) tool.Result { panic(v) })
			exec := newExec(t, p)
			res := exec.Execute(context.Background(), tool.Call{Name: "Panic", Input: tool.NewInput(nil)}, tool.NewContext())
			if !res.IsError || res.Err == nil || !strings.Contains(res.Err.Error(), `tool "Panic" panicked`) || !strings.HasPrefix(res.Content, "Tool 'Panic' failed with an internal error") {
				t.Errorf("got %+v, want a panic result", res)
			}
			if len(res.Content) > 400 {
				t.Errorf("the panic text is %d bytes long", len(res.Content))
			}
			// In a parallel batch the other calls are unharmed and in order.
			calls := []tool.Call{
				{ID: "1", Name: "Echo", Input: tool.NewInput(map[string]any{"s": "a"})},
				{ID: "2", Name: "Panic", Input: tool.NewInput(nil)},
				{ID: "3", Name: "Echo", Input: tool.NewInput(map[string]any{"s": "b"})},
			}
			if !exec.Parallel(calls) {
				t.Fatal("the batch does not run in parallel")
			}
			got := exec.ExecuteBatch(context.Background(), calls, tool.NewContext())
			if got[0].Content != "echo a" || !got[1].IsError || got[2].Content != "echo b" {
				t.Errorf("batch: %+v", got)
			}
			served(t, exec)
		})
	}
	t.Run("definition", func(t *testing.T) {
		exec := newExec(t, &badDefinition{})
		res := exec.Execute(context.Background(), tool.Call{Name: "BadDef", Input: tool.NewInput(nil)}, tool.NewContext())
		if !res.IsError {
			t.Errorf("got %+v, want an error result", res)
		}
		served(t, exec)
	})
}

// badDefinition panics in Definition after registration.
type badDefinition struct{ calls atomic.Int32 }

func (b *badDefinition) Definition() tool.Definition {
	if b.calls.Add(1) > 1 {
		panic("definition failed")
	}
	return tool.Definition{Name: "BadDef", Description: "Fails.", InputSchema: openObject}
}

func (*badDefinition) Execute(context.Context, tool.Input, tool.Context) tool.Result {
	return tool.Success("ran")
}

// TestHangPastContext: a tool that ignores its context must not hold the
// call past the deadline: once the grace period after the deadline is over,
// the executor answers that the deadline passed, and serves the next call
// while the tool is still stuck.
func TestHangPastContext(t *testing.T) {
	// It waits out the deadline and the grace (300 ms) and shares nothing:
	// it runs beside the other parallel tests, after the leak-checked ones.
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	hang := tool.New(tool.Definition{Name: "Hang", Description: "Ignores ctx.", InputSchema: openObject},
		func(context.Context, tool.Input, tool.Context) tool.Result { <-release; return tool.Success("late") })
	exec := newExecWith(t, []tool.Option{tool.WithCancelGrace(200 * time.Millisecond)}, hang)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan tool.Result, 1)
	go func() {
		done <- exec.Execute(ctx, tool.Call{Name: "Hang", Input: tool.NewInput(nil)}, tool.NewContext())
	}()
	select {
	case res := <-done:
		if !res.IsError || !errors.Is(res.Err, context.DeadlineExceeded) || !strings.Contains(res.Err.Error(), `tool "Hang" abandoned after its call ended`) {
			t.Errorf("got %+v, want a deadline result", res)
		}
		if want := "Tool 'Hang' did not finish: the deadline passed, and the tool did not stop within 200ms. Its state is unknown."; res.Content != want {
			t.Errorf("content %q, want %q", res.Content, want)
		}
	case <-time.After(waitBound(t)):
		t.Fatal("Execute still running long after the call's deadline and its 200ms grace")
	}
	served(t, exec)
}

// TestHugeResult: a tool that returns 64 MiB ends in a result cut at the
// executor's bound with a note, or whole when the bound is lifted, with the
// memory released afterwards; and the builtin Read, given a 64 MiB file of
// one line, answers with a bounded result.
func TestHugeResult(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MiB results and files; run without -short")
	}
	const size = 64 << 20
	huge := tool.New(tool.Definition{Name: "Huge", Description: "Returns a lot.", InputSchema: openObject},
		func(context.Context, tool.Input, tool.Context) tool.Result {
			return tool.Success(strings.Repeat("x", size))
		})
	exec := newExec(t, huge)
	base := heapAlloc()
	res := exec.Execute(context.Background(), tool.Call{Name: "Huge", Input: tool.NewInput(nil)}, tool.NewContext())
	const bound = 1 << 20 // the executor's default (tool.WithMaxResultBytes)
	note := fmt.Sprintf("\n[Tool 'Huge' returned %d bytes; the output was cut at %d.]", size, bound)
	if res.IsError || !strings.HasSuffix(res.Content, note) || len(res.Content) != bound+len(note) {
		t.Errorf("got IsError=%v, %d bytes, want %d and the note", res.IsError, len(res.Content), bound+len(note))
	}
	unbounded := newExecWith(t, []tool.Option{tool.WithMaxResultBytes(0)}, huge)
	res = unbounded.Execute(context.Background(), tool.Call{Name: "Huge", Input: tool.NewInput(nil)}, tool.NewContext())
	if res.IsError || len(res.Content) != size {
		t.Errorf("unbounded: got IsError=%v, %d bytes, want %d", res.IsError, len(res.Content), size)
	}
	res = tool.Result{}
	if after := heapAlloc(); after > base+8<<20 {
		t.Errorf("heap %d MiB after the result was dropped, %d MiB before", after>>20, base>>20)
	}
	served(t, exec)

	ws := t.TempDir()
	f, err := os.Create(filepath.Join(ws, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// NUL bytes would be refused as binary, so the file is one line of
	// 'a' written in chunks.
	chunk := []byte(strings.Repeat("a", 1<<20))
	for range 64 {
		if _, err := f.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	r := tool.NewRegistry()
	if err := builtin.Register(r, builtin.Options{Root: ws, Tools: []string{"Read", "Grep"}}); err != nil {
		t.Fatal(err)
	}
	bexec := tool.NewExecutor(r, tool.WithLogger(discard))
	for _, c := range []tool.Call{
		{Name: "Read", Input: tool.NewInput(map[string]any{"file_path": filepath.Join(ws, "big.txt")})},
		{Name: "Grep", Input: tool.NewInput(map[string]any{"pattern": "a+", "path": ws, "output_mode": "content"})},
	} {
		start := time.Now()
		res := bexec.Execute(context.Background(), c, tool.NewContext())
		if len(res.Content) > 1<<20 {
			t.Errorf("%s of a 64 MiB line: %d bytes of result", c.Name, len(res.Content))
		}
		t.Logf("%s of a 64 MiB line: IsError=%v, %d bytes, %v", c.Name, res.IsError, len(res.Content), time.Since(start).Round(time.Millisecond))
	}
}

// TestConcurrentContextWrites: tools in a parallel batch write to the
// run's context from many goroutines at once (the read-files set, derived
// contexts, metadata reads); under -race nothing may race, and every write
// is kept.
func TestConcurrentContextWrites(t *testing.T) {
	// It shares nothing (its own executor and context): it runs beside
	// TestHangPastContext's wait, after the leak-checked tests.
	t.Parallel()
	key := tool.NewKey[int]("n")
	const calls, goroutines, writes = 16, 8, 100
	writer := tool.New(tool.Definition{Name: "Scribble", Description: "Writes to its context.", InputSchema: openObject, Concurrency: tool.Safe},
		func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
			id := tc.CallID()
			var wg sync.WaitGroup
			for g := range goroutines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					rf := tc.ReadFiles()
					for i := range writes {
						p := fmt.Sprintf("/%s/%d/%d", id, g, i)
						rf.Mark(p, strconv.Itoa(i))
						if i%3 == 0 {
							rf.Forget(p)
						}
						if i%25 == 0 {
							_ = rf.Paths()
						}
						derived := tc.With(key.Bind(i))
						if v, _ := key.Get(derived); v != i {
							panic(fmt.Sprintf("derived context lost its value: %d", v))
						}
						_ = tc.Metadata()["k"]
					}
				}()
			}
			wg.Wait()
			return tool.Success(id)
		})
	exec := newExec(t, writer)
	tc := tool.NewContext()
	batch := make([]tool.Call, calls)
	for i := range batch {
		batch[i] = tool.Call{ID: fmt.Sprintf("c%d", i), Name: "Scribble", Input: tool.NewInput(nil)}
	}
	res := exec.ExecuteBatch(context.Background(), batch, tc)
	for i, r := range res {
		if r.IsError || r.Content != batch[i].ID {
			t.Errorf("call %d: %+v", i, r)
		}
	}
	kept := writes - (writes+2)/3
	if got, want := len(tc.ReadFiles().Paths()), calls*goroutines*kept; got != want {
		t.Errorf("%d paths in the read-files set, want %d", got, want)
	}
	served(t, exec)
}

// TestShellKilledFromOutside: a Bash command whose process group is killed
// by someone else (the test, with SIGKILL) ends in a result that says how
// it ended, leaves no process, and the executor serves the next command.
func TestShellKilledFromOutside(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	ws := t.TempDir()
	r := tool.NewRegistry()
	if err := builtin.Register(r, builtin.Options{Root: ws, Shell: shell.NewLocal(), Tools: []string{"Bash"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(echoTool); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(r, tool.WithLogger(discard))
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			pidFile := filepath.Join(ws, "pid")
			os.Remove(pidFile)
			done := make(chan tool.Result, 1)
			start := time.Now()
			go func() {
				done <- exec.Execute(context.Background(), tool.Call{Name: "Bash", Input: tool.NewInput(map[string]any{
					"command": "echo started; (sleep 300; echo child) & echo $$ > pid; sleep 300", "timeout": 600000})}, tool.NewContext())
			}()
			var pgid int
			for pgid == 0 && time.Since(start) < waitBound(t) {
				if b, err := os.ReadFile(pidFile); err == nil && strings.HasSuffix(string(b), "\n") {
					pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
				}
				time.Sleep(5 * time.Millisecond)
			}
			if pgid == 0 {
				t.Fatal("the command never wrote its pid")
			}
			if err := syscall.Kill(-pgid, sig); err != nil {
				t.Fatalf("kill -%d: %v", pgid, err)
			}
			select {
			case res := <-done:
				want := fmt.Sprintf("[exit code: %d]", 128+int(sig))
				if !res.IsError || !strings.Contains(res.Content, "started") || !strings.HasSuffix(res.Content, want) {
					t.Errorf("got %q, want the output and %s", res.Content, want)
				}
			case <-time.After(waitBound(t)):
				t.Fatal("Execute did not return after the group was killed")
			}
			var left []string
			for range 100 {
				if left = inGroup(pgid); len(left) == 0 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if len(left) > 0 {
				t.Errorf("processes of group %d still running: %v", pgid, left)
			}
			res := exec.Execute(context.Background(), tool.Call{Name: "Bash", Input: tool.NewInput(map[string]any{"command": "echo again"})}, tool.NewContext())
			if res.IsError || strings.TrimSpace(res.Content) != "again" {
				t.Errorf("the next command got %+v", res)
			}
			served(t, exec)
		})
	}
}

// inGroup returns the live (not zombie) processes of a process group.
// Zombies are left out: an orphan is reaped by init, which in a container
// may never do it.
func inGroup(pgid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		var state string
		var ppid, pg int
		if _, err := fmt.Sscan(s[i+1:], &state, &ppid, &pg); err == nil && pg == pgid && state != "Z" {
			out = append(out, strings.TrimSpace(s[:i+1])+" "+state)
		}
	}
	return out
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory, or skips the
// test where that is not allowed (not root, no CAP_SYS_ADMIN, not Linux).
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("tmpfs is Linux only")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v); the builtin package has no seam to inject write errors", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

func remount(t *testing.T, dir string, flags uintptr) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT|flags, ""); err != nil {
		t.Fatalf("remount %s: %v", dir, err)
	}
}

// listing returns the names and contents of a directory's files.
func listing(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = string(b)
	}
	return out
}

// TestDiskFullAndReadOnly: Write and Edit on a tmpfs that is full, then
// read-only, answer with the file system's reason, leave the old content
// and no temporary file behind, and the executor serves the next call (a
// write that fits, once the disk is writable again).
func TestDiskFullAndReadOnly(t *testing.T) {
	dir := mountTmpfs(t, 256<<10)
	keep := filepath.Join(dir, "keep.txt")
	if err := os.WriteFile(keep, []byte("old content\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := tool.NewRegistry()
	if err := builtin.Register(r, builtin.Options{Root: dir, Tools: []string{"Read", "Write", "Edit"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(echoTool); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(r, tool.WithLogger(discard))
	tc := tool.NewContext()
	call := func(name string, in map[string]any) tool.Result {
		return exec.Execute(context.Background(), tool.Call{Name: name, Input: tool.NewInput(in)}, tc)
	}
	if res := call("Read", map[string]any{"file_path": keep}); res.IsError {
		t.Fatal(res.Content)
	}
	big := strings.Repeat("z", 1<<20)
	before := listing(t, dir)
	tests := []struct {
		name  string
		ro    bool
		tool  string
		input map[string]any
		want  string
	}{
		{"full/write-new", false, "Write", map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": big}, "no space left on device"},
		{"full/write-existing", false, "Write", map[string]any{"file_path": keep, "content": big}, "no space left on device"},
		{"full/edit", false, "Edit", map[string]any{"file_path": keep, "old_string": "old", "new_string": big}, "no space left on device"},
		{"read-only/write-new", true, "Write", map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": "x"}, "read-only file system"},
		{"read-only/write-existing", true, "Write", map[string]any{"file_path": keep, "content": "x"}, "read-only file system"},
		{"read-only/edit", true, "Edit", map[string]any{"file_path": keep, "old_string": "old", "new_string": "new"}, "read-only file system"},
		{"read-only/write-new-dir", true, "Write", map[string]any{"file_path": filepath.Join(dir, "d/new.txt"), "content": "x"}, "read-only file system"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ro {
				remount(t, dir, syscall.MS_RDONLY)
				defer remount(t, dir, 0)
			}
			res := call(tt.tool, tt.input)
			if !res.IsError || !strings.Contains(res.Content, tt.want) {
				t.Errorf("got %q, want an error saying %q", res.Content, tt.want)
			}
			if strings.Contains(res.Content, "\n") || len(res.Content) > 300 {
				t.Errorf("the answer is not one short sentence: %q", res.Content)
			}
			if diff := cmp.Diff(before, listing(t, dir)); diff != "" {
				t.Errorf("the directory changed (-before +after):\n%s", diff)
			}
			served(t, exec)
		})
	}
	if res := call("Edit", map[string]any{"file_path": keep, "old_string": "old", "new_string": "new"}); res.IsError {
		t.Errorf("an edit that fits, after the faults: %q", res.Content)
	}
	if b, _ := os.ReadFile(keep); string(b) != "new content\n" {
		t.Errorf("keep.txt is %q", b)
	}
}

// TestFloodedArguments: arguments near the size limit that repeat one key
// 400,000 times, or carry 300,000 unknown keys, through the executor with
// the real Grep tool. Each call is refused with a message of bounded size
// (at most 16 duplicates and 50 violations are named, the rest counted),
// and the executor serves the next call.
func TestFloodedArguments(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes of flooded arguments; run without -short")
	}
	ws := t.TempDir()
	r := tool.NewRegistry()
	if err := builtin.Register(r, builtin.Options{Root: ws, Tools: []string{"Grep"}}); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(r, tool.WithLogger(discard))
	var dup, unknown strings.Builder
	dup.WriteString(`{"pattern":"x"`)
	for range 400000 {
		dup.WriteString(`,"path":"/a"`)
	}
	dup.WriteString(`}`)
	unknown.WriteString(`{"pattern":"x"`)
	for i := range 300000 {
		fmt.Fprintf(&unknown, `,"k%d":1`, i)
	}
	unknown.WriteString(`}`)
	for _, c := range []struct {
		name, data, want string
	}{
		{"duplicates", dup.String(), "Parameter 'path' is given more than once. The tool was not executed."},
		{"unknown keys", unknown.String(), "... and 299950 more problems like these. The tool was not executed."},
	} {
		start := time.Now()
		in, err := tool.DecodeInput([]byte(c.data))
		var res tool.Result
		if err != nil {
			res = tool.FailureFrom(err)
		} else {
			res = exec.Execute(context.Background(), tool.Call{Name: "Grep", Input: in}, tool.NewContext())
		}
		if !res.IsError || !strings.HasSuffix(res.Content, c.want) || len(res.Content) > 8<<10 {
			t.Errorf("%s: IsError=%v, %d bytes ending %q; want an error of at most 8 KiB ending %q", c.name, res.IsError, len(res.Content), tail(res.Content), c.want)
		}
		t.Logf("%s: %d bytes of arguments, refused in %v with %d bytes", c.name, len(c.data), time.Since(start).Round(time.Millisecond), len(res.Content))
	}
	next := exec.Execute(context.Background(), tool.Call{Name: "Grep", Input: tool.NewInput(map[string]any{"pattern": "x", "path": ws})}, tool.NewContext())
	if next.IsError {
		t.Errorf("the next call: %+v", next)
	}
}

func tail(s string) string {
	if len(s) > 80 {
		return s[len(s)-80:]
	}
	return s
}
