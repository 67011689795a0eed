package gentest

import (
	"bytes"
	"errors"
	"flag"
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
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, file := range cases {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			for _, f := range ar.Files {
				if name, ok := strings.CutPrefix(f.Name, "input/"); ok {
					files[name] = f.Data
				}
			}
			dir := tempModule(t, files)
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
				// The generated code must compile with its sources: a go vet
				// of the module per case, the slow half of this test, which
				// -short leaves to make test (the comparison below still runs).
				if !testing.Short() {
					vet := exec.Command("go", "vet", "./...")
					vet.Dir, vet.Env = dir, goEnv()
					if out, err := vet.CombinedOutput(); err != nil {
						t.Errorf("go vet of the generated code: %v\n%s", err, out)
					}
				}
			}
			want := map[string]string{}
			var kept []txtar.File
			for _, f := range ar.Files {
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
				ar.Files = kept
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: mismatch (-want +got); run go test ./gen_test -update to accept:\n%s", file, diff)
			}
		})
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
		if !cmp.Equal(a, b) {
			t.Fatal("emit is not deterministic")
		}
	}
}

// TestGeneratedSize holds the generated code to its size: a 10-field input
// with one nested struct (testdata/size.txtar) in at most 250 lines, the
// builtin Read tool in at most 100. Before toolimpl they took 646 and 263.
func TestGeneratedSize(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/size.txtar")
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	for _, f := range ar.Files {
		if f.Name == "want/size/size_toolgen.go" {
			sizes["size.txtar"] = bytes.Count(f.Data, []byte("\n"))
		}
	}
	read, err := os.ReadFile(filepath.Join(repoRoot(t), "builtin", "read_toolgen.go"))
	if err != nil {
		t.Fatal(err)
	}
	sizes["builtin/read_toolgen.go"] = bytes.Count(read, []byte("\n"))
	for name, limit := range map[string]int{"size.txtar": 250, "builtin/read_toolgen.go": 100} {
		n, ok := sizes[name]
		switch {
		case !ok:
			t.Errorf("%s: no generated file; run go test ./gen_test -update", name)
		case n > limit:
			t.Errorf("%s: %d lines, want at most %d", name, n, limit)
		default:
			t.Logf("%s: %d lines (at most %d)", name, n, limit)
		}
	}
}
