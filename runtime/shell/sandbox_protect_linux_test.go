package shell

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
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

// gitRepo makes a git repository with one commit at dir and returns the
// environment its git commands run with (no system or global config; no
// repository above dir is found).
func gitRepo(t *testing.T, gitPath, dir string) []string {
	t.Helper()
	env := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir), "PATH=" + os.Getenv("PATH")}
	hostGit(t, gitPath, dir, env, true, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hostGit(t, gitPath, dir, env, true, "add", "a.txt")
	hostGit(t, gitPath, dir, env, true, "commit", "-qm", "one")
	return env
}

// hostGit runs git on the host, unsandboxed, in dir; must makes a failure
// fatal.
func hostGit(t *testing.T, gitPath, dir string, env []string, must bool, args ...string) string {
	t.Helper()
	c := exec.Command(gitPath, args...)
	c.Dir, c.Env = dir, env
	out, err := c.CombinedOutput()
	if err != nil && must {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestSandboxGitRedirections: the ways around the protection of
// .git/config and .git/hooks a hostile review found each leave nothing
// that a later git status or git commit on the host runs: renaming .git
// and putting a copy in its place, a planted .git/commondir, a
// submodule's config under .git/modules, a .git gitdir file made where
// there was no repository, and a .git link (which the host must remove as
// a link, not delete through).
func TestSandboxGitRedirections(t *testing.T) {
	gitPath, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed:", err)
	}
	marks := t.TempDir()
	type setup func(t *testing.T, root string) []string
	repo := func(t *testing.T, root string) []string { return gitRepo(t, gitPath, root) }
	tests := []struct {
		name  string
		setup setup
		line  func(mark string) string
		gone  []string // paths under root that must not exist after the run
	}{
		{name: "rename .git", setup: repo, line: func(mark string) string {
			return "mv .git .git-old && cp -a .git-old/. .git && git config core.fsmonitor 'touch " + mark + "; false'; " +
				"printf '#!/bin/sh\\ntouch " + mark + "\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; true"
		}},
		{name: "commondir", setup: repo, line: func(mark string) string {
			return "cp -a .git .gitc && git config -f .gitc/config core.fsmonitor 'touch " + mark + "; false' && echo $PWD/.gitc > .git/commondir"
		}, gone: []string{".git/commondir"}},
		{name: "config.worktree", setup: repo, line: func(mark string) string {
			return "printf '[core]\\n\\tfsmonitor = touch " + mark + "; false\\n' > .git/config.worktree; true"
		}, gone: []string{".git/config.worktree"}},
		{name: "gitdir file", setup: func(t *testing.T, root string) []string {
			env := gitRepo(t, gitPath, t.TempDir())
			for i, kv := range env {
				if strings.HasPrefix(kv, "GIT_CEILING_DIRECTORIES=") {
					env[i] = "GIT_CEILING_DIRECTORIES=" + filepath.Dir(root)
				}
			}
			return env
		}, line: func(mark string) string {
			return "git init -q --separate-git-dir=$PWD/.evil.git . && git config core.fsmonitor 'touch " + mark + "; false'"
		}, gone: []string{".git"}},
		{name: "submodule config", setup: func(t *testing.T, root string) []string {
			sub := t.TempDir()
			gitRepo(t, gitPath, sub)
			env := gitRepo(t, gitPath, root)
			hostGit(t, gitPath, root, env, true, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "lib")
			hostGit(t, gitPath, root, env, true, "commit", "-qm", "lib")
			return env
		}, line: func(mark string) string {
			return "git config -f .git/modules/lib/config core.fsmonitor 'touch " + mark + "; false'; echo x > lib/a; " +
				"mkdir -p .git/modules/other && cp -a .git/modules/lib/. .git/modules/other/ 2>/dev/null; true"
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			env := tt.setup(t, root)
			mark := filepath.Join(marks, strconv.Itoa(i))
			s := newTestSandbox(t, SandboxOptions{Root: root})
			res, err := s.Execute(context.Background(), Command{Line: tt.line(mark)}, Options{Timeout: boundFor(t), MergeOutput: true, Env: env})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("inside: %s", res.Stdout)
			for _, p := range tt.gone {
				if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
					t.Errorf("%s is in the workspace after the run", p)
				}
			}
			if _, err := os.Lstat(filepath.Join(root, ".git-old")); err == nil {
				t.Errorf(".git was renamed in the sandbox")
			}
			st := hostGit(t, gitPath, root, env, false, "status")
			hostGit(t, gitPath, root, env, false, "commit", "-qam", "host", "--allow-empty")
			if _, err := os.Stat(mark); err == nil {
				t.Errorf("host git ran a command planted in the sandbox (status: %s)", st)
			}
		})
	}
}

// TestSandboxRemovesPlantedLinkAsLink: a .git link the command plants
// where there was no .git is removed as a link; the host directory it
// points to keeps its config and hooks (the host process may be root: a
// removal through the link would delete any host file).
func TestSandboxRemovesPlantedLinkAsLink(t *testing.T) {
	root := t.TempDir()
	victim := t.TempDir()
	for _, p := range []string{"config", "hooks/pre-commit", "commondir"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(victim, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(victim, p), []byte("keep\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := newTestSandbox(t, SandboxOptions{Root: root})
	res, err := s.Execute(context.Background(), Command{Line: "ln -s " + victim + " .git && ln -s " + victim + " .vscode && echo linked"},
		Options{Timeout: boundFor(t), MergeOutput: true})
	if err != nil {
		t.Fatal(err)
	}
	if out := string(res.Stdout); !strings.Contains(out, "linked") || !strings.Contains(out, "[sandbox: removed "+filepath.Join(root, ".git")) {
		t.Errorf("output %q: want the links made and their removal noted", out)
	}
	for _, p := range []string{"config", "hooks/pre-commit", "commondir"} {
		if _, err := os.Stat(filepath.Join(victim, p)); err != nil {
			t.Errorf("the host file behind the planted link is gone: %v", err)
		}
	}
	for _, p := range []string{".git", ".vscode"} {
		if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
			t.Errorf("%s is in the workspace after the run", p)
		}
	}
}

// TestSandboxProtectedPathSwapRace: a protected path swapped between a
// regular file and a link to a hidden file while runs start (as a
// background command of an overlapping run can, with
// renameat2(RENAME_EXCHANGE) in a loop) never makes a run bind the hidden
// file: each protected path is opened once on the host, without following
// links, and bwrap binds that descriptor rather than the name. The same
// for a ReadOnly directory inside the workspace swapped with a link to a
// hidden directory.
func TestSandboxProtectedPathSwapRace(t *testing.T) {
	const secret = "HIDDEN-SECRET-7f3a"
	hidden := outsideTmp(t)
	if err := os.WriteFile(filepath.Join(hidden, "secret"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Run("envrc", func(t *testing.T) {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, ".envrc"), []byte("plain\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(root, filepath.Join(hidden, "secret"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rel, filepath.Join(root, "envrc-link")); err != nil {
			t.Fatal(err)
		}
		s := newTestSandbox(t, SandboxOptions{Root: root, Hide: []string{hidden}})
		swapRace(t, s, filepath.Join(root, ".envrc"), filepath.Join(root, "envrc-link"), "cat .envrc envrc-link", secret)
	})
	t.Run("ReadOnly", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, "a", "b")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "secret"), []byte("plain\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(filepath.Join(root, "a"), hidden)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(rel, filepath.Join(root, "a", "link")); err != nil {
			t.Fatal(err)
		}
		s := newTestSandbox(t, SandboxOptions{Root: root, ReadOnly: []string{dir}, Hide: []string{hidden}})
		swapRace(t, s, dir, filepath.Join(root, "a", "link"), "cat a/b/secret a/link/secret", secret)
	})
}

// swapRace runs line in s while a goroutine swaps a and b with
// renameat2(RENAME_EXCHANGE), bounded by a count of swaps, until 100 runs
// have completed or 3000 were tried, and fails when the output shows
// secret. A run refused with a StartError (a path seen changing) is
// allowed; one at least must complete.
func swapRace(t *testing.T, s *Sandbox, a, b, line, secret string) {
	const runs, tries, maxSwaps = 100, 3000, 100_000_000
	stop := make(chan struct{})
	swaps := make(chan int, 1)
	go func() {
		n := 0
		defer func() { swaps <- n }()
		for ; n < maxSwaps; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
		}
	}()
	completed := 0
	for i := 0; i < tries && completed < runs; i++ {
		res, err := s.Execute(context.Background(), Command{Line: line + " 2>&1; true"}, Options{Timeout: boundFor(t), MergeOutput: true})
		if strings.Contains(string(res.Stdout), secret) {
			close(stop)
			<-swaps
			t.Fatalf("run %d showed the hidden file: %q", i+1, res.Stdout)
		}
		var se *StartError
		switch {
		case err == nil:
			completed++
		case errors.As(err, &se):
			// Refused: the path was seen changing.
		default:
			close(stop)
			<-swaps
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	close(stop)
	if n := <-swaps; n == 0 {
		t.Errorf("no swap happened")
	}
	if completed == 0 {
		t.Errorf("no run completed")
	}
}
