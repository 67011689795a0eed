package builtin

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// bashExecutor registers the builtin tools with opts (Root a fresh
// directory and Shell the local shell unless given) and returns a
// function that calls one tool through an executor, and the background
// manager, closed at the end of the test.
func bashExecutor(t *testing.T, opts Options) (func(name string, args map[string]any) tool.Result, *BackgroundManager) {
	t.Helper()
	root := opts.Root
	if root == "" {
		var err error
		if root, err = filepath.EvalSymlinks(t.TempDir()); err != nil {
			t.Fatal(err)
		}
	}
	if opts.Shell == nil {
		opts.Shell = shell.NewLocal()
	}
	if opts.Background == nil {
		opts.Background = NewBackgroundManager(opts.Shell, BackgroundLimits{})
	}
	bg := opts.Background
	t.Cleanup(func() { bg.Close() })
	opts.Root = root
	reg := tool.NewRegistry()
	if err := Register(reg, opts); err != nil {
		t.Fatal(err)
	}
	ex := tool.NewExecutor(reg, tool.WithLogger(slog.New(slog.DiscardHandler)))
	return func(name string, args map[string]any) tool.Result {
		return ex.Execute(context.Background(), tool.Call{ID: "c1", Name: name, Input: tool.NewInput(args)}, tool.NewContext())
	}, bg
}

// readBackground reads the background command id through BashOutput until it has
// ended and nothing is left, and returns the output and the last answer.
func readBackground(t *testing.T, call func(string, map[string]any) tool.Result, id string) (string, string) {
	t.Helper()
	var out strings.Builder
	for {
		res := call("BashOutput", map[string]any{"bash_id": id})
		if res.IsError {
			t.Fatalf("BashOutput %s: %s", id, res.Content)
		}
		_, text, _ := strings.Cut(res.Content, "Output since the last read:\n")
		text = strings.TrimSuffix(text, "\n[More output is waiting: call BashOutput again.]")
		out.WriteString(text)
		if !strings.Contains(res.Content, "Status: running") && !strings.Contains(res.Content, "[More output is waiting") {
			return out.String(), res.Content
		}
		if !strings.Contains(res.Content, "[More output is waiting") {
			// Still running and all read: let it write more before asking
			// again (asking at once spun thousands of calls per command,
			// CPU taken from the command itself).
			time.Sleep(time.Millisecond)
		}
	}
}

func TestBashEnvironment(t *testing.T) {
	noLeaks(t)
	secret := fmt.Sprintf("s3cret-%x", rand.Uint64())
	t.Setenv("TOOLGEN_TEST_SECRET", secret)
	t.Setenv("TOOLGEN_TEST_OTHER", "other")
	t.Setenv("HOME", "/home/toolgen-test")
	const show = `printf 'secret=%s other=%s home=%s path=%s\n' "${TOOLGEN_TEST_SECRET-unset}" "${TOOLGEN_TEST_OTHER-unset}" "${HOME-unset}" "${PATH:+set}"; printenv`
	for _, tc := range []struct {
		name   string
		pass   []string
		secret bool // the secret reaches the command
		other  bool
	}{
		{"nil is minimal", nil, false, false},
		{"empty is minimal", []string{}, false, false},
		{"another name", []string{"TOOLGEN_TEST_OTHER"}, false, true},
		{"the name", []string{"TOOLGEN_TEST_SECRET"}, true, false},
		{"a prefix", []string{"TOOLGEN_TEST_*"}, true, true},
		{"everything", []string{"*"}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, _ := bashExecutor(t, Options{PassEnv: tc.pass})
			val := func(ok bool, v string) string {
				if ok {
					return v
				}
				return "unset"
			}
			wantLine := fmt.Sprintf("secret=%s other=%s home=/home/toolgen-test path=set\n", val(tc.secret, secret), val(tc.other, "other"))

			res := call("Bash", bashArgs(show))
			if res.IsError || !strings.HasPrefix(res.Content, wantLine) {
				t.Errorf("foreground: got %q, want it to start with %q", trim(res.Content), wantLine)
			}
			if got := strings.Contains(res.Content, secret); got != tc.secret {
				t.Errorf("foreground: the secret shows up %v, want %v", got, tc.secret)
			}

			// Background commands get the same environment.
			res = call("Bash", bashArgs(show, "run_in_background", true))
			if res.IsError {
				t.Fatalf("background: %+v", res)
			}
			out, _ := readBackground(t, call, "bash_1")
			if !strings.HasPrefix(out, wantLine) || strings.Contains(out, secret) != tc.secret {
				t.Errorf("background: got %q, want it to start with %q", trim(out), wantLine)
			}
		})
	}
}

func TestBashPassEnvErrors(t *testing.T) {
	for _, tc := range []struct {
		pass []string
		want string
	}{
		{[]string{"A=B"}, `builtin: Bash: PassEnv: "A=B" is not a variable name: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)`},
		{[]string{"GOPATH", ""}, `builtin: Bash: PassEnv: "" is not a variable name: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)`},
		{[]string{"*X", "A B", "OK_*", "C\x00"}, `builtin: Bash: PassEnv: "*X", "A B", "C\x00" are not variable names: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)`},
		{[]string{"A**"}, `builtin: Bash: PassEnv: "A**" is not a variable name: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)`},
	} {
		reg := tool.NewRegistry()
		err := Register(reg, Options{Root: t.TempDir(), Shell: &fakeShell{}, PassEnv: tc.pass})
		if err == nil {
			t.Errorf("%q: no error", tc.pass)
			continue
		}
		if diff := cmp.Diff(tc.want, err.Error()); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.pass, diff)
		}
		if n := len(reg.All()); n != 0 {
			t.Errorf("%q: %d tools registered after the error", tc.pass, n)
		}
	}
	// Without a shell PassEnv is not used, and not judged.
	if err := Register(tool.NewRegistry(), Options{Root: t.TempDir(), PassEnv: []string{"A=B"}}); err != nil {
		t.Errorf("without a shell: %v", err)
	}
	// Good entries pass, after the minimal set, once each.
	k := newShellKit(&fakeShell{}, "", nil)
	if err := checkPassEnv([]string{"GOPATH", "LC_*", "*", "GIT_*"}); err != nil {
		t.Errorf("good entries: %v", err)
	}
	k.passEnv = bashPassEnv([]string{"GOPATH", "PATH", "GOPATH"})
	if diff := cmp.Diff(append(append([]string{}, shell.MinimalEnv...), "GOPATH"), k.passEnv); diff != "" {
		t.Errorf("PassEnv (-want +got):\n%s", diff)
	}
}
