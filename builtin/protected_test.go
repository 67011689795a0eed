package builtin_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestProtectedPaths: Write and Edit refuse the workspace paths whose
// contents run on the host later (shell.MandatoryReadOnly), as written and
// through a link (a repository that ships src -> .git), with a sentence
// that names the path and the reason; an entry that names the path itself
// allows it; other files under .git/ and beside them stay writable.
func TestProtectedPaths(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git/hooks", ".vscode", "sub"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/config", ".envrc", "README.md"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("old text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".git", filepath.Join(ws, "src")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	wide, err := permission.Parse("Read", "Write("+ws+"/**)", "Edit("+ws+"/**)")
	if err != nil {
		t.Fatal(err)
	}
	srcOnly, err := permission.Parse("Read("+ws+"/**)", "Write("+ws+"/src/**)")
	if err != nil {
		t.Fatal(err)
	}
	named, err := permission.Parse("Read", "Write("+ws+"/.envrc)", "Edit("+ws+"/.envrc)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		list  permission.List
		tool  string
		path  string
		want  string // in the result
		error bool
	}{
		{"git config", wide, "Write", ".git/config", "Write refuses " + ws + "/.git/config: git runs the programs it names", true},
		{"a hook", wide, "Write", ".git/hooks/pre-commit", "git runs its hooks", true},
		{"editor tasks", wide, "Write", ".vscode/tasks.json", "the editor runs its tasks", true},
		{"envrc by Edit", wide, "Edit", ".envrc", "Edit refuses " + ws + "/.envrc: direnv runs it", true},
		{"through src -> .git", wide, "Write", "src/config", "Write refuses " + ws + "/.git/config", true},
		{"src -> .git under Write(/ws/src/**)", srcOnly, "Write", "src/config", "not allowed", true},
		{"named by its own entry", named, "Write", ".envrc", ".envrc", false},
		{"a file beside them", wide, "Write", "README.md", "README.md", false},
		{"elsewhere under .git", wide, "Write", ".git/COMMIT_EDITMSG", "COMMIT_EDITMSG", false},
		{"a nested repository is not the workspace's", wide, "Write", "sub/.git/config", "config", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := tool.NewRegistry()
			if err := builtin.Register(reg, builtin.Options{Root: ws}); err != nil {
				t.Fatal(err)
			}
			e := tool.NewExecutor(reg, tool.WithAllowList(tt.list))
			tc := tool.NewContext(tool.WorkDirKey.Bind(ws))
			call := func(name string, args map[string]any) tool.Result {
				data, _ := json.Marshal(args)
				in, err := tool.DecodeInput(data)
				if err != nil {
					t.Fatal(err)
				}
				return e.Execute(context.Background(), tool.Call{Name: name, Input: in}, tc)
			}
			abs := filepath.Join(ws, tt.path)
			var res tool.Result
			if tt.tool == "Edit" {
				if r := call("Read", map[string]any{"file_path": abs}); r.IsError {
					t.Fatalf("Read: %s", r.Content)
				}
				res = call("Edit", map[string]any{"file_path": abs, "old_string": "old", "new_string": "new"})
			} else {
				if _, err := os.Stat(abs); err == nil {
					if r := call("Read", map[string]any{"file_path": abs}); r.IsError {
						t.Fatalf("Read: %s", r.Content)
					}
				}
				res = call("Write", map[string]any{"file_path": abs, "content": "new text\n"})
			}
			if res.IsError != tt.error || !strings.Contains(res.Content, tt.want) {
				t.Errorf("%s %s: error %v, %q; want error %v and %q", tt.tool, tt.path, res.IsError, res.Content, tt.error, tt.want)
			}
		})
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".git/config")); string(b) != "old text\n" {
		t.Errorf(".git/config changed: %q", b)
	}
}
