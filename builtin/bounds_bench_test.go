package builtin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

// benchCorpus writes n Go-like files of about size bytes each under dir.
func benchCorpus(b *testing.B, dir string, n, size int) {
	b.Helper()
	var text strings.Builder
	for i := 0; text.Len() < size; i++ {
		fmt.Fprintf(&text, "// Func%d does thing number %d with care.\nfunc Func%d(x int) error {\n\tif x > %d {\n\t\treturn nil\n\t}\n\treturn errThing\n}\n\n", i, i, i, i)
	}
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("pkg%02d", i%16), fmt.Sprintf("f%03d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFileTools runs Read, Grep and Glob through the executor on a
// fixed corpus: a 20 MiB file of short lines, and 256 Go-like files of 60
// KB in 16 directories. go test -run '^$' -bench FileTools -benchmem ./builtin
func BenchmarkFileTools(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(root, "big.txt")
	if err := os.WriteFile(big, []byte(strings.Repeat("some text on a line\n", 20<<20/20)), 0o644); err != nil {
		b.Fatal(err)
	}
	benchCorpus(b, filepath.Join(root, "src"), 256, 60_000)
	reg := tool.NewRegistry()
	if err := Register(reg, Options{Root: root}); err != nil {
		b.Fatal(err)
	}
	exec := tool.NewExecutor(reg, quiet)
	src := filepath.Join(root, "src")
	for _, c := range []struct {
		name string
		tool string
		args map[string]any
	}{
		{"Read/default", ReadName, map[string]any{"file_path": big}},
		{"Read/limit-2^30", ReadName, map[string]any{"file_path": big, "limit": 1 << 30}},
		{"Grep/files", GrepName, map[string]any{"pattern": `func [A-Z][A-Za-z]*\(`, "path": src}},
		{"Grep/count", GrepName, map[string]any{"pattern": `func [A-Z][A-Za-z]*\(`, "path": src, "output_mode": "count"}},
		{"Grep/content", GrepName, map[string]any{"pattern": `func [A-Z][A-Za-z]*\(`, "path": src, "output_mode": "content"}},
		{"Grep/content-last-page", GrepName, map[string]any{"pattern": `return errThing`, "path": src, "output_mode": "content", "offset": 256*60_000/120 - 10, "head_limit": 10}},
		{"Grep/none", GrepName, map[string]any{"pattern": `nomatch[0-9]+`, "path": src}},
		{"Glob/all", GlobName, map[string]any{"pattern": "**/*.go", "path": src}},
	} {
		b.Run(c.name, func(b *testing.B) {
			call := tool.Call{Name: c.tool, Input: tool.NewInput(c.args)}
			b.ReportAllocs()
			for b.Loop() {
				res := exec.Execute(context.Background(), call, tool.NewContext())
				if res.IsError {
					b.Fatal(res.Content)
				}
			}
		})
	}
}
