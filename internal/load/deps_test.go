package load

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checked parses and type-checks one file as package path; imports are
// found among pkgs, then in the standard library's export data.
func checked(t testing.TB, fset *token.FileSet, path, src string, pkgs map[string]*types.Package) (Unit, error) {
	f, err := parser.ParseFile(fset, path+"/x.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return Unit{}, err
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) {
		if pkg, ok := pkgs[p]; ok {
			return pkg, nil
		}
		return importer.Default().Import(p)
	})}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, info)
	return Unit{Fset: fset, Pkg: pkg, Info: info, Files: []*ast.File{f}}, err
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// mapDeps serves declarations as a vet analyzer's facts do.
type mapDeps struct {
	decls  map[string][]TypeDecl // by package path
	module map[string]string
}

func (d mapDeps) Decl(obj *types.TypeName) (TypeDecl, bool) {
	return FindDecl(d.decls[obj.Pkg().Path()], obj.Name())
}

func (d mapDeps) Module(obj types.Object) string { return d.module[obj.Pkg().Path()] }

const shapesSrc = `package shapes

// A Point is a place.
type Point struct {
	// Distance from the left.
	X int ` + "`json:\"x\"`" + `
	Y int ` + "`json:\"y\"`" + ` // Distance from the top.
	// Its unit.
	Unit Unit ` + "`json:\"unit\"`" + `
}

// Unit is a length unit.
//
//tool:enum
type Unit string

const (
	Points Unit = "pt"
	Pixels Unit = "px"
)

type (
	plain int
	// inner is grouped.
	inner struct{ A string }
)
`

func TestDecls(t *testing.T) {
	fset := token.NewFileSet()
	u, err := checked(t, fset, "example.com/shapes", shapesSrc, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []TypeDecl{
		{Name: "Point", Src: "// A Point is a place.\ntype Point struct {\n\t// Distance from the left.\n\tX\tint\t`json:\"x\"`\n\tY\tint\t`json:\"y\"`\t// Distance from the top.\n\t// Its unit.\n\tUnit\tUnit\t`json:\"unit\"`\n}\n"},
		{Name: "Unit", Src: "// Unit is a length unit.\n//\n//tool:enum\ntype Unit string\n", Enum: []string{"pt", "px"}},
		{Name: "inner", Src: "// inner is grouped.\ntype inner struct{ A string }\n"},
	}
	got := Decls(fset, u.Pkg, u.Files)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Decls (-want +got):\n%s", diff)
	}
}

// TestBuildWithDeps builds a tool whose input nests another package's
// struct from type information and that package's declarations alone, as
// the vet analyzer does: the field docs become descriptions and the enum
// type's constants an enum; without the declarations, neither.
func TestBuildWithDeps(t *testing.T) {
	fset := token.NewFileSet()
	shapes, err := checked(t, fset, "example.com/shapes", shapesSrc, nil)
	if err != nil {
		t.Fatal(err)
	}
	use, err := checked(t, fset, "example.com/use", `package use

import "example.com/shapes"

// MoveInput is the input of the Move tool.
//
//tool:name Move
//tool:description Moves to a point.
type MoveInput struct {
	// Where to.
	To shapes.Point `+"`json:\"to\"`"+`
}
`, map[string]*types.Package{"example.com/shapes": shapes.Pkg})
	if err != nil {
		t.Fatal(err)
	}
	use.Module = "example.com"
	type field struct {
		Wire, Description string
		Enum              []string
	}
	summary := func(deps Deps) []field {
		pkg, _, err := Build(deps, use)
		if err != nil {
			t.Fatal(err)
		}
		var out []field
		for _, f := range pkg.Files[0].Tools[0].Fields[0].Type.Fields {
			out = append(out, field{f.Wire, f.Description, f.Type.Enum})
		}
		return out
	}
	deps := mapDeps{
		decls:  map[string][]TypeDecl{"example.com/shapes": Decls(fset, shapes.Pkg, shapes.Files)},
		module: map[string]string{"example.com/shapes": "example.com"},
	}
	tests := []struct {
		name string
		deps Deps
		want []field
	}{
		{"with the declarations", deps, []field{
			{"x", "Distance from the left.", nil},
			{"y", "Distance from the top.", nil},
			{"unit", "Its unit.", []string{"pt", "px"}},
		}},
		{"without them", nil, []field{{"x", "", nil}, {"y", "", nil}, {"unit", "", nil}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, summary(tt.deps)); diff != "" {
				t.Errorf("fields of To (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzDecls checks that every declaration Decls gives parses back as a
// declaration of its type, and prints the same again: what a package's
// fact carries is what its importers read.
func FuzzDecls(f *testing.F) {
	f.Add(shapesSrc)
	f.Add("package p\n\ntype (\n\t// A doc.\n\tA struct{ X int /* c */ }\n)\n")
	f.Add("package p\n\n/* block */\ntype B struct {\n\tY []struct {\n\t\t// inner\n\t\tZ int\n\t}\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		fset := token.NewFileSet()
		u, err := checked(t, fset, "example.com/p", src, nil)
		if err != nil { // facts come from packages that type-check
			return
		}
		for _, d := range Decls(fset, u.Pkg, u.Files) {
			other := token.NewFileSet()
			file, _, ts := parseDecl(other, "decl.go", d)
			if ts == nil {
				t.Fatalf("declaration of %s does not parse back:\n%s", d.Name, d.Src)
			}
			if ts.Name.Name != d.Name {
				t.Fatalf("declaration of %s parses as %s", d.Name, ts.Name.Name)
			}
			// Every comment of the declaration (its doc, its fields')
			// comes back, as go/doc reads it: the printer Decls uses
			// may write "//0" as "// 0" (gofmt's doc comment form), and
			// drops an empty "//" that starts or ends a group, as gofmt
			// does, which say the same.
			var want, got []string
			for _, g := range u.Files[0].Comments {
				if within(g, d.Name, u.Files[0]) {
					want = append(want, groupText(g)...)
				}
			}
			for _, g := range file.Comments {
				got = append(got, groupText(g)...)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("comments of %s once parsed back (-want +got):\n%s\nsource:\n%s", d.Name, diff, d.Src)
			}
		}
	})
}

// groupText is the text of a comment group's comments as go/doc reads
// them, without the empty ones at its start and end.
func groupText(g *ast.CommentGroup) []string {
	var lines []string
	for _, c := range g.List {
		lines = append(lines, commentText(c.Text))
	}
	empty := func(l string) bool { return l == "//" }
	for len(lines) > 0 && empty(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && empty(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// commentText is a comment's text as go/doc reads it: a line comment
// loses its "//" and one space after it, and trailing blanks go.
func commentText(c string) string {
	if rest, ok := strings.CutPrefix(c, "//"); ok {
		c = "//" + strings.TrimPrefix(rest, " ")
	}
	return strings.TrimRight(c, " \t\r")
}

// within reports whether the comment group g is the doc comment of the
// declaration of the type name in f, or lies inside it.
func within(g *ast.CommentGroup, name string, f *ast.File) bool {
	gd, ts := findSpec(f, name)
	if ts == nil {
		return false
	}
	if doc := typeDoc(gd, ts); doc == g {
		return true
	}
	return g.Pos() >= ts.Pos() && g.End() <= ts.End()
}
