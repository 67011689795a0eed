package builtin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// secret is what must not come out of the private directory.
const secret = "API_KEY=sk-live-0123456789"

// TestToolsBelowPattern: a PATH pattern bounds every file a tool reads or
// lists, not only where it starts. With Read, Grep and Glob allowed
// /ws/docs/* only (and /ws/docs itself for Grep and Glob, which may then
// search it), Read of a file below /ws/docs/private is denied, and so Grep
// and Glob neither show nor list it, and say what they skipped.
func TestToolsBelowPattern(t *testing.T) {
	e := newExecEnv(t, "Read({root}/docs/*)", "Grep({root}/docs/*)", "Grep({root}/docs)", "Glob({root}/docs/*)", "Glob({root}/docs)")
	e.file("docs/readme.md", "no keys here; ask for API_KEY access\n")
	e.file("docs/private/keys/prod.env", secret+"\n")
	must(t, os.Symlink("private/keys/prod.env", e.path("docs/link.env")))
	p := e.path
	tests := []struct {
		name    string
		tool    string
		args    map[string]any
		want    string
		wantErr bool
	}{
		{name: "Read below the pattern is denied", tool: ReadName, args: map[string]any{"file_path": p("docs/private/keys/prod.env")},
			want: "Tool 'Read' is not allowed to access this path.", wantErr: true},
		{name: "Read through a link to below the pattern is denied", tool: ReadName, args: map[string]any{"file_path": p("docs/link.env")},
			want: "Tool 'Read' is not allowed to access this path.", wantErr: true},
		{name: "Grep of the private directory", tool: GrepName, args: map[string]any{"pattern": "API_KEY", "path": p("docs/private")},
			want: "No files found\n\n[1 directory was skipped by the allow-list.]"},
		{name: "Grep content of the private directory", tool: GrepName, args: map[string]any{"pattern": "API_KEY", "path": p("docs/private"), "output_mode": "content"},
			want: "No matches found\n\n[1 directory was skipped by the allow-list.]"},
		{name: "Grep of docs does not descend", tool: GrepName, args: map[string]any{"pattern": "API_KEY", "path": p("docs"), "output_mode": "content"},
			want: p("docs/readme.md") + ":1:no keys here; ask for API_KEY access\n\n[1 directory was skipped by the allow-list.]"},
		{name: "Glob of the private directory", tool: GlobName, args: map[string]any{"pattern": "**/*", "path": p("docs/private")},
			want: "No files found\n\n[1 directory was skipped by the allow-list.]"},
		{name: "Glob of docs lists neither the file nor the link to it", tool: GlobName, args: map[string]any{"pattern": "**/*", "path": p("docs")},
			want: p("docs/readme.md") + "\n\n[1 file and 1 directory were skipped by the allow-list.]"},
		{name: "Glob with an absolute pattern into the private directory", tool: GlobName, args: map[string]any{"pattern": p("docs/private/**/*.env"), "path": p("docs/private")},
			want: "No files found\n\n[1 directory was skipped by the allow-list.]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := e.call(context.Background(), tt.tool, tt.args)
			if strings.Contains(res.Content, secret) || strings.Contains(res.Content, "prod.env") {
				t.Errorf("the private file came out: %q", res.Content)
			}
			if diff := cmp.Diff(tt.want, res.Content); diff != "" || res.IsError != tt.wantErr {
				t.Errorf("IsError %v, want %v; content (-want +got):\n%s", res.IsError, tt.wantErr, diff)
			}
		})
	}
}

// The same calls with patterns that do reach below find the file: the
// tests above fail for the patterns, not for a search that finds nothing.
func TestToolsWithinRecursivePattern(t *testing.T) {
	e := newExecEnv(t, "Grep({root}/docs/**)", "Glob({root}/docs/**)")
	e.file("docs/private/keys/prod.env", secret+"\n")
	p := e.path
	res := e.call(context.Background(), GrepName, map[string]any{"pattern": "API_KEY", "path": p("docs"), "output_mode": "content"})
	if want := p("docs/private/keys/prod.env") + ":1:" + secret; res.Content != want {
		t.Errorf("Grep: %q, want %q", res.Content, want)
	}
	res = e.call(context.Background(), GlobName, map[string]any{"pattern": "**/*.env", "path": p("docs")})
	if want := p("docs/private/keys/prod.env"); res.Content != want {
		t.Errorf("Glob: %q, want %q", res.Content, want)
	}
}

// Files the pattern refuses beside ones it allows are skipped and counted.
func TestGrepSkipsRefusedFiles(t *testing.T) {
	e := newExecEnv(t, "Grep({root}/docs/*.md)", "Glob({root}/docs/*.md)")
	e.file("docs/a.md", "token\n")
	e.file("docs/b.txt", "token\n")
	e.file("docs/c.txt", "token\n")
	p := e.path
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{GrepName, map[string]any{"pattern": "token", "path": p("docs/a.md")}, "Found 1 file\n" + p("docs/a.md")},
		{GrepName, map[string]any{"pattern": "token", "path": p("docs/b.txt")}, "Tool 'Grep' is not allowed to access this path."},
		{GlobName, map[string]any{"pattern": "*", "path": p("docs/a.md")}, "Not a directory: " + p("docs/a.md") + ". Give the directory to search in."},
	} {
		if res := e.call(context.Background(), c.tool, c.args); res.Content != c.want {
			t.Errorf("%s %v: %q, want %q", c.tool, c.args, res.Content, c.want)
		}
	}
	// The directory itself is allowed by no pattern (docs/*.md does not
	// match docs), so Grep and Glob of it are denied before they run; an
	// allow-list that names it too lets them in, and then the filter holds.
	e = newExecEnv(t, "Grep({root}/docs)", "Grep({root}/docs/*.md)", "Glob({root}/docs)", "Glob({root}/docs/*.md)")
	e.file("docs/a.md", "token\n")
	e.file("docs/b.txt", "token\n")
	e.file("docs/c.txt", "token\n")
	p = e.path
	res := e.call(context.Background(), GrepName, map[string]any{"pattern": "token", "path": p("docs")})
	if want := "Found 1 file\n" + p("docs/a.md") + "\n\n[2 files were skipped by the allow-list.]"; res.Content != want {
		t.Errorf("Grep: %q, want %q", res.Content, want)
	}
	res = e.call(context.Background(), GlobName, map[string]any{"pattern": "*", "path": p("docs")})
	if want := p("docs/a.md") + "\n\n[2 files were skipped by the allow-list.]"; res.Content != want {
		t.Errorf("Glob: %q, want %q", res.Content, want)
	}
}

// TestAbsoluteLinkInside: a link inside the workspace whose absolute target
// is inside it too (ws/abs -> /ws/real) is inside: the permission system
// allows it, and the tools follow it. One whose target is outside is still
// outside.
func TestAbsoluteLinkInside(t *testing.T) {
	e := newExecEnv(t, "Read({root}/**)", "Write({root}/**)", "Edit({root}/**)", "Grep({root}/**)", "Glob({root}/**)")
	e.file("real/f.txt", "inside\n")
	must(t, os.Symlink(e.path("real"), e.path("abs")))
	must(t, os.Symlink(e.path("real/f.txt"), e.path("absf")))
	out := t.TempDir()
	must(t, os.WriteFile(out+"/o.txt", []byte("outside\n"), 0o644))
	must(t, os.Symlink(out, e.path("out")))
	p := e.path
	tests := []struct {
		tool    string
		args    map[string]any
		want    string
		wantErr bool
	}{
		{ReadName, map[string]any{"file_path": p("abs/f.txt")}, "     1→inside", false},
		{ReadName, map[string]any{"file_path": p("absf")}, "     1→inside", false},
		{ReadName, map[string]any{"file_path": "abs/f.txt"}, "     1→inside", false},
		{GrepName, map[string]any{"pattern": "inside", "path": p("abs"), "output_mode": "content"}, p("abs/f.txt") + ":1:inside", false},
		{GrepName, map[string]any{"pattern": "inside", "path": p("absf")}, "Found 1 file\n" + p("absf"), false},
		{GlobName, map[string]any{"pattern": "*.txt", "path": p("abs")}, p("abs/f.txt"), false},
		{WriteName, map[string]any{"file_path": p("abs/new.txt"), "content": "new\n"}, "The file " + p("abs/new.txt") + " was created (4 bytes).", false},
		{ReadName, map[string]any{"file_path": p("real/new.txt")}, "     1→new", false},
		{EditName, map[string]any{"file_path": p("absf"), "old_string": "inside", "new_string": "edited"}, "The file " + p("absf") + " was edited: 1 replacement made.", false},
		{ReadName, map[string]any{"file_path": p("real/f.txt")}, "     1→edited", false},
		{ReadName, map[string]any{"file_path": p("out/o.txt")}, "Tool 'Read' is not allowed to access this path.", true},
	}
	for _, tt := range tests {
		res := e.call(context.Background(), tt.tool, tt.args)
		if res.Content != tt.want || res.IsError != tt.wantErr {
			t.Errorf("%s %v: %+v, want %q (error %v)", tt.tool, tt.args, res, tt.want, tt.wantErr)
		}
	}
	// Without an allow-list the workspace root is the only bound: the
	// link out is refused by the tool itself.
	u := newExecEnvAt(t, e.root)
	if res := u.call(context.Background(), ReadName, map[string]any{"file_path": p("out/o.txt")}); !res.IsError || strings.Contains(res.Content, "outside\n") {
		t.Errorf("Read through a link out of the root: %+v", res)
	}
	if res := u.call(context.Background(), ReadName, map[string]any{"file_path": p("abs/f.txt")}); res.IsError {
		t.Errorf("Read through an absolute link inside the root: %+v", res)
	}
}

// The same with the root given as a link, and the absolute links written
// with the root's real path: they are inside too.
func TestAbsoluteLinkInsideLinkedRoot(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, root); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	must(t, os.MkdirAll(filepath.Join(real, "real"), 0o755))
	must(t, os.WriteFile(filepath.Join(real, "real", "f.txt"), []byte("inside\n"), 0o644))
	must(t, os.Symlink(filepath.Join(real, "real"), filepath.Join(real, "absdir")))
	must(t, os.Symlink(filepath.Join(real, "real", "f.txt"), filepath.Join(real, "absf")))
	e := newExecEnvAt(t, root, "Read({root}/**)", "Write({root}/**)", "Grep({root}/**)")
	p := e.path
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{ReadName, map[string]any{"file_path": p("absdir/f.txt")}, "     1→inside"},
		{ReadName, map[string]any{"file_path": p("absf")}, "     1→inside"},
		{GrepName, map[string]any{"pattern": "inside", "path": p("absdir")}, "Found 1 file\n" + p("absdir/f.txt")},
		{WriteName, map[string]any{"file_path": p("absf"), "content": "written\n"}, "The file " + p("absf") + " was updated (8 bytes)."},
		{ReadName, map[string]any{"file_path": p("real/f.txt")}, "     1→written"},
	} {
		if res := e.call(context.Background(), tt.tool, tt.args); res.Content != tt.want || res.IsError {
			t.Errorf("%s %v: %+v, want %q", tt.tool, tt.args, res, tt.want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(real, "absf")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the write replaced the link: %v, %v", fi, err)
	}
}

// TestGrepLinkFlip: a file the walk saw as allowed that is swapped for a
// link to a refused one before it is opened is judged as what was opened,
// so the secret never comes out, whatever the interleaving. Read is judged
// the same way after its open.
func TestGrepLinkFlip(t *testing.T) {
	e := newExecEnv(t, "Grep({root}/docs)", "Grep({root}/docs/*)", "Read({root}/docs/*)")
	e.file("docs/private/keys/prod.env", secret+"\n")
	flip := e.path("docs/flip")
	e.file("docs/flip", "API_KEY=placeholder\n")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var flips atomic.Int64
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			tmp := fmt.Sprintf("%s.tmp%d", flip, i)
			var err error
			if i%2 == 0 {
				err = os.Symlink("private/keys/prod.env", tmp)
			} else {
				err = os.WriteFile(tmp, []byte("API_KEY=placeholder\n"), 0o644)
			}
			if err == nil && os.Rename(tmp, flip) == nil {
				flips.Add(1)
			}
			os.Remove(tmp)
		}
	})
	// At least calls calls, and then on until the flipper has flipped
	// enough and a call has seen the placeholder: on a loaded machine the
	// flipper may get little time, so the test counts work, not time,
	// within a bound derived from the test's deadline.
	calls := 400
	if testing.Short() {
		calls = 100
	}
	const minFlips = 10
	stopBy := time.Now().Add(waitBound(t))
	var leaks, found, i int
	for ; i < calls || ((flips.Load() < minFlips || found == 0) && time.Now().Before(stopBy)); i++ {
		var res tool.Result
		if i%2 == 0 {
			res = e.call(context.Background(), GrepName, map[string]any{"pattern": "API_KEY", "path": e.path("docs"), "output_mode": "content"})
		} else {
			res = e.call(context.Background(), ReadName, map[string]any{"file_path": flip})
		}
		if strings.Contains(res.Content, "sk-live") {
			leaks++
			t.Errorf("call %d: the secret came out: %q", i, res.Content)
		}
		if strings.Contains(res.Content, "placeholder") {
			found++
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d calls against %d flips: %d found the placeholder, %d leaked", i, flips.Load(), found, leaks)
	if flips.Load() < minFlips || found == 0 {
		t.Errorf("too little happened: %d flips, %d calls found the placeholder", flips.Load(), found)
	}
}
