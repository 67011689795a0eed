package load

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/annotations"
)

// A TypeDecl is what the loader needs of a named type declared in another
// package: the doc comments of a struct's fields become schema
// descriptions, and a //tool:enum type's constants become an enum.
// It is plain data, so a vet analyzer can carry it from package to package
// as a fact (it encodes with encoding/gob).
type TypeDecl struct {
	Name string // the type's name
	// Src is the declaration as Go source: its doc comment, then
	// "type Name ...", with the fields' comments.
	Src string
	// Enum holds the values of a //tool:enum type's constants in
	// declaration order; nil for other types.
	Enum []string
}

// Deps tells the loader what it needs of the packages a tool's types come
// from, other than the package being built.
type Deps interface {
	// Decl returns the declaration of a package-level named type; false
	// when it is not known, and the type is then bound without
	// descriptions.
	Decl(obj *types.TypeName) (TypeDecl, bool)
	// Module identifies the module that declares obj, as [Unit.Module]
	// identifies the built package's; "" when unknown.
	Module(obj types.Object) string
}

// Decls returns the declarations of the package-level struct types and
// //tool:enum types in files, sorted by name (so that they encode the same
// way each time): what packages importing this one need of it (see
// [Deps]); [FindDecl] finds one. fset holds the files' positions.
func Decls(fset *token.FileSet, pkg *types.Package, files []*ast.File) []TypeDecl {
	var out []TypeDecl
	for _, f := range files {
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := typeDoc(gd, ts)
				d := directivesOf(doc)
				if _, isStruct := ts.Type.(*ast.StructType); !isStruct && !d.Enum {
					continue
				}
				td := TypeDecl{Name: ts.Name.Name, Src: declSource(fset, f, doc, ts)}
				if d.Enum && pkg != nil {
					if obj, ok := pkg.Scope().Lookup(ts.Name.Name).(*types.TypeName); ok {
						if n, ok := obj.Type().(*types.Named); ok {
							td.Enum = enumConsts(fset, n)
						}
					}
				}
				out = append(out, td)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b TypeDecl) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// FindDecl finds the declaration of the type named name in decls, sorted
// as [Decls] returns them.
func FindDecl(decls []TypeDecl, name string) (TypeDecl, bool) {
	i, ok := slices.BinarySearchFunc(decls, name, func(d TypeDecl, name string) int { return strings.Compare(d.Name, name) })
	if !ok {
		return TypeDecl{}, false
	}
	return decls[i], true
}

// directivesOf parses the directives of a doc comment, ignoring mistakes
// (the declaring package reports those).
func directivesOf(g *ast.CommentGroup) annotations.Directives {
	if g == nil {
		return annotations.Directives{}
	}
	lines := make([]annotations.Comment, len(g.List))
	for i, c := range g.List {
		lines[i] = annotations.Comment{Pos: annotations.Pos{Line: i + 1, Col: 1}, Text: c.Text}
	}
	d, _ := annotations.ParseDirectives(lines)
	return d
}

// declSource prints a type spec as a declaration of its own, with its doc
// comment and the comments inside it.
func declSource(fset *token.FileSet, f *ast.File, doc *ast.CommentGroup, ts *ast.TypeSpec) string {
	var b strings.Builder
	if doc != nil {
		for _, c := range doc.List {
			b.WriteString(c.Text)
			b.WriteByte('\n')
		}
	}
	b.WriteString("type ")
	spec := *ts
	spec.Doc, spec.Comment = nil, nil
	if err := printer.Fprint(&b, fset, &printer.CommentedNode{Node: &spec, Comments: f.Comments}); err != nil {
		return ""
	}
	b.WriteByte('\n')
	return b.String()
}

// parseDecl parses a [TypeDecl]'s source into fset and returns its spec
// and doc comment.
func parseDecl(fset *token.FileSet, name string, td TypeDecl) (*ast.File, *ast.GenDecl, *ast.TypeSpec) {
	f, err := parser.ParseFile(fset, name, "package p\n\n"+td.Src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil
	}
	for _, decl := range f.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE && len(gd.Specs) == 1 {
			return f, gd, gd.Specs[0].(*ast.TypeSpec)
		}
	}
	return nil, nil, nil
}

// enumConsts returns the values of the string constants of type n in
// declaration order (by file name, then offset, as fset places them),
// each once.
func enumConsts(fset *token.FileSet, n *types.Named) []string {
	if n.Obj().Pkg() == nil {
		return nil
	}
	scope := n.Obj().Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if k, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(k.Type(), n) && k.Val().Kind() == constant.String {
			consts = append(consts, k)
		}
	}
	slices.SortStableFunc(consts, func(x, y *types.Const) int {
		px, py := fset.Position(x.Pos()), fset.Position(y.Pos())
		if px.Filename != py.Filename {
			return strings.Compare(px.Filename, py.Filename)
		}
		return px.Offset - py.Offset
	})
	var vals []string
	for _, k := range consts {
		v := constant.StringVal(k.Val())
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return vals
}

// diskDeps reads other packages' declarations from their source files on
// disk, found through the positions their export data gives: the
// command's path, where packages are loaded with go/packages.
type diskDeps struct {
	fset    *token.FileSet
	files   map[string]*ast.File // parsed files, by name; nil when unreadable
	other   *token.FileSet       // their positions
	modules map[string]string    // directory → the directory of its go.mod
}

func newDiskDeps(fset *token.FileSet) *diskDeps {
	return &diskDeps{fset: fset, files: map[string]*ast.File{}, other: token.NewFileSet(), modules: map[string]string{}}
}

func (d *diskDeps) Decl(obj *types.TypeName) (TypeDecl, bool) {
	if !obj.Pos().IsValid() {
		return TypeDecl{}, false
	}
	name := d.fset.Position(obj.Pos()).Filename
	f, ok := d.files[name]
	if !ok {
		f, _ = parser.ParseFile(d.other, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		d.files[name] = f
	}
	if f == nil {
		return TypeDecl{}, false
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if ts.Name.Name != obj.Name() {
				continue
			}
			doc := typeDoc(gd, ts)
			td := TypeDecl{Name: obj.Name(), Src: declSource(d.other, f, doc, ts)}
			if n, ok := obj.Type().(*types.Named); ok && directivesOf(doc).Enum {
				td.Enum = enumConsts(d.fset, n)
			}
			return td, true
		}
	}
	return TypeDecl{}, false
}

// Module returns the directory of the go.mod nearest above obj's file.
func (d *diskDeps) Module(obj types.Object) string {
	if !obj.Pos().IsValid() {
		return ""
	}
	file := d.fset.Position(obj.Pos()).Filename
	if !filepath.IsAbs(file) {
		return "" // such as $GOROOT/src/..., from export data
	}
	return d.moduleDir(filepath.Dir(file))
}

// moduleDir returns the directory of the go.mod nearest above dir.
func (d *diskDeps) moduleDir(dir string) string {
	var walked []string
	root := ""
	for {
		if r, ok := d.modules[dir]; ok {
			root = r
			break
		}
		walked = append(walked, dir)
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			root = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	for _, w := range walked {
		d.modules[w] = root
	}
	return root
}
