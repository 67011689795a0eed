package main

import (
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// update rewrites the scripts' expected files (cmp's second file inside
// each txtar archive) from what the commands produced: go test ./cmd/toolgen -update.
var update = flag.Bool("update", false, "rewrite the expected files in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"toolgen": main})
}

// TestScript drives the command in temporary modules that replace toolgen
// with this repository: generation, idempotence, -check on stale, missing
// and orphaned files, and annotation errors.
func TestScript(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command in temporary modules, several seconds; run without -short")
	}
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TOOLGEN_ROOT", root)
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOWORK", "off")
			for _, k := range []string{"HOME", "GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "PATH"} {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			if os.Getenv("GOMODCACHE") == "" {
				env.Setenv("GOMODCACHE", filepath.Join(os.Getenv("HOME"), "go", "pkg", "mod"))
			}
			gomod := "module example.com/m\n\ngo 1.26\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => " + filepath.ToSlash(root) + "\n"
			if err := os.WriteFile(filepath.Join(env.WorkDir, "go.mod"), []byte(gomod), 0o666); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "go.sum"), sum, 0o666)
		},
	})
}
