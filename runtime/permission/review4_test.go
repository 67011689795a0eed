package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReviewFourLines: the lines of the fourth review that went past the
// judge, each with the entries it used and what the command really did,
// beside the everyday lines the fixes must keep allowing. Relative paths
// are judged in a workspace holding .git/hooks, sub/, build/, a bare
// repository b/ (its HEAD), and a/hk, a link to .git/hooks.
func TestReviewFourLines(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{".git/hooks", "sub", "build", "b/objects", "b/refs", "a"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".git/config", "b/HEAD", "b/config", "envrc", "a.go", "a.txt"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../.git/hooks", filepath.Join(ws, "a/hk")); err != nil {
		t.Fatal(err)
	}
	const compound, strict = true, false
	tests := []lineCase{
		// 1. An option that moves the program (git -C, go -C, make -C,
		// tar -C, git --work-tree) moves the relative paths after it.
		// git -C .git ... --output=config wrote .git/config (core.fsmonitor
		// ran on the next git status).
		{[]string{"Bash(git:*)"}, strict, "git -C .git log -1 '--format=[core]%n%x09fsmonitor = touch /tmp/PWNED' --output=config", false},
		// --output=hk/pre-commit from a/ is .git/hooks/pre-commit through the link.
		{[]string{"Bash(git:*)"}, strict, "git -C a log -1 --output=hk/pre-commit", false},
		{[]string{"Bash(git:*)"}, strict, "git -C sub log --output=../.git/config", false},
		// go build -C .git -o hooks/post-checkout installed a hook.
		{[]string{"Bash(go build:*)"}, strict, "go build -C .git -o hooks/post-checkout example.com/m/cmd/x", false},
		{[]string{"Bash(go build:*)"}, strict, "go build -C a -o hk/post-checkout ./cmd/x", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -C a -xf x.tar -C hk", false},
		{[]string{"Bash(git:*)"}, strict, "git -C sub status", true},
		{[]string{"Bash(git:*)"}, strict, "git -C sub log --output=log.txt", true},
		{[]string{"Bash(go build:*)"}, strict, "go build -C sub -o bin/x ./cmd/x", true},
		{[]string{"Bash(make:*)"}, strict, "make -C sub test", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
		// 2. A directory a program works in is kept out of hidden
		// directories as a written path is. git --work-tree=.git/hooks
		// checked out a committed executable as .git/hooks/pre-commit.
		{[]string{"Bash(git:*)"}, strict, "git --work-tree=.git/hooks checkout HEAD -- pre-commit", false},
		// tar -C .git/hooks extracted a hook.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar -C .git/hooks", false},
		// unzip -d .git extracted config and hooks/ into .git.
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o a.zip -d .git", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o dist.zip -d build", true},
		{[]string{"Bash(git:*)"}, strict, "git --work-tree=sub status", true},
		// 7. git init --bare b makes b/config, which ordinary writes may
		// then fill; git run in b (-C, a leading cd, --git-dir) used it.
		// init --bare itself writes nothing that runs.
		{[]string{"Bash(git:*)"}, strict, "git init --bare c", true},
		{[]string{"Bash(git:*)"}, strict, "git -C b log", false},
		{[]string{"Bash(git:*)"}, strict, "git -C b/refs log", false},
		{[]string{"Bash(git:*)"}, compound, "cd b && git log", false},
		{[]string{"Bash(git:*)"}, strict, "git --git-dir=b log", false},
		{[]string{"Bash(git:*)"}, strict, "git --git-dir=sub/../b log", false},
		{[]string{"Bash(git:*)"}, strict, "git -C sub --git-dir=.git log", false},
		{[]string{"Bash(git:*)"}, strict, "git --git-dir=.git log", true},
		{[]string{"Bash(git --git-dir:*)"}, strict, "git --git-dir b log", true}, // the entry names it
		// The line's first command makes the repository git then uses.
		{[]string{"Bash(git:*)", "Bash(sort:*)"}, compound, "git init --bare sub && sort -o sub/config cfg && git -C sub log", false},
		{[]string{"Bash(git:*)", "Bash(tar:*)"}, compound, "tar -xf a.tar | git -C sub log", false},
		{[]string{"Bash(git:*)", "Bash(tar:*)"}, compound, "cd sub && tar -xf a.tar && git log", false},
		{[]string{"Bash(git:*)", "Bash(go test:*)"}, compound, "cd sub && git status && go test ./...", true},
		// 9. A repository argument is a path when it is local or file://.
		// git fetch file:///... read a repository outside the workspace.
		{[]string{"Bash(git fetch:*)"}, strict, "git fetch file:///home/u/otherrepo", false},
		{[]string{"Bash(git pull:*)"}, strict, "git pull file:///home/u/otherrepo", false},
		{[]string{"Bash(git ls-remote:*)"}, strict, "git ls-remote file:///home/u/otherrepo", false},
		// git clone /home/u/otherrepo x copied it into the workspace.
		{[]string{"Bash(git clone:*)"}, strict, "git clone /home/u/otherrepo x", false},
		{[]string{"Bash(git clone:*)"}, strict, "git clone file://host/u/otherrepo x", false},
		{[]string{"Bash(git remote:*)"}, strict, "git remote add o file:///home/u/otherrepo", false},
		{[]string{"Bash(git fetch:*)"}, strict, "git fetch 'ext::sh -c touch% /tmp/x'", false},
		{[]string{"Bash(git clone:*)", "Read(/data/**)"}, strict, "git clone /data/repo x", true},
		{[]string{"Bash(git fetch:*)"}, strict, "git fetch origin", true},
		{[]string{"Bash(git fetch:*)"}, strict, "git fetch --prune origin main", true},
		{[]string{"Bash(git clone:*)"}, strict, "git clone https://example.com/r.git x", true},
		{[]string{"Bash(git clone:*)"}, strict, "git clone git@example.com:o/r.git", true},
		{[]string{"Bash(git remote:*)"}, strict, "git remote add up https://example.com/r.git", true},
		// 14. git mv's destination is written: git mv envrc .envrc wrote
		// a hidden file; its source and git rm's operands are deleted.
		{[]string{"Bash(git mv:*)"}, strict, "git mv envrc .envrc", false},
		{[]string{"Bash(git mv:*)"}, strict, "git mv .git/config x", false},
		{[]string{"Bash(git rm:*)"}, strict, "git rm -r .git", false},
		{[]string{"Bash(git mv:*)"}, strict, "git mv a.go b.go", true},
		{[]string{"Bash(git rm:*)"}, strict, "git rm a.go", true},
		// 15. tar --remove-files and zip -m delete what they archive.
		// tar -cf x.tar --remove-files .git/config deleted .git/config.
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar --remove-files .git/config", false},
		{[]string{"Bash(tar:*)", "Read(/data/**)"}, strict, "tar -cf x.tar --remove-files /data/report.csv", false},
		// zip -rm out.zip .git deleted .git.
		{[]string{"Bash(zip:*)"}, strict, "zip -rm out.zip .git", false},
		{[]string{"Bash(zip:*)"}, strict, "zip --move out.zip .git/HEAD", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar --remove-files a.txt", true},
		{[]string{"Bash(zip:*)"}, strict, "zip -m out.zip a.txt", true},
		{[]string{"Bash(tar:*)", "Read(/data/**)"}, strict, "tar -cf x.tar /data/report.csv", true},
	}
	checkLines(t, ws, nil, tests)
}

// TestReviewFourNoWorkDir: the same defects judged without a working
// directory, where a relative path is inside unless it climbs out.
func TestReviewFourNoWorkDir(t *testing.T) {
	const strict = false
	tests := []lineCase{
		{[]string{"Bash(git:*)"}, strict, "git -C .git log -1 --output=config", false},
		{[]string{"Bash(git:*)"}, strict, "git -C sub log --output=../../x", false},
		{[]string{"Bash(go build:*)"}, strict, "go build -C .git -o hooks/post-checkout ./cmd/x", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar -C .git/hooks", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o a.zip -d .git", false},
		{[]string{"Bash(git:*)"}, strict, "git --work-tree=.git/hooks checkout HEAD -- pre-commit", false},
		{[]string{"Bash(git:*)"}, strict, "git --git-dir=b log", false},
		{[]string{"Bash(git:*)"}, strict, "git fetch file:///home/u/otherrepo", false},
		{[]string{"Bash(git:*)"}, strict, "git mv envrc .envrc", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar --remove-files .git/config", false},
		{[]string{"Bash(zip:*)"}, strict, "zip -rm out.zip .git", false},
		{[]string{"Bash(git:*)"}, strict, "git -C sub status", true},
		{[]string{"Bash(git:*)"}, strict, "git --git-dir=.git log", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
	}
	checkLines(t, "", nil, tests)
}
