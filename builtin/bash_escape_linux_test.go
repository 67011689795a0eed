package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// withArgv0 lists the live processes whose argv[0] is name.
func withArgv0(t *testing.T, name string) []string {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if argv0, _, _ := bytes.Cut(cmdline, []byte{0}); string(argv0) == name {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestBashEscapesThroughExecutor runs the escapes of the review through
// the registered Bash tool and the executor, with the shells this machine
// has, and counts from /proc what the call left running: nothing, for
// every shell that guarantees StopsAll (a cgroup per run, or the
// sandbox's pid namespace).
func TestBashEscapesThroughExecutor(t *testing.T) {
	if testing.Short() {
		t.Skip("runs commands for several seconds; skipped with -short")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shells := []struct {
		name string
		sh   shell.Shell
	}{{"local", shell.NewLocal()}}
	if sb, err := shell.NewSandbox(shell.SandboxOptions{Root: root}); err == nil {
		shells = append(shells, struct {
			name string
			sh   shell.Shell
		}{"sandbox", sb})
	} else if errors.Is(err, shell.ErrSandboxUnavailable) {
		t.Logf("no sandbox case: %v", err)
	} else {
		t.Fatal(err)
	}
	escapes := []string{
		// The review's lines, with a 2 s timeout.
		"setsid bash -c 'exec -a %[1]s sleep 303' & sleep 5",
		"set -m; (exec -a %[1]s sleep 302) & disown; sleep 5",
		// And the same without waiting: the command ends on its own.
		"setsid bash -c 'exec -a %[1]s sleep 301' & echo started",
		"(setsid bash -c '(exec -a %[1]s sleep 300) &' &) ; echo started",
	}
	for _, s := range shells {
		g := s.sh.(shell.Guarantor).Guarantees()
		if g.Processes != shell.StopsAll {
			t.Logf("%s: the shell does not stop every process here (%v); not counted", s.name, g.Processes)
			continue
		}
		reg := tool.NewRegistry()
		bg := NewBackgroundManager(s.sh, BackgroundLimits{})
		t.Cleanup(func() { bg.Close() })
		if err := Register(reg, Options{Root: root, Shell: s.sh, Background: bg, Tools: []string{BashName}}); err != nil {
			t.Fatal(err)
		}
		ex := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
		for i, line := range escapes {
			mark := fmt.Sprintf("toolgen-escape-%d-%d-%d", os.Getpid(), i, time.Now().UnixNano())
			t.Cleanup(func() {
				for _, pid := range withArgv0(t, mark) {
					var p int
					fmt.Sscan(pid, &p)
					if proc, err := os.FindProcess(p); err == nil {
						proc.Kill()
					}
				}
			})
			in := tool.NewInput(map[string]any{"command": fmt.Sprintf(line, mark), "timeout": 2000})
			res := ex.Execute(context.Background(), tool.Call{ID: "c", Name: BashName, Input: in}, tool.NewContext(tool.WorkDirKey.Bind(root)))
			if strings.HasPrefix(res.Content, "Command failed") {
				t.Fatalf("%s: %q could not start: %s", s.name, line, res.Content)
			}
			// The call has returned: whatever it started must be gone.
			// A process killed a moment ago may still be leaving /proc.
			left := withArgv0(t, mark)
			for tries := 0; len(left) > 0 && tries < 100; tries++ {
				time.Sleep(20 * time.Millisecond)
				left = withArgv0(t, mark)
			}
			if len(left) > 0 {
				t.Errorf("%s: %q left %d processes running (pids %v); the result said: %q", s.name, line, len(left), left, res.Content)
			}
		}
	}
}
