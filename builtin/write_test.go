package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(e *testEnv)
		path    string
		content string
		want    string // %s is replaced by the absolute path
		wantErr bool
		after   string // the file's content afterwards, when set
	}{
		{name: "create", path: "new.txt", content: "hello", want: "The file %s was created (5 bytes).", after: "hello"},
		{name: "create empty", path: "empty.txt", content: "", want: "The file %s was created (0 bytes).", after: ""},
		{name: "create one byte", path: "one.txt", content: "x", want: "The file %s was created (1 byte).", after: "x"},
		{name: "create with directories", path: "a/b/c.txt", content: "deep", want: "The file %s was created (4 bytes).", after: "deep"},
		{name: "overwrite after read", setup: func(e *testEnv) { e.file("f.txt", "old"); e.mustRead("f.txt") },
			path: "f.txt", content: "new!", want: "The file %s was updated (4 bytes).", after: "new!"},
		{name: "overwrite unread", setup: func(e *testEnv) { e.file("f.txt", "old") },
			path: "f.txt", content: "new", want: "File has not been read yet: %s. Read it first before writing it.", wantErr: true, after: "old"},
		{name: "changed since read", setup: func(e *testEnv) {
			e.file("f.txt", "old")
			e.mustRead("f.txt")
			e.file("f.txt", "changed by someone else")
		}, path: "f.txt", content: "new", want: "File has been modified since it was read: %s. Read it again before writing it.", wantErr: true,
			after: "changed by someone else"},
		{name: "directory", setup: func(e *testEnv) { must(e.t, os.Mkdir(e.path("d"), 0o755)) },
			path: "d", content: "x", want: "Cannot write %s: it is a directory. Give the path of a file.", wantErr: true},
		{name: "fifo", setup: func(e *testEnv) { mkfifo(e.t, e.path("p")) },
			path: "p", content: "x", want: "Cannot write %s: it is a named pipe (FIFO). Write writes regular files only.", wantErr: true},
		{name: "outside", path: "../x.txt", content: "x",
			want: "The path ../x.txt is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
		{name: "nul byte", path: "a\x00b", content: "x", want: "The path contains a NUL byte. Give the path without it.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			if tt.setup != nil {
				tt.setup(e)
			}
			got, err := e.write(WriteInput{FilePath: tt.path, Content: tt.content})
			check(t, got, err, strings.ReplaceAll(tt.want, "%s", e.path(tt.path)), tt.wantErr)
			if tt.after != "" || (!tt.wantErr && tt.content == "") {
				if c := e.content(tt.path); c != tt.after {
					t.Errorf("content = %q, want %q", c, tt.after)
				}
			}
			assertNoTempFiles(t, e.root)
		})
	}
}

func assertNoTempFiles(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
}

func TestWriteKeepsModeAndLink(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("script.sh", "#!/bin/sh\n")
	must(t, os.Chmod(p, 0o750))
	must(t, os.Symlink("script.sh", e.path("link.sh")))
	e.mustRead("link.sh")
	got, err := e.write(WriteInput{FilePath: "link.sh", Content: "#!/bin/sh\necho hi\n"})
	check(t, got, err, "The file "+e.path("link.sh")+" was updated (18 bytes).", false)
	fi, err := os.Lstat(e.path("link.sh"))
	must(t, err)
	if fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a %v", fi.Mode())
	}
	fi, err = os.Stat(p)
	must(t, err)
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("mode = %v, want 0750", fi.Mode().Perm())
	}
	if c := e.content("script.sh"); c != "#!/bin/sh\necho hi\n" {
		t.Errorf("content = %q", c)
	}
	// The write recorded the new version: the run may write again.
	got, err = e.write(WriteInput{FilePath: "script.sh", Content: "again"})
	check(t, got, err, "The file "+p+" was updated (5 bytes).", false)
}

func TestWriteLinkOut(t *testing.T) {
	e := newTestEnv(t)
	out := filepath.Join(t.TempDir(), "target.txt")
	must(t, os.WriteFile(out, []byte("outside"), 0o644))
	rel, err := filepath.Rel(e.root, out)
	must(t, err)
	must(t, os.Symlink(rel, e.path("out")))
	e.tc.ReadFiles().Mark(e.path("out"), "")
	got, err := e.write(WriteInput{FilePath: "out", Content: "pwned"})
	check(t, got, err, "The path out is outside the workspace. Only files inside the workspace can be used.", true)
	b, _ := os.ReadFile(out)
	if string(b) != "outside" {
		t.Errorf("the file outside changed: %q", b)
	}
}

func TestEdit(t *testing.T) {
	const src = "func a() {}\nfunc b() {}\nfunc a() {}\n"
	tests := []struct {
		name    string
		unread  bool
		in      EditInput
		want    string
		wantErr bool
		after   string
	}{
		{name: "one replacement", in: EditInput{OldString: "func b", NewString: "func c"},
			want: "The file %s was edited: 1 replacement made.", after: "func a() {}\nfunc c() {}\nfunc a() {}\n"},
		{name: "replace all", in: EditInput{OldString: "func a", NewString: "func z", ReplaceAll: true},
			want: "The file %s was edited: 2 replacements made.", after: "func z() {}\nfunc b() {}\nfunc z() {}\n"},
		{name: "replace all with one match", in: EditInput{OldString: "func b", NewString: "func y", ReplaceAll: true},
			want: "The file %s was edited: 1 replacement made.", after: "func a() {}\nfunc y() {}\nfunc a() {}\n"},
		{name: "delete", in: EditInput{OldString: "func b() {}\n", NewString: ""},
			want: "The file %s was edited: 1 replacement made.", after: "func a() {}\nfunc a() {}\n"},
		{name: "not unique", in: EditInput{OldString: "func a", NewString: "func z"},
			want: "Found 2 matches of old_string in %s, but replace_all is false. To replace every match, set replace_all to true; to replace one, give more surrounding context so that old_string is unique.", wantErr: true},
		{name: "not found", in: EditInput{OldString: "func q", NewString: "func z"},
			want: "old_string was not found in %s. It must match the file exactly, including whitespace and indentation; read the file again and copy the text from it.", wantErr: true},
		{name: "same strings", in: EditInput{OldString: "func a", NewString: "func a"},
			want: "No changes to make: old_string and new_string are exactly the same.", wantErr: true},
		{name: "empty old string", in: EditInput{OldString: "", NewString: "x"},
			want: "old_string is empty. Give the exact text to replace; to create or overwrite a whole file, use Write.", wantErr: true},
		{name: "unread", unread: true, in: EditInput{OldString: "func b", NewString: "func c"},
			want: "File has not been read yet: %s. Read it first before editing it.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			p := e.file("f.go", src)
			if !tt.unread {
				e.mustRead("f.go")
			}
			in := tt.in
			in.FilePath = p
			got, err := e.edit(in)
			check(t, got, err, strings.ReplaceAll(tt.want, "%s", p), tt.wantErr)
			after := tt.after
			if tt.wantErr {
				after = src
			}
			if c := e.content("f.go"); c != after {
				t.Errorf("content = %q, want %q", c, after)
			}
			assertNoTempFiles(t, e.root)
		})
	}
}

func TestEditFiles(t *testing.T) {
	e := newTestEnv(t)
	must(t, os.Mkdir(e.path("d"), 0o755))
	mkfifo(t, e.path("p"))
	tests := []struct {
		name, path, want string
	}{
		{"missing", "nope.txt", "File does not exist: " + e.path("nope.txt") + ". Use Write to create it."},
		{"directory", "d", "Cannot edit " + e.path("d") + ": it is a directory. Give the path of a file."},
		{"fifo", "p", "Cannot read " + e.path("p") + ": it is a named pipe (FIFO). Read reads regular files only."},
		{"outside", "/etc/passwd", "The path /etc/passwd is outside the workspace. Only files inside the workspace can be used."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withTimeout(t, func() (string, error) {
				return e.edit(EditInput{FilePath: tt.path, OldString: "a", NewString: "b"})
			})
			check(t, got, err, tt.want, true)
		})
	}
}

func TestEditKeepsModeAndEditsAgain(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("f.txt", "one two three")
	must(t, os.Chmod(p, 0o600))
	e.mustRead("f.txt")
	for i, step := range []struct{ old, new string }{{"one", "1"}, {"two", "2"}, {"three", "3"}} {
		got, err := e.edit(EditInput{FilePath: p, OldString: step.old, NewString: step.new})
		check(t, got, err, "The file "+p+" was edited: 1 replacement made.", false)
		if t.Failed() {
			t.Fatalf("step %d", i)
		}
	}
	if c := e.content("f.txt"); c != "1 2 3" {
		t.Errorf("content = %q", c)
	}
	fi, err := os.Stat(p)
	must(t, err)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
	}
}

func TestEditChangedSinceRead(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("f.txt", "aaa")
	e.mustRead("f.txt")
	// Same size, same modification time: only the inode tells.
	fi, err := os.Stat(p)
	must(t, err)
	tmp := e.file("other", "bbb")
	must(t, os.Chtimes(tmp, fi.ModTime(), fi.ModTime()))
	must(t, os.Rename(tmp, p))
	got, err := e.edit(EditInput{FilePath: p, OldString: "b", NewString: "c", ReplaceAll: true})
	check(t, got, err, "File has been modified since it was read: "+p+". Read it again before editing it.", true)
}

// Two runs read the same file, then both edit it: the second must see that
// the first changed it, not overwrite its change.
func TestEditTwoRuns(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("f.txt", "alpha beta\n")
	runA, runB := tool.NewContext(), tool.NewContext()
	for _, tc := range []tool.Context{runA, runB} {
		if _, err := e.f.read(context.Background(), ReadInput{FilePath: p}, tc); err != nil {
			t.Fatal(err)
		}
	}
	got, err := e.f.edit(context.Background(), EditInput{FilePath: p, OldString: "alpha", NewString: "ALPHA"}, runA)
	check(t, got, err, "The file "+p+" was edited: 1 replacement made.", false)
	got, err = e.f.edit(context.Background(), EditInput{FilePath: p, OldString: "beta", NewString: "BETA"}, runB)
	check(t, got, err, "File has been modified since it was read: "+p+". Read it again before editing it.", true)
	if c := e.content("f.txt"); c != "ALPHA beta\n" {
		t.Errorf("content = %q", c)
	}
}

// The same, at the same time, many times: exactly one edit of each round
// wins and no change is lost.
func TestEditConcurrentRuns(t *testing.T) {
	e := newTestEnv(t)
	p := e.file("f.txt", "")
	for round := range 20 {
		must(t, os.WriteFile(p, []byte("x\n"), 0o644))
		runs := make([]tool.Context, 4)
		for i := range runs {
			runs[i] = tool.NewContext()
			if _, err := e.f.read(context.Background(), ReadInput{FilePath: p}, runs[i]); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		errs := make([]error, len(runs))
		for i := range runs {
			wg.Go(func() {
				_, errs[i] = e.f.edit(context.Background(), EditInput{FilePath: p, OldString: "x", NewString: "x" + string(rune('a'+i))}, runs[i])
			})
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !strings.Contains(err.Error(), "modified since it was read") {
				t.Errorf("round %d: unexpected error %v", round, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d edits succeeded, want 1", round, ok)
		}
		if c := e.content("f.txt"); len(c) != 3 {
			t.Fatalf("round %d: content = %q", round, c)
		}
	}
}

func TestWriteCancelled(t *testing.T) {
	e := newTestEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := e.f.write(ctx, WriteInput{FilePath: "a.txt", Content: "x"}, e.tc)
	check(t, got, err, "Write of "+e.path("a.txt")+" was cancelled; the file was not changed.", true)
	if _, err := os.Stat(e.path("a.txt")); err == nil {
		t.Error("the file was written")
	}
}

func TestWriteWithoutReadFiles(t *testing.T) {
	e := newTestEnv(t)
	e.file("a.txt", "x")
	got, err := e.f.write(context.Background(), WriteInput{FilePath: "a.txt", Content: "y"}, tool.Context{})
	check(t, got, err, "File has not been read yet: "+e.path("a.txt")+". Read it first before writing it.", true)
	// A new file needs no read.
	got, err = e.f.write(context.Background(), WriteInput{FilePath: "b.txt", Content: "y"}, tool.Context{})
	check(t, got, err, "The file "+e.path("b.txt")+" was created (1 byte).", false)
}
