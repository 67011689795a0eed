package directexecute

import (
	_ "embed"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/analyzers/internal/analysisutil"
)

//go:embed doc.go
var doc string

// Analyzer reports direct calls of a tool's Execute method.
var Analyzer = &analysis.Analyzer{
	Name: "directexecute",
	Doc:  analysisutil.MustExtractDoc(doc, "directexecute"),
	URL:  "https://pkg.go.dev/github.com/toolgen/toolgen/analyzers/directexecute",
	Run:  run,
}

// allowedPackages may call Execute anywhere; see the package doc for why
// each one is here.
var allowedPackages = map[string]bool{
	analysisutil.ToolPkg: true, // the executor
}

func run(pass *analysis.Pass) (any, error) {
	if allowedPackages[pass.Pkg.Path()] {
		return nil, nil
	}
	toolPkg := analysisutil.FindPackage(pass.Pkg, analysisutil.ToolPkg)
	if toolPkg == nil {
		return nil, nil // no value here can be a tool.Tool
	}
	obj, _ := toolPkg.Scope().Lookup("Tool").(*types.TypeName)
	if obj == nil {
		return nil, nil
	}
	iface, ok := obj.Type().Underlying().(*types.Interface)
	if !ok {
		return nil, nil
	}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) || analysisutil.IsTestFile(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Execute" {
				return true
			}
			s := pass.TypesInfo.Selections[sel]
			if s == nil || (s.Kind() != types.MethodVal && s.Kind() != types.MethodExpr) {
				return true
			}
			if recv := s.Recv(); isTool(recv, iface) {
				pass.Reportf(sel.Sel.Pos(), "direct call of %s.Execute bypasses the executor's permission check and schema gate; run the tool through a tool.Executor (Executor.Execute)", types.TypeString(recv, qualifier(pass.Pkg)))
			}
			return true
		})
	}
	return nil, nil
}

// isTool reports whether t, or a pointer to it, implements tool.Tool (an
// interface that embeds tool.Tool and a type parameter constrained by it
// do too).
func isTool(t types.Type, iface *types.Interface) bool {
	if types.Implements(t, iface) {
		return true
	}
	if _, isPtr := t.(*types.Pointer); isPtr {
		return false
	}
	if types.IsInterface(t) {
		return false
	}
	return types.Implements(types.NewPointer(t), iface)
}

// qualifier writes other packages' types with their package name, as
// source code does.
func qualifier(pkg *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
}
