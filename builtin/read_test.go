package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

func numbered(from int, lines ...string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%6d→%s", from+i, l)
	}
	return b.String()
}

func TestRead(t *testing.T) {
	long := strings.Repeat("x", 2500)
	huge := strings.Repeat("é", 100_000) // longer than the reader's buffer
	var many strings.Builder
	for i := 1; i <= 2001; i++ {
		fmt.Fprintf(&many, "line %d\n", i)
	}
	tests := []struct {
		name    string
		content string
		in      ReadInput
		want    string // %s is the file's absolute path
		wantErr bool
	}{
		{name: "lines", content: "alpha\nbeta\n", want: numbered(1, "alpha", "beta")},
		{name: "no final newline", content: "alpha\nbeta", want: numbered(1, "alpha", "beta")},
		{name: "blank lines kept", content: "a\n\nb\n", want: numbered(1, "a", "", "b")},
		{name: "crlf", content: "a\r\nb\r\n", want: numbered(1, "a", "b")},
		{name: "bom", content: "\uFEFFpackage x\n", want: numbered(1, "package x")},
		{name: "offset", content: "1\n2\n3\n4\n", in: ReadInput{Offset: ptr(3)}, want: numbered(3, "3", "4")},
		{name: "limit", content: "1\n2\n3\n4\n", in: ReadInput{Limit: ptr(2)},
			want: numbered(1, "1", "2") + "\n\n[Showing lines 1-2. The file has more lines: read on with offset=3.]"},
		{name: "offset and limit", content: "1\n2\n3\n4\n", in: ReadInput{Offset: ptr(2), Limit: ptr(2)},
			want: numbered(2, "2", "3") + "\n\n[Showing lines 2-3. The file has more lines: read on with offset=4.]"},
		{name: "limit to the end", content: "1\n2\n", in: ReadInput{Limit: ptr(2)}, want: numbered(1, "1", "2")},
		{name: "offset zero", content: "1\n", in: ReadInput{Offset: ptr(0)}, want: "offset must be >= 1, got: 0", wantErr: true},
		{name: "offset negative", content: "1\n", in: ReadInput{Offset: ptr(-4)}, want: "offset must be >= 1, got: -4", wantErr: true},
		{name: "limit zero", content: "1\n", in: ReadInput{Limit: ptr(0)}, want: "limit must be >= 1, got: 0", wantErr: true},
		{name: "limit negative", content: "1\n", in: ReadInput{Limit: ptr(-1)}, want: "limit must be >= 1, got: -1", wantErr: true},
		{name: "offset past the end", content: "1\n2\n", in: ReadInput{Offset: ptr(10)},
			want: "Offset 10 is past the end of %s, which has 2 lines. Use an offset between 1 and 2.", wantErr: true},
		{name: "offset past a one-line file", content: "1", in: ReadInput{Offset: ptr(2)},
			want: "Offset 2 is past the end of %s, which has 1 line. Use an offset between 1 and 1.", wantErr: true},
		{name: "empty", content: "", want: "[System Warning: This file is empty]"},
		{name: "long line cut", content: long + "\nshort\n", want: numbered(1, strings.Repeat("x", 2000)+"...", "short")},
		{name: "line of exactly 2000", content: strings.Repeat("y", 2000), want: numbered(1, strings.Repeat("y", 2000))},
		{name: "huge line cut", content: huge + "\nnext\n", want: numbered(1, strings.Repeat("é", 2000)+"...", "next")},
		{name: "invalid utf-8", content: "ok \xff\xfe bad\n", want: numbered(1, "ok \uFFFD bad")},
		{name: "default limit", content: many.String(),
			want: numbered(1, linesN(1, 2000)...) + "\n\n[Showing lines 1-2000. The file has more lines: read on with offset=2001.]"},
		{name: "binary", content: "abc\x00def",
			want: "Cannot display the binary file %s (binary data, 7 bytes). Read shows text files only.", wantErr: true},
		{name: "png", content: "\x89PNG\r\n\x1a\nrest",
			want: "Cannot display the binary file %s (PNG image, 12 bytes). Read shows text files only.", wantErr: true},
		{name: "pdf", content: "%PDF-1.7\n",
			want: "Cannot display the binary file %s (PDF document, 9 bytes). Read shows text files only.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			p := e.file("f.txt", tt.content)
			in := tt.in
			in.FilePath = p
			got, err := e.read(in)
			want := tt.want
			if strings.Contains(want, "%s") {
				want = fmt.Sprintf(want, p)
			}
			check(t, got, err, want, tt.wantErr)
			_, recorded := e.tc.ReadFiles().Version(p)
			if recorded == tt.wantErr {
				t.Errorf("recorded in read-files = %v, want %v", recorded, !tt.wantErr)
			}
		})
	}
}

func linesN(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf("line %d", i))
	}
	return out
}

func TestReadPaths(t *testing.T) {
	e := newTestEnv(t)
	e.file("dir/a.txt", "hello\n")
	outsideDir := t.TempDir()
	secret := filepath.Join(outsideDir, "secret.txt")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(e.path("dir"), secret)
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.Symlink(rel, e.path("dir/rel-out")))
	must(t, os.Symlink(secret, e.path("dir/abs-out")))
	must(t, os.Symlink("a.txt", e.path("dir/in")))
	mkfifo(t, e.path("fifo"))

	tests := []struct {
		name    string
		path    string
		workDir string
		want    string
		wantErr bool
	}{
		{name: "absolute", path: e.path("dir/a.txt"), want: numbered(1, "hello")},
		{name: "relative to the root", path: "dir/a.txt", want: numbered(1, "hello")},
		{name: "relative to the work dir", path: "a.txt", workDir: e.path("dir"), want: numbered(1, "hello")},
		{name: "dot dot inside", path: "dir/../dir/a.txt", want: numbered(1, "hello")},
		{name: "symlink inside", path: "dir/in", want: numbered(1, "hello")},
		{name: "dot dot out", path: "../x.txt",
			want: "The path ../x.txt is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "absolute out", path: secret,
			want: "The path " + secret + " is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "absolute out, missing", path: filepath.Join(outsideDir, "nope"),
			want: "The path " + filepath.Join(outsideDir, "nope") + " is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "relative symlink out", path: "dir/rel-out",
			want: "The path dir/rel-out is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "absolute symlink out", path: "dir/abs-out",
			want: "The path dir/abs-out is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "work dir outside", path: "a.txt", workDir: outsideDir,
			want: "The path a.txt is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "nul byte", path: "dir/a.txt\x00.png", want: "The path contains a NUL byte. Give the path without it.", wantErr: true},
		{name: "empty", path: " ", want: "The path is empty. Give an absolute path, or one relative to the working directory.", wantErr: true},
		{name: "missing", path: "dir/nope.txt", want: "File does not exist: " + e.path("dir/nope.txt"), wantErr: true},
		{name: "directory", path: "dir",
			want: "Cannot read directory: " + e.path("dir") + ". Use 'ls' command to list directory contents.", wantErr: true},
		{name: "root directory", path: ".",
			want: "Cannot read directory: " + e.root + ". Use 'ls' command to list directory contents.", wantErr: true},
		{name: "fifo", path: "fifo",
			want: "Cannot read " + e.path("fifo") + ": it is a named pipe (FIFO). Read reads regular files only.", wantErr: true},
		{name: "control character", path: "dir/a\x01.txt",
			want: "The path \"dir/a\\x01.txt\" cannot be used: the path contains a control character (U+0001).", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tc := e.tc
			if tt.workDir != "" {
				tc = tc.With(tool.WorkDirKey.Bind(tt.workDir))
			}
			got, err := withTimeout(t, func() (string, error) {
				return e.f.read(context.Background(), ReadInput{FilePath: tt.path}, tc)
			})
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

// withTimeout fails the test if fn blocks, as a read of a FIFO would.
func withTimeout(t *testing.T, fn func() (string, error)) (string, error) {
	t.Helper()
	type res struct {
		s   string
		err error
	}
	ch := make(chan res, 1)
	go func() { s, err := fn(); ch <- res{s, err} }()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-time.After(waitBound(t)):
		t.Fatal("the tool blocked")
		return "", nil
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestReadUnconfined(t *testing.T) {
	e := newTestEnvAt(t, "")
	dir := t.TempDir()
	p := filepath.Join(dir, "a.txt")
	must(t, os.WriteFile(p, []byte("x\n"), 0o644))
	got, err := e.f.read(context.Background(), ReadInput{FilePath: "a.txt"}, e.tc.With(tool.WorkDirKey.Bind(dir)))
	check(t, got, err, numbered(1, "x"), false)

	// Devices are refused without being opened.
	got, err = withTimeout(t, func() (string, error) { return e.read(ReadInput{FilePath: "/dev/zero"}) })
	check(t, got, err, "Cannot read /dev/zero: it is a character device. Read reads regular files only.", true)
}

func TestReadRecordsVersion(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("a.txt", "one\n")
	e.mustRead("a.txt")
	v1, ok := e.tc.ReadFiles().Version(p)
	if !ok || v1 == "" {
		t.Fatalf("version = %q, %v; want a recorded version", v1, ok)
	}
	fi, err := os.Stat(p)
	must(t, err)
	if v1 != version(fi) {
		t.Errorf("version = %q, want %q", v1, version(fi))
	}
	must(t, os.WriteFile(p, []byte("two, longer\n"), 0o644))
	e.mustRead("a.txt")
	if v2, _ := e.tc.ReadFiles().Version(p); v2 == v1 {
		t.Errorf("version did not change after the file changed: %q", v2)
	}
}

// deniedFS simulates a file the process may not open (tests run as root,
// which no file mode stops).
type deniedFS struct{ fsys }

func (d deniedFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return nil, &fs.PathError{Op: "openat", Path: name, Err: fs.ErrPermission}
}

func TestReadPermissionDenied(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("a.txt", "x\n")
	e.f.ws.openRoot = func(dir string) (fsys, error) {
		r, err := os.OpenRoot(dir)
		return deniedFS{r}, err
	}
	got, err := e.read(ReadInput{FilePath: p})
	check(t, got, err, "Permission denied: "+p, true)
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("err = %v, want it to wrap fs.ErrPermission", err)
	}

	// And for real, where the process is not root.
	if os.Geteuid() == 0 {
		return
	}
	e = newTestEnv(t)
	p = e.file("b.txt", "x\n")
	must(t, os.Chmod(p, 0))
	got, err = e.read(ReadInput{FilePath: p})
	check(t, got, err, "Permission denied: "+p, true)
}

func TestReadCancelled(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("a.txt", "x\n")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := e.f.read(ctx, ReadInput{FilePath: p}, e.tc)
	check(t, got, err, "Read of "+p+" was cancelled.", true)
}

func TestReadStreamsLargeFile(t *testing.T) {
	// A 1 GiB file, all but its first lines sparse: Read must not read on.
	e := newTestEnv(t)
	p := bigFile(t, e.path("big.txt"), 1<<30)
	start := time.Now()
	got, err := e.read(ReadInput{FilePath: p})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Read took %v", d)
	}
	if n := strings.Count(got, "→"); n != 2000 {
		t.Errorf("got %d lines, want 2000", n)
	}
	if !strings.HasSuffix(got, "[Showing lines 1-2000. The file has more lines: read on with offset=2001.]") {
		t.Errorf("missing the continuation note: ...%s", got[len(got)-120:])
	}
}

// bigFile makes a file of size bytes whose first 4,000 lines are text and
// whose rest is a hole.
func bigFile(t testing.TB, p string, size int64) string {
	t.Helper()
	fh, err := os.Create(p)
	must(t, err)
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "this is line %d of a large generated file\n", i)
	}
	_, err = fh.WriteString(b.String())
	must(t, err)
	must(t, fh.Truncate(size))
	must(t, fh.Close())
	return p
}
