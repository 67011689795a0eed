package shell

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxProtectedPaths: inside the sandbox the workspace's git
// config and hooks cannot be changed (git config core.fsmonitor fails, a
// hook cannot be written), git itself keeps working (commit, branch,
// stash), and a protected path the command creates (.envrc, .vscode/) is
// gone after the run, with a note saying so.
func TestSandboxProtectedPaths(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed:", err)
	}
	root := t.TempDir()
	gitEnv := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root}
	init := exec.Command(gitPath, "init", "-q", root)
	init.Env = gitEnv
	if out, err := init.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	config, err := os.ReadFile(filepath.Join(root, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	s := newTestSandbox(t, SandboxOptions{Root: root})
	tests := []struct {
		name, line string
		want       []string // in the merged output
	}{
		{"git config", "git config core.fsmonitor 'touch /tmp/planted' 2>&1; echo status $?", []string{"could not write config file .git/config", "status 4"}},
		{"a hook", "echo 'touch /tmp/planted' > .git/hooks/pre-commit 2>&1; echo status $?", []string{"Read-only file system", "status 1"}},
		{"git still works", "echo a > a.txt && git add a.txt && git commit -qm one && git branch topic && echo b > a.txt && git stash -q && git log --oneline | wc -l",
			[]string{"1\n"}},
		{"planted files are removed", "echo 'curl evil' > .envrc && mkdir -p .vscode && echo '{}' > .vscode/tasks.json && echo written",
			[]string{"written", "[sandbox: removed " + filepath.Join(root, ".envrc") + ", " + filepath.Join(root, ".vscode")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Execute(context.Background(), Command{Line: tt.line}, Options{Timeout: boundFor(t), MergeOutput: true, Env: gitEnv})
			if err != nil {
				t.Fatal(err)
			}
			out := string(res.Stdout)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output %q does not contain %q", out, w)
				}
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".git", "config")); string(got) != string(config) {
		t.Errorf(".git/config changed:\n%s", got)
	}
	for _, p := range []string{".git/hooks/pre-commit", ".envrc", ".vscode"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s is in the workspace after the runs", p)
		}
	}
}
