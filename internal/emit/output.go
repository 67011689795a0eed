package emit

import (
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/internal/model"
)

// An output type's values are sent as JSON that a client holds to the
// output schema, so the schema says what encoding/json writes and the
// generated tool sends nothing else:
//
//   - a pointer that may be nil and is not left out (no omitempty or
//     omitzero) admits null in the schema ("type": ["integer", "null"]):
//     encoding/json writes a nil pointer as null;
//   - a nil slice or map, which encoding/json also writes as null, is sent
//     as [] or {}: the constructor hands toolimpl a fill function that
//     returns a copy of the output with every nil slice and map at every
//     depth made empty, so that the schema's "array" and "object" hold.
//     The function is generated for the output type (the generator knows
//     it), not found by reflection at run time; it copies what it changes
//     below a pointer, slice or map instead of writing into the value run
//     returned.

// takeNullable returns and clears the one-shot flag that the schema being
// rendered admits null.
func (g *gen) takeNullable() bool {
	n := g.nullable
	g.nullable = false
	return n
}

// typeValue is a schema's "type": typ, or [typ, "null"].
func (g *gen) typeValue(typ string, nullable bool) jen.Code {
	if nullable {
		return jen.Index().String().Values(jen.Lit(typ), jen.Lit("null"))
	}
	return jen.Lit(typ)
}

// needsFill reports whether a value of type t can hold a nil slice or map.
func needsFill(t *model.Type, memo map[*model.Type]bool) bool {
	if v, ok := memo[t]; ok {
		return v
	}
	var v bool
	switch t.Kind {
	case model.Slice, model.Map:
		v = true
	case model.Array, model.Pointer:
		v = needsFill(t.Elem, memo)
	case model.Struct:
		for _, f := range t.Fields {
			if fieldNeedsFill(f, memo) {
				v = true
				break
			}
		}
	}
	memo[t] = v
	return v
}

// fieldNeedsFill is needsFill for a struct's field: a nil slice or map the
// json tag leaves out (omitempty, omitzero) is never sent as null, so only
// its elements may need filling.
func fieldNeedsFill(f *model.Field, memo map[*model.Type]bool) bool {
	if f.OmitEmpty && (f.Type.Kind == model.Slice || f.Type.Kind == model.Map) {
		return needsFill(f.Type.Elem, memo)
	}
	return needsFill(f.Type, memo)
}

// planFills names the fill functions of a tool's output: one for the
// output type and one for each struct type within it that can hold a nil
// slice or map. It leaves p.fill empty when nothing can.
func planFills(n *namer, p *toolPlan) {
	out := p.t.Output
	if out == nil {
		return
	}
	p.fillMemo = map[*model.Type]bool{}
	root := &model.Type{Kind: model.Struct, Fields: out.Fields}
	if !needsFill(root, p.fillMemo) {
		return
	}
	p.fill = n.unique("fill" + out.TypeName)
	p.fills = map[string]string{}
	var walk func(t *model.Type)
	walk = func(t *model.Type) {
		switch t.Kind {
		case model.Slice, model.Map, model.Array, model.Pointer:
			walk(t.Elem)
		case model.Struct:
			if !needsFill(t, p.fillMemo) {
				return
			}
			if _, ok := p.fills[t.Key]; ok {
				return
			}
			name := "Struct"
			if t.Go != nil && t.Go.Kind == model.ExprNamed {
				name = t.Go.Name
			}
			p.fills[t.Key] = n.unique("fill" + out.TypeName + upperFirst(name))
			p.fillOrder = append(p.fillOrder, t)
			for _, f := range t.Fields {
				walk(f.Type)
			}
		}
	}
	for _, f := range out.Fields {
		walk(f.Type)
	}
}

// fillFuncs renders the fill functions planned for the tool's output.
func (g *gen) fillFuncs() {
	p := g.plan
	if p.fill == "" {
		return
	}
	out := p.t.Output
	g.file.Commentf("%s returns v with every nil slice and map made empty (see package toolimpl).", p.fill)
	g.fillFunc(p.fill, jen.Id(out.TypeName), out.Fields)
	for _, t := range p.fillOrder {
		g.file.Commentf("%s is %s for a nested %s.", p.fills[t.Key], p.fill, fillTypeName(t))
		g.fillFunc(p.fills[t.Key], g.typ(t.Go), t.Fields)
	}
}

func fillTypeName(t *model.Type) string {
	if t.Go != nil && t.Go.Kind == model.ExprNamed {
		return t.Go.Name
	}
	return "struct"
}

func (g *gen) fillFunc(name string, typ jen.Code, fields []*model.Field) {
	var body []jen.Code
	for _, f := range fields {
		if !fieldNeedsFill(f, g.plan.fillMemo) {
			continue
		}
		dst := jen.Id("v")
		for _, sel := range f.GoPath {
			dst = dst.Dot(sel)
		}
		body = append(body, g.fillStmts(dst, f.Type, 0)...)
	}
	body = append(body, jen.Return(jen.Id("v")))
	g.file.Func().Id(name).Params(jen.Id("v").Add(typ)).Add(typ).Block(body...)
	g.file.Line()
}

// fillStmts renders the statements that make x, an assignable value of
// type t, hold no nil slice or map; depth numbers the locals of nested
// loops.
func (g *gen) fillStmts(x *jen.Statement, t *model.Type, depth int) []jen.Code {
	memo := g.plan.fillMemo
	if !needsFill(t, memo) {
		return nil
	}
	d := strconv.Itoa(depth)
	c, i, e := jen.Id("c"+d), jen.Id("i"+d), jen.Id("e"+d)
	switch t.Kind {
	case model.Slice, model.Map:
		empty := jen.If(x.Clone().Op("==").Nil()).Block(x.Clone().Op("=").Add(g.typ(t.Go)).Values())
		inner := g.fillStmts(e.Clone(), t.Elem, depth+1)
		if len(inner) == 0 {
			return []jen.Code{empty}
		}
		key := i.Clone()
		if t.Kind == model.Map {
			key = jen.Id("k" + d)
		}
		loop := append(inner, c.Clone().Index(key.Clone()).Op("=").Add(e.Clone()))
		return []jen.Code{empty.Else().Block(
			c.Clone().Op(":=").Make(g.typ(t.Go), jen.Len(x.Clone())),
			jen.For(jen.List(key.Clone(), e.Clone()).Op(":=").Range().Add(x.Clone())).Block(loop...),
			x.Clone().Op("=").Add(c.Clone()),
		)}
	case model.Array:
		return []jen.Code{jen.For(i.Clone().Op(":=").Range().Add(x.Clone())).Block(
			g.fillStmts(x.Clone().Index(i.Clone()), t.Elem, depth+1)...,
		)}
	case model.Pointer:
		inner := g.fillStmts(c.Clone(), t.Elem, depth+1)
		return []jen.Code{jen.If(x.Clone().Op("!=").Nil()).Block(append(append(
			[]jen.Code{c.Clone().Op(":=").Op("*").Add(x.Clone())}, inner...),
			x.Clone().Op("=").Op("&").Add(c.Clone()))...,
		)}
	case model.Struct:
		return []jen.Code{x.Clone().Op("=").Id(g.plan.fills[t.Key]).Call(x.Clone())}
	}
	return nil
}
