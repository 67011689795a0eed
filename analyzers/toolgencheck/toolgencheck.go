package toolgencheck

import (
	_ "embed"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/analyzers/internal/analysisutil"
	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/emit"
	"github.com/toolgen/toolgen/internal/generate"
	"github.com/toolgen/toolgen/internal/load"
	"github.com/toolgen/toolgen/internal/model"
)

//go:embed doc.go
var doc string

// Analyzer reports stale, missing and orphaned generated files.
var Analyzer = &analysis.Analyzer{
	Name:      "toolgencheck",
	Doc:       analysisutil.MustExtractDoc(doc, "toolgencheck"),
	URL:       "https://pkg.go.dev/github.com/toolgen/toolgen/analyzers/toolgencheck",
	Run:       run,
	FactTypes: []analysis.Fact{new(declsFact)},
}

// declsFact is what a package exports for the tools of the packages that
// import it: its module, and the declarations of its struct and
// //tool:enum types (field doc comments become schema descriptions).
type declsFact struct {
	Module string
	Types  []load.TypeDecl // sorted by name
}

func (*declsFact) AFact() {}

func (f *declsFact) String() string {
	return fmt.Sprintf("toolgen declarations (%d types)", len(f.Types))
}

func run(pass *analysis.Pass) (any, error) {
	var hand, generated []*ast.File
	files := map[string]*ast.File{} // by cleaned path
	for _, f := range pass.Files {
		files[filepath.Clean(analysisutil.FileName(pass.Fset, f.Pos()))] = f
		if load.IsGenerated(pass.Fset, f) {
			generated = append(generated, f)
		} else {
			hand = append(hand, f)
		}
	}
	module := ""
	if pass.Module != nil {
		module = pass.Module.Path
	}
	if decls := load.Decls(pass.Fset, pass.Pkg, hand); len(decls) > 0 || module != "" {
		pass.ExportPackageFact(&declsFact{Module: module, Types: decls})
	}
	if len(generated) == 0 && !slices.ContainsFunc(hand, hasDirective) {
		return nil, nil // no tools here
	}
	r := &reporter{pass: pass, files: files}
	unit := load.Unit{Fset: pass.Fset, Pkg: pass.Pkg, Info: pass.TypesInfo, Files: hand, Module: module}
	pkg, notes, err := load.Build(factDeps{pass}, unit)
	for _, e := range notes {
		if pos, ok := r.pos(e.Pos); ok {
			pass.Reportf(pos, "toolgen: %s", e.Msg)
		}
	}
	var list annotations.ErrorList
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			if pos, ok := r.pos(e.Pos); ok {
				pass.Reportf(pos, "toolgen: %s", e.Msg)
			}
		}
		return nil, nil
	case err != nil:
		pass.Reportf(pass.Files[0].Package, "toolgen -check could not run: %v", err)
		return nil, nil
	}
	var pkgs []*model.Package
	if pkg != nil {
		pkgs = append(pkgs, pkg)
	}
	emitted, err := emit.Files(pkgs)
	if err != nil {
		pass.Reportf(pass.Files[0].Package, "toolgen -check could not run: %v", err)
		return nil, nil
	}
	// Compare with the generated files as this pass sees them.
	byPath := map[string][]byte{}
	for path, src := range emitted {
		byPath[filepath.Clean(path)] = src
	}
	var owned []string
	for _, f := range generated {
		owned = append(owned, filepath.Clean(analysisutil.FileName(pass.Fset, f.Pos())))
	}
	read := func(path string) ([]byte, error) {
		if _, ok := files[path]; !ok {
			return nil, fs.ErrNotExist
		}
		if pass.ReadFile != nil {
			return pass.ReadFile(path)
		}
		return os.ReadFile(path)
	}
	changes, err := generate.Diff(byPath, owned, read)
	if err != nil {
		pass.Reportf(pass.Files[0].Package, "toolgen -check could not run: %v", err)
		return nil, nil
	}
	for _, c := range changes {
		r.change(c)
	}
	return nil, nil
}

// factDeps gives the loader other packages' declarations from the facts
// their passes exported.
type factDeps struct{ pass *analysis.Pass }

func (d factDeps) fact(pkg *types.Package) *declsFact {
	var f declsFact
	if pkg == nil || !d.pass.ImportPackageFact(pkg, &f) {
		return nil
	}
	return &f
}

func (d factDeps) Decl(obj *types.TypeName) (load.TypeDecl, bool) {
	if f := d.fact(obj.Pkg()); f != nil {
		return load.FindDecl(f.Types, obj.Name())
	}
	return load.TypeDecl{}, false
}

func (d factDeps) Module(obj types.Object) string {
	if f := d.fact(obj.Pkg()); f != nil {
		return f.Module
	}
	return ""
}

type reporter struct {
	pass  *analysis.Pass
	files map[string]*ast.File
}

// change reports one planned change at the positions that own it.
func (r *reporter) change(c generate.Change) {
	gen := filepath.Clean(c.Path)
	base := filepath.Base(gen)
	if c.Status == generate.Orphaned {
		if f, ok := r.files[gen]; ok {
			r.pass.Reportf(f.Package, "%s is orphaned: its source declares no tools any more; delete it or run go generate", base)
		}
		return
	}
	src := sourceOf(gen)
	f, ok := r.files[src]
	if !ok {
		return // the source belongs to another package variant, which reports it
	}
	what := "is missing"
	var byTool map[string]string // what differs, by tool, when the files could be compared
	if c.Status == generate.Stale {
		what = fmt.Sprintf("is stale (first difference at line %d)", firstDiff(c.Old, c.New))
		if changes := generate.Explain(c.Old, c.New); changes != nil {
			byTool = map[string]string{}
			for _, tc := range changes {
				byTool[tc.Tool] = strings.Join(tc.Changes, "; ")
			}
		}
	}
	for _, at := range toolDecls(f) {
		name := at.name
		if byTool == nil {
			r.pass.Reportf(at.pos, "generated code of tool %s: %s %s; run go generate (or toolgen) and commit the result", name, base, what)
			continue
		}
		// Only the tools whose code differs, with what differs; what no
		// tool owns (the header, the imports) at each of them.
		detail, ok := byTool[name]
		if shared := byTool[""]; shared != "" {
			if ok {
				detail += "; "
			}
			detail, ok = detail+shared, true
		}
		if ok {
			r.pass.Reportf(at.pos, "generated code of tool %s: %s is stale (%s); run go generate (or toolgen) and commit the result", name, base, detail)
		}
	}
}

// A toolDecl is where a tool is declared: the name of its input struct or
// of its function.
type toolDecl struct {
	name string
	pos  token.Pos
}

// toolDecls returns the tools f declares, struct tools at their type's
// name and function tools at their function's, in source order.
func toolDecls(f *ast.File) []toolDecl {
	var out []toolDecl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if name := toolName(d.Doc); name != "" {
				out = append(out, toolDecl{name, d.Name.Pos()})
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, spec := range d.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(d.Specs) == 1 {
					doc = d.Doc
				}
				if name := toolName(doc); name != "" {
					out = append(out, toolDecl{name, ts.Name.Pos()})
				}
			}
		}
	}
	return out
}

// pos maps a position of toolgen's loader into this pass, if it lies in
// one of the pass's files.
func (r *reporter) pos(p annotations.Pos) (token.Pos, bool) {
	f, ok := r.files[filepath.Clean(p.File)]
	if !ok || p.Line < 1 {
		return token.NoPos, false
	}
	tf := r.pass.Fset.File(f.Pos())
	if p.Line > tf.LineCount() {
		return token.NoPos, false
	}
	pos := tf.LineStart(p.Line)
	if p.Col > 1 && int(pos-token.Pos(tf.Base()))+p.Col-1 <= tf.Size() {
		pos += token.Pos(p.Col - 1)
	}
	return pos, true
}

// sourceOf inverts annotations.GeneratedName.
func sourceOf(gen string) string {
	if base, ok := strings.CutSuffix(gen, annotations.GeneratedSuffix+"_test.go"); ok {
		return base + "_test.go"
	}
	return strings.TrimSuffix(gen, annotations.GeneratedSuffix+".go") + ".go"
}

// hasDirective reports whether a comment of f is a //tool: directive.
func hasDirective(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if annotations.IsDirective(c.Text) {
				return true
			}
		}
	}
	return false
}

// toolName returns the name a //tool:name directive in doc declares.
func toolName(doc *ast.CommentGroup) string {
	if doc == nil {
		return ""
	}
	for _, c := range doc.List {
		if rest, ok := strings.CutPrefix(c.Text, annotations.DirectivePrefix+"name"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			if name := strings.TrimSpace(rest); name != "" {
				return name
			}
		}
	}
	return ""
}

// firstDiff returns the first line, counted from 1, where a and b differ.
func firstDiff(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
