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
// are judged in a workspace holding .git/hooks, build/ and sub/, and the
// links hk (to .git), top (to .), up (to sub/..) and lb (to build); WS in
// a line is the workspace's absolute path.
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
	for link, to := range map[string]string{"hk": ".git", "top": ".", "up": "sub/..", "lb": "build"} {
		if err := os.Symlink(to, filepath.Join(ws, link)); err != nil {
			t.Fatal(err)
		}
	}
	const compound, strict = true, false
	tests := []struct {
		entries  []string
		compound bool
		cmd      string
		want     bool
	}{
		// 2. The extraction directory is judged where its links lead:
		// after ln -s .git hk, tar -C hk and unzip -d hk wrote hooks/ and
		// config into .git; through top (a link to .) they wrote .envrc
		// and .git/hooks/ into the workspace.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C hk", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C top", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C up", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C top/", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C WS", false},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C ..", false},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C ../top", false},
		{[]string{"Bash(tar:*)", "Read(/**)", "Write(/**)"}, strict, "tar -xf a.tar -C /", false},
		// Naming -x allows the working directory itself,
		// as it did before, but never .git.
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f a.tar -C top", true},
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f a.tar -C hk", false},
		// A link to a directory of the workspace is that directory.
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C lb", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C out", true},
		// tar's -C . is refused as written, wherever a cd moved (stricter
		// than needed: sub is not the workspace).
		{[]string{"Bash(tar:*)"}, compound, "cd sub && tar -xf ../a.tar -C .", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf a.tar -C WS/build", true},
	}
	for _, tt := range tests {
		var opts []Option
		if tt.compound {
			opts = append(opts, WithCompoundCommands())
		}
		l, err := ParseWith(tt.entries, opts...)
		if err != nil {
			t.Fatal(err)
		}
		cmd := strings.ReplaceAll(tt.cmd, "WS", ws)
		r := cmdReq("Bash", cmd)
		r.WorkDir = ws
		if d := l.Decide(r); d.Allowed != tt.want {
			t.Errorf("%v %q: allowed %v, want %v (%s)", tt.entries, tt.cmd, d.Allowed, tt.want, d.Detail)
		}
	}
}

// TestReviewFiveNoWorkDir: the same lines judged without a working
// directory, where a relative path is inside unless it climbs out.
func TestReviewFiveNoWorkDir(t *testing.T) {
	tests := []struct {
		entry, cmd string
		want       bool
	}{
		{"Bash(tar:*)", "tar -xf a.tar -C build/..", false},
		{"Bash(tar:*)", "tar -xzf release.tar.gz -C build", true},
	}
	for _, tt := range tests {
		l, err := Parse(tt.entry)
		if err != nil {
			t.Fatal(err)
		}
		if d := l.Decide(cmdReq("Bash", tt.cmd)); d.Allowed != tt.want {
			t.Errorf("%s %q: allowed %v, want %v (%s)", tt.entry, tt.cmd, d.Allowed, tt.want, d.Detail)
		}
	}
}
