package toolgencheck_test

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen/toolgen/analyzers/toolgencheck"
	"github.com/toolgen/toolgen/internal/generate"
	"github.com/toolgen/toolgen/internal/load"
)

// modPath is the module the test copies testdata/src into.
const modPath = "example.com/vettest"

func TestAnalyzer(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with go/packages, several seconds; run without -short")
	}
	dir := tempModule(t)
	// The passing cases are generated now, by the toolgen of this tree, so
	// they stay current whatever the emitter writes today.
	for _, pkg := range []string{"current", "nested", "nodesc", "funccurrent"} {
		plan, err := generate.Run(load.Config{Dir: filepath.Join(dir, pkg), Patterns: []string{"."}, Tests: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	// The stalefield case is generated from its source as it was before a
	// field was added to one tool's output type, the funcstale case from
	// its source as it was before a parameter was added to one function.
	for _, pkg := range []string{"stalefield", "funcstale"} {
		generateBefore(t, filepath.Join(dir, pkg), pkg+".go")
	}
	// The nested case holds what comes from the other package's syntax,
	// which the analyzer gets through facts: a stale report there means
	// the facts did not carry it.
	gen, err := os.ReadFile(filepath.Join(dir, "nested", "nested_toolgen.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The distance from the left edge.", `"px"`, `"pt"`} {
		if !strings.Contains(string(gen), want) {
			t.Fatalf("nested_toolgen.go lacks %s, which comes from package shapes:\n%s", want, gen)
		}
	}
	tests := []struct {
		name string
		pkg  string
	}{
		{name: "current generated code passes", pkg: "current"},
		{name: "a struct and an enum of another package come through facts", pkg: "nested"},
		{name: "a tool without //tool:description is warned about", pkg: "nodesc"},
		{name: "no tools, no load", pkg: "notools"},
		{name: "stale file reported at each struct", pkg: "stale"},
		{name: "a stale tool reported with the field, the current one not", pkg: "stalefield"},
		{name: "missing file reported at the struct", pkg: "missing"},
		{name: "orphaned file reported at its package clause", pkg: "orphan"},
		{name: "annotation mistake reported at its position", pkg: "badannot"},
		{name: "a current function tool passes", pkg: "funccurrent"},
		{name: "a function tool's missing file reported at the function", pkg: "funcmissing"},
		{name: "a function tool that gained a parameter reported at the function, the other not", pkg: "funcstale"},
		{name: "a function tool's annotation mistake reported at its position", pkg: "funcbad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			analysistest.Run(t, dir, toolgencheck.Analyzer, modPath+"/"+tt.pkg)
		})
	}
}

// generateBefore runs toolgen in dir on the source name as it was before
// (name+".before"), and puts today's source back: the generated file is
// the one a developer would have committed before the change.
func generateBefore(t *testing.T, dir, name string) {
	t.Helper()
	src := filepath.Join(dir, name)
	after, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(src+".before", src); err != nil {
		t.Fatal(err)
	}
	plan, err := generate.Run(load.Config{Dir: dir, Patterns: []string{"."}, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, after, 0o666); err != nil {
		t.Fatal(err)
	}
}

// tempModule copies testdata/src into a new module that requires this
// repository (replaced by its directory, with its requirements and go.sum,
// so nothing is downloaded) and returns the module's directory. The
// analyzer runs the go command in it, which a GOPATH-style testdata tree
// cannot serve: the generated code imports the real runtime packages.
func tempModule(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	root := filepath.Join(filepath.Dir(file), "..", "..")
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	gomod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(gomod, []byte("module "+modPath))
	gomod = append(gomod, []byte("\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => "+filepath.ToSlash(root)+"\n")...)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "src"))); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"go.mod": gomod, "go.sum": sum} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
