package emit

import (
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/internal/model"
)

// A function tool (model.Tool.Func) gets, beside the struct path's code for
// its generated input struct: the struct's declaration, a guard on the
// function's signature, and the public constructor, which adapts the
// function to the struct path's (unexported) one.

// funcInput renders the input struct of a function tool and the guard on
// its function's signature.
func (g *gen) funcInput() {
	t, fn := g.plan.t, g.plan.t.Func
	g.file.Commentf("%s is the input of the %s tool: the parameters of %s.", t.TypeName, t.Name, g.funcRef())
	var fields []jen.Code
	for _, p := range fn.Params {
		if p.Kind != model.ParamInput {
			continue
		}
		fields = append(fields, jen.Comment(p.Doc), jen.Id(p.Field).Add(g.typ(p.Type)).Tag(tagMap(p.Tag)))
	}
	g.file.Type().Id(t.TypeName).Struct(fields...)
	g.file.Line()

	g.file.Commentf("Re-run toolgen if this fails to compile: the signature of %s changed.", g.funcRef())
	var params []jen.Code
	if fn.Recv != nil {
		params = append(params, g.typ(fn.Recv))
	}
	for _, p := range fn.Params {
		params = append(params, g.typ(p.Type))
	}
	var results []jen.Code
	for _, r := range fn.Results {
		results = append(results, g.typ(r))
	}
	var value jen.Code = jen.Id(fn.Name)
	if fn.Recv != nil {
		value = jen.Parens(g.typ(fn.Recv)).Dot(fn.Name)
	}
	g.file.Var().Id("_").Func().Params(params...).Params(results...).Op("=").Add(value)
	g.file.Line()
}

// funcConstructor renders the public constructor of a function tool:
// NewAddTool() for a function, NewServiceSearchTool(recv) for a method.
func (g *gen) funcConstructor() {
	p, t, fn := g.plan, g.plan.t, g.plan.t.Func
	out := jen.String()
	if fn.Value {
		out = g.typ(fn.Results[0])
	}
	var args []jen.Code
	for _, prm := range fn.Params {
		switch prm.Kind {
		case model.ParamContext:
			args = append(args, jen.Id("ctx"))
		case model.ParamTool:
			args = append(args, jen.Id("tc"))
		default:
			args = append(args, jen.Id("in").Dot(prm.Field))
		}
	}
	call := jen.Id(fn.Name).Call(args...)
	var ctorParams []jen.Code
	if fn.Recv != nil {
		call = jen.Id("recv").Dot(fn.Name).Call(args...)
		ctorParams = append(ctorParams, jen.Id("recv").Add(g.typ(fn.Recv)))
	}
	var body jen.Code
	switch {
	case fn.Value && fn.Err:
		body = jen.Return(call)
	case fn.Value:
		body = jen.Return(call, jen.Nil())
	default:
		body = jen.Return(jen.Lit("Done."), call)
	}
	run := jen.Func().Params(jen.Id("ctx").Add(g.qual(contextPkg, "Context")), jen.Id("in").Id(t.TypeName), jen.Id("tc").Add(g.qual(toolPkg, "Context"))).
		Params(out, jen.Error()).Block(body)
	g.file.Commentf("%s returns the %s tool, which calls %s (see package toolimpl).", fn.Ctor, t.Name, g.funcRef())
	g.file.Func().Id(fn.Ctor).Params(ctorParams...).Add(g.qual(toolPkg, "Tool")).Block(
		jen.Return(jen.Id(p.ctor).Call(run)),
	)
	g.file.Line()
}

// funcRef names the function for a comment: Add, or (*Service).Search.
func (g *gen) funcRef() string {
	fn := g.plan.t.Func
	switch r := fn.Recv; {
	case r == nil:
		return fn.Name
	case r.Kind == model.ExprPointer && r.Elem != nil:
		return "(*" + r.Elem.Name + ")." + fn.Name
	default:
		return r.Name + "." + fn.Name
	}
}

// tagMap turns a struct tag (json:"a,omitempty" tool:"min=1") into jen's
// tag map.
func tagMap(tag string) map[string]string {
	out := map[string]string{}
	for tag != "" {
		tag = strings.TrimLeft(tag, " ")
		key, rest, ok := strings.Cut(tag, ":")
		if !ok || !strings.HasPrefix(rest, `"`) {
			break
		}
		end := strings.Index(rest[1:], `"`)
		if end < 0 {
			break
		}
		out[key] = rest[1 : 1+end]
		tag = rest[2+end:]
	}
	return out
}
