package docprog

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPrograms(t *testing.T) {
	const main = "package main\n\nfunc main() {}\n"
	tests := []struct {
		name string
		md   string
		want []Program
	}{
		{"none", "# Title\n\nText.\n", nil},
		{"one", "# T\n\n```go\n" + main + "```\n", []Program{{Line: 4, Source: main}}},
		{"fragment skipped", "```go\nexec := tool.NewExecutor(reg)\n```\n", nil},
		{"other package skipped", "```go\npackage echo\n```\n", nil},
		{"other language skipped", "```sh\npackage main\n```\n", nil},
		{"no language skipped", "```\n" + main + "```\n", nil},
		{"gomod skipped", "```gomod\nmodule x\n```\n", nil},
		{"info string after go", "```go title=main.go\n" + main + "```\n", []Program{{Line: 2, Source: main}}},
		{"comments before the clause", "```go\n// Command x does y.\n/* more */\n" + main + "```\n",
			[]Program{{Line: 2, Source: "// Command x does y.\n/* more */\n" + main}}},
		{"build constraint", "```go\n//go:build ignore\n\n" + main + "```\n",
			[]Program{{Line: 2, Source: "//go:build ignore\n\n" + main}}},
		{"package mainly is not main", "```go\npackage mainly\n```\n", nil},
		{"two, in order", "```go\n" + main + "```\ntext\n```go\npackage main // second\n```\n",
			[]Program{{Line: 2, Source: main}, {Line: 8, Source: "package main // second\n"}}},
		{"tilde fence", "~~~go\n" + main + "~~~\n", []Program{{Line: 2, Source: main}}},
		{"longer fence holds a shorter one", "````go\npackage main\n\n// ```\n```\nfunc main() {}\n````\n",
			[]Program{{Line: 2, Source: "package main\n\n// ```\n```\nfunc main() {}\n"}}},
		{"tildes do not close backquotes", "```go\npackage main\n~~~\n```\n", []Program{{Line: 2, Source: "package main\n~~~\n"}}},
		{"indented fence", "- item\n\n  ```go\n  package main\n\n  func main() {}\n  ```\n", []Program{{Line: 4, Source: main}}},
		{"four spaces is not a fence", "    ```go\n    package main\n    ```\n", nil},
		{"a go block inside another block is text", "```md\n```go\npackage main\n```\n", nil},
		{"CRLF", "```go\r\npackage main\r\n```\r\n", []Program{{Line: 2, Source: "package main\r\n"}}},
		{"closing fence with spaces after", "```go\n" + main + "```  \n", []Program{{Line: 2, Source: main}}},
		{"a closing fence with text is content", "```go\npackage main\n```go\n```\n", []Program{{Line: 2, Source: "package main\n```go\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Programs(tt.md)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Programs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProgramsUnclosed(t *testing.T) {
	_, err := Programs("text\n\n```go\npackage main\n")
	if err == nil || !strings.Contains(err.Error(), "line 3: code block never closed") {
		t.Errorf("err = %v, want one naming line 3", err)
	}
}

// TestBuild compiles a program inside this module and leaves the module
// as it was; a program that does not compile gives go build's message.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build; run without -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	mod := filepath.Join("..", "..")
	ctx := context.Background()
	out := t.TempDir()
	good := "package main\n\nimport \"github.com/toolgen/toolgen/runtime/tool\"\n\nfunc main() { _ = tool.NewRegistry() }\n"
	if err := Build(ctx, mod, "good", good, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "good")); err != nil {
		t.Errorf("no binary: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mod, "internal", "docprog_good")); !os.IsNotExist(err) {
		t.Errorf("the build wrote into the module: %v", err)
	}
	bad := "package main\n\nfunc main() { undefinedName() }\n"
	err := Build(ctx, mod, "bad", bad, out)
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedName") {
		t.Errorf("err = %v, want go build's message", err)
	}
	for _, name := range []string{"", "Bad", "a/b", "../x"} {
		if err := Build(ctx, mod, name, good, out); err == nil || !strings.Contains(err.Error(), "lower-case identifier") {
			t.Errorf("name %q: err = %v", name, err)
		}
	}
	if err := Build(ctx, ".", "x", good, out); err == nil || !strings.Contains(err.Error(), "not a module's directory") {
		t.Errorf("a directory without go.mod: err = %v", err)
	}
}
