// Package analysisutil holds what toolvet's analyzers share: the import
// paths they recognise, the extraction of an analyzer's documentation from
// its doc.go, and small predicates over files and types.
package analysisutil

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ToolPkg is the import path of the runtime package that declares
// tool.Tool, tool.Definition, tool.New and tool.NewDynamic.
const ToolPkg = "github.com/toolgen/toolgen/runtime/tool"

// MustExtractDoc returns the section of a doc.go file that starts with the
// heading "# Analyzer name", as an analyzer's Doc: the heading's first
// paragraph becomes the summary line. It panics when the section is
// missing, which is a mistake in this repository, found by any test.
func MustExtractDoc(src, name string) string {
	doc, err := extractDoc(src, name)
	if err != nil {
		panic(err)
	}
	return doc
}

func extractDoc(src, name string) (string, error) {
	heading := "# Analyzer " + name
	var lines []string
	in := false
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if !strings.HasPrefix(line, "//") {
			if in {
				break
			}
			continue
		}
		text := strings.TrimPrefix(strings.TrimPrefix(line, "//"), " ")
		if strings.HasPrefix(line, "//go:") {
			continue
		}
		if strings.HasPrefix(text, "# ") {
			if in {
				break
			}
			in = text == heading
			continue
		}
		if in {
			lines = append(lines, text)
		}
	}
	doc := strings.TrimSpace(strings.Join(lines, "\n"))
	if doc == "" {
		return "", fmt.Errorf("analysisutil: no %q section in doc.go", heading)
	}
	// The summary is the first paragraph, joined into one line.
	summary, rest, _ := strings.Cut(doc, "\n\n")
	summary = strings.Join(strings.Fields(summary), " ")
	if rest == "" {
		return name + ": " + summary, nil
	}
	return name + ": " + summary + "\n\n" + rest, nil
}

// IsTestFile reports whether f is a _test.go file.
func IsTestFile(pass *analysis.Pass, f *ast.File) bool {
	return strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go")
}

// FileName returns the name of the file that holds pos.
func FileName(fset *token.FileSet, pos token.Pos) string {
	if tf := fset.File(pos); tf != nil {
		return tf.Name()
	}
	return ""
}

// FindPackage returns the package with the given import path among pkg
// and its transitive imports, or nil.
func FindPackage(pkg *types.Package, path string) *types.Package {
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package) *types.Package
	walk = func(p *types.Package) *types.Package {
		if p == nil || seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, q := range p.Imports() {
			if found := walk(q); found != nil {
				return found
			}
		}
		return nil
	}
	return walk(pkg)
}

// IsNamed reports whether t (after pointers are removed) is the named
// type pkgPath.name.
func IsNamed(t types.Type, pkgPath, name string) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkgPath
}
