package gentest

import (
	"bytes"
	"errors"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/emit"
	"github.com/toolgen/toolgen/internal/load"
)

var update = flag.Bool("update", false, "if set, rewrite the want sections of testdata/*.txtar and the fixtures' generated files")

// repoRoot is the module root, two levels above this file.
func repoRoot(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("no caller")
	}
	return filepath.Dir(filepath.Dir(file))
}

// tempModule writes files into a new module that replaces toolgen with
// this repository, and returns its directory.
func tempModule(t testing.TB, files map[string][]byte) string {
	t.Helper()
	root := repoRoot(t)
	dir := t.TempDir()
	gomod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + filepath.ToSlash(root) + "\n"
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files["go.mod"] = []byte(gomod)
	files["go.sum"] = sum
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func goEnv() []string { return append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off") }

// TestGolden runs load and emit over each testdata/*.txtar case: the
// -- input/... -- files make a package, and the case holds either the
// generated files (-- want/... --) or the errors (-- errors --).
//
// A go/packages load costs about as much for one package as for five, so
// the cases that generate files are loaded together, each in directories
// of its own in one module; should that load fail, each of them is loaded
// alone, so that every case reports its own errors. A case that expects
// errors is always loaded alone.
func TestGolden(t *testing.T) {
	t.Parallel() // it waits on go list, as TestDeterministic does
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	cases := make([]goldenCase, len(files))
	for i, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		cases[i] = goldenCase{file: file, ar: ar, inputs: map[string][]byte{}}
		for _, f := range ar.Files {
			if name, ok := strings.CutPrefix(f.Name, "input/"); ok {
				cases[i].inputs[name] = f.Data
			}
			if f.Name == "errors" {
				cases[i].wantsErrors = true
			}
		}
	}
	together := loadTogether(t, cases)
	for _, c := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(c.file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			got, ok := together[c.file]
			if !ok {
				dir := tempModule(t, c.inputs)
				got = generateGolden(t, dir)
				if _, failed := got["errors"]; !failed {
					vetGenerated(t, dir)
				}
			}
			want := map[string]string{}
			var kept []txtar.File
			for _, f := range c.ar.Files {
				if f.Name == "errors" || strings.HasPrefix(f.Name, "want/") {
					want[f.Name] = string(f.Data)
					continue
				}
				kept = append(kept, f)
			}
			if *update {
				names := make([]string, 0, len(got))
				for n := range got {
					names = append(names, n)
				}
				slices.Sort(names)
				for _, n := range names {
					kept = append(kept, txtar.File{Name: n, Data: []byte(got[n])})
				}
				c.ar.Files = kept
				if err := os.WriteFile(c.file, txtar.Format(c.ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: mismatch (-want +got); run go test ./gen_test -update to accept:\n%s", c.file, diff)
			}
		})
	}
}

// goldenCase is one testdata/*.txtar file.
type goldenCase struct {
	file        string
	ar          *txtar.Archive
	inputs      map[string][]byte // the input/ files, by path in the module
	wantsErrors bool
}

// topDirs lists the first element of each input path: the directories
// the case's packages live in.
func (c goldenCase) topDirs() []string {
	var dirs []string
	for name := range c.inputs {
		top, _, _ := strings.Cut(name, "/")
		if !slices.Contains(dirs, top) {
			dirs = append(dirs, top)
		}
	}
	slices.Sort(dirs)
	return dirs
}

// loadTogether loads every case that generates files, and whose
// directories no other such case uses, in one module, and returns each
// one's generated files by its file name. It returns none when that load
// fails: the cases are then loaded one by one.
func loadTogether(t *testing.T, cases []goldenCase) map[string]map[string]string {
	t.Helper()
	owner := map[string]string{} // top directory -> case file
	inputs := map[string][]byte{}
	for _, c := range cases {
		dirs := c.topDirs()
		if c.wantsErrors || slices.ContainsFunc(dirs, func(d string) bool { _, taken := owner[d]; return taken }) {
			continue
		}
		for _, d := range dirs {
			owner[d] = c.file
		}
		for name, data := range c.inputs {
			inputs[name] = data
		}
	}
	if len(owner) == 0 {
		return nil
	}
	dir := tempModule(t, inputs)
	res, err := load.Load(load.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true, Env: goEnv()})
	if err != nil {
		t.Logf("loading the cases together failed, so each is loaded alone: %v", err)
		return nil
	}
	out, err := emit.Files(res.Packages)
	if err != nil {
		t.Logf("generating the cases together failed, so each is loaded alone: %v", err)
		return nil
	}
	got := map[string]map[string]string{}
	for _, file := range owner {
		got[file] = map[string]string{}
	}
	for path, src := range out {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		top, _, _ := strings.Cut(rel, "/")
		file, ok := owner[top]
		if !ok {
			t.Fatalf("generated %s, in no case's directory", rel)
		}
		got[file]["want/"+rel] = string(src)
		if err := os.WriteFile(path, src, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	vetGenerated(t, dir)
	return got
}

// generateGolden loads the module in dir and returns what the case holds:
// the generated files (which it also writes into dir) or the errors.
func generateGolden(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	res, err := load.Load(load.Config{Dir: dir, Patterns: []string{"./..."}, Tests: true, Env: goEnv()})
	var list annotations.ErrorList
	switch {
	case errors.As(err, &list):
		var lines []string
		for _, e := range list {
			rel, _ := filepath.Rel(dir, e.Pos.File)
			e.Pos.File = filepath.ToSlash(rel)
			lines = append(lines, e.Error())
		}
		got["errors"] = strings.Join(lines, "\n") + "\n"
	case err != nil:
		t.Fatal(err)
	default:
		out, err := emit.Files(res.Packages)
		if err != nil {
			t.Fatal(err)
		}
		for path, src := range out {
			rel, _ := filepath.Rel(dir, path)
			got["want/"+filepath.ToSlash(rel)] = string(src)
			if err := os.WriteFile(path, src, 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	return got
}

// vetGenerated checks that the generated code compiles with its sources:
// a go vet of the module in dir (the cases loaded together are vetted
// together; its output names the packages), the slow half of the golden
// test, which -short leaves to make test (the comparison with the golden
// files still runs).
func vetGenerated(t *testing.T, dir string) {
	t.Helper()
	if testing.Short() {
		return
	}
	vet := exec.Command("go", "vet", "./...")
	vet.Dir, vet.Env = dir, goEnv()
	if out, err := vet.CombinedOutput(); err != nil {
		t.Errorf("go vet of the generated code: %v\n%s", err, out)
	}
}

// TestGenerated checks that the committed generated files of the fixture
// packages are what toolgen generates now.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the fixture packages with go/packages, seconds; make check covers it too; run without -short")
	}
	root := repoRoot(t)
	res, err := load.Load(load.Config{Dir: root, Patterns: []string{"./gen_test/..."}, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.Files(res.Packages)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("generated %d files, want the echo and kitchen fixtures", len(files))
	}
	for path, src := range files {
		onDisk, _ := os.ReadFile(path)
		if *update {
			if string(onDisk) != string(src) {
				if err := os.WriteFile(path, src, 0o666); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if diff := cmp.Diff(string(src), string(onDisk)); diff != "" {
			t.Errorf("%s is stale; run go generate ./gen_test/... (-generated +on disk):\n%s", path, diff)
		}
		if strings.Contains(string(src), `"reflect"`) {
			t.Errorf("%s imports reflect", path)
		}
		if strings.Contains(string(src), "json.Unmarshal") || strings.Count(string(src), "json.Marshal") > strings.Count(string(src), "json.RawMessage(b)") {
			t.Errorf("%s calls encoding/json beyond json.RawMessage fields", path)
		}
	}
}

// TestDeterministic emits twice and compares byte for byte.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	res, err := load.Load(load.Config{Dir: root, Patterns: []string{"./gen_test/..."}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := emit.Files(res.Packages)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, err := emit.Files(res.Packages)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.EqualFunc(a, b, bytes.Equal) {
			t.Fatal("emit is not deterministic")
		}
	}
}

// TestGeneratedSize holds the generated code to its size: two 10-field
// inputs with a nested struct (testdata/size.txtar, and the mixed
// testdata/size_mixed.txtar: rules, bounds, an enum, defaults, a list, a
// map, optional pointers, time values) in at most 170 lines each, the
// builtin Read tool in at most 80. Before toolimpl the first and Read took
// 646 and 263 lines; before issue 29's second pass over the generated code
// (the prose moved into toolimpl's doc, wire names written once, shared
// element binders, one call per field) 198, 223 and 91.
func TestGeneratedSize(t *testing.T) {
	limits := map[string]int{"size.txtar": 170, "size_mixed.txtar": 170, "builtin/read_toolgen.go": 80}
	sizes := map[string]int{}
	for _, name := range []string{"size.txtar", "size_mixed.txtar"} {
		ar, err := txtar.ParseFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "want/") && strings.HasSuffix(f.Name, "_toolgen.go") {
				sizes[name] = bytes.Count(f.Data, []byte("\n"))
			}
		}
	}
	read, err := os.ReadFile(filepath.Join(repoRoot(t), "builtin", "read_toolgen.go"))
	if err != nil {
		t.Fatal(err)
	}
	sizes["builtin/read_toolgen.go"] = bytes.Count(read, []byte("\n"))
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		n, ok := sizes[name]
		switch limit := limits[name]; {
		case !ok:
			t.Errorf("%s: no generated file; run go test ./gen_test -update", name)
		case n > limit:
			t.Errorf("%s: %d lines, want at most %d", name, n, limit)
		default:
			t.Logf("%s: %d lines (at most %d)", name, n, limit)
		}
	}
}
