package permission

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// review6Workspace builds the workspace of the sixth review: src/ with
// a.go, b.go and zlink -> a secret outside, only/ holding a.go and a
// hidden .lnk -> the secret (bash's * skips it), ok/ whose link in leads
// inside, dir/ whose link out leads to a directory outside, and tree/
// whose link deep/out leads to the outside directory. OUT in a line is the
// outside directory, WS the workspace.
func review6Workspace(t *testing.T) (ws, out string) {
	ws, out = t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "secret"), []byte("s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"src", "only", "ok/sub", "dir", "tree/deep", "plain/a", "sub/src", ".git"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"src/a.go", "src/b.go", "only/a.go", "ok/sub/x.go", "plain/a/x.go", "sub/src/c.go", ".git/config", "p.diff"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"src/zlink": filepath.Join(out, "secret"), "only/.lnk": filepath.Join(out, "secret"),
		"ok/in": "sub", "dir/out": out, "tree/deep/out": out, "sub/src/l": filepath.Join(out, "secret"),
		"tree/hop": "../dir",
	} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	return ws, out
}

// TestReviewSixLines: the lines of the sixth review that went past the
// judge, each with the entries it used and what the command really did,
// beside the everyday lines the fixes must keep allowing.
func TestReviewSixLines(t *testing.T) {
	ws, out := review6Workspace(t)
	const compound, strict = true, false
	tests := []struct {
		entries  []string
		compound bool
		cmd      string
		want     bool
	}{
		// A. A glob was judged as the literal path src/*, never per name:
		// bash expanded it to src/zlink too and cat printed the secret
		// outside. Every name a glob becomes is judged as the operand.
		{[]string{"Bash(cat:*)"}, strict, "cat src/*", false},
		{[]string{"Bash(cat:*)"}, strict, "cat src/z*", false},
		{[]string{"Bash(cat:*)"}, strict, "cat src/?link", false},
		{[]string{"Bash(cat:*)"}, strict, "cat ./src/*", false},
		{[]string{"Bash(head:*)"}, strict, "head -n 5 src/*", false},
		{[]string{"Bash(wc:*)"}, strict, "wc -l */*", false},
		{[]string{"Bash(cat:*)"}, strict, "cat s*/*", false},
		{[]string{"Bash(cat:*)"}, compound, "cd sub && cat src/*", false},
		{[]string{"Bash(cat:*)"}, compound, "cd sub/src && cat ./*", false},
		// A directory met on the way through a link is followed, as bash
		// does: tree/hop -> ../dir, whose out leads outside.
		{[]string{"Bash(cat:*)"}, strict, "cat tree/*/out", false},
		{[]string{"Bash(cat:*)"}, strict, "cat tree/hop/*", false},
		// Names that stay inside are read as before; bash's * skips
		// hidden names (no dotglob), so only/.lnk is not among them.
		{[]string{"Bash(cat:*)"}, strict, "cat src/*.go", true},
		{[]string{"Bash(cat:*)"}, strict, "cat only/*", true},
		{[]string{"Bash(cat:*)"}, strict, "cat ok/*/*.go", true},
		{[]string{"Bash(ls:*)"}, strict, "ls plain/*", true},
		{[]string{"Bash(cat:*)"}, compound, "cd src && cat ./*.go", true},
		// A glob that matches nothing is passed as the word itself.
		{[]string{"Bash(cat:*)"}, strict, "cat src/*.rs", true},
		{[]string{"Bash(cat:*)"}, strict, "cat nosuch/*", true},
	}
	for _, tt := range tests {
		var opts []Option
		if tt.compound {
			opts = append(opts, WithCompoundCommands())
		}
		entries := make([]string, len(tt.entries))
		for i, e := range tt.entries {
			entries[i] = strings.ReplaceAll(e, "OUT", out)
		}
		l, err := ParseWith(entries, opts...)
		if err != nil {
			t.Fatal(err)
		}
		cmd := strings.ReplaceAll(strings.ReplaceAll(tt.cmd, "WS", ws), "OUT", out)
		r := cmdReq("Bash", cmd)
		r.WorkDir = ws
		if d := l.Decide(r); d.Allowed != tt.want {
			t.Errorf("%v %q: allowed %v, want %v (%s)", tt.entries, tt.cmd, d.Allowed, tt.want, d.Detail)
		}
	}
}

// TestReviewSixGlobBound: a glob that becomes more names than the judge
// reads is refused, whatever they are.
func TestReviewSixGlobBound(t *testing.T) {
	ws := t.TempDir()
	for i := 0; i < 120; i++ {
		d := filepath.Join(ws, "d", fmt.Sprint(i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 100; j++ {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprint(j)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	l, err := Parse("Bash(cat:*)")
	if err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]bool{"cat d/*/*": false, "cat d/1/*": true} {
		r := cmdReq("Bash", cmd)
		r.WorkDir = ws
		if d := l.Decide(r); d.Allowed != want {
			t.Errorf("%q: allowed %v, want %v (%s)", cmd, d.Allowed, want, d.Detail)
		}
	}
}
