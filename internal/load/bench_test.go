package load

import (
	"go/token"
	"go/types"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkBuild is the analyzer's path: the model of a package whose tool
// nests another package's struct, from type information already checked
// and that package's declarations (as facts carry them).
func BenchmarkBuild(b *testing.B) {
	fset := token.NewFileSet()
	shapes, err := checked(b, fset, "example.com/shapes", shapesSrc, nil)
	if err != nil {
		b.Fatal(err)
	}
	use, err := checked(b, fset, "example.com/use", `package use

import "example.com/shapes"

// MoveInput is the input of the Move tool.
//
//tool:name Move
//tool:description Moves to a point.
type MoveInput struct {
	// Where to.
	To shapes.Point `+"`json:\"to\"`"+`
	// How fast.
	Speed int `+"`json:\"speed\" tool:\"min=1,max=10\"`"+`
}
`, map[string]*types.Package{"example.com/shapes": shapes.Pkg})
	if err != nil {
		b.Fatal(err)
	}
	deps := mapDeps{decls: map[string][]TypeDecl{"example.com/shapes": Decls(fset, shapes.Pkg, shapes.Files)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Build(deps, use); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecls is what every package's pass adds to export its fact.
func BenchmarkDecls(b *testing.B) {
	fset := token.NewFileSet()
	shapes, err := checked(b, fset, "example.com/shapes", shapesSrc, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Decls(fset, shapes.Pkg, shapes.Files)
	}
}

// BenchmarkLoad is the command's path, which the analyzer took before for
// every vetted package with tools: go/packages (a go list and type
// checking) on one package of this repository.
func BenchmarkLoad(b *testing.B) {
	if testing.Short() {
		b.Skip("runs the go command")
	}
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "gen_test", "echo")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(Config{Dir: dir, Tests: true}); err != nil {
			b.Fatal(err)
		}
	}
}
