package closedschema

import (
	_ "embed"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/analyzers/internal/analysisutil"
)

//go:embed doc.go
var doc string

// Analyzer reports hand-written tool schemas that are not closed.
var Analyzer = &analysis.Analyzer{
	Name: "closedschema",
	Doc:  analysisutil.MustExtractDoc(doc, "closedschema"),
	URL:  "https://pkg.go.dev/github.com/toolgen/toolgen/analyzers/closedschema",
	Run:  run,
}

// key is the schema keyword this analyzer is about.
const key = "additionalProperties"

func run(pass *analysis.Pass) (any, error) {
	if analysisutil.FindPackage(pass.Pkg, analysisutil.ToolPkg) == nil {
		return nil, nil // nothing here can build a tool.Definition
	}
	c := &checker{pass: pass, inits: map[*types.Var]ast.Expr{}, sets: map[*types.Var][]ast.Expr{}}
	for _, f := range pass.Files {
		c.collect(f)
	}
	for _, f := range pass.Files {
		if ast.IsGenerated(f) || analysisutil.IsTestFile(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok && analysisutil.IsNamed(pass.TypesInfo.TypeOf(lit), analysisutil.ToolPkg, "Definition") {
				c.definition(lit)
			}
			return true
		})
	}
	return nil, nil
}

type checker struct {
	pass *analysis.Pass
	// inits maps a variable to the expression it is declared with.
	inits map[*types.Var]ast.Expr
	// sets maps a variable to the values assigned to v["additionalProperties"].
	sets map[*types.Var][]ast.Expr
}

// collect records variable initialisers and index assignments of the key.
func (c *checker) collect(f *ast.File) {
	info := c.pass.TypesInfo
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			if len(n.Values) != len(n.Names) {
				return true
			}
			for i, name := range n.Names {
				if v, ok := info.Defs[name].(*types.Var); ok {
					c.inits[v] = n.Values[i]
				}
			}
		case *ast.AssignStmt:
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, lhs := range n.Lhs {
				switch lhs := lhs.(type) {
				case *ast.Ident:
					if v, ok := info.Defs[lhs].(*types.Var); ok && n.Tok == token.DEFINE {
						c.inits[v] = n.Rhs[i]
					}
				case *ast.IndexExpr:
					id, ok := ast.Unparen(lhs.X).(*ast.Ident)
					if !ok || c.stringConst(lhs.Index) != key {
						continue
					}
					if v, ok := info.Uses[id].(*types.Var); ok {
						c.sets[v] = append(c.sets[v], n.Rhs[i])
					}
				}
			}
		}
		return true
	})
}

// definition checks the InputSchema of one tool.Definition literal.
func (c *checker) definition(lit *ast.CompositeLit) {
	schema := c.field(lit, "InputSchema")
	if schema == nil {
		return // no declared arguments
	}
	m, v := c.mapLiteral(schema)
	if m == nil {
		return // not built here: not ours to judge
	}
	val, found := c.lookup(m)
	if !found && v != nil {
		if vals := c.sets[v]; len(vals) > 0 {
			val, found = vals[len(vals)-1], true
		}
	}
	switch {
	case !found:
		// At the use, so a shared schema variable is reported where a
		// tool relies on it.
		c.pass.Reportf(schema.Pos(), "tool input schema does not declare %q: false at its top level; add it so the gate can report unknown parameters", key)
	case !c.isFalse(val):
		c.pass.Reportf(val.Pos(), "tool input schema declares %q but not as the constant false; a hand-written schema must be closed", key)
	}
}

// field returns the value of the named field in a struct literal, keyed or
// positional, or nil.
func (c *checker) field(lit *ast.CompositeLit, name string) ast.Expr {
	st, ok := c.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Struct)
	if !ok {
		if p, ok := c.pass.TypesInfo.TypeOf(lit).(*types.Pointer); ok {
			st, _ = p.Elem().Underlying().(*types.Struct)
		}
	}
	if st == nil {
		return nil
	}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
			continue
		}
		if i < st.NumFields() && st.Field(i).Name() == name {
			return elt
		}
	}
	return nil
}

// mapLiteral returns the map literal e is or, for a variable of this
// package, the literal it is initialised with, and that variable.
func (c *checker) mapLiteral(e ast.Expr) (*ast.CompositeLit, *types.Var) {
	e = ast.Unparen(e)
	var v *types.Var
	if id, ok := e.(*ast.Ident); ok {
		v, _ = c.pass.TypesInfo.Uses[id].(*types.Var)
		if v == nil || c.inits[v] == nil {
			return nil, nil
		}
		e = ast.Unparen(c.inits[v])
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return nil, nil
	}
	if _, ok := c.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Map); !ok {
		return nil, nil
	}
	return lit, v
}

// lookup returns the value of the key in a map literal.
func (c *checker) lookup(m *ast.CompositeLit) (ast.Expr, bool) {
	for _, elt := range m.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if ok && c.stringConst(kv.Key) == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// stringConst returns the value of a constant string expression, or "".
func (c *checker) stringConst(e ast.Expr) string {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	return constant.StringVal(tv.Value)
}

// isFalse reports whether e is the constant false.
func (c *checker) isFalse(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}
