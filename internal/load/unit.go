package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// A Unit is one type-checked package as the loader reads it: what
// go/packages gives the command, and what a go/analysis pass holds.
type Unit struct {
	Fset *token.FileSet
	Pkg  *types.Package
	// Info must hold Defs for the files' declarations.
	Info *types.Info
	// Files are the package's hand-written files, with comments; leave
	// toolgen's own files out (see [IsGenerated]).
	Files []*ast.File
	// TypeErrors are the package's tolerated type errors, to say why a
	// field's type does not compile.
	TypeErrors []types.Error
	// Module identifies the package's module, as [Deps.Module] identifies
	// other packages': a field whose struct type is declared outside it is
	// reported at the field. "" when unknown.
	Module string
}

// Build builds the model of one package from its units: the package, or
// its variants (the package and the package with its tests), most files
// first. deps supplies what the tools need of other packages; nil means
// nothing is known of them. It returns nil when the package declares no
// tools; annotation mistakes come as an [annotations.ErrorList], and notes
// are the warnings generation goes on without (see [Result.Notes]).
func Build(deps Deps, variants ...Unit) (pkg *model.Package, notes annotations.ErrorList, err error) {
	if len(variants) == 0 {
		return nil, nil, nil
	}
	b := &builder{fset: variants[0].Fset, parsed: map[string]*ast.File{}, deps: deps}
	if deps == nil {
		b.deps = noDeps{}
	}
	for _, u := range variants {
		for _, f := range u.Files {
			b.parsed[b.fset.File(f.Pos()).Name()] = f
		}
	}
	pkg = b.buildPackage(variants)
	b.warns.Sort()
	b.errs.Sort()
	if err := b.errs.Err(); err != nil {
		return pkg, b.warns, err
	}
	return pkg, b.warns, nil
}

type noDeps struct{}

func (noDeps) Decl(*types.TypeName) (TypeDecl, bool) { return TypeDecl{}, false }
func (noDeps) Module(types.Object) string            { return "" }

// IsGenerated reports whether f is a file toolgen wrote: its name has
// toolgen's pattern (see [annotations.GeneratedName]) and it starts with
// toolgen's header.
func IsGenerated(fset *token.FileSet, f *ast.File) bool {
	tf := fset.File(f.Pos())
	if tf == nil || !annotations.IsGeneratedName(filepath.Base(tf.Name())) || len(f.Comments) == 0 {
		return false
	}
	first := f.Comments[0].List[0]
	return first.Pos() < f.Package && strings.HasPrefix(first.Text, annotations.HeaderPrefix) && strings.HasSuffix(first.Text, " DO NOT EDIT.")
}

// declaredNames adds the package-scope names f declares to names: the
// names the generated file's own declarations must not take.
func declaredNames(f *ast.File, names map[string]bool) {
	add := func(id *ast.Ident) {
		if id != nil && id.Name != "_" {
			names[id.Name] = true
		}
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name != "init" {
				add(d.Name)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					add(s.Name)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						add(id)
					}
				}
			}
		}
	}
}
