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

// TestRootBehindALink: a workspace root reached through a symbolic link
// (macOS's /tmp and /var/folders are links to /private/...) works like any
// other: files under it are read, written, globbed and grepped by the
// path the user gave, and allow-list entries written with that path match.
func TestRootBehindALink(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.WriteFile(filepath.Join(real, "a.go"), []byte("package a\nfunc A() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := builtin.Register(reg, builtin.Options{Root: link}); err != nil {
		t.Fatal(err)
	}
	allow, err := permission.Parse("Read("+link+"/**)", "Write("+link+"/**)", "Edit("+link+"/**)", "Glob", "Grep("+link+"/**)")
	if err != nil {
		t.Fatal(err)
	}
	e := tool.NewExecutor(reg, tool.WithAllowList(allow))
	tc := tool.NewContext(tool.WorkDirKey.Bind(link))
	call := func(name string, args map[string]any) tool.Result {
		data, _ := json.Marshal(args)
		in, err := tool.DecodeInput(data)
		if err != nil {
			t.Fatal(err)
		}
		return e.Execute(context.Background(), tool.Call{Name: name, Input: in}, tc)
	}
	for _, c := range []struct {
		name string
		args map[string]any
		want string // in the result's content
	}{
		{"Read", map[string]any{"file_path": filepath.Join(link, "a.go")}, "func A()"},
		{"Read", map[string]any{"file_path": "a.go"}, "func A()"},
		{"Write", map[string]any{"file_path": filepath.Join(link, "b.go"), "content": "package b\n"}, "b.go"},
		{"Glob", map[string]any{"pattern": "*.go"}, "a.go"},
		{"Grep", map[string]any{"pattern": "func A", "path": link}, "a.go"},
		{"Read", map[string]any{"file_path": filepath.Join(link, "b.go")}, "package b"},
	} {
		res := call(c.name, c.args)
		if res.IsError || !strings.Contains(res.Content, c.want) {
			t.Errorf("%s %v: %+v, want a result holding %q", c.name, c.args, res, c.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(real, "b.go")); err != nil || string(b) != "package b\n" {
		t.Errorf("b.go in the real directory: %q, %v", b, err)
	}
	// A link inside the root that leads out of it is still refused.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(real, "out")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/etc/hostname", filepath.Join(link, "out", "secret"), "out/secret", filepath.Join(link, "..", filepath.Base(link), "out", "secret")} {
		if res := call("Read", map[string]any{"file_path": p}); !res.IsError || strings.Contains(res.Content, "s3cret") {
			t.Errorf("Read %s: a file outside the root was read: %+v", p, res)
		}
	}
}
