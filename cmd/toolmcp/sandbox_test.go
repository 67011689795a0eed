package main

import (
	"bytes"
	"crypto/rand"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/shell"
)

// sandboxWorks says whether this machine can run the bubblewrap sandbox,
// and why not.
func sandboxWorks(t *testing.T) (bool, string) {
	t.Helper()
	_, err := shell.NewSandbox(shell.SandboxOptions{Root: t.TempDir()})
	switch {
	case err == nil:
		return true, ""
	case errors.Is(err, shell.ErrSandboxUnavailable):
		return false, err.Error()
	}
	t.Fatalf("NewSandbox: %v", err)
	return false, ""
}

// withoutBwrap returns an environment whose PATH holds bash and nothing
// else, so that toolmcp finds no bubblewrap.
func withoutBwrap(t *testing.T) []string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	if err := os.Symlink(bash, filepath.Join(dir, "bash")); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return append(env, "PATH="+dir)
}

// TestPassEnv: a variable of toolmcp's environment reaches Bash's commands
// only when -pass-env names it, on the local shell and in the sandbox.
func TestPassEnv(t *testing.T) {
	if testing.Short() {
		t.Skip("starts toolmcp and shells")
	}
	if runtime.GOOS == "windows" {
		t.Skip("runs bash")
	}
	secret := "s3cr3t-" + rand.Text()
	env := append(os.Environ(), "TOOLMCP_TEST_SECRET="+secret, "TOOLMCP_TEST_OTHER=other")
	sandbox, why := sandboxWorks(t)
	const cmd = `printenv TOOLMCP_TEST_SECRET || echo unset; printenv TOOLMCP_TEST_OTHER || echo unset`
	tests := []struct {
		name    string
		sandbox string
		args    []string
		want    string
	}{
		{"local, by default", "off", nil, "unset\nunset\n"},
		{"local, named", "off", []string{"-pass-env", "TOOLMCP_TEST_SECRET"}, secret + "\nunset\n"},
		{"local, prefix", "off", []string{"-pass-env", "TOOLMCP_TEST_*"}, secret + "\nother\n"},
		{"local, two names", "off", []string{"-pass-env", "TOOLMCP_TEST_OTHER", "-pass-env", "TOOLMCP_TEST_SECRET"}, secret + "\nother\n"},
		{"sandbox, by default", "on", nil, "unset\nunset\n"},
		{"sandbox, named", "on", []string{"-pass-env", "TOOLMCP_TEST_SECRET"}, secret + "\nunset\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sandbox == "on" && !sandbox {
				t.Skip("the sandbox is unavailable here: " + why)
			}
			root := workspace(t)
			c, stderr, _ := startStdioEnv(t, env, append([]string{"-root", root, "-sandbox", tc.sandbox}, tc.args...)...)
			if got := c.call("Bash", map[string]any{"command": cmd}); got != (answer{Text: tc.want}) {
				t.Errorf("Bash %q = %+v, want %q", cmd, got, tc.want)
			}
			if strings.Contains(stderr.String(), secret) {
				t.Errorf("the secret is in toolmcp's log:\n%s", stderr)
			}
		})
	}
}

// TestSandbox: -sandbox on confines Bash (a host directory outside the root
// cannot be written) and says so in the log; off does not; on refuses to
// start where the sandbox is unavailable; auto falls back to the local
// shell there with one warning.
func TestSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts toolmcp and shells")
	}
	if runtime.GOOS == "windows" {
		t.Skip("runs bash")
	}
	sandbox, why := sandboxWorks(t)

	// write tries to create a file in a host directory outside the root.
	write := func(t *testing.T, c *client) (answer, bool) {
		t.Helper()
		outside := filepath.Join(t.TempDir(), "escaped.txt")
		res := c.call("Bash", map[string]any{"command": "echo x > " + outside + " && echo written"})
		_, err := os.Stat(outside)
		return res, err == nil
	}

	t.Run("on", func(t *testing.T) {
		if !sandbox {
			t.Skip("the sandbox is unavailable here: " + why)
		}
		root := workspace(t)
		c, stderr, _ := startStdio(t, "-root", root, "-sandbox", "on")
		if res, escaped := write(t, c); escaped || !res.IsError {
			t.Errorf("a write outside the root under -sandbox on: %+v, file created: %v", res, escaped)
		}
		if res := c.call("Bash", map[string]any{"command": "echo x > ok/inside.txt && cat ok/inside.txt"}); res != (answer{Text: "x\n"}) {
			t.Errorf("a write inside the root under -sandbox on: %+v", res)
		}
		if !strings.Contains(stderr.String(), `msg="bash runs commands in the sandbox"`) {
			t.Errorf("the log does not say the sandbox is used:\n%s", stderr)
		}
	})
	t.Run("auto uses the sandbox where it works", func(t *testing.T) {
		if !sandbox {
			t.Skip("the sandbox is unavailable here: " + why)
		}
		c, stderr, _ := startStdio(t, "-root", workspace(t))
		if res, escaped := write(t, c); escaped || !res.IsError {
			t.Errorf("a write outside the root under -sandbox auto: %+v, file created: %v", res, escaped)
		}
		if !strings.Contains(stderr.String(), `msg="bash runs commands in the sandbox"`) {
			t.Errorf("the log does not say the sandbox is used:\n%s", stderr)
		}
	})
	t.Run("off", func(t *testing.T) {
		c, stderr, _ := startStdio(t, "-root", workspace(t), "-sandbox", "off")
		if res, escaped := write(t, c); !escaped || res != (answer{Text: "written\n"}) {
			t.Errorf("a write outside the root under -sandbox off: %+v, file created: %v", res, escaped)
		}
		if !strings.Contains(stderr.String(), "not sandboxed (-sandbox off)") {
			t.Errorf("the log does not say the local shell is used:\n%s", stderr)
		}
	})
	t.Run("on, unavailable", func(t *testing.T) {
		ctx := testContext(t)
		cmd := exec.CommandContext(ctx, toolmcpBin, "-root", workspace(t), "-sandbox", "on")
		cmd.Env = withoutBwrap(t)
		cmd.Stdin = strings.NewReader("") // were it to serve, it would stop at once
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Errorf("toolmcp -sandbox on without bubblewrap: %v, want exit status 1", err)
		}
		if want := "toolmcp: -sandbox on: sandbox unavailable: "; !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("stderr:\n%s\nwant it to start with %q", stderr.String(), want)
		}
	})
	t.Run("auto, unavailable", func(t *testing.T) {
		c, stderr, _ := startStdioEnv(t, withoutBwrap(t), "-root", workspace(t))
		if res := c.call("Bash", map[string]any{"command": "echo local"}); res != (answer{Text: "local\n"}) {
			t.Errorf("Bash on the fallback shell: %+v", res)
		}
		var warnings []string
		for _, line := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(line, "sandbox") {
				warnings = append(warnings, line)
			}
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "level=WARN") ||
			!strings.Contains(warnings[0], "the sandbox is unavailable, so bash runs commands on the local shell") {
			t.Errorf("log lines about the sandbox: %q, want one warning that the local shell is used", warnings)
		}
	})
}

// TestNewShell checks the choice in process, without starting toolmcp.
func TestNewShell(t *testing.T) {
	sandbox, why := sandboxWorks(t)
	logger := slog.New(slog.DiscardHandler)
	sh, err := newShell(sandboxOff, shell.SandboxOptions{Root: t.TempDir()}, logger)
	if _, ok := sh.(*shell.Local); err != nil || !ok {
		t.Errorf("newShell(off) = %T, %v; want *shell.Local", sh, err)
	}
	if !sandbox {
		t.Skip("the sandbox is unavailable here: " + why)
	}
	for _, m := range []sandboxMode{sandboxAuto, sandboxOn} {
		sh, err := newShell(m, shell.SandboxOptions{Root: t.TempDir()}, logger)
		if _, ok := sh.(*shell.Sandbox); err != nil || !ok {
			t.Errorf("newShell(%s) = %T, %v; want *shell.Sandbox", m, sh, err)
		}
	}
	// A root the sandbox refuses is an error under auto too: not a reason
	// to fall back.
	if _, err := newShell(sandboxAuto, shell.SandboxOptions{Root: "/"}, logger); err == nil || errors.Is(err, shell.ErrSandboxUnavailable) {
		t.Errorf("newShell(auto, /) = %v; want an error that is not ErrSandboxUnavailable", err)
	}
}
