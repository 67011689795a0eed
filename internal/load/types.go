package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// typeOf builds the bound type of a field or element. It reports an
// unsupported type at pos, naming the field by its Go name, and returns nil. expr is the syntax of the type
// when known (for the doc comments of anonymous struct fields).
func (b *builder) typeOf(c *ctx, t types.Type, expr ast.Expr, pos annotations.Pos, name string) *model.Type {
	for {
		p, ok := expr.(*ast.ParenExpr)
		if !ok {
			break
		}
		expr = p.X
	}
	t = types.Unalias(t)
	out := b.shape(c, t, expr, pos, name)
	if out == nil {
		return nil
	}
	goExpr, spellErr := b.exprOf(c, t)
	if spellErr != "" {
		b.errs.Add(pos, "field %s: type %s cannot be named in package %s (%s): the generated code must name it; use an exported type declared at package level", name, typeName(c, t), c.pkg.Name(), spellErr)
		return nil
	}
	out.Go = goExpr
	return out
}

// shape builds the bound type of t without its Go spelling.
func (b *builder) shape(c *ctx, t types.Type, expr ast.Expr, pos annotations.Pos, name string) *model.Type {
	out := &model.Type{}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "time.Time":
			out.Kind = model.Time
			return out
		case "time.Duration":
			out.Kind = model.Duration
			return out
		case "encoding/json.RawMessage":
			out.Kind = model.Raw
			return out
		}
		if m := unmarshaler(n); m != "" {
			b.errs.Add(pos, "field %s: type %s implements %s; toolgen binds without reflection and cannot call it: use json.RawMessage and decode it in the tool", name, typeName(c, n), m)
			return nil
		}
	}
	unsupported := func(what string) *model.Type {
		b.errs.Add(pos, "field %s: unsupported type %s (%s); supported are string, bool, integer and float kinds, pointers, slices, arrays, map[string]T, structs, json.RawMessage, any, time.Time and time.Duration", name, typeName(c, t), what)
		return nil
	}
	if t == types.Typ[types.Invalid] {
		b.errs.Add(pos, "field %s: %s", name, b.invalidType(c, expr))
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		switch {
		case info&types.IsString != 0:
			out.Kind = model.String
			if n, ok := t.(*types.Named); ok {
				var marked bool
				out.Enum, marked = b.enumValues(n)
				if marked && len(out.Enum) == 0 {
					b.errs.Add(pos, "field %s: type %s is marked //tool:enum but declares no constants of that type", name, typeName(c, n))
					return nil
				}
			}
		case info&types.IsBoolean != 0:
			out.Kind = model.Bool
		case info&types.IsComplex != 0:
			return unsupported("complex numbers have no JSON form")
		case info&types.IsFloat != 0:
			out.Kind = model.Float
			out.Bits = 64
			if u.Kind() == types.Float32 {
				out.Bits = 32
			}
		case info&types.IsInteger != 0:
			out.Kind = model.Int
			if info&types.IsUnsigned != 0 {
				out.Kind = model.Uint
			}
			switch u.Kind() {
			case types.Int8, types.Uint8:
				out.Bits = 8
			case types.Int16, types.Uint16:
				out.Bits = 16
			case types.Int32, types.Uint32:
				out.Bits = 32
			case types.Int64, types.Uint64:
				out.Bits = 64
			case types.Uintptr:
				return unsupported("uintptr is not a value")
			}
		default:
			return unsupported("not a value type")
		}
	case *types.Pointer:
		out.Kind = model.Pointer
		var ex ast.Expr
		if s, ok := expr.(*ast.StarExpr); ok {
			ex = s.X
		}
		if out.Elem = b.typeOf(c, u.Elem(), ex, pos, name); out.Elem == nil {
			return nil
		}
	case *types.Slice, *types.Array:
		var elem types.Type
		if s, ok := u.(*types.Slice); ok {
			out.Kind = model.Slice
			elem = s.Elem()
		} else {
			a := u.(*types.Array)
			out.Kind = model.Array
			out.Len = a.Len()
			elem = a.Elem()
		}
		if e, ok := types.Unalias(elem).(*types.Basic); ok && e.Kind() == types.Uint8 {
			return unsupported("bytes have no single JSON form: use string, or json.RawMessage for raw JSON")
		}
		var ex ast.Expr
		if a, ok := expr.(*ast.ArrayType); ok {
			ex = a.Elt
		}
		if out.Elem = b.typeOf(c, elem, ex, pos, name); out.Elem == nil {
			return nil
		}
	case *types.Map:
		if !isStringType(u.Key()) {
			return unsupported("map keys must be strings")
		}
		out.Kind = model.Map
		out.KeyType, _ = b.exprOf(c, types.Unalias(u.Key()))
		var ex ast.Expr
		if m, ok := expr.(*ast.MapType); ok {
			ex = m.Value
		}
		if out.Elem = b.typeOf(c, u.Elem(), ex, pos, name); out.Elem == nil {
			return nil
		}
	case *types.Struct:
		out.Kind = model.Struct
		out.Key = types.TypeString(t, nil)
		if n, ok := t.(*types.Named); ok {
			if !b.enter(c, n, pos) {
				return nil
			}
			use := b.useOutside(c, n, pos, name)
			sx := b.structSyntax(n)
			out.Fields = b.fields(c, u, sx, nil)
			b.endOutside(c, use)
			c.stack = c.stack[:len(c.stack)-1]
		} else {
			sx, _ := expr.(*ast.StructType)
			out.Fields = b.fields(c, u, sx, nil)
		}
	case *types.Interface:
		if !u.Empty() {
			return unsupported("only the empty interface, any, is accepted")
		}
		out.Kind = model.Any
	case *types.Chan:
		return unsupported("channels have no JSON form")
	case *types.Signature:
		return unsupported("functions have no JSON form")
	default:
		return unsupported("no JSON form")
	}
	return out
}

// unmarshaler names the decoding interface a named type implements, if any.
func unmarshaler(n *types.Named) string {
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := range ms.Len() {
		switch ms.At(i).Obj().Name() {
		case "UnmarshalJSON":
			return "json.Unmarshaler"
		case "UnmarshalText":
			return "encoding.TextUnmarshaler"
		}
	}
	return ""
}

// exprOf spells a type for the emitter. It returns a reason when the type
// cannot be written in the generated file's package.
func (b *builder) exprOf(c *ctx, t types.Type) (*model.TypeExpr, string) {
	t = types.Unalias(t)
	switch u := t.(type) {
	case *types.Basic:
		return &model.TypeExpr{Kind: model.ExprNamed, Name: u.Name()}, ""
	case *types.Named:
		obj := u.Obj()
		e := &model.TypeExpr{Kind: model.ExprNamed, Name: obj.Name()}
		if obj.Pkg() != nil {
			e.Path = obj.Pkg().Path()
			e.Pkg = obj.Pkg().Name()
			if obj.Pkg() != c.pkg && !obj.Exported() {
				return nil, obj.Name() + " is unexported in " + obj.Pkg().Path()
			}
		}
		if obj.Pkg() != nil && obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() {
			return nil, obj.Name() + " is declared inside a function"
		}
		for i := range u.TypeArgs().Len() {
			a, why := b.exprOf(c, u.TypeArgs().At(i))
			if why != "" {
				return nil, why
			}
			e.Args = append(e.Args, a)
		}
		return e, ""
	case *types.Pointer:
		el, why := b.exprOf(c, u.Elem())
		return &model.TypeExpr{Kind: model.ExprPointer, Elem: el}, why
	case *types.Slice:
		el, why := b.exprOf(c, u.Elem())
		return &model.TypeExpr{Kind: model.ExprSlice, Elem: el}, why
	case *types.Array:
		el, why := b.exprOf(c, u.Elem())
		return &model.TypeExpr{Kind: model.ExprArray, Elem: el, Len: u.Len()}, why
	case *types.Map:
		k, why := b.exprOf(c, u.Key())
		if why != "" {
			return nil, why
		}
		el, why := b.exprOf(c, u.Elem())
		return &model.TypeExpr{Kind: model.ExprMap, Key: k, Elem: el}, why
	case *types.Struct:
		e := &model.TypeExpr{Kind: model.ExprStruct}
		for i := range u.NumFields() {
			f := u.Field(i)
			ft, why := b.exprOf(c, f.Type())
			if why != "" {
				return nil, why
			}
			if !f.Exported() && f.Pkg() != c.pkg {
				return nil, "field " + f.Name() + " is unexported in " + f.Pkg().Path()
			}
			e.Fields = append(e.Fields, model.StructField{Name: f.Name(), Embedded: f.Embedded(), Type: ft, Tag: u.Tag(i)})
		}
		return e, ""
	case *types.Interface:
		if u.Empty() {
			return &model.TypeExpr{Kind: model.ExprInterface}, ""
		}
		return nil, "a non-empty interface literal"
	}
	return nil, "a " + strconv.Quote(types.TypeString(t, nil)) + " type"
}

// addGuard adds the named struct type n to the tool's guards, once: its
// fields as declared, bound or not, or, when some cannot be named in the
// generated file's package, the exported ones that can (Partial).
func (b *builder) addGuard(c *ctx, n *types.Named) {
	for _, g := range c.guarded {
		if types.Identical(g, n) {
			return
		}
	}
	c.guarded = append(c.guarded, n)
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return
	}
	name, why := b.exprOf(c, n)
	if why != "" {
		return
	}
	g := model.Guard{Type: name, Fields: make([]model.GuardField, 0, st.NumFields())}
	for i := range st.NumFields() {
		f := st.Field(i)
		e, why := b.exprOf(c, f.Type())
		if why != "" || !f.Exported() && f.Pkg() != c.pkg {
			g.Partial = true
			continue
		}
		g.Fields = append(g.Fields, model.GuardField{Name: f.Name(), Embedded: f.Embedded(), Type: e})
	}
	if g.Partial && n.Obj().Pkg() != c.pkg {
		// Only what a selector can reach from outside is kept.
		g.Fields = slices.DeleteFunc(g.Fields, func(f model.GuardField) bool { return !token.IsExported(f.Name) })
		if len(g.Fields) == 0 {
			return
		}
	}
	c.guards = append(c.guards, g)
}
