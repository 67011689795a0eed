package toolgencheck

import (
	_ "embed"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/analysis/analysisutil"
	"github.com/toolgen/toolgen/internal/generate"
	"github.com/toolgen/toolgen/internal/load"
)

//go:embed doc.go
var doc string

// Analyzer reports stale, missing and orphaned generated files.
var Analyzer = &analysis.Analyzer{
	Name: "toolgencheck",
	Doc:  analysisutil.MustExtractDoc(doc, "toolgencheck"),
	URL:  "https://pkg.go.dev/github.com/toolgen/toolgen/internal/analysis/toolgencheck",
	Run:  run,
}

func run(pass *analysis.Pass) (any, error) {
	files := map[string]*ast.File{} // by cleaned path
	dir := ""
	for _, f := range pass.Files {
		name := filepath.Clean(analysisutil.FileName(pass.Fset, f.Pos()))
		files[name] = f
		if dir == "" && (hasDirective(f) || isToolgenFile(name, f)) {
			dir = filepath.Dir(name)
		}
	}
	if dir == "" {
		return nil, nil // no tools here: nothing to load
	}
	r := &reporter{pass: pass, files: files}
	plan, err := generate.Run(load.Config{Dir: dir, Patterns: []string{"."}, Tests: true})
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
	for _, c := range plan.Changes {
		r.change(c)
	}
	return nil, nil
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
	if c.Status == generate.Stale {
		what = fmt.Sprintf("is stale (first difference at line %d)", firstDiff(c.Old, c.New))
	}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			if name := toolName(doc); name != "" {
				r.pass.Reportf(ts.Name.Pos(), "generated code of tool %s: %s %s; run go generate (or toolgen) and commit the result", name, base, what)
			}
		}
	}
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

// isToolgenFile reports whether the file was written by toolgen.
func isToolgenFile(name string, f *ast.File) bool {
	if !annotations.IsGeneratedName(filepath.Base(name)) || len(f.Comments) == 0 {
		return false
	}
	first := f.Comments[0].List[0]
	return first.Pos() < f.Package && strings.HasPrefix(first.Text, annotations.HeaderPrefix)
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
