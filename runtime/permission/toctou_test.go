package permission_test

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

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestSymlinkFlip swaps links in and out between the permission check and
// the open: while Read and Write run through the executor, goroutines turn
// an allowed file into a link to a file outside the workspace root and
// back, and an allowed directory into a link to a directory outside it and
// back. Whatever the interleaving, the os.Root confinement must hold:
// nothing outside the root is read (no result shows its content) or
// written (its snapshot is unchanged).
func TestSymlinkFlip(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	tmp := evalTemp(t)
	attackTree(t, tmp)
	ws, out := filepath.Join(tmp, "ws"), filepath.Join(tmp, "out")
	allowed := filepath.Join(ws, "allowed")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(out, "sub", "f.txt"), []byte(outsideContent+"-flip\n"), 0o644))
	must(os.Mkdir(filepath.Join(allowed, "pd"), 0o755))
	must(os.WriteFile(filepath.Join(allowed, "pd", "f.txt"), []byte("CONTENT-allowed-pd\n"), 0o644))
	must(os.WriteFile(filepath.Join(allowed, "flip"), []byte("CONTENT-allowed-flip\n"), 0o644))
	before := snapshot(t, out)

	list, err := permission.Parse("Read("+allowed+"/**)", "Write("+allowed+"/**)")
	must(err)
	reg := tool.NewRegistry()
	must(builtin.Register(reg, builtin.Options{Root: ws, Tools: []string{"Read", "Write"}}))
	exec := tool.NewExecutor(reg, tool.WithAllowList(list), tool.WithLogger(discard))

	dur := 1500 * time.Millisecond
	if testing.Short() {
		dur = 300 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	var wg sync.WaitGroup
	var flips atomic.Int64
	// flip swaps name between a regular entry made by mkReal and a link to
	// target, each time with an atomic rename.
	flip := func(name, target string, mkReal func(string) error) {
		defer wg.Done()
		for i := 0; ctx.Err() == nil; i++ {
			tmpName := fmt.Sprintf("%s.tmp%d", name, i)
			var err error
			if i%2 == 0 {
				err = os.Symlink(target, tmpName)
			} else {
				err = mkReal(tmpName)
			}
			if err == nil {
				// A directory cannot be renamed over a link or a non-empty
				// directory, so clear the way first.
				_ = os.RemoveAll(name)
				err = os.Rename(tmpName, name)
			}
			_ = os.RemoveAll(tmpName)
			if err == nil {
				flips.Add(1)
			}
			runtime.Gosched()
		}
	}
	wg.Add(2)
	go flip(filepath.Join(allowed, "flip"), filepath.Join(out, "o.txt"), func(p string) error {
		return os.WriteFile(p, []byte("CONTENT-allowed-flip\n"), 0o644)
	})
	go flip(filepath.Join(allowed, "pd"), filepath.Join(out, "sub"), func(p string) error {
		if err := os.Mkdir(p, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(p, "f.txt"), []byte("CONTENT-allowed-pd\n"), 0o644)
	})

	type tally struct{ calls, ok, denied, refused int }
	var mu sync.Mutex
	counts := map[string]*tally{}
	var leaks []string
	call := func(kind string, c tool.Call, tc tool.Context) {
		res := exec.Execute(context.Background(), c, tc)
		mu.Lock()
		defer mu.Unlock()
		tl := counts[kind]
		if tl == nil {
			tl = &tally{}
			counts[kind] = tl
		}
		tl.calls++
		switch decision(res) {
		case "allow":
			tl.ok++
		case "deny":
			tl.denied++
		default:
			tl.refused++
		}
		if strings.Contains(res.Content, outsideContent) {
			leaks = append(leaks, kind+": "+res.Content)
		}
	}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tc := tool.NewContext()
			for i := 0; ctx.Err() == nil; i++ {
				call("read-file", tool.Call{Name: "Read", Input: tool.NewInput(map[string]any{"file_path": allowed + "/flip"})}, tc)
				call("read-parent", tool.Call{Name: "Read", Input: tool.NewInput(map[string]any{"file_path": allowed + "/pd/f.txt"})}, tc)
				call("write-parent", tool.Call{Name: "Write", Input: tool.NewInput(map[string]any{
					"file_path": fmt.Sprintf("%s/pd/new-%d-%d.txt", allowed, w, i), "content": "x"})}, tc)
				call("write-file", tool.Call{Name: "Write", Input: tool.NewInput(map[string]any{
					"file_path": allowed + "/flip", "content": "overwritten"})}, tool.NewContext())
			}
		}()
	}
	wg.Wait()

	if diff := cmp.Diff(before, snapshot(t, out)); diff != "" {
		t.Errorf("the directory outside the root changed (-before +after):\n%s", diff)
	}
	for _, l := range leaks {
		t.Errorf("read outside the root: %q", l)
	}
	total := 0
	for kind, c := range counts {
		total += c.calls
		t.Logf("%-12s %5d calls: %5d ran, %5d denied, %5d refused", kind, c.calls, c.ok, c.denied, c.refused)
	}
	t.Logf("%d calls against %d link flips; %d reads or writes outside the root", total, flips.Load(), len(leaks))
	if flips.Load() < 10 || total < 10 {
		t.Errorf("too little happened: %d flips, %d calls", flips.Load(), total)
	}
}
