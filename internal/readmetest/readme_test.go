package readmetest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// getToolgen is the README's step that fetches toolgen. The test cannot
// fetch this tree from a proxy, so it makes the same requirement point at
// the repository instead.
const getToolgen = "go get github.com/toolgen/toolgen@latest"

func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("cannot find this file's path")
	}
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// TestQuickStart follows the README's quick start in a new module: the
// files written as the README gives them, its commands run in order, and
// the last command's output compared with the output the README shows.
func TestQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a new module with go mod tidy and go generate; run without -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	root := repoRoot(t)
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuickStart(string(md))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}

	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		// Leave time to report a command that hangs.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Until(d)/10))
		defer cancel()
	}

	dir := t.TempDir()
	for name, body := range q.Files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	replaced := false
	var out []byte
	for _, line := range q.Commands {
		run := line
		if line == getToolgen {
			replaced = true
			run = "go mod edit -require=github.com/toolgen/toolgen@v0.0.0 -replace=github.com/toolgen/toolgen=" + root
		}
		cmd := exec.CommandContext(ctx, "sh", "-c", run)
		cmd.Dir = dir
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("README command %q (run as %q): %v\nstdout:\n%s\nstderr:\n%s", line, run, err, stdout.Bytes(), stderr.Bytes())
		}
		out = stdout.Bytes()
	}
	if !replaced {
		t.Fatalf("the quick start never adds toolgen with %q; the test knows no other way to point the module at this tree", getToolgen)
	}
	if _, err := os.Stat(filepath.Join(dir, "echo", "echo_toolgen.go")); err != nil {
		t.Errorf("the README says go generate writes echo/echo_toolgen.go: %v", err)
	}
	if diff := cmp.Diff(q.Output, string(out)); diff != "" {
		t.Errorf("the last command %q prints other than the README says (-README +got):\n%s", q.Commands[len(q.Commands)-1], diff)
	}
}

func TestParseQuickStart(t *testing.T) {
	const fence = "```"
	good := "# x\n\n## Quick start\n\n" +
		fence + "sh\ngo mod init m\n# a comment\n\ngo run .\n" + fence + "\n\n" +
		"`a/a.go`:\n\n" + fence + "go\npackage a\n" + fence + "\n\n" +
		"`tools.go` pins:\n\n" + fence + "go\n//go:build tools\n\npackage main\n" + fence + "\n\n" +
		fence + "text\nhi\n" + fence + "\n\n## Next\n\n" + fence + "text\nnot the output\n" + fence + "\n"
	tests := []struct {
		name    string
		md      string
		want    QuickStart
		wantErr string
	}{
		{name: "good", md: good, want: QuickStart{
			Files:    map[string]string{"a/a.go": "package a\n", "tools.go": "//go:build tools\n\npackage main\n"},
			Commands: []string{"go mod init m", "go run ."},
			Output:   "hi\n",
		}},
		{name: "snippet", md: "## Quick start\n`a.go`\n" + fence + "go\nreg := tool.NewRegistry()\n" + fence + "\n",
			wantErr: "README line 3: a Go block that is not a complete file"},
		{name: "unnamed", md: "## Quick start\n" + fence + "go\npackage a\n" + fence + "\n",
			wantErr: "README line 2: no file name for the Go block"},
		{name: "twice", md: "`a.go`\n" + fence + "go\npackage a\n" + fence + "\n`a.go`\n" + fence + "go\npackage a\n" + fence + "\n",
			wantErr: "README line 6: a second Go block named a.go"},
		{name: "unclosed", md: "## Quick start\n" + fence + "sh\ngo run .\n",
			wantErr: "line 2: code block never closed"},
		{name: "no section", md: "`a.go`\n" + fence + "go\npackage a\n" + fence + "\n",
			wantErr: `no section "Quick start"`},
		{name: "no output", md: "## Quick start\n`a.go`\n" + fence + "go\npackage a\n" + fence + "\n" + fence + "sh\ngo run .\n" + fence + "\n",
			wantErr: "the quick start has 0 text blocks"},
		{name: "no commands", md: "## Quick start\n`a.go`\n" + fence + "go\npackage a\n" + fence + "\n" + fence + "text\nx\n" + fence + "\n",
			wantErr: "the quick start has no sh block"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseQuickStart(tt.md)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadmeParses keeps the README's quick start readable in -short runs
// too: the files, commands and output are all found.
func TestReadmeParses(t *testing.T) {
	md, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := ParseQuickStart(string(md))
	if err != nil {
		t.Fatalf("README.md: %v", err)
	}
	if len(md) > 10_000 {
		t.Errorf("README.md is %d bytes; the front door stays within 10,000: move detail to docs/", len(md))
	}
	var names []string
	for n := range q.Files {
		names = append(names, n)
	}
	if len(names) == 0 || !strings.Contains(strings.Join(q.Commands, "\n"), getToolgen) {
		t.Errorf("files %v, commands %q", names, q.Commands)
	}
}

func FuzzParseQuickStart(f *testing.F) {
	f.Add("## Quick start\n`a.go`\n```go\npackage a\n```\n```sh\ngo run .\n```\n```text\nx\n```\n")
	f.Add("```go\n//go:build tools\n\npackage main\n```\n")
	f.Add("## Quick start\n```sh\n")
	f.Fuzz(func(t *testing.T, md string) {
		q, err := ParseQuickStart(md)
		if err != nil {
			return
		}
		if len(q.Files) == 0 || len(q.Commands) == 0 {
			t.Fatalf("accepted without files or commands: %+v", q)
		}
		for name, body := range q.Files {
			if !strings.HasSuffix(name, ".go") || !isFile(body) {
				t.Fatalf("file %q not a Go file: %q", name, body)
			}
			if !strings.Contains(md, body) {
				t.Fatalf("file %q's body is not in the input", name)
			}
		}
		for _, c := range q.Commands {
			if c == "" || c != strings.TrimSpace(c) || strings.HasPrefix(c, "#") || strings.Contains(c, "\n") {
				t.Fatalf("command %q", c)
			}
		}
	})
}
