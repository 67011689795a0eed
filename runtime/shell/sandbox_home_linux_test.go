package shell

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSandboxHidesTheHome: with the home hidden (the default), the
// credentials the old hide list did not name are not there (~/.vault-token,
// ~/.pgpass, git's credentials, an agent's credentials), git's own
// configuration is, and so is nothing else of the home; /etc/shadow is
// hidden too.
func TestSandboxHidesTheHome(t *testing.T) {
	home := outsideTmp(t)
	files := map[string]string{
		".vault-token":                "VAULT",
		".pgpass":                     "PG",
		".config/git/credentials":     "GITCRED",
		".claude/.credentials.json":   "CLAUDE",
		".docker/config.json":         "DOCKER",
		".gitconfig":                  "[user]",
		".config/git/config":          "[core]",
		"projects/other/notes.txt":    "OTHER",
		".config/some-tool/token.txt": "TOKEN",
	}
	var names []string
	for name, body := range files {
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	t.Setenv("HOME", home)
	s := newTestSandbox(t, SandboxOptions{})
	var want strings.Builder
	for _, name := range names {
		shown := "hidden"
		if name == ".gitconfig" || name == ".config/git/config" {
			shown = files[name]
		}
		want.WriteString(name + "=" + shown + "\n")
	}
	want.WriteString("/etc/shadow=hidden\n")
	line := "for f in " + strings.Join(names, " ") + `; do printf '%s=' $f; cat ~/$f 2>/dev/null || printf hidden; echo; done; printf '/etc/shadow='; grep -c root /etc/shadow 2>/dev/null || echo hidden`
	res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outcome{Stdout: want.String()}, outcomeOf(res)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestSandboxToolchains: go build and go test, npm test (node --test) and
// cargo test pass on a small project of each kind inside the sandbox with
// the home hidden and the network off: what they need of the home
// (DefaultHomeVisible) is there. Each skips where its toolchain is
// absent. The Go runs share a Cache so that only the first is cold.
func TestSandboxToolchains(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three toolchains' projects inside the sandbox; runs without -short")
	}
	cache := t.TempDir()
	tests := []struct {
		name, tool string
		files      map[string]string
		line       string
		want       string
	}{
		{"go", "go", map[string]string{
			"go.mod":        "module example.com/p\n\ngo 1.21\n",
			"p.go":          "package p\n\nfunc Add(a, b int) int { return a + b }\n",
			"p_test.go":     "package p\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(\"wrong\")\n\t}\n}\n",
			"cmd/c/main.go": "package main\n\nimport \"example.com/p\"\n\nfunc main() { println(p.Add(1, 2)) }\n",
		}, "GOTOOLCHAIN=local GOFLAGS=-mod=mod go build -o bin/c ./cmd/c && ./bin/c 2>&1 && GOTOOLCHAIN=local go test . 2>&1 | sed 's/\\t[0-9.]*s$//'", "3\nok  \texample.com/p\n"},
		{"npm", "npm", map[string]string{
			"package.json": `{"name":"p","version":"1.0.0","private":true,"scripts":{"test":"node --test"}}` + "\n",
			"add.test.js":  "const test = require('node:test');\nconst assert = require('node:assert');\ntest('adds', () => assert.strictEqual(1 + 2, 3));\n",
		}, "npm test --silent --offline >out.txt 2>&1; echo $?; grep -c '^# pass 1' out.txt", "0\n1\n"},
		{"cargo", "cargo", map[string]string{
			"Cargo.toml": "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
			"src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() { assert_eq!(super::add(1, 2), 3); }\n}\n",
		}, "cargo test --offline -q 2>&1 | grep -c 'test result: ok. 1 passed'", "1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := exec.LookPath(tt.tool); err != nil {
				t.Skipf("%s is not installed: %v", tt.tool, err)
			}
			root := t.TempDir()
			for name, body := range tt.files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			s := newTestSandbox(t, SandboxOptions{Root: root, Cache: cache})
			res, err := s.Execute(context.Background(), Command{Line: tt.line}, Options{Timeout: buildBound(t), MergeOutput: true, PassEnv: []string{"PATH", "GOROOT", "RUSTUP_HOME", "CARGO_HOME", "PYENV_ROOT"}})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(res.Stdout); got != tt.want {
				t.Errorf("output %q, want %q", got, tt.want)
			}
		})
	}
}

// buildBound is the timeout of a build inside the sandbox: ten minutes, or
// half of what the test has left; a cold Go build takes tens of seconds on
// a loaded machine.
func buildBound(t *testing.T) time.Duration {
	b := 10 * time.Minute
	if d, ok := t.Deadline(); ok {
		b = min(b, time.Until(d)/2)
	}
	return b
}

// TestSandboxHomeWithoutHOME: with HOME unset the sandbox hides the home
// the user database names (before, it hid nothing of the home and dropped
// DefaultHide's ~/ paths), and where there is none it refuses to start,
// naming what to set.
func TestSandboxHomeWithoutHOME(t *testing.T) {
	u, err := user.Current()
	if err != nil || !filepath.IsAbs(u.HomeDir) {
		t.Skipf("no home directory in the user database: %v", err)
	}
	home, err := filepath.EvalSymlinks(u.HomeDir)
	if err != nil || home == "/" {
		t.Skipf("home %q cannot be hidden here: %v", u.HomeDir, err)
	}
	t.Setenv("HOME", "")
	s := newTestSandbox(t, SandboxOptions{HomeVisible: []string{}})
	res, err := s.Execute(context.Background(), Command{Line: "echo $HOME; ls -A " + home + " | wc -l"}, Options{Timeout: boundFor(t)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outcome{Stdout: u.HomeDir + "\n0\n"}, outcomeOf(res)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	currentUser = func() (*user.User, error) { return nil, errors.New("no such user") }
	t.Cleanup(func() { currentUser = user.Current })
	_, err = NewSandbox(SandboxOptions{Root: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "HOME is not set and no such user: set HOME") {
		t.Errorf("NewSandbox without a home = %v, want an error naming HOME", err)
	}
}
