package emit

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// A path is the expression of a parameter's name in a violation: constant
// parts and expressions (an index, a map key), joined with +.
type path []pathPart

type pathPart struct {
	lit  string
	code jen.Code
}

func litPath(s string) path { return path{{lit: s}} }

func (p path) plus(lit string) path {
	out := append(path(nil), p...)
	if n := len(out); n > 0 && out[n-1].code == nil {
		out[n-1].lit += lit
		return out
	}
	return append(out, pathPart{lit: lit})
}

func (p path) plusCode(c jen.Code) path {
	return append(append(path(nil), p...), pathPart{code: c})
}

func (p path) code() jen.Code {
	var s *jen.Statement
	for _, part := range p {
		var c jen.Code = part.code
		if part.code == nil {
			if part.lit == "" {
				continue
			}
			c = jen.Lit(part.lit)
		}
		if s == nil {
			s = jen.Add(c)
		} else {
			s = s.Op("+").Add(c)
		}
	}
	if s == nil {
		return jen.Lit("")
	}
	return s
}

// report appends a violation made by the schema constructor name.
func (g *gen) report(name string, args ...jen.Code) jen.Code {
	v := g.qual(schemaPkg, name).Call(args...)
	if g.inPtr {
		return jen.Op("*").Id("vs").Op("=").Append(jen.Op("*").Id("vs"), v)
	}
	return jen.Id("vs").Op("=").Append(jen.Id("vs"), v)
}

func (g *gen) vsRef() jen.Code {
	if g.inPtr {
		return jen.Id("vs")
	}
	return jen.Op("&").Id("vs")
}

// binder renders BindX.
func (g *gen) binder() {
	p, t := g.plan, g.plan.t
	g.inPtr = false
	g.file.Commentf("%s binds the arguments of a call to the %s tool to %s %s.", p.bind, t.Name, article(t.TypeName), t.TypeName)
	g.file.Comment("It applies defaults, checks every constraint and reports all violations")
	g.file.Comment("at once as a schema.Violations error, worded as the schema gate words them;")
	g.file.Comment("unknown parameters are violations too.")
	body := []jen.Code{
		jen.Var().Id("out").Id(t.TypeName),
		jen.Var().Id("vs").Qual(schemaPkg, "Violations"),
		jen.Id("seen").Op(":=").Lit(0),
	}
	g.qual(schemaPkg, "Violations")
	for _, f := range t.Fields {
		dst := jen.Id("out")
		for _, sel := range f.GoPath {
			dst = dst.Dot(sel)
		}
		st := jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Id("in").Dot("Get").Call(jen.Lit(f.Wire)), jen.Id("ok")).Block(
			append([]jen.Code{jen.Id("seen").Op("++")}, g.value(f.Type, &f.Constraints, "v", assignTo(dst), litPath(f.Wire), 0)...)...,
		)
		if absent := g.absent(f, dst, litPath(f.Wire)); absent != nil {
			st = st.Else().Block(absent)
		}
		body = append(body, st)
	}
	body = append(body,
		jen.If(jen.Id("in").Dot("Len").Call().Op(">").Id("seen")).Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("in").Dot("Keys").Call()).Block(
				jen.Switch(jen.Id("k")).Block(
					jen.Case(wireLits(t.Fields)...),
					jen.Default().Block(g.report("Unknown", jen.Id("k"), jen.Index().String().Values(wireLits(t.Fields)...))),
				),
			),
		),
		jen.If(jen.Len(jen.Id("vs")).Op(">").Lit(0)).Block(
			jen.Return(jen.Id(t.TypeName).Values(), jen.Id("vs")),
		),
		jen.Return(jen.Id("out"), jen.Nil()),
	)
	if len(t.Fields) == 0 {
		body[len(body)-3] = jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("in").Dot("Keys").Call()).Block(
			g.report("Unknown", jen.Id("k"), jen.Nil()),
		)
		body = append(body[:2], body[3:]...)
	}
	g.file.Func().Id(p.bind).Params(jen.Id("in").Add(g.qual(toolPkg, "Input"))).Params(jen.Id(t.TypeName), jen.Error()).Block(body...)
	g.file.Line()
}

func wireLits(fields []*model.Field) []jen.Code {
	out := make([]jen.Code, len(fields))
	for i, f := range fields {
		out[i] = jen.Lit(f.Wire)
	}
	return out
}

// absent renders what happens when a field is not given: a required
// violation, a default, or nothing.
func (g *gen) absent(f *model.Field, dst *jen.Statement, p path) jen.Code {
	switch {
	case f.Required:
		return g.report("Required", p.code(), jen.Lit(f.Type.JSONType()))
	case f.Default != nil:
		return jen.Add(dst.Clone()).Op("=").Add(g.defaultValue(f.Type, f.Default))
	}
	return nil
}

func assignTo(dst *jen.Statement) func(jen.Code) jen.Code {
	return func(v jen.Code) jen.Code { return jen.Add(dst.Clone()).Op("=").Add(v) }
}

// helper renders the function binding one struct type.
func (g *gen) helper(st *model.Type) {
	p := g.plan
	name := p.helpers[st.Key]
	g.inPtr = true
	what := "a nested object"
	if st.Go.Kind == model.ExprNamed {
		what = article(st.Go.Name) + " " + st.Go.Name
	}
	g.file.Commentf("%s binds %s of the %s tool's input at path,", name, what, p.t.Name)
	g.file.Comment("adding what is wrong to vs.")
	body := []jen.Code{
		jen.List(jen.Id("obj"), jen.Id("ok")).Op(":=").Id("v").Assert(jen.Map(jen.String()).Any()),
		jen.If(jen.Op("!").Id("ok")).Block(
			g.report("WrongType", jen.Id("path"), jen.Lit("object")),
			jen.Return(jen.Id("out")),
		),
	}
	var known []jen.Code
	for _, f := range st.Fields {
		known = append(known, jen.Lit(f.Wire))
	}
	names := make([]jen.Code, len(st.Fields))
	for i, f := range st.Fields {
		names[i] = jen.Id("path").Op("+").Lit("." + f.Wire)
	}
	unknown := g.report("Unknown", jen.Id("path").Op("+").Lit(".").Op("+").Id("k"), jen.Index().String().Values(names...))
	var sw jen.Code
	if len(known) > 0 {
		sw = jen.Switch(jen.Id("k")).Block(jen.Case(known...), jen.Default().Block(unknown))
	} else {
		sw = unknown
	}
	body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Add(g.qual(slicesPkg, "Sorted")).Call(g.qual(mapsPkg, "Keys").Call(jen.Id("obj")))).Block(sw))
	for _, f := range st.Fields {
		dst := jen.Id("out")
		for _, sel := range f.GoPath {
			dst = dst.Dot(sel)
		}
		fp := path{{code: jen.Id("path")}}.plus("." + f.Wire)
		s := jen.If(jen.Id("v").Op(":=").Id("obj").Index(jen.Lit(f.Wire)), jen.Id("v").Op("!=").Nil()).Block(
			g.value(f.Type, &f.Constraints, "v", assignTo(dst), fp, 0)...,
		)
		if absent := g.absent(f, dst, fp); absent != nil {
			s = s.Else().Block(absent)
		}
		body = append(body, s)
	}
	body = append(body, jen.Return(jen.Id("out")))
	g.file.Func().Id(name).Params(jen.Id("v").Any(), jen.Id("path").String(), jen.Id("vs").Op("*").Add(g.qual(schemaPkg, "Violations"))).
		Params(jen.Id("out").Add(g.typ(st.Go))).Block(body...)
	g.file.Line()
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func suffix(depth int) string {
	if depth == 0 {
		return ""
	}
	return strconv.Itoa(depth + 1)
}

// value renders the statements that bind the any-typed variable src to a
// Go value of type t, handing it to set, or report at p.
func (g *gen) value(t *model.Type, c *model.Constraints, src string, set func(jen.Code) jen.Code, p path, depth int) []jen.Code {
	pc := p.code()
	switch t.Kind {
	case model.Pointer:
		return g.value(t.Elem, c, src, func(v jen.Code) jen.Code { return set(jen.New(v)) }, p, depth)
	case model.Any:
		if g.raw {
			return []jen.Code{set(jen.Id(src).Dot("Decode").Call())}
		}
		return []jen.Code{set(jen.Id(src))}
	case model.Raw:
		// The value is already decoded; re-encoding this one value is the
		// only way to hand its JSON to the tool. The raw binder re-encodes
		// too, so that both binders hand the tool the same bytes.
		var decoded jen.Code = jen.Id(src)
		if g.raw {
			decoded = jen.Id(src).Dot("Decode").Call()
		}
		return []jen.Code{
			jen.If(jen.List(jen.Id("b"), jen.Id("err")).Op(":=").Add(g.qual(jsonPkg, "Marshal")).Call(decoded), jen.Id("err").Op("!=").Nil()).Block(
				g.report("Invalid", pc, jen.Lit("cannot be encoded as JSON")),
			).Else().Block(set(g.typ(t.Go).Call(jen.Id("b")))),
		}
	case model.Bool:
		return []jen.Code{
			jen.If(jen.List(jen.Id("b"), jen.Id("ok")).Op(":=").Add(g.read(src, "AsBool", "Bool")), jen.Id("ok")).Block(
				set(g.convert(t, jen.Id("b"), "bool")),
			).Else().Block(g.report("WrongType", pc, jen.Lit("boolean"))),
		}
	case model.String, model.Time, model.Duration:
		return g.stringValue(t, c, src, set, p)
	case model.Int, model.Uint, model.Float:
		return g.numberValue(t, c, src, set, p)
	case model.Struct:
		return []jen.Code{set(jen.Id(g.helperName(t)).Call(jen.Id(src), pc, g.vsRef()))}
	case model.Slice, model.Array:
		return g.listValue(t, c, src, set, p, depth)
	case model.Map:
		return g.mapValue(t, c, src, set, p, depth)
	}
	panic("emit: unexpected kind " + t.Kind.String())
}

// convert converts v (of the predeclared type base) to t's Go type when
// they differ.
func (g *gen) convert(t *model.Type, v jen.Code, base string) jen.Code {
	if t.Go.Kind == model.ExprNamed && t.Go.Path == "" && t.Go.Name == base {
		return v
	}
	return g.typ(t.Go).Call(v)
}

func (g *gen) stringValue(t *model.Type, c *model.Constraints, src string, set func(jen.Code) jen.Code, p path) []jen.Code {
	pc := p.code()
	head := jen.If(jen.List(jen.Id("s"), jen.Id("ok")).Op(":=").Add(g.read(src, "AsString", "String")), jen.Op("!").Id("ok")).Block(
		g.report("WrongType", pc, jen.Lit("string")),
	)
	if c != nil && c.Enum != nil {
		vals := make([]jen.Code, len(c.Enum))
		for i, v := range c.Enum {
			vals[i] = jen.Lit(v)
		}
		return []jen.Code{head.Else().Block(
			jen.Switch(jen.Id("s")).Block(
				jen.Case(vals...).Block(set(g.convert(t, jen.Id("s"), "string"))),
				jen.Default().Block(g.report("NotInEnum", pc, jen.Index().String().Values(vals...), jen.Id("s"))),
			),
		)}
	}
	st := head
	if c != nil {
		if c.MinLen != nil {
			st = st.Else().If(g.qual(utf8Pkg, "RuneCountInString").Call(jen.Id("s")).Op("<").Lit(*c.MinLen)).Block(
				g.report("TooShort", pc, jen.Lit(*c.MinLen)))
		}
		if c.MaxLen != nil {
			st = st.Else().If(g.qual(utf8Pkg, "RuneCountInString").Call(jen.Id("s")).Op(">").Lit(*c.MaxLen)).Block(
				g.report("TooLong", pc, jen.Lit(*c.MaxLen)))
		}
		if c.Pattern != "" {
			st = st.Else().If(jen.Op("!").Id(g.patternVar(c)).Dot("MatchString").Call(jen.Id("s"))).Block(
				g.report("PatternMismatch", pc, jen.Lit(c.Pattern)))
		}
		if c.Format == annotations.FormatDuration {
			st = st.Else().If(g.formatCheck(c)...).Block(g.report("BadFormat", pc, jen.Lit(durationFormat)))
		} else if c.Format != "" {
			st = st.Else().If(g.formatCheck(c)...).Block(g.report("BadFormat", pc, jen.Lit(string(c.Format))))
		}
	}
	switch t.Kind {
	case model.Time:
		st = st.Else().If(jen.List(jen.Id("t"), jen.Id("err")).Op(":=").Add(g.qual(timePkg, "Parse")).Call(g.qual(timePkg, "RFC3339"), jen.Id("s")), jen.Id("err").Op("!=").Nil()).Block(
			g.report("BadFormat", pc, jen.Lit("date-time")),
		).Else().Block(set(jen.Id("t")))
	case model.Duration:
		st = st.Else().If(jen.List(jen.Id("d"), jen.Id("err")).Op(":=").Add(g.qual(timePkg, "ParseDuration")).Call(jen.Id("s")), jen.Id("err").Op("!=").Nil()).Block(
			g.report("BadFormat", pc, jen.Lit(durationFormat)),
		).Else().Block(set(jen.Id("d")))
	default:
		st = st.Else().Block(set(g.convert(t, jen.Id("s"), "string")))
	}
	return []jen.Code{st}
}

// patternVar finds the regexp variable of the field owning c.
func (g *gen) patternVar(c *model.Constraints) string {
	if name, ok := g.plan.byPattern[c.Pattern]; ok {
		return name
	}
	panic("emit: no pattern variable for " + c.Pattern)
}

func (g *gen) formatCheck(c *model.Constraints) []jen.Code {
	parse := func(layout string) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Add(g.qual(timePkg, "Parse")).Call(g.qual(timePkg, layout), jen.Id("s")),
			jen.Id("err").Op("!=").Nil(),
		}
	}
	switch c.Format {
	case annotations.FormatDateTime:
		return parse("RFC3339")
	case annotations.FormatDate:
		return parse("DateOnly")
	case annotations.FormatTime:
		return parse("TimeOnly")
	case annotations.FormatDuration:
		return []jen.Code{jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Add(g.qual(timePkg, "ParseDuration")).Call(jen.Id("s")), jen.Id("err").Op("!=").Nil()}
	case annotations.FormatEmail:
		return []jen.Code{jen.List(jen.Id("_"), jen.Id("err")).Op(":=").Add(g.qual(mailPkg, "ParseAddress")).Call(jen.Id("s")), jen.Id("err").Op("!=").Nil()}
	case annotations.FormatURI:
		return []jen.Code{jen.List(jen.Id("u"), jen.Id("err")).Op(":=").Add(g.qual(urlPkg, "Parse")).Call(jen.Id("s")), jen.Id("err").Op("!=").Nil().Op("||").Op("!").Id("u").Dot("IsAbs").Call()}
	case annotations.FormatUUID:
		if g.plan.uuidVar != "" {
			return []jen.Code{jen.Op("!").Id(g.plan.uuidVar).Dot("MatchString").Call(jen.Id("s"))}
		}
	}
	panic("emit: unknown format " + string(c.Format))
}

// numberValue binds integers and floats, with range checks or clamping.
func (g *gen) numberValue(t *model.Type, c *model.Constraints, src string, set func(jen.Code) jen.Code, p path) []jen.Code {
	pc := p.code()
	var as, base, jsonType, lo, hi string
	bits := jen.Lit(t.Bits)
	switch t.Kind {
	case model.Int:
		as, base, jsonType = "AsInt64", "int64", "integer"
		lo, hi = "MinInt"+bitsName(t.Bits), "MaxInt"+bitsName(t.Bits)
	case model.Uint:
		as, base, jsonType = "AsUint64", "uint64", "integer"
		hi = "MaxUint" + bitsName(t.Bits)
	case model.Float:
		as, base, jsonType = "AsFloat64", "float64", "number"
		hi = "MaxFloat" + strconv.Itoa(t.Bits)
	}
	if t.Bits == 0 {
		bits = g.qual(strconvPkg, "IntSize")
	}
	n := jen.Id("n")
	val := g.convert(t, n, base)
	var match []jen.Code
	hasMin, hasMax := c != nil && c.Min != nil, c != nil && c.Max != nil
	switch {
	case c != nil && c.Clamp:
		if hasMin {
			match = append(match, jen.If(jen.Id("n").Op("<").Add(boundLit(t, c.Min.Text))).Block(jen.Id("n").Op("=").Add(boundLit(t, c.Min.Text))))
		}
		if hasMax {
			match = append(match, jen.If(jen.Id("n").Op(">").Add(boundLit(t, c.Max.Text))).Block(jen.Id("n").Op("=").Add(boundLit(t, c.Max.Text))))
		}
		match = append(match, set(val))
	case hasMin || hasMax:
		var cases []jen.Code
		if hasMin {
			cases = append(cases, jen.Case(jen.Id("n").Op("<").Add(boundLit(t, c.Min.Text))).Block(g.report(boundReport(t, c.Min.Text, "BelowMinimum"), pc, boundLit(t, c.Min.Text))))
		}
		if hasMax {
			cases = append(cases, jen.Case(jen.Id("n").Op(">").Add(boundLit(t, c.Max.Text))).Block(g.report(boundReport(t, c.Max.Text, "AboveMaximum"), pc, boundLit(t, c.Max.Text))))
		}
		cases = append(cases, jen.Default().Block(set(val)))
		match = append(match, jen.Switch().Block(cases...))
	default:
		match = append(match, set(val))
	}
	cases := []jen.Code{jen.Case(g.mismatch("Match")).Block(match...)}

	// Out of the Go type's range: the sign says which bound was crossed.
	var below, above jen.Code
	// Integer bounds are worded exactly: a float64 rounds MaxInt64 and
	// MaxUint64 (18446744073709552000).
	switch t.Kind {
	case model.Uint:
		below = g.report("BelowMinimum", pc, jen.Lit(0))
		above = g.report("AboveMaximumUint", pc, g.qual(mathPkg, hi))
	case model.Float:
		below = g.report("BelowMinimum", pc, jen.Op("-").Add(g.qual(mathPkg, hi)))
		above = g.report("AboveMaximum", pc, g.qual(mathPkg, hi))
	default:
		below = g.report("BelowMinimumInt", pc, g.qual(mathPkg, lo))
		above = g.report("AboveMaximumInt", pc, g.qual(mathPkg, hi))
	}
	if c != nil && c.Clamp && hasMin {
		below = set(g.convert(t, boundLit(t, c.Min.Text), base))
	}
	if c != nil && c.Clamp && hasMax {
		above = set(g.convert(t, boundLit(t, c.Max.Text), base))
	}
	if t.Kind != model.Float || t.Bits == 32 {
		cases = append(cases, jen.Case(g.mismatch("OutOfRange")).Block(
			jen.If(jen.List(jen.Id("f"), jen.Id("_")).Op(":=").Add(g.read(src, "AsFloat64", "Float64", jen.Lit(64))), jen.Id("f").Op("<").Lit(0)).Block(below).Else().Block(above),
		))
	}
	cases = append(cases, jen.Default().Block(g.report("WrongType", pc, jen.Lit(jsonType))))
	return []jen.Code{
		jen.Switch(jen.List(jen.Id("n"), jen.Id("mm")).Op(":=").Add(g.read(src, as, strings.TrimPrefix(as, "As"), bits)), jen.Id("mm")).Block(cases...),
	}
}

func bitsName(bits int) string {
	if bits == 0 {
		return ""
	}
	return strconv.Itoa(bits)
}

// boundReport names the schema constructor that words a tag's bound:
// exact for integers (BelowMinimumInt, AboveMaximumUint, ...), as a
// float64 for floats.
func boundReport(t *model.Type, text, name string) string {
	switch t.Kind {
	case model.Int:
		return name + "Int"
	case model.Uint:
		if strings.HasPrefix(text, "-") {
			return name + "Int"
		}
		return name + "Uint"
	}
	return name
}

// durationFormat is how a binder words a value that is not a Go duration:
// "must be a valid Go duration such as 1m30s or 250ms".
const durationFormat = "Go duration such as 1m30s or 250ms"

// boundLit renders a bound written in a tag as an untyped constant.
func boundLit(t *model.Type, text string) jen.Code {
	if t.Kind == model.Float {
		f, _ := strconv.ParseFloat(text, 64)
		return jen.Lit(f)
	}
	return jen.Op(text)
}

func (g *gen) listValue(t *model.Type, c *model.Constraints, src string, set func(jen.Code) jen.Code, p path, depth int) []jen.Code {
	pc := p.code()
	sfx := suffix(depth)
	arr, list, idx, elem := "arr"+sfx, "list"+sfx, "i"+sfx, "e"+sfx
	st := jen.If(jen.List(jen.Id(arr), jen.Id("ok")).Op(":=").Id(src).Assert(jen.Index().Any()), jen.Op("!").Id("ok")).Block(
		g.report("WrongType", pc, jen.Lit("array")),
	)
	length := jen.Len(jen.Id(arr))
	if g.raw {
		st = jen.If(jen.Id(src).Dot("Kind").Call().Op("!=").Add(g.qual(jsonscanPkg, "Array"))).Block(
			g.report("WrongType", pc, jen.Lit("array")),
		)
		length = jen.Id(src).Dot("Len").Call()
	}
	minItems, maxItems := -1, -1
	if t.Kind == model.Array {
		minItems, maxItems = int(t.Len), int(t.Len)
	}
	if c != nil && c.MinItems != nil {
		minItems = *c.MinItems
	}
	if c != nil && c.MaxItems != nil {
		maxItems = *c.MaxItems
	}
	if minItems >= 0 {
		st = st.Else().If(jen.Add(length).Op("<").Lit(minItems)).Block(g.report("TooFewItems", pc, jen.Lit(minItems)))
	}
	if maxItems >= 0 {
		st = st.Else().If(jen.Add(length).Op(">").Lit(maxItems)).Block(g.report("TooManyItems", pc, jen.Lit(maxItems)))
	}
	var elemC *model.Constraints
	if c != nil {
		cc := *c
		cc.MinItems, cc.MaxItems = nil, nil
		elemC = &cc
	}
	var decl jen.Code
	if t.Kind == model.Array {
		decl = jen.Var().Id(list).Add(g.typ(t.Go))
	} else {
		decl = jen.Id(list).Op(":=").Make(g.typ(t.Go), length)
	}
	ep := p.plus("[").plusCode(g.qual(strconvPkg, "Itoa").Call(jen.Id(idx))).plus("]")
	inner := g.value(t.Elem, elemC, elem, func(v jen.Code) jen.Code { return jen.Id(list).Index(jen.Id(idx)).Op("=").Add(v) }, ep, depth+1)
	loop := jen.For(jen.List(jen.Id(idx), jen.Id(elem)).Op(":=").Range().Id(arr)).Block(inner...)
	if g.raw {
		it := "it" + sfx
		loop = jen.For(
			jen.List(jen.Id(idx), jen.Id(it)).Op(":=").List(jen.Lit(0), jen.Id(src).Dot("Items").Call()),
			jen.Id(it).Dot("Next").Call(),
			jen.Id(idx).Op("++"),
		).Block(append([]jen.Code{jen.Id(elem).Op(":=").Id(it).Dot("Value").Call()}, inner...)...)
	}
	st = st.Else().Block(decl, loop, set(jen.Id(list)))
	return []jen.Code{st}
}

func (g *gen) mapValue(t *model.Type, c *model.Constraints, src string, set func(jen.Code) jen.Code, p path, depth int) []jen.Code {
	pc := p.code()
	sfx := suffix(depth)
	obj, list, key := "obj"+sfx, "list"+sfx, "k"+sfx
	ep := p.plus(".").plusCode(jen.Id(key))
	var k jen.Code = jen.Id(key)
	if t.KeyType != nil && !(t.KeyType.Path == "" && t.KeyType.Name == "string") {
		k = g.typ(t.KeyType).Call(jen.Id(key))
	}
	elem := "e" + sfx
	inner := g.value(t.Elem, c, elem, func(v jen.Code) jen.Code { return jen.Id(list).Index(k).Op("=").Add(v) }, ep, depth+1)
	if g.raw {
		mem := "mem" + sfx
		return []jen.Code{
			jen.If(jen.Id(src).Dot("Kind").Call().Op("!=").Add(g.qual(jsonscanPkg, "Object"))).Block(
				g.report("WrongType", pc, jen.Lit("object")),
			).Else().Block(
				jen.Id(obj).Op(":=").Id(src).Dot("SortedMembers").Call(),
				jen.Id(list).Op(":=").Make(g.typ(t.Go), jen.Len(jen.Id(obj))),
				jen.For(jen.List(jen.Id("_"), jen.Id(mem)).Op(":=").Range().Id(obj)).Block(
					append([]jen.Code{jen.List(jen.Id(key), jen.Id(elem)).Op(":=").List(jen.Id(mem).Dot("Key"), jen.Id(mem).Dot("Value"))}, inner...)...,
				),
				set(jen.Id(list)),
			),
		}
	}
	return []jen.Code{
		jen.If(jen.List(jen.Id(obj), jen.Id("ok")).Op(":=").Id(src).Assert(jen.Map(jen.String()).Any()), jen.Op("!").Id("ok")).Block(
			g.report("WrongType", pc, jen.Lit("object")),
		).Else().Block(
			jen.Id(list).Op(":=").Make(g.typ(t.Go), jen.Len(jen.Id(obj))),
			jen.For(jen.List(jen.Id("_"), jen.Id(key)).Op(":=").Range().Add(g.qual(slicesPkg, "Sorted")).Call(g.qual(mapsPkg, "Keys").Call(jen.Id(obj)))).Block(
				append([]jen.Code{jen.Id(elem).Op(":=").Id(obj).Index(jen.Id(key))}, inner...)...,
			),
			set(jen.Id(list)),
		),
	}
}

// read renders how a binder reads src: through a runtime/tool coercion in
// the map binder (tool.AsString(v)), through the jsonscan.Value method in
// the raw binder (v.String()).
func (g *gen) read(src, asFunc, method string, args ...jen.Code) jen.Code {
	if g.raw {
		return jen.Id(src).Dot(method).Call(args...)
	}
	return g.qual(toolPkg, asFunc).Call(append([]jen.Code{jen.Id(src)}, args...)...)
}

// mismatch names a tool.Mismatch (map binder) or jsonscan.Mismatch (raw
// binder) constant.
func (g *gen) mismatch(name string) jen.Code {
	if g.raw {
		return g.qual(jsonscanPkg, name)
	}
	return g.qual(toolPkg, name)
}

// helperName is the function binding struct type t in the current binder.
func (g *gen) helperName(t *model.Type) string {
	if g.raw {
		return g.plan.rawHelpers[t.Key]
	}
	return g.plan.helpers[t.Key]
}
