package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// runFunc spells func(context.Context, X, tool.Context) (O, error).
func (g *gen) runFunc() *jen.Statement {
	return jen.Func().Params(g.qual(contextPkg, "Context"), jen.Id(g.plan.t.TypeName), g.qual(toolPkg, "Context")).Params(jen.Id("O"), jen.Error())
}

// constructor renders NewXTool, the tool type and its methods.
func (g *gen) constructor() {
	p, t, f := g.plan, g.plan.t, g.file
	recv := func() *jen.Statement { return jen.Id(p.typ).Types(jen.Id("O")) }

	f.Commentf("%s returns the %s tool. Its Execute binds the arguments with", p.ctor, t.Name)
	f.Commentf("%s (or %s for an Input made from bytes), calls run and", p.bindJSON, p.bind)
	f.Comment("renders what run returns: a tool.Result as it")
	f.Comment("is, a string as text, a value with TextForLLM through that method and")
	f.Comment("anything else as JSON. Violations, an error from run and a panic become")
	f.Comment("error results; Execute never panics.")
	f.Func().Id(p.ctor).Types(jen.Id("O").Any()).Params(jen.Id("run").Add(g.runFunc())).Add(g.qual(toolPkg, "Tool")).Block(
		jen.Return(recv().Values(jen.Dict{jen.Id("run"): jen.Id("run")})),
	)
	f.Line()

	f.Commentf("%s is the tool %s returns.", p.typ, p.ctor)
	f.Type().Id(p.typ).Types(jen.Id("O").Any()).Struct(
		jen.Id("run").Add(g.runFunc()),
	)
	f.Line()

	f.Commentf("Definition returns the %s tool's name, description and input schema.", t.Name)
	fields := []jen.Code{
		jen.Line().Id("Name").Op(":").Lit(t.Name),
		jen.Line().Id("Description").Op(":").Lit(t.Description),
		jen.Line().Id("InputSchema").Op(":").Id(p.schema),
	}
	if len(t.Keywords) > 0 {
		kws := make([]jen.Code, len(t.Keywords))
		for i, k := range t.Keywords {
			kws[i] = jen.Lit(k)
		}
		fields = append(fields, jen.Line().Id("Keywords").Op(":").Index().String().Values(kws...))
	}
	fields = append(fields, hostFields(p)...)
	fields[len(fields)-1] = jen.Add(fields[len(fields)-1]).Op(",").Line()
	f.Func().Params(recv()).Id("Definition").Params().Add(g.qual(toolPkg, "Definition")).Block(
		jen.Return(g.qual(toolPkg, "Definition").Values(fields...)),
	)
	f.Line()

	f.Commentf("Execute binds in, from its bytes when it has them, calls run and renders")
	f.Comment("its output. It never panics.")
	f.Func().Params(jen.Id("t").Add(recv())).Id("Execute").
		Params(jen.Id("ctx").Add(g.qual(contextPkg, "Context")), jen.Id("in").Add(g.qual(toolPkg, "Input")), jen.Id("tc").Add(g.qual(toolPkg, "Context"))).
		Params(jen.Id("res").Add(g.qual(toolPkg, "Result"))).Block(
		jen.Defer().Add(g.qual(toolPkg, "Recover")).Call(jen.Lit(t.Name), jen.Op("&").Id("res")),
		jen.Var().Id("args").Id(t.TypeName),
		jen.Var().Id("err").Error(),
		jen.If(jen.List(jen.Id("doc"), jen.Id("ok")).Op(":=").Id("in").Dot("Document").Call(), jen.Id("ok")).Block(
			jen.Id("r").Op(":=").Id("doc").Dot("Reader").Call(),
			jen.List(jen.Id("args"), jen.Id("err")).Op("=").Id(p.rawBind).Call(jen.Op("&").Id("r")),
		).Else().Block(
			jen.List(jen.Id("args"), jen.Id("err")).Op("=").Id(p.bind).Call(jen.Id("in")),
		),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(g.qual(toolPkg, "FailureFrom").Call(jen.Id("err")))),
		jen.List(jen.Id("out"), jen.Id("err")).Op(":=").Id("t").Dot("run").Call(jen.Id("ctx"), jen.Id("args"), jen.Id("tc")),
		jen.If(jen.Id("err").Op("!=").Nil()).Block(jen.Return(g.qual(toolPkg, "FailureFrom").Call(jen.Id("err")))),
		g.renderOutput(),
	)
	f.Line()

	f.Comment("BindsStrictly reports that Execute's binder reports every violation the")
	f.Commentf("schema gate would for the %s tool's schema, so that the executor may", t.Name)
	f.Comment("skip the gate for an Input made from bytes (see tool.StrictBinder).")
	f.Func().Params(recv()).Id("BindsStrictly").Params().Bool().Block(jen.Return(jen.True()))
	f.Line()

	behaviour := func(method, typ, value, doc string) {
		f.Comment(doc)
		f.Func().Params(recv()).Id(method).Params().Add(g.qual(toolPkg, typ)).Block(jen.Return(g.qual(toolPkg, value)))
		f.Line()
	}
	switch t.Concurrency {
	case annotations.ConcurrencySafe:
		behaviour("Concurrency", "Concurrency", "Safe", "Concurrency reports that the "+t.Name+" tool may run in parallel with other safe tools.")
	case annotations.ConcurrencySequential:
		behaviour("Concurrency", "Concurrency", "Sequential", "Concurrency reports that the "+t.Name+" tool runs alone.")
	}
	switch t.Interrupt {
	case annotations.InterruptCooperative:
		behaviour("Interrupt", "Interrupt", "Cooperative", "Interrupt reports that the "+t.Name+" tool stops soon after its context is cancelled.")
	case annotations.InterruptNonInterruptible:
		behaviour("Interrupt", "Interrupt", "NonInterruptible", "Interrupt reports that the "+t.Name+" tool runs to completion once started.")
	case annotations.InterruptThread:
		behaviour("Interrupt", "Interrupt", "ThreadInterrupt", "Interrupt reports that the "+t.Name+" tool needs its worker interrupted to stop.")
	case annotations.InterruptExternallyTerminated:
		behaviour("Interrupt", "Interrupt", "ExternallyTerminated", "Interrupt reports that the "+t.Name+" tool is stopped from outside.")
	}
	switch t.SideEffect {
	case annotations.SideEffectReadOnly:
		behaviour("SideEffect", "SideEffect", "ReadOnly", "SideEffect reports that the "+t.Name+" tool only reads.")
	case annotations.SideEffectMutating:
		behaviour("SideEffect", "SideEffect", "Mutating", "SideEffect reports that the "+t.Name+" tool changes state.")
	case annotations.SideEffectDestructive:
		behaviour("SideEffect", "SideEffect", "Destructive", "SideEffect reports that the "+t.Name+" tool may destroy data.")
	}
	switch t.Loading {
	case annotations.LoadingEager:
		behaviour("Loading", "Loading", "Eager", "Loading reports that the "+t.Name+" tool is always offered to the model.")
	case annotations.LoadingDeferred:
		behaviour("Loading", "Loading", "Deferred", "Loading reports that the "+t.Name+" tool is offered once tool search finds it.")
	}
	g.openWorld(recv)
	if s := t.Subject; s != nil {
		kind, what := "CommandSubject", "command"
		if s.Kind == annotations.SubjectPath {
			kind, what = "PathSubject", "path"
		}
		read := g.qual(toolPkg, "StringSubject").Call(jen.Id("in"), jen.Lit(s.Param), g.qual(toolPkg, kind))
		if def, ok := subjectDefault(t, s.Param); ok {
			f.Commentf("PermissionSubject returns the %s in %q that the allow-list judges,", what, s.Param)
			f.Commentf("%q when it is absent (its default); a mistyped or blank value cannot be judged.", def)
			read = g.qual(toolPkg, "StringSubjectOr").Call(jen.Id("in"), jen.Lit(s.Param), g.qual(toolPkg, kind), jen.Lit(def))
		} else {
			f.Commentf("PermissionSubject returns the %s in %q that the allow-list judges;", what, s.Param)
			f.Comment("a missing, mistyped or blank value cannot be judged.")
		}
		f.Func().Params(recv()).Id("PermissionSubject").Params(jen.Id("in").Add(g.qual(toolPkg, "Input"))).
			Params(g.qual(toolPkg, "Subject"), jen.Bool()).Block(jen.Return(read))
		f.Line()
	}
}

// hostFields are the Definition fields that describe the tool to hosts
// rather than to the model: the //tool:title.
func hostFields(p *toolPlan) []jen.Code {
	var out []jen.Code
	if p.t.Title != "" {
		out = append(out, jen.Line().Id("Title").Op(":").Lit(p.t.Title))
	}
	if p.outSchema != "" {
		out = append(out, jen.Line().Id("OutputSchema").Op(":").Id(p.outSchema))
	}
	return out
}

// renderOutput renders the return of Execute: tool.Render of run's output,
// or, for a tool with a //tool:output type, tool.RenderStructured when the
// output is of that type (so that the structured content always matches
// the output schema).
func (g *gen) renderOutput() jen.Code {
	t := g.plan.t
	render := jen.Return(g.qual(toolPkg, "Render").Call(jen.Id("out")))
	if t.Output == nil {
		return render
	}
	structured := jen.Return(g.qual(toolPkg, "RenderStructured").Call(jen.Id("v")))
	return jen.Switch(jen.Id("v").Op(":=").Any().Call(jen.Id("out")).Assert(jen.Type())).Block(
		jen.Case(jen.Id(t.Output.TypeName)).Block(structured),
		jen.Case(jen.Op("*").Id(t.Output.TypeName)).Block(jen.If(jen.Id("v").Op("!=").Nil()).Block(structured)),
	).Line().Add(render)
}

// openWorld renders the OpenWorld method of a tool marked //tool:open-world.
func (g *gen) openWorld(recv func() *jen.Statement) {
	t, f := g.plan.t, g.file
	if !t.OpenWorld {
		return
	}
	f.Commentf("OpenWorld reports that the %s tool reaches beyond a closed domain (the", t.Name)
	f.Comment("network, arbitrary programs); see tool.Hints.")
	f.Func().Params(recv()).Id("OpenWorld").Params().Bool().Block(jen.Return(jen.True()))
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
	if len(t.Guards) > 1 {
		what += " or a struct type it binds"
	}
	g.file.Commentf("A compile error here means %s changed after toolgen ran:", what)
	g.file.Comment("re-run toolgen (go generate). The compiler sees field names and types only;")
	g.file.Comment("a changed json or tool tag is found by toolgen -check and the toolgencheck analyzer.")
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
	fields := make([]jen.Code, len(gd.Fields))
	for i, f := range gd.Fields {
		if f.Embedded {
			fields[i] = g.typ(f.Type)
		} else {
			fields[i] = jen.Id(f.Name).Add(g.typ(f.Type))
		}
	}
	return jen.Struct(fields...).Call(g.typ(gd.Type).Values())
}
