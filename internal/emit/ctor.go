package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
	"github.com/toolgen/toolgen/runtime/permission"
)

// runFunc spells func(context.Context, X, tool.Context) (O, error).
func (g *gen) runFunc() *jen.Statement {
	return jen.Func().Params(g.qual(contextPkg, "Context"), jen.Id(g.plan.t.TypeName), g.qual(toolPkg, "Context")).Params(jen.Id("O"), jen.Error())
}

// definition renders the tool's Definition, a package-level value: what
// the model is shown, and the behaviours the directives declare.
func (g *gen) definition() {
	p, t, f := g.plan, g.plan.t, g.file
	fields := []jen.Code{
		jen.Line().Id("Name").Op(":").Lit(t.Name),
		jen.Line().Id("Description").Op(":").Lit(t.Description),
		jen.Line().Id("InputSchema").Op(":").Id(p.schema),
	}
	if p.outSchema != "" {
		fields = append(fields, jen.Line().Id("OutputSchema").Op(":").Id(p.outSchema))
	}
	if t.Title != "" {
		fields = append(fields, jen.Line().Id("Title").Op(":").Lit(t.Title))
	}
	if len(t.Keywords) > 0 {
		kws := make([]jen.Code, len(t.Keywords))
		for i, k := range t.Keywords {
			kws[i] = jen.Lit(k)
		}
		fields = append(fields, jen.Line().Id("Keywords").Op(":").Index().String().Values(kws...))
	}
	behaviour := func(field, value string) {
		fields = append(fields, jen.Line().Id(field).Op(":").Add(g.qual(toolPkg, value)))
	}
	switch t.Concurrency {
	case annotations.ConcurrencySafe:
		behaviour("Concurrency", "Safe")
	case annotations.ConcurrencySequential:
		behaviour("Concurrency", "Sequential")
	}
	switch t.Interrupt {
	case annotations.InterruptCooperative:
		behaviour("Interrupt", "Cooperative")
	case annotations.InterruptNonInterruptible:
		behaviour("Interrupt", "NonInterruptible")
	case annotations.InterruptExternallyTerminated:
		behaviour("Interrupt", "ExternallyTerminated")
	}
	switch t.SideEffect {
	case permission.ReadOnly:
		behaviour("SideEffect", "ReadOnly")
	case permission.Mutating:
		behaviour("SideEffect", "Mutating")
	case permission.Destructive:
		behaviour("SideEffect", "Destructive")
	}
	if t.OpenWorld {
		fields = append(fields, jen.Line().Id("OpenWorld").Op(":").True())
	}
	if t.Idempotent {
		fields = append(fields, jen.Line().Id("Idempotent").Op(":").True())
	}
	switch t.Loading {
	case annotations.LoadingEager:
		behaviour("Loading", "Eager")
	case annotations.LoadingDeferred:
		behaviour("Loading", "Deferred")
	}
	if s := t.Subject; s != nil {
		kind := "CommandSubject"
		if s.Kind == annotations.SubjectPath {
			kind = "PathSubject"
		}
		sub := []jen.Code{jen.Id("Kind").Op(":").Add(g.qual(toolPkg, kind)), jen.Id("Key").Op(":").Lit(s.Param)}
		if def, ok := subjectDefault(t, s.Param); ok {
			sub = append(sub, jen.Id("Default").Op(":").Lit(def))
		}
		fields = append(fields, jen.Line().Id("Subject").Op(":").Add(g.qual(toolPkg, "SubjectField")).Values(sub...))
	}
	if t.Timeout > 0 {
		fields = append(fields, jen.Line().Id("Timeout").Op(":").Add(g.duration(t.Timeout)))
	}
	fields = append(fields, jen.Line().Id("ChecksInput").Op(":").True().Op(",").Line())
	f.Commentf("%s is the %s tool's definition.", p.def, t.Name)
	f.Var().Id(p.def).Op("=").Add(g.qual(toolPkg, "Definition")).Values(fields...)
	f.Line()
}

// constructor renders NewXTool.
func (g *gen) constructor() {
	p, t, f := g.plan, g.plan.t, g.file
	f.Commentf("%s returns the %s tool, which runs run (see package toolimpl).", p.ctor, t.Name)
	ctor := g.impl("NewTool")
	// O is any type, unless the tool declares an output: then run must
	// return that type (or a pointer to it), so that every success carries
	// the structured content the output schema promises; another type is a
	// compile error at the call, not a result the client rejects.
	typeParam := jen.Id("O").Any()
	if t.Output != nil {
		ctor = g.impl("NewStructuredTool").Types(jen.Id(t.Output.TypeName))
		// Written out so that it stays on one line (jen's Interface breaks it).
		typeParam = jen.Id("O").Op("interface{ " + t.Output.TypeName + " | *" + t.Output.TypeName + " }")
	}
	args := []jen.Code{jen.Op("&").Id(p.def), jen.Id(p.bind), jen.Id("run")}
	if t.Output != nil {
		fill := jen.Nil()
		if p.fill != "" {
			fill = jen.Id(p.fill)
		}
		args = append(args, fill)
	}
	f.Func().Id(p.ctor).Types(typeParam).Params(jen.Id("run").Add(g.runFunc())).Add(g.qual(toolPkg, "Tool")).Block(
		jen.Return(ctor.Call(args...)),
	)
	f.Line()
}

// subjectDefault returns the default of the subject's field, if it has one:
// absent, the field takes that value, so that is what the allow-list judges.
func subjectDefault(t *model.Tool, wire string) (string, bool) {
	for _, f := range t.Fields {
		if f.Wire == wire && f.Default != nil {
			if s, ok := f.Default.(string); ok {
				return s, true
			}
		}
	}
	return "", false
}

// guard renders the compile-time guard: for each struct type the tool
// binds, a conversion from that type to the struct it was when toolgen
// ran, so that adding, removing, renaming or retyping a field anywhere the
// binder reaches stops the build. A struct with fields the generated file
// cannot name (a foreign one with unexported fields) is guarded by a
// function that reads and returns each field it can name. The compiler
// ignores tags in conversions, and constraints live in tags.
func (g *gen) guard() {
	t := g.plan.t
	if len(t.Guards) == 0 {
		return
	}
	what := t.TypeName
	switch {
	case t.Output != nil:
		what += ", its output " + t.Output.TypeName + " or a struct they use"
	case len(t.Guards) > 1:
		what += " or a struct it binds"
	}
	g.file.Commentf("Re-run toolgen if this fails to compile: %s changed.", what)
	defs := make([]jen.Code, 0, len(t.Guards))
	for _, gd := range t.Guards {
		defs = append(defs, jen.Id("_").Op("=").Add(g.guardExpr(gd)))
	}
	if len(defs) == 1 {
		g.file.Var().Add(defs[0])
	} else {
		g.file.Var().Defs(defs...)
	}
	g.file.Line()
}

// guardExpr is the expression that compiles only while gd's type has the
// fields recorded.
func (g *gen) guardExpr(gd model.Guard) *jen.Statement {
	if gd.Partial {
		types := make([]jen.Code, len(gd.Fields))
		values := make([]jen.Code, len(gd.Fields))
		for i, f := range gd.Fields {
			types[i] = g.typ(f.Type)
			values[i] = jen.Id("v").Dot(f.Name)
		}
		return jen.Func().Params(jen.Id("v").Add(g.typ(gd.Type))).Params(types...).Block(jen.Return(values...))
	}
	// Consecutive fields of one type share a line, as in hand-written Go
	// (Start, End int): the struct is the same.
	var fields []jen.Code
	for i := 0; i < len(gd.Fields); {
		f := gd.Fields[i]
		if f.Embedded {
			fields = append(fields, g.typ(f.Type))
			i++
			continue
		}
		names := []jen.Code{jen.Id(f.Name)}
		for i++; i < len(gd.Fields) && !gd.Fields[i].Embedded && sameType(gd.Fields[i].Type, f.Type); i++ {
			names = append(names, jen.Id(gd.Fields[i].Name))
		}
		fields = append(fields, jen.List(names...).Add(g.typ(f.Type)))
	}
	return jen.Struct(fields...).Call(g.typ(gd.Type).Values())
}

// sameType reports whether a and b spell the same type.
func sameType(a, b *model.TypeExpr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Path != b.Path || a.Name != b.Name || a.Len != b.Len ||
		len(a.Args) != len(b.Args) || len(a.Fields) != len(b.Fields) ||
		!sameType(a.Elem, b.Elem) || !sameType(a.Key, b.Key) {
		return false
	}
	for i := range a.Args {
		if !sameType(a.Args[i], b.Args[i]) {
			return false
		}
	}
	for i, f := range a.Fields {
		g := b.Fields[i]
		if f.Name != g.Name || f.Embedded != g.Embedded || f.Tag != g.Tag || !sameType(f.Type, g.Type) {
			return false
		}
	}
	return true
}
