package emit

import (
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/internal/model"
)

// The binder reads the argument bytes once through a toolimpl.Binder: its
// Locate notes where each top-level field's value is (b.Field(i), i the
// field's index among its struct's wire names sorted, as toolimpl.Keys reads
// them from the schema), and each field is then bound in declaration order
// by one call to a toolimpl helper, which words every violation as the
// schema gate does. A struct type the tool binds gets a helper function of
// its own, which reads its object the same way (Binder.Enter); a list or
// map of it takes that function as its element binder.

// binder renders the binder's tables and BindX.
func (g *gen) binder() {
	p, t := g.plan, g.plan.t
	g.tables()
	g.file.Commentf("%s binds the %s tool's arguments (see package toolimpl).", p.bind, t.Name)
	body := []jen.Code{
		jen.Var().Id("out").Id(t.TypeName),
		jen.Id("b").Op(":=").Add(g.impl("NewBinder")).Call(jen.Id("in")),
		jen.Id("b").Dot("Locate").Call(jen.Id(p.keys)),
	}
	body = append(body, g.fields(t.Fields, jen.Op("&").Id("b"))...)
	body = append(body, jen.Return(g.impl("Done").Call(jen.Op("&").Id("b"), jen.Id("out"))))
	g.file.Func().Id(p.bind).Params(jen.Id("in").Add(g.qual(toolPkg, "Input"))).Params(jen.Id(t.TypeName), jen.Error()).Block(body...)
	g.file.Line()
}

// keysDefs returns the definitions of the wire names of the input struct
// and of each struct the binder reaches, read from the input schema: the
// names are written once, in the schema.
func (g *gen) keysDefs() []jen.Code {
	p := g.plan
	defs := []jen.Code{jen.Id(p.keys).Op("=").Add(g.impl("Keys")).Call(jen.Id(p.schema))}
	for _, st := range p.order {
		args := []jen.Code{jen.Id(p.schema)}
		for _, k := range p.helperPath[st.Key] {
			args = append(args, jen.Lit(k))
		}
		defs = append(defs, jen.Id(p.helperKeys[st.Key]).Op("=").Add(g.impl("Keys")).Call(args...))
	}
	return defs
}

// tables renders what the binder reads, built once: the wire names of
// each struct and the rules of the string fields, in one declaration.
func (g *gen) tables() {
	p := g.plan
	rules := g.ruleDefs()
	defs := append(g.keysDefs(), rules...)
	if len(defs) == 1 {
		g.file.Commentf("%s are %s's wire names, from its schema.", p.keys, p.t.TypeName)
		g.file.Var().Add(defs[0])
	} else {
		what := "its structs' wire names (from the schema) and string rules"
		if len(rules) == 0 {
			what = "its structs' wire names (from the schema)"
		}
		g.file.Commentf("What %s reads: %s.", p.bind, what)
		g.file.Var().Defs(defs...)
	}
	g.file.Line()
}

// fields renders the statements binding each field from at[i], with b the
// binder.
func (g *gen) fields(fields []*model.Field, b jen.Code) []jen.Code {
	out := make([]jen.Code, 0, len(fields))
	index := keyIndex(fields)
	for i, f := range fields {
		dst := jen.Id("out")
		for _, sel := range f.GoPath {
			dst = dst.Dot(sel)
		}
		at := jen.Id("b").Dot("Field").Call(jen.Lit(index[i]))
		key := jen.Lit(f.Wire)
		switch {
		case f.Required:
			// Reported missing by RequiredField, an absent value is bound
			// by no helper.
			at = jen.Id("b").Dot("RequiredField").Call(jen.Lit(index[i]), key, jen.Lit(f.Type.JSONType()))
			out = append(out, jen.Add(dst).Op("=").Add(g.bindExpr(f.Type, &f.Constraints, b, at, key)))
		case f.Default != nil:
			if elem, ok := g.sharedElem(f.Type, &f.Constraints); ok {
				out = append(out, jen.Add(dst).Op("=").Add(g.impl("Default")).Call(b, at, key, g.defaultValue(f.Type, f.Default), elem))
				break
			}
			out = append(out, jen.If(jen.Id("v").Op(":=").Add(at), jen.Id("v").Dot("Present").Call()).Block(
				jen.Add(dst).Op("=").Add(g.bindExpr(f.Type, &f.Constraints, b, jen.Id("v"), key)),
			).Else().Block(
				jen.Add(dst.Clone()).Op("=").Add(g.defaultValue(f.Type, f.Default)),
			))
		case f.Type.Kind == model.Pointer:
			if elem, ok := g.sharedElem(f.Type.Elem, &f.Constraints); ok {
				out = append(out, jen.Add(dst).Op("=").Add(g.impl("Optional")).Call(b, at, key, elem))
				break
			}
			out = append(out, jen.If(jen.Id("v").Op(":=").Add(at), jen.Id("v").Dot("Present").Call()).Block(
				jen.Add(dst).Op("=").Add(g.bindExpr(f.Type, &f.Constraints, b, jen.Id("v"), key)),
			))
		default:
			out = append(out, jen.Add(dst).Op("=").Add(g.bindExpr(f.Type, &f.Constraints, b, at, key)))
		}
	}
	return out
}

// helper renders the function binding one struct type.
func (g *gen) helper(st *model.Type) {
	p := g.plan
	name := p.helpers[st.Key]
	what := "a nested object"
	if st.Go.Kind == model.ExprNamed {
		what = article(st.Go.Name) + " " + st.Go.Name
	}
	g.file.Commentf("%s binds %s of the %s tool's input.", name, what, p.t.Name)
	b := jen.Id("b")
	inner := append(g.fields(st.Fields, b), jen.Id("b").Dot("Leave").Call())
	g.file.Func().Id(name).Params(jen.Id("b").Op("*").Add(g.impl("Binder")), jen.Id("v").Add(g.impl("Value")), jen.Id("key").String()).
		Params(jen.Id("out").Add(g.typ(st.Go))).Block(
		jen.If(jen.Id("b").Dot("Enter").Call(jen.Id("v"), jen.Id("key"), jen.Id(p.helperKeys[st.Key]))).Block(inner...),
		jen.Return(jen.Id("out")),
	)
	g.file.Line()
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func (g *gen) impl(name string) *jen.Statement { return g.qual(toolimplPkg, name) }

// bindExpr renders the expression binding the value v at key to t's Go
// type, with b the binder.
func (g *gen) bindExpr(t *model.Type, c *model.Constraints, b, v, key jen.Code) jen.Code {
	args := func(extra ...jen.Code) []jen.Code { return append([]jen.Code{b, v, key}, extra...) }
	typed := func(name string) *jen.Statement { return g.impl(name).Types(g.typ(t.Go)) }
	switch t.Kind {
	case model.Pointer:
		return jen.New(g.bindExpr(t.Elem, c, b, v, key))
	case model.Any:
		return g.impl("Any").Call(v)
	case model.Raw:
		return typed("Raw").Call(args()...)
	case model.Bool:
		return typed("Bool").Call(args()...)
	case model.String:
		return typed("String").Call(args(g.ruleRef(c))...)
	case model.Time, model.Duration:
		name := "Time"
		if t.Kind == model.Duration {
			name = "Duration"
		}
		call := g.impl(name).Call(args(g.ruleRef(c))...)
		if t.Go.Kind == model.ExprNamed && t.Go.Path == "time" {
			return call
		}
		return g.typ(t.Go).Call(call)
	case model.Int, model.Uint, model.Float:
		name, bounds := g.numberHelper(t, c)
		return typed(name).Call(args(bounds...)...)
	case model.Struct:
		return jen.Id(g.plan.helpers[t.Key]).Call(args()...)
	case model.Slice:
		elem := g.elemFunc(t.Elem, itemConstraints(c))
		if c != nil && (c.MinItems != nil || c.MaxItems != nil) {
			lo, hi := 0, -1
			if c.MinItems != nil {
				lo = *c.MinItems
			}
			if c.MaxItems != nil {
				hi = *c.MaxItems
			}
			return g.impl("SliceLen").Call(args(jen.Lit(lo), jen.Lit(hi), elem)...)
		}
		return g.impl("Slice").Call(args(elem)...)
	case model.Array:
		elem := g.elemFunc(t.Elem, itemConstraints(c))
		return g.typ(t.Go).Call(g.impl("Array").Call(args(jen.Lit(int(t.Len)), elem)...))
	case model.Map:
		elem := g.elemFunc(t.Elem, itemConstraints(c))
		var k jen.Code = jen.String()
		if t.KeyType != nil {
			k = g.typ(t.KeyType)
		}
		return g.impl("Map").Types(k).Call(args(elem)...)
	}
	panic("emit: unexpected kind " + t.Kind.String())
}

// itemConstraints are the constraints of a list's or map's elements: the
// field's, without its item counts.
func itemConstraints(c *model.Constraints) *model.Constraints {
	if c == nil {
		return nil
	}
	cc := *c
	cc.MinItems, cc.MaxItems = nil, nil
	return &cc
}

// elemFunc renders the element binder of a list or map: a shared one
// (sharedElem) where there is one, else a function literal.
func (g *gen) elemFunc(t *model.Type, c *model.Constraints) jen.Code {
	if elem, ok := g.sharedElem(t, c); ok {
		return elem
	}
	return jen.Func().Params(jen.Id("b").Op("*").Add(g.impl("Binder")), jen.Id("v").Add(g.impl("Value")), jen.Id("key").String()).Add(g.typ(t.Go)).Block(
		jen.Return(g.bindExpr(t, c, jen.Id("b"), jen.Id("v"), jen.Id("key"))),
	)
}

// sharedElem renders a toolimpl.Elem binding a value of type t under c
// without a function literal of its own: a struct's helper, a toolimpl
// helper that takes no more than the value (toolimpl.Int[int]), or one
// with its rule or bounds given by toolimpl.ElemWith or ElemWithin. It
// reports false for what needs more (a pointer, a list, a map, any, a
// named time type's conversion).
func (g *gen) sharedElem(t *model.Type, c *model.Constraints) (jen.Code, bool) {
	typed := func(name string) *jen.Statement { return g.impl(name).Types(g.typ(t.Go)) }
	switch t.Kind {
	case model.Struct:
		return jen.Id(g.plan.helpers[t.Key]), true
	case model.Bool, model.Raw:
		return typed(upperFirst(t.Kind.String())), true
	case model.String:
		return g.impl("ElemWith").Call(typed("String"), g.ruleRef(c)), true
	case model.Time, model.Duration:
		if t.Go.Kind != model.ExprNamed || t.Go.Path != "time" {
			return nil, false
		}
		return g.impl("ElemWith").Call(g.impl(upperFirst(t.Kind.String())), g.ruleRef(c)), true
	case model.Int, model.Uint, model.Float:
		name, bounds := g.numberHelper(t, c)
		if bounds == nil {
			return typed(name), true
		}
		return g.impl("ElemWithin").Call(append([]jen.Code{typed(name)}, bounds...)...), true
	}
	return nil, false
}

// numberHelper names the toolimpl helper that binds a number of t's kind
// under c (Int, IntIn, IntClamp, Float, FloatIn, FloatClamp) and renders
// the bounds it takes after the value, none for Int and Float: a tag's
// bounds, and for a side the tag leaves open T's own (±math.MaxFloat64 for
// floats).
func (g *gen) numberHelper(t *model.Type, c *model.Constraints) (string, []jen.Code) {
	base := "Int"
	if t.Kind == model.Float {
		base = "Float"
	}
	if c == nil || (c.Min == nil && c.Max == nil) {
		return base, nil
	}
	var lo, hi jen.Code
	if t.Kind == model.Float {
		lo, hi = jen.Op("-").Add(g.qual(mathPkg, "MaxFloat64")), g.qual(mathPkg, "MaxFloat64")
		if c.Min != nil {
			lo = boundLit(t, c.Min.Text)
		}
		if c.Max != nil {
			hi = boundLit(t, c.Max.Text)
		}
	} else {
		lo, hi = g.intBounds(t)
		if c.Min != nil && !(t.Kind == model.Uint && strings.HasPrefix(c.Min.Text, "-")) {
			lo = jen.Op(c.Min.Text)
		}
		if c.Max != nil {
			hi = jen.Op(c.Max.Text)
		}
	}
	if c.Clamp {
		return base + "Clamp", []jen.Code{lo, hi}
	}
	return base + "In", []jen.Code{lo, hi}
}

// intBounds spells the Go type's range: math.MinInt8, math.MaxUint, ...
func (g *gen) intBounds(t *model.Type) (lo, hi jen.Code) {
	bits := ""
	if t.Bits > 0 {
		bits = strconv.Itoa(t.Bits)
	}
	if t.Kind == model.Uint {
		return jen.Lit(0), g.qual(mathPkg, "MaxUint"+bits)
	}
	return g.qual(mathPkg, "MinInt"+bits), g.qual(mathPkg, "MaxInt"+bits)
}

// boundLit renders a float bound written in a tag as a constant.
func boundLit(t *model.Type, text string) *jen.Statement {
	f, _ := strconv.ParseFloat(text, 64)
	return jen.Lit(f)
}

// stringRule is the part of a field's constraints a toolimpl.StringRule
// holds; its key identifies equal rules, which share one variable.
func stringRule(c *model.Constraints) (key string, ok bool) {
	if c == nil || (c.Enum == nil && c.MinLen == nil && c.MaxLen == nil && c.Pattern == "" && c.Format == "") {
		return "", false
	}
	var s strings.Builder
	s.WriteString(strconv.Quote(strings.Join(c.Enum, "\x00")))
	if c.Enum != nil {
		s.WriteString("!")
	}
	for _, n := range []*int{c.MinLen, c.MaxLen} {
		s.WriteString("|")
		if n != nil {
			s.WriteString(strconv.Itoa(*n))
		}
	}
	s.WriteString("|" + strconv.Quote(c.Pattern) + "|" + string(c.Format))
	return s.String(), true
}

// ruleRef is the rule variable of c's string constraints, or nil.
func (g *gen) ruleRef(c *model.Constraints) jen.Code {
	key, ok := stringRule(c)
	if !ok {
		return jen.Nil()
	}
	name, ok := g.plan.rules[key]
	if !ok {
		panic("emit: no rule variable for " + key)
	}
	return jen.Id(name)
}

// ruleDefs returns the definitions of the tool's string rules, each
// built once, in first-use order.
func (g *gen) ruleDefs() []jen.Code {
	p := g.plan
	keys := make([]string, 0, len(p.rules))
	for k := range p.rules {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return p.ruleOrder[keys[i]] < p.ruleOrder[keys[j]] })
	defs := make([]jen.Code, 0, len(keys))
	for _, k := range keys {
		// One line, the fields in StringRule's order.
		c := p.ruleOf[k]
		var fields []jen.Code
		field := func(name string, v jen.Code) { fields = append(fields, jen.Id(name).Op(":").Add(v)) }
		if c.Enum != nil {
			vals := make([]jen.Code, len(c.Enum))
			for i, v := range c.Enum {
				vals[i] = jen.Lit(v)
			}
			field("Enum", jen.Index().String().Values(vals...))
		} else {
			if c.MinLen != nil {
				field("MinLen", jen.New(jen.Lit(*c.MinLen)))
			}
			if c.MaxLen != nil {
				field("MaxLen", jen.New(jen.Lit(*c.MaxLen)))
			}
			if c.Pattern != "" {
				field("Pattern", g.qual(regexpPkg, "MustCompile").Call(jen.Lit(c.Pattern)))
			}
			if c.Format != "" {
				field("Format", jen.Lit(string(c.Format)))
			}
		}
		defs = append(defs, jen.Id(p.rules[k]).Op("=").Op("&").Add(g.impl("StringRule")).Values(fields...))
	}
	return defs
}
