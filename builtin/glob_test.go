package builtin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// globTree makes a tree whose files have distinct modification times:
// later entries are newer.
func globTree(t *testing.T, e *testEnv, names ...string) {
	t.Helper()
	base := time.Now().Add(-time.Hour)
	for i, n := range names {
		p := e.file(n, n)
		ts := base.Add(time.Duration(i) * time.Minute)
		must(t, os.Chtimes(p, ts, ts))
	}
}

func TestGlob(t *testing.T) {
	e := newTestEnv(t)
	globTree(t, e, "a.go", "b.go", "sub/c.go", "sub/deep/d.go", "sub/e.txt", ".git/config.go", "README.md")
	// Two files with the same time sort by name.
	same := time.Now().Add(-2 * time.Hour)
	for _, n := range []string{"same/y.go", "same/x.go"} {
		must(t, os.Chtimes(e.file(n, n), same, same))
	}
	must(t, os.Symlink("sub", e.path("linkdir")))
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "out.go"), nil, 0o644))
	must(t, os.Symlink(filepath.Join(outside, "out.go"), e.path("abs-link.go")))

	paths := func(names ...string) string {
		var out []string
		for _, n := range names {
			out = append(out, e.path(n))
		}
		return strings.Join(out, "\n")
	}
	tests := []struct {
		name    string
		in      GlobInput
		want    string
		wantErr bool
	}{
		{name: "top level", in: GlobInput{Pattern: "*.go"}, want: paths("b.go", "a.go")},
		{name: "recursive, newest first", in: GlobInput{Pattern: "**/*.go"},
			want: paths("sub/deep/d.go", "sub/c.go", "b.go", "a.go", "same/x.go", "same/y.go")},
		{name: "dot slash", in: GlobInput{Pattern: "./sub/*.go"}, want: paths("sub/c.go")},
		{name: "alternatives", in: GlobInput{Pattern: "**/*.{txt,md}"}, want: paths("README.md", "sub/e.txt")},
		{name: "in a path", in: GlobInput{Pattern: "*.go", Path: "sub"}, want: paths("sub/c.go")},
		{name: "absolute path", in: GlobInput{Pattern: "**/*.go", Path: e.path("sub/deep")}, want: paths("sub/deep/d.go")},
		{name: "absolute pattern", in: GlobInput{Pattern: e.path("sub") + "/**/*.txt"}, want: paths("sub/e.txt")},
		{name: ".git named", in: GlobInput{Pattern: ".git/*.go"}, want: paths(".git/config.go")},
		{name: "through a link inside", in: GlobInput{Pattern: "linkdir/*.txt"}, want: paths("linkdir/e.txt")},
		{name: "no match", in: GlobInput{Pattern: "**/*.rs"}, want: "No files found"},
		{name: "empty", in: GlobInput{Pattern: "  "}, want: "The pattern is empty. Give a glob pattern such as **/*.go.", wantErr: true},
		{name: "bad pattern", in: GlobInput{Pattern: "[a-"},
			want: "Invalid glob pattern: [a-. Close every [ and {, and escape a literal one with a backslash.", wantErr: true},
		{name: "missing dir", in: GlobInput{Pattern: "*", Path: "nope"}, want: "Directory does not exist: " + e.path("nope"), wantErr: true},
		{name: "file as dir", in: GlobInput{Pattern: "*", Path: "a.go"},
			want: "Not a directory: " + e.path("a.go") + ". Give the directory to search in.", wantErr: true},
		{name: "outside", in: GlobInput{Pattern: "*", Path: "/etc"},
			want: "The path /etc is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "outside by pattern", in: GlobInput{Pattern: "/etc/*.conf"},
			want: "The path /etc is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "nul", in: GlobInput{Pattern: "a\x00"}, want: "The pattern contains a NUL byte. Give the pattern without it.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.glob(tt.in)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestGlobCap(t *testing.T) {
	e := newTestEnv(t)
	var names []string
	for i := range 150 {
		names = append(names, fmt.Sprintf("f%03d.txt", i))
	}
	globTree(t, e, names...)
	got, err := e.glob(GlobInput{Pattern: "*.txt"})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(got, "\n")
	if len(lines) != 101 {
		t.Fatalf("got %d lines, want 100 paths and a note", len(lines))
	}
	if lines[0] != e.path("f149.txt") || lines[99] != e.path("f050.txt") {
		t.Errorf("first %s, last %s; want the newest 100", lines[0], lines[99])
	}
	want := "(Results are truncated: showing the 100 most recently modified of 150 files. Use a more specific path or pattern.)"
	if lines[100] != want {
		t.Errorf("note = %q, want %q", lines[100], want)
	}
}
