package builtin

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

// testEnv is a workspace in a temporary directory with the file tools over
// it and a run's context.
type testEnv struct {
	t    testing.TB
	root string
	f    *files
	tc   tool.Context
}

// newTestEnv returns an environment confined to a fresh temporary
// directory. The root is resolved, so that paths in messages are what the
// tools print.
func newTestEnv(t testing.TB) *testEnv {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return newTestEnvAt(t, root)
}

func newTestEnvAt(t testing.TB, root string) *testEnv {
	t.Helper()
	ws, err := newWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return &testEnv{t: t, root: root, f: &files{ws: ws}, tc: tool.NewContext()}
}

// path returns the absolute path of a name in the workspace.
func (e *testEnv) path(name string) string { return filepath.Join(e.root, name) }

// file writes a file in the workspace, making its directories.
func (e *testEnv) file(name, content string) string {
	e.t.Helper()
	p := e.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// content returns a workspace file's content.
func (e *testEnv) content(name string) string {
	e.t.Helper()
	b, err := os.ReadFile(e.path(name))
	if err != nil {
		e.t.Fatal(err)
	}
	return string(b)
}

func (e *testEnv) read(in ReadInput) (string, error) {
	return e.f.read(context.Background(), in, e.tc)
}

func (e *testEnv) write(in WriteInput) (string, error) {
	return e.f.write(context.Background(), in, e.tc)
}

func (e *testEnv) edit(in EditInput) (string, error) {
	return e.f.edit(context.Background(), in, e.tc)
}

func (e *testEnv) glob(in GlobInput) (string, error) {
	return e.f.glob(context.Background(), in, e.tc)
}

func (e *testEnv) grep(in GrepInput) (string, error) {
	return e.f.grep(context.Background(), in, e.tc)
}

// mustRead reads a file so that the run may change it.
func (e *testEnv) mustRead(name string) {
	e.t.Helper()
	if _, err := e.read(ReadInput{FilePath: e.path(name)}); err != nil {
		e.t.Fatalf("read %s: %v", name, err)
	}
}

// check compares a run function's outcome with the text the model must
// see: want is the result's content, and wantErr whether it is an error.
func check(t *testing.T, got string, err error, want string, wantErr bool) {
	t.Helper()
	if err != nil {
		got = err.Error()
	}
	if (err != nil) != wantErr {
		t.Errorf("error = %v, want error %v; content:\n%s", err, wantErr, got)
	}
	if got != want {
		t.Errorf("content mismatch\n got: %q\nwant: %q", got, want)
	}
}

func ptr[T any](v T) *T { return &v }

// waitBound is how long a test waits for what should happen soon (a
// process gone, a line of output, goroutines ended): a tenth of the time the
// test has left, so that a loaded machine, which only makes things slower,
// cannot fail the test, while a real hang is still reported before go test's
// own timeout. A minute where the test has no deadline.
func waitBound(t *testing.T) time.Duration {
	if d, ok := t.Deadline(); ok {
		return time.Until(d) / 10
	}
	return time.Minute
}
