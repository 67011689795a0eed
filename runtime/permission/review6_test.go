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
	tests := []lineCase{
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
		// B. Recursive readers that follow the links they meet inside the
		// tree: grep -R x . printed the secret through src/zlink (grep -r
		// follows only the links named on its command line, which are
		// judged). An option that makes a walk follow inner links is
		// refused unless the entry names it.
		{[]string{"Bash(grep:*)"}, strict, "grep -R s .", false},
		{[]string{"Bash(grep:*)"}, strict, "grep -rR s src", false},
		{[]string{"Bash(grep:*)"}, strict, "grep --dereference-recursive s", false},
		{[]string{"Bash(grep:*)"}, strict, "grep -r s .", true},
		{[]string{"Bash(grep:*)"}, strict, "grep -r s src/zlink", false}, // named on the line: judged
		{[]string{"Bash(grep -R:*)"}, strict, "grep -R s plain", true},
		{[]string{"Bash(rg:*)"}, strict, "rg -L s", false},
		{[]string{"Bash(rg:*)"}, strict, "rg --follow s src", false},
		{[]string{"Bash(rg:*)"}, strict, "rg -n s src", true},
		{[]string{"Bash(find:*)"}, strict, "find -L . -name secret", false},
		{[]string{"Bash(find:*)"}, strict, "find . -follow -type f", false},
		{[]string{"Bash(find:*)"}, strict, "find -H src -name x", true}, // -H follows the starting points only
		{[]string{"Bash(find:*)"}, strict, "find . -type l", true},
		{[]string{"Bash(find -L:*)"}, strict, "find -L . -name x", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -chf a.tar src", false}, // stores the secret's content
		{[]string{"Bash(tar:*)"}, strict, "tar chzf a.tgz src", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -czf a.tgz src", true}, // stores the link as a link
		{[]string{"Bash(du:*)"}, strict, "du -aL dir", false},         // lists the directory outside
		{[]string{"Bash(du:*)"}, strict, "du -sh dir", true},
		{[]string{"Bash(tree:*)"}, strict, "tree -l dir", false},
		{[]string{"Bash(tree:*)"}, strict, "tree dir", true},
		{[]string{"Bash(ls:*)"}, strict, "ls -RL dir", false},
		{[]string{"Bash(ls:*)"}, strict, "ls -R -L tree", false},
		{[]string{"Bash(ls:*)"}, strict, "ls -lL src", true}, // the targets' metadata only
		{[]string{"Bash(ls:*)"}, strict, "ls -R dir", true},
		{[]string{"Bash(ls -L:*)"}, strict, "ls -L -R dir", true},
		// zip -r follows every link below its operands unless -y and
		// stores what they lead to: zip -r out.zip src archived the
		// secret. diff compares what the links in the directories it is
		// given lead to (with -r at every depth) unless --no-dereference.
		// The trees are looked through, links to the workspace's own
		// directories too; a link out is refused unless named.
		{[]string{"Bash(zip:*)"}, strict, "zip -r out.zip src", false},
		{[]string{"Bash(zip:*)"}, strict, "zip -qr out.zip tree", false},
		{[]string{"Bash(zip:*)"}, strict, "zip -r out.zip ok tree/hop", false}, // hop -> ../dir, whose out leads outside
		{[]string{"Bash(zip:*)"}, strict, "zip -r out.zip pl* s*", false},
		{[]string{"Bash(zip:*)"}, compound, "cd sub && zip -r ../out.zip src", false},
		{[]string{"Bash(zip:*)"}, strict, "zip -R out.zip x.go", false}, // -R walks the working directory
		{[]string{"Bash(zip:*)"}, strict, "zip -r -y out.zip src", true},
		{[]string{"Bash(zip:*)"}, strict, "zip -r out.zip plain ok", true},
		{[]string{"Bash(zip -r:*)"}, strict, "zip -r out.zip src", true},
		{[]string{"Bash(zip:*)"}, strict, "zip out.zip src/a.go", true},
		{[]string{"Bash(diff:*)"}, strict, "diff -r src plain", false},
		{[]string{"Bash(diff:*)"}, strict, "diff src only", false}, // one level: src/zlink against only/zlink
		{[]string{"Bash(diff:*)"}, strict, "diff -ru tree plain", false},
		{[]string{"Bash(diff:*)"}, strict, "diff -r --no-dereference src plain", true},
		{[]string{"Bash(diff:*)"}, strict, "diff -ru plain ok", true},
		{[]string{"Bash(diff:*)"}, strict, "diff src/a.go src/b.go", true},
		{[]string{"Bash(diff -r:*)"}, strict, "diff -r src plain", true},
	}
	checkLines(t, ws, strings.NewReplacer("WS", ws, "OUT", out), tests)
}

// TestReviewSixGlobBound: a glob, or the globs of one line together, that
// become more names than the judge reads are refused, whatever they are.
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
	// The bound holds for the line: 110 globs of 100 names each pass it
	// together.
	many := "cat"
	for i := 0; i < 110; i++ {
		many += fmt.Sprintf(" d/%d/*", i)
	}
	for cmd, want := range map[string]bool{"cat d/*/*": false, "cat d/1/*": true, many: false, "cat d/1/* d/2/* d/3/*": true} {
		r := cmdReq("Bash", cmd)
		r.WorkDir = ws
		if d := l.Decide(r); d.Allowed != want {
			t.Errorf("%q: allowed %v, want %v (%s)", cmd, d.Allowed, want, d.Detail)
		}
	}
}

// TestReviewSixNoWorkDir: without a working directory the judge sees no
// link: a glob is judged as its word, and the trees zip -r and diff walk
// are not looked through (as a link named on the line is not resolved);
// the options that follow links stay refused unless named.
func TestReviewSixNoWorkDir(t *testing.T) {
	const strict = false
	tests := []lineCase{
		{[]string{"Bash(cat:*)"}, strict, "cat src/*", true},
		{[]string{"Bash(zip:*)"}, strict, "zip -r out.zip src", true},
		{[]string{"Bash(diff:*)"}, strict, "diff -r a b", true},
		{[]string{"Bash(grep:*)"}, strict, "grep -R x .", false},
		{[]string{"Bash(rg:*)"}, strict, "rg -L x", false},
		{[]string{"Bash(find:*)"}, strict, "find -L . -name x", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -chf a.tar src", false},
	}
	checkLines(t, "", nil, tests)
}
