package permission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReviewFiveLines: the lines of the fifth review that went past the
// judge, each with the entries it used and what the command really did,
// beside the everyday lines the fixes must keep allowing. Relative paths
// are judged in a workspace holding .git/hooks, build/ and sub/, the
// links hk (to .git), top (to .), up (to sub/..) and lb (to build), and
// below x/ directories holding a link each (x/up/l to the top); WS in a
// line is the workspace's absolute path.
func TestReviewFiveLines(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{".git/hooks", "build", "sub"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", ".git/config", "a.zip", "a.tar"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"x/up", "x/hooks", "x/etc", "x/deep/a/b", "x/in", "x/self", "x/sub"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{"hk": ".git", "top": ".", "up": "sub/..", "lb": "build",
		"x/up/l": "../..", "x/hooks/l": "../../.git/hooks", "x/etc/l": "/etc", "x/deep/a/b/l": "../../../../.envrc",
		"x/in/l": "../in", "x/self/l": ".", "x/sub/l": "../../sub"} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	const compound, strict = true, false
	tests := []lineCase{
		// 1. unzip extracts whatever names the archive holds: unzip a.zip
		// (no -d) wrote .git/hooks/post-checkout and .envrc into the
		// workspace. Extraction needs one -d directory that is not the
		// workspace, or an entry whose own words name the archive.
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o a.zip", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -qo a.zip", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -f a.zip", false}, // freshen: still extracts
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d .", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d ./", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d build/..", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d WS", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d build -d .", false}, // unzip took the last -d
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d", false},
		{[]string{"Bash(unzip:*)"}, compound, "cd sub && unzip ../a.zip -d ..", false},
		{[]string{"Bash(unzip:*)", "Read(/**)", "Write(/**)"}, strict, "unzip a.zip -d /", false}, // / holds the workspace
		// Naming -d is not naming the extraction: the entry pins build.
		{[]string{"Bash(unzip -d build:*)"}, strict, "unzip -d build -d . a.zip", false},
		{[]string{"Bash(unzip -d:*)"}, strict, "unzip -d . a.zip", false},
		// Listing, testing and printing write no file.
		{[]string{"Bash(unzip:*)"}, strict, "unzip -l a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -lv a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -v a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -t a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -tq a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -p a.zip README.md", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -c a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -z a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o dist.zip -d build", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -q a.zip -d out", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -x '*.md' -d build", true},
		{[]string{"Bash(unzip:*)"}, compound, "cd sub && unzip ../a.zip -d out", true},
		{[]string{"Bash(mkdir:*)", "Bash(unzip:*)"}, compound, "mkdir -p build && unzip -o a.zip -d build", true},
		// An entry whose own words name the archive allows extracting it
		// where it likes; the -d is still judged.
		{[]string{"Bash(unzip a.zip:*)"}, strict, "unzip a.zip", true},
		{[]string{"Bash(unzip -o a.zip:*)"}, strict, "unzip -o a.zip -d .", true},
		{[]string{"Bash(unzip a.zip:*)"}, strict, "unzip a.zip -d .git", false},
		{[]string{"Bash(unzip a.zip:*)"}, strict, "unzip a.zip -d /outside", false},
		// 2. The extraction directory is judged where its links lead:
		// after ln -s .git hk, tar -C hk and unzip -d hk wrote hooks/ and
		// config into .git; through top (a link to .) they wrote .envrc
		// and .git/hooks/ into the workspace.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C hk", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d hk", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d hk/hooks", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C top", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C up", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C top/", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d top", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d up", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C WS", false},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C ..", false},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C ../top", false},
		{[]string{"Bash(tar:*)", "Read(/**)", "Write(/**)"}, strict, "tar -xf a.tar -C /", false},
		// Naming -x (or the archive) allows the working directory itself,
		// as it did before, but never .git.
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f a.tar -C top", true},
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f a.tar -C hk", false},
		{[]string{"Bash(unzip a.zip:*)"}, strict, "unzip a.zip -d top", true},
		// A link to a directory of the workspace is that directory.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C lb", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d lb", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C out", true},
		// tar's -C . is refused as written, wherever a cd moved (stricter
		// than needed: sub is not the workspace).
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C .", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C WS/build", true},
		// 4. tar and unzip write a member through a link already in the
		// directory: an earlier archive left x/up/l -> ../.. and
		// tar -xf b.tar -C x/up wrote l/.envrc at the workspace's top.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x/up", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o b.zip -d x/up", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x", false}, // at any depth
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x/hooks", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x/etc", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o b.zip -d x/deep", false}, // a link to a hidden file: unzip -o opened it
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f b.tar -C x/up", true},  // the entry names -x
		// Links that stay in the directory, or lead to a plain directory
		// of the workspace, are fine.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x/in", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf b.tar -C x/self", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o b.zip -d x/sub", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o b.zip -d x/new", true}, // not made yet
	}
	checkLines(t, ws, strings.NewReplacer("WS", ws), tests)
}

// TestReviewFiveNoWorkDir: the same lines judged without a working
// directory, where a relative path is inside unless it climbs out.
func TestReviewFiveNoWorkDir(t *testing.T) {
	const strict = false
	tests := []lineCase{
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d .", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d build/..", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip a.zip -d build -d build2", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o a.zip -d .git", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C build/..", false},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -l a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -t a.zip", true},
		{[]string{"Bash(unzip:*)"}, strict, "unzip -o dist.zip -d build", true},
		{[]string{"Bash(unzip a.zip:*)"}, strict, "unzip a.zip", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
	}
	checkLines(t, "", nil, tests)
}
