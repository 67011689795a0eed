package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/internal/model"
)

// The raw binder reads the argument bytes through package jsonscan instead
// of a decoded map. It mirrors the map binder statement for statement (the
// value code is the same, see gen.read), so that both report the same
// violations in the same order. The top-level object is read in one pass
// by a jsonscan.Reader, which checks the text as it goes and notes where
// each field's value is (at[i], in field order); the fields are then bound
// in declaration order, as the map binder binds them. Nested objects,
// checked by that pass, are read through their Values the same way.

// rawBinder renders BindXJSON and the bindXJSON it calls.
func (g *gen) rawBinder() {
	p, t := g.plan, g.plan.t
	g.inPtr, g.raw = false, true
	defer func() { g.raw = false }()
	reader := g.qual(jsonscanPkg, "Reader")

	g.file.Commentf("%s binds the JSON arguments of a call to the %s tool to %s %s", p.bindJSON, t.Name, article(t.TypeName), t.TypeName)
	g.file.Comment("straight from the bytes, in one pass: no map, no reflection. It reports")
	g.file.Commentf("what %s reports for the same arguments, in the same order. Bytes", p.bind)
	g.file.Comment("that are not one valid JSON object, or that give a key twice, are")
	g.file.Comment("refused before anything is bound (see package jsonscan).")
	g.file.Func().Id(p.bindJSON).Params(jen.Id("data").Index().Byte()).Params(jen.Id(t.TypeName), jen.Error()).Block(
		jen.Id("r").Op(":=").Add(g.qual(jsonscanPkg, "NewReader")).Call(jen.Id("data")),
		jen.Return(jen.Id(p.rawBind).Call(jen.Op("&").Id("r"))),
	)
	g.file.Line()

	g.file.Commentf("%s binds the object r reads; see %s.", p.rawBind, p.bindJSON)
	body := []jen.Code{
		jen.Var().Id("out").Id(t.TypeName),
		jen.Var().Id("vs").Add(g.qual(schemaPkg, "Violations")),
	}
	readErr := jen.If(jen.Id("err").Op(":=").Id("r").Dot("Err").Call(), jen.Id("err").Op("!=").Nil()).Block(
		jen.Return(jen.Id(t.TypeName).Values(), jen.Id("err")),
	)
	keys := jen.Id("r").Dot("Doc").Call().Dot("Keys").Call()
	if len(t.Fields) == 0 {
		body = append(body,
			jen.For(jen.Id("r").Dot("Next").Call()).Block(),
			readErr,
			jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(keys)).Block(
				g.report("Unknown", jen.Id("k"), jen.Nil()),
			))
	} else {
		body = append(body, g.locateReader(t.Fields)...)
		body = append(body, readErr)
		for i, f := range t.Fields {
			body = append(body, g.rawField(f, i, litPath(f.Wire)))
		}
		body = append(body, jen.If(jen.Id("unknown")).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(keys)).Block(
				jen.Switch(jen.Id("k")).Block(
					jen.Case(wireLits(t.Fields)...),
					jen.Default().Block(g.report("Unknown", jen.Id("k"), jen.Index().String().Values(wireLits(t.Fields)...))),
				),
			),
		))
	}
	body = append(body,
		jen.If(jen.Len(jen.Id("vs")).Op(">").Lit(0)).Block(jen.Return(jen.Id(t.TypeName).Values(), jen.Id("vs"))),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
	g.file.Func().Id(p.rawBind).Params(jen.Id("r").Op("*").Add(reader)).Params(jen.Id(t.TypeName), jen.Error()).Block(body...)
	g.file.Line()
}

// locateReader renders the one pass over the top-level object: the value
// of each field into at, and whether any other key is there.
func (g *gen) locateReader(fields []*model.Field) []jen.Code {
	cases := make([]jen.Code, 0, len(fields)+1)
	for i, f := range fields {
		cases = append(cases, jen.Case(jen.Lit(f.Wire)).Block(jen.Id("at").Index(jen.Lit(i)).Op("=").Id("r").Dot("Value").Call(jen.Id("at").Index(jen.Lit(i)))))
	}
	cases = append(cases, jen.Default().Block(jen.Id("unknown").Op("=").True()))
	return []jen.Code{
		jen.Var().Id("at").Index(jen.Lit(len(fields))).Add(g.qual(jsonscanPkg, "Value")).Comment("the fields' values, in field order"),
		jen.Id("unknown").Op(":=").False(),
		jen.For(jen.Id("r").Dot("Next").Call()).Block(
			jen.Switch(jen.String().Call(jen.Id("r").Dot("Key").Call())).Block(cases...),
		),
	}
}

// locate renders the first pass over a nested object, whose text was
// checked with the top-level one: the value of each field into at, and
// whether any other key is there.
func (g *gen) locate(fields []*model.Field, obj jen.Code) []jen.Code {
	cases := make([]jen.Code, 0, len(fields)+1)
	for i, f := range fields {
		cases = append(cases, jen.Case(jen.Lit(f.Wire)).Block(jen.Id("at").Index(jen.Lit(i)).Op("=").Id("m").Dot("Value").Call()))
	}
	cases = append(cases, jen.Default().Block(jen.Id("unknown").Op("=").True()))
	return []jen.Code{
		jen.Var().Id("at").Index(jen.Lit(len(fields))).Add(g.qual(jsonscanPkg, "Value")).Comment("the fields' values, in field order"),
		jen.Id("unknown").Op(":=").False(),
		jen.For(jen.Id("m").Op(":=").Add(obj).Dot("Members").Call(), jen.Id("m").Dot("Next").Call(), jen.Empty()).Block(
			jen.Switch(jen.String().Call(jen.Id("m").Dot("Key").Call())).Block(cases...),
		),
	}
}

// rawField renders the second pass for field i: bind it, or say what its
// absence means.
func (g *gen) rawField(f *model.Field, i int, p path) jen.Code {
	dst := jen.Id("out")
	for _, sel := range f.GoPath {
		dst = dst.Dot(sel)
	}
	st := jen.If(jen.Id("v").Op(":=").Id("at").Index(jen.Lit(i)), jen.Id("v").Dot("Present").Call()).Block(
		g.value(f.Type, &f.Constraints, "v", assignTo(dst), p, 0)...,
	)
	if absent := g.absent(f, dst, p); absent != nil {
		st = st.Else().Block(absent)
	}
	return st
}

// rawHelper renders the raw binder's function for one struct type.
func (g *gen) rawHelper(st *model.Type) {
	p := g.plan
	g.inPtr, g.raw = true, true
	defer func() { g.raw = false }()
	name := p.rawHelpers[st.Key]
	g.file.Commentf("%s is %s for a value of a JSON document.", name, p.helpers[st.Key])
	body := []jen.Code{
		jen.If(jen.Id("v").Dot("Kind").Call().Op("!=").Add(g.qual(jsonscanPkg, "Object"))).Block(
			g.report("WrongType", jen.Id("path"), jen.Lit("object")),
			jen.Return(jen.Id("out")),
		),
	}
	names := make([]jen.Code, len(st.Fields))
	for i, f := range st.Fields {
		names[i] = jen.Id("path").Op("+").Lit("." + f.Wire)
	}
	unknown := g.report("Unknown", jen.Id("path").Op("+").Lit(".").Op("+").Id("k"), jen.Index().String().Values(names...))
	keys := jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("v").Dot("Keys").Call())
	if len(st.Fields) == 0 {
		body = append(body, keys.Block(unknown))
	} else {
		body = append(body, g.locate(st.Fields, jen.Id("v"))...)
		body = append(body, jen.If(jen.Id("unknown")).Block(
			keys.Block(jen.Switch(jen.Id("k")).Block(jen.Case(wireLits(st.Fields)...), jen.Default().Block(unknown))),
		))
		for i, f := range st.Fields {
			body = append(body, g.rawField(f, i, path{{code: jen.Id("path")}}.plus("."+f.Wire)))
		}
	}
	body = append(body, jen.Return(jen.Id("out")))
	g.file.Func().Id(name).Params(jen.Id("v").Add(g.qual(jsonscanPkg, "Value")), jen.Id("path").String(), jen.Id("vs").Op("*").Add(g.qual(schemaPkg, "Violations"))).
		Params(jen.Id("out").Add(g.typ(st.Go))).Block(body...)
	g.file.Line()
}
