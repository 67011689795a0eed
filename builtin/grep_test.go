package builtin

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGrep(t *testing.T) {
	e := newTestEnv(t)
	e.file("a.go", "package a\n\nfunc Alpha() {}\nfunc beta() {}\n")
	e.file("b.py", "def alpha():\n    pass\n")
	e.file("sub/c.go", "package sub\n// ALPHA in a comment\n")
	e.file("ctx.txt", "1\n2\nhit one\n4\n5\n6\n7\nhit two\n9\n")
	e.file("bin.dat", "alpha\x00binary")
	e.file(".git/HEAD", "alpha\n")
	e.file("multi.txt", "start\nmiddle\nend\n")
	e.file("crlf.txt", "crlf alpha\r\n")
	p := e.path
	tests := []struct {
		name    string
		in      GrepInput
		want    string
		wantErr bool
	}{
		{name: "files with matches", in: GrepInput{Pattern: "alpha"},
			want: "Found 2 files\n" + p("b.py") + "\n" + p("crlf.txt")},
		{name: "ignore case", in: GrepInput{Pattern: "alpha", IgnoreCase: true},
			want: "Found 4 files\n" + p("a.go") + "\n" + p("b.py") + "\n" + p("crlf.txt") + "\n" + p("sub/c.go")},
		{name: "type", in: GrepInput{Pattern: "alpha", IgnoreCase: true, Type: "go"},
			want: "Found 2 files\n" + p("a.go") + "\n" + p("sub/c.go")},
		{name: "glob", in: GrepInput{Pattern: "alpha", IgnoreCase: true, Glob: "*.{py,txt}"},
			want: "Found 2 files\n" + p("b.py") + "\n" + p("crlf.txt")},
		{name: "glob with a slash", in: GrepInput{Pattern: "alpha", IgnoreCase: true, Glob: "sub/**"},
			want: "Found 1 file\n" + p("sub/c.go")},
		{name: "content", in: GrepInput{Pattern: "^func", OutputMode: "content", LineNumbers: true},
			want: p("a.go") + ":3:func Alpha() {}\n" + p("a.go") + ":4:func beta() {}"},
		{name: "content without numbers", in: GrepInput{Pattern: "^func", OutputMode: "content"},
			want: p("a.go") + ":func Alpha() {}\n" + p("a.go") + ":func beta() {}"},
		{name: "content strips cr", in: GrepInput{Pattern: "crlf", OutputMode: "content", LineNumbers: true},
			want: p("crlf.txt") + ":1:crlf alpha"},
		{name: "anchors per line", in: GrepInput{Pattern: "^hit.*$", OutputMode: "content", LineNumbers: true, Path: "ctx.txt"},
			want: p("ctx.txt") + ":3:hit one\n" + p("ctx.txt") + ":8:hit two"},
		{name: "context", in: GrepInput{Pattern: "hit", OutputMode: "content", LineNumbers: true, Context: 1, Path: "ctx.txt"},
			want: strings.Join([]string{
				p("ctx.txt") + "-2-2", p("ctx.txt") + ":3:hit one", p("ctx.txt") + "-4-4", "--",
				p("ctx.txt") + "-7-7", p("ctx.txt") + ":8:hit two", p("ctx.txt") + "-9-9",
			}, "\n")},
		{name: "after and before", in: GrepInput{Pattern: "hit two", OutputMode: "content", LineNumbers: true, After: ptr(5), Before: ptr(2), Path: "ctx.txt"},
			want: strings.Join([]string{p("ctx.txt") + "-6-6", p("ctx.txt") + "-7-7", p("ctx.txt") + ":8:hit two", p("ctx.txt") + "-9-9"}, "\n")},
		{name: "overlapping context merges", in: GrepInput{Pattern: "hit", OutputMode: "content", LineNumbers: true, Context: 3, Path: "ctx.txt"},
			want: strings.Join([]string{
				p("ctx.txt") + "-1-1", p("ctx.txt") + "-2-2", p("ctx.txt") + ":3:hit one", p("ctx.txt") + "-4-4",
				p("ctx.txt") + "-5-5", p("ctx.txt") + "-6-6", p("ctx.txt") + "-7-7", p("ctx.txt") + ":8:hit two", p("ctx.txt") + "-9-9",
			}, "\n")},
		{name: "B overrides C", in: GrepInput{Pattern: "hit one", OutputMode: "content", LineNumbers: true, Context: 2, Before: ptr(0), Path: "ctx.txt"},
			want: strings.Join([]string{p("ctx.txt") + ":3:hit one", p("ctx.txt") + "-4-4", p("ctx.txt") + "-5-5"}, "\n")},
		{name: "count", in: GrepInput{Pattern: "hit|alpha", OutputMode: "count"},
			want: "Found 4 matches in 3 files\n" + p("b.py") + ":1\n" + p("crlf.txt") + ":1\n" + p("ctx.txt") + ":2"},
		{name: "head limit", in: GrepInput{Pattern: "a", IgnoreCase: true, HeadLimit: 2},
			want: "Found 5 files\n" + p("a.go") + "\n" + p("b.py") + "\n\n[Showing results 1-2; there are more. Page on with offset=2.]"},
		{name: "offset", in: GrepInput{Pattern: "a", IgnoreCase: true, HeadLimit: 2, Offset: 2},
			want: "Found 5 files\n" + p("crlf.txt") + "\n" + p("multi.txt") + "\n\n[Showing results 3-4; there are more. Page on with offset=4.]"},
		{name: "offset to the end", in: GrepInput{Pattern: "a", IgnoreCase: true, Offset: 4},
			want: "Found 5 files\n" + p("sub/c.go")},
		{name: "offset past the end", in: GrepInput{Pattern: "alpha", Offset: 7},
			want: "No results at offset 7: there are 2 results."},
		{name: "multiline", in: GrepInput{Pattern: "start.*end", Multiline: true, OutputMode: "content", LineNumbers: true},
			want: p("multi.txt") + ":1:start\n" + p("multi.txt") + ":2:middle\n" + p("multi.txt") + ":3:end"},
		{name: "no multiline without the flag", in: GrepInput{Pattern: "start.*end"}, want: "No files found"},
		{name: "a file", in: GrepInput{Pattern: "pass", Path: "b.py", OutputMode: "content", LineNumbers: true},
			want: p("b.py") + ":2:    pass"},
		{name: "binary and .git skipped", in: GrepInput{Pattern: "binary|HEAD"}, want: "No files found"},
		{name: "no content match", in: GrepInput{Pattern: "zzz", OutputMode: "content"}, want: "No matches found"},
		{name: "empty pattern", in: GrepInput{Pattern: ""}, want: "The pattern is empty. Give a regular expression to search for.", wantErr: true},
		{name: "long pattern", in: GrepInput{Pattern: strings.Repeat("a", 1001)},
			want: "The pattern is 1001 characters long; the limit is 1000. Search for a shorter pattern.", wantErr: true},
		{name: "bad regexp", in: GrepInput{Pattern: "(a"},
			want: "Invalid regular expression: missing closing ): `(?m)(a`. Grep uses Go's RE2 syntax, which has no lookarounds or backreferences.", wantErr: true},
		{name: "lookahead", in: GrepInput{Pattern: "a(?=b)"},
			want: "Invalid regular expression: invalid or unsupported Perl syntax: `(?=`. Grep uses Go's RE2 syntax, which has no lookarounds or backreferences.", wantErr: true},
		{name: "unknown type", in: GrepInput{Pattern: "a", Type: "cobol"},
			want: "Unknown file type 'cobol'. Known types: " + strings.Join(sortedKeys(fileTypes), ", ") + ".", wantErr: true},
		{name: "bad glob", in: GrepInput{Pattern: "a", Glob: "{a"}, want: "Invalid glob: {a. Close every [ and {.", wantErr: true},
		{name: "bad mode", in: GrepInput{Pattern: "a", OutputMode: "lines"},
			want: "output_mode must be one of content, files_with_matches or count, got: lines", wantErr: true},
		{name: "negative A", in: GrepInput{Pattern: "a", After: ptr(-1)}, want: "-A must be between 0 and 100, got: -1", wantErr: true},
		{name: "big B", in: GrepInput{Pattern: "a", Before: ptr(101)}, want: "-B must be between 0 and 100, got: 101", wantErr: true},
		{name: "negative C", in: GrepInput{Pattern: "a", Context: -2}, want: "-C must be between 0 and 100, got: -2", wantErr: true},
		{name: "negative head limit", in: GrepInput{Pattern: "a", HeadLimit: -1}, want: "head_limit must be >= 0, got: -1", wantErr: true},
		{name: "negative offset", in: GrepInput{Pattern: "a", Offset: -1}, want: "offset must be >= 0, got: -1", wantErr: true},
		{name: "missing path", in: GrepInput{Pattern: "a", Path: "nope"}, want: "File does not exist: " + p("nope"), wantErr: true},
		{name: "outside", in: GrepInput{Pattern: "a", Path: "../.."},
			want: "The path ../.. is outside the workspace. Only files inside the workspace can be used.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.grep(tt.in)
			check(t, got, err, tt.want, tt.wantErr)
		})
	}
}

func TestGrepOutputCap(t *testing.T) {
	e := newTestEnv(t)
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "match line %d %s\n", i, strings.Repeat("x", 40))
	}
	e.file("big.txt", b.String())
	got, err := e.grep(GrepInput{Pattern: "match", OutputMode: "content", LineNumbers: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) > maxGrepChars+200 {
		t.Errorf("output is %d characters long", len(got))
	}
	i := strings.LastIndex(got, "\n\n")
	note := got[i+2:]
	lines := strings.Count(got[:i], "\n") + 1
	want := fmt.Sprintf("[Output cut at 30000 characters: showing results 1-%d. Page on with offset=%d, or narrow the search.]", lines, lines)
	if note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
	// Paging goes on where the cut was.
	got, err = e.grep(GrepInput{Pattern: "match", OutputMode: "content", LineNumbers: true, Offset: lines, HeadLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantLine := fmt.Sprintf("%s:%d:match line %d %s", e.path("big.txt"), lines+1, lines, strings.Repeat("x", 40))
	if first, _, _ := strings.Cut(got, "\n"); first != wantLine {
		t.Errorf("first line = %q, want %q", first, wantLine)
	}
}

func TestGrepLongLinesAndBigFiles(t *testing.T) {
	e := newTestEnv(t)
	e.file("long.txt", "needle "+strings.Repeat("y", 3000)+"\n")
	got, err := e.grep(GrepInput{Pattern: "needle", OutputMode: "content", LineNumbers: true})
	check(t, got, err, e.path("long.txt")+":1:needle "+strings.Repeat("y", 1993)+"...", false)

	p := bigFile(t, e.path("huge.txt"), maxGrepFileBytes+1)
	_ = p
	got, err = e.grep(GrepInput{Pattern: "needle"})
	check(t, got, err, "Found 1 file\n"+e.path("long.txt")+"\n\n[Skipped 1 file larger than 32 MiB.]", false)
}

func TestGrepSymlinks(t *testing.T) {
	e := newTestEnv(t)
	out := t.TempDir()
	must(t, os.WriteFile(out+"/secret.txt", []byte("needle\n"), 0o644))
	must(t, os.Symlink(out+"/secret.txt", e.path("link.txt")))
	must(t, os.Symlink(out, e.path("linkdir")))
	e.file("in.txt", "needle\n")
	got, err := e.grep(GrepInput{Pattern: "needle"})
	check(t, got, err, "Found 1 file\n"+e.path("in.txt"), false)
	got, err = e.grep(GrepInput{Pattern: "needle", Path: "linkdir"})
	check(t, got, err, "The path linkdir is outside the workspace. Only files inside the workspace can be used.", true)
}

// The line matcher must agree with matching every line on its own,
// whatever the size of the blocks it runs the expression on: one block for
// the whole text, blocks of a few lines, and blocks shorter than a line
// (every line then goes through the reader that checks the context).
func TestGrepMatchesLikeLineByLine(t *testing.T) {
	text := "foo\nbar foo\n\nfoo bar\nxfoo\nfoox\n  foo  \nend"
	for _, pat := range []string{`foo`, `^foo`, `foo$`, `\bfoo\b`, `^$`, `o\s+b`, `x*`, `[^a]oo`, `^.*$`, `\Afoo`, `bar\z`, `$`, `d$`} {
		for _, text := range []string{text, text + "\n"} {
			s, err := newGrepSearch(GrepInput{Pattern: pat, OutputMode: "count"})
			if err != nil {
				t.Fatal(err)
			}
			var want []int
			for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if s.re.MatchString(l) {
					want = append(want, i+1)
				}
			}
			for _, unit := range []int{1 << 16, 12, 1} {
				s.unit = unit
				var got []int
				br := bufio.NewReaderSize(strings.NewReader(text), 16)
				sc, err := s.scanLines(context.Background(), br, func(num int, _ []byte, matched bool) bool {
					if matched {
						got = append(got, num)
					}
					return true
				}, false)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" || sc.count != len(want) {
					t.Errorf("pattern %q, unit %d, text %q: count %d, lines (-want +got):\n%s", pat, unit, text, sc.count, diff)
				}
			}
		}
	}
}

// A FIFO in the tree is skipped, and one named as the path is refused; a
// device likewise. None may block the search.
func TestGrepSpecialFiles(t *testing.T) {
	e := newTestEnv(t)
	e.file("a.txt", "needle\n")
	mkfifo(t, e.path("pipe"))
	got, err := withTimeout(t, func() (string, error) { return e.grep(GrepInput{Pattern: "needle"}) })
	check(t, got, err, "Found 1 file\n"+e.path("a.txt"), false)
	got, err = withTimeout(t, func() (string, error) { return e.grep(GrepInput{Pattern: "needle", Path: "pipe"}) })
	check(t, got, err, "Cannot search "+e.path("pipe")+": it is a named pipe (FIFO).", true)

	u := newTestEnvAt(t, "")
	got, err = withTimeout(t, func() (string, error) { return u.grep(GrepInput{Pattern: "x", Path: "/dev/zero"}) })
	check(t, got, err, "Cannot search /dev/zero: it is a character device.", true)
}

// FuzzGrepLines: the block scanner finds the lines that match on their
// own, for any text, pattern, block size and first search window.
func FuzzGrepLines(f *testing.F) {
	f.Add("foo\nbar foo\n\nfoo bar\n", `foo$`, uint8(5))
	f.Add("a\r\nb\n\n", `^$`, uint8(1))
	f.Add("xx\nyy", `x\ny`, uint8(3))
	f.Add("abc", `$`, uint8(200))
	f.Fuzz(func(t *testing.T, text, pattern string, unit uint8) {
		if len(pattern) > 40 || len(text) > 4096 || strings.Contains(pattern, "{") {
			return // counted repetitions make programs whose cost says nothing about the scanner
		}
		s, err := newGrepSearch(GrepInput{Pattern: pattern, OutputMode: "count"})
		if err != nil {
			return
		}
		var want []int
		if text != "" {
			for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if s.re.MatchString(l) {
					want = append(want, i+1)
				}
			}
		}
		s.unit = int(unit) + 1
		s.window = int(unit)%16 + 1 // windows of a few bytes, doubling
		var got []int
		br := bufio.NewReaderSize(strings.NewReader(text), 16)
		if _, err := s.scanLines(context.Background(), br, func(num int, _ []byte, matched bool) bool {
			if matched {
				got = append(got, num)
			}
			return true
		}, false); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("pattern %q, unit %d, window %d, text %q: lines (-want +got):\n%s", pattern, s.unit, s.window, text, diff)
		}
	})
}
