package builtin

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

// BenchmarkRead1GB reads the first 2,000 lines of a 1 GiB file. Memory per
// read must stay flat (a buffer and the output), whatever the file's size.
func BenchmarkRead1GB(b *testing.B) {
	e := newTestEnv(b)
	p := bigFile(b, e.path("big.txt"), 1<<30)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		// A fresh run each time: nothing is cached between reads.
		e.tc = e.tc.With()
		out, err := e.read(ReadInput{FilePath: p})
		if err != nil {
			b.Fatal(err)
		}
		if strings.Count(out, "\n") < 2000 {
			b.Fatal("short read")
		}
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse)/(1<<20), "heap-MiB")
}

// repoRoot is the module's root directory, which the Grep benchmarks search.
func repoRoot(b *testing.B) string {
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		b.Skip("the module root is not where it is expected")
	}
	return root
}

// grepPattern is searched for by both Grep and grep -rn; its syntax means
// the same to RE2 and to POSIX extended regular expressions.
const grepPattern = `func [A-Z][A-Za-z]*\(`

// BenchmarkGrepRepo compares Grep over this repository with grep -rn on
// the same pattern, side by side: go test -bench=GrepRepo ./builtin.
// "count" and "grep-rn" both read every file; "content" is how the model
// calls it, and stops once its output is full.
func BenchmarkGrepRepo(b *testing.B) {
	root := repoRoot(b)
	run := func(mode string) func(b *testing.B) {
		return func(b *testing.B) {
			ws, err := newWorkspace(root)
			if err != nil {
				b.Fatal(err)
			}
			f := &files{ws: ws}
			tc := tool.NewContext()
			b.ReportAllocs()
			for b.Loop() {
				out, err := f.grep(context.Background(), GrepInput{Pattern: grepPattern, OutputMode: mode, LineNumbers: true}, tc)
				if err != nil || !strings.HasPrefix(out, "/") && !strings.HasPrefix(out, "Found") {
					b.Fatalf("grep: %v %.200s", err, out)
				}
			}
		}
	}
	b.Run("builtin-count", run(modeCount))
	b.Run("builtin-content", run(modeContent))
	b.Run("builtin-files", run(modeFiles))
	b.Run("grep-rn", func(b *testing.B) {
		grep, err := exec.LookPath("grep")
		if err != nil {
			b.Skip("grep is not installed")
		}
		for b.Loop() {
			cmd := exec.Command(grep, "-rnE", "--exclude-dir=.git", "-I", grepPattern, root)
			var out bytes.Buffer
			cmd.Stdout = &out
			if err := cmd.Run(); err != nil {
				b.Fatalf("grep: %v", err)
			}
		}
	})
}

// BenchmarkGrepDense counts the matching lines of a 4 MiB file on most of
// whose lines the pattern matches, beside grep -c on the same file:
// go test -bench=GrepDense ./builtin. Each search for the next matching
// line must cost what the text up to it costs, not what the rest of the
// block does.
func BenchmarkGrepDense(b *testing.B) {
	e := newTestEnv(b)
	line := "\tif err := f.close(); err != nil { return err }\n"
	p := e.file("dense.go", strings.Repeat(line, (4<<20)/len(line)))
	tc := tool.NewContext()
	for _, pattern := range []string{"e", `err\b`, `return [a-z]+ }$`} {
		b.Run("builtin/"+pattern, func(b *testing.B) {
			for b.Loop() {
				out, err := e.f.grep(context.Background(), GrepInput{Pattern: pattern, Path: p, OutputMode: modeCount}, tc)
				if err != nil || !strings.Contains(out, ":") {
					b.Fatalf("grep: %v %.200s", err, out)
				}
			}
		})
		b.Run("grep-c/"+pattern, func(b *testing.B) {
			grep, err := exec.LookPath("grep")
			if err != nil {
				b.Skip("grep is not installed")
			}
			for b.Loop() {
				if err := exec.Command(grep, "-cE", pattern, p).Run(); err != nil {
					b.Fatalf("grep: %v", err)
				}
			}
		})
	}
}
