package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// A function (or method) whose doc comment holds //tool: directives is a
// tool: its parameters, after an optional leading context.Context and
// tool.Context, become the properties of an input struct that toolgen
// generates beside the tool's code, described and constrained by the
// //tool:param lines. funcTool builds that struct as go/types would see it
// (fields named after the parameters, tags from the //tool:param options)
// and reads it as any input struct is read, so that the schema, the
// binder and every check are the struct path's.

// toolPkgPath is runtime/tool's import path, whose Context a function tool
// may take.
const toolPkgPath = "github.com/toolgen/toolgen/runtime/tool"

// funcTool builds one tool from an annotated function declaration.
func (b *builder) funcTool(p *Unit, fd *ast.FuncDecl, d annotations.Directives, lines []annotations.Comment) *model.Tool {
	pos := b.pos(fd.Name.Pos())
	obj, _ := p.Info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil
	}
	if d.Name == "" {
		b.errs.Add(d.Pos, "function %s has //tool: directives but no //tool:name; add one, e.g. //tool:name %s", fd.Name.Name, lowerFirst(fd.Name.Name))
		return nil
	}
	if d.Output != "" {
		b.errs.Add(d.OutputPos, "//tool:output is for struct tools; a function tool's output is its result type")
	}
	sig := obj.Type().(*types.Signature)
	if sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0 {
		b.errs.Add(pos, "tool %s: %s is generic; a tool's function must not have type parameters", d.Name, fd.Name.Name)
		return nil
	}
	f := &model.Func{Name: fd.Name.Name}
	base := upperFirst(fd.Name.Name)
	c := &ctx{pkg: p.Pkg, keys: map[string]bool{}, typeErrs: p.TypeErrors, module: p.Module}
	if recv := sig.Recv(); recv != nil {
		e, why := b.exprOf(c, recv.Type())
		if why != "" {
			b.errs.Add(pos, "tool %s: the receiver of %s cannot be written here: %s", d.Name, fd.Name.Name, why)
			return nil
		}
		f.Recv = e
		rn := recv.Type()
		if ptr, ok := rn.(*types.Pointer); ok {
			rn = ptr.Elem()
		}
		if n, ok := rn.(*types.Named); ok {
			base = upperFirst(n.Obj().Name()) + base
		}
	}
	f.Ctor = "New" + base + "Tool"
	inputName := d.Input
	if inputName == "" {
		inputName = lowerFirst(base) + "Input"
	}

	ok := b.funcResults(d, fd, sig, f, c)
	params := map[string]annotations.Param{}
	for _, pp := range d.Params {
		params[pp.Name] = pp
	}
	used := map[string]bool{}
	fieldParams := map[string]annotations.Param{} // by the input field's Go name
	paramPos := map[string]annotations.Pos{}      // the parameters' positions, by the same
	var vars []*types.Var
	var tags []string
	var syntax []*ast.Field
	for i := range sig.Params().Len() {
		v := sig.Params().At(i)
		vpos := b.pos(v.Pos())
		used[v.Name()] = true
		switch u := v.Type().Underlying().(type) {
		case *types.Signature, *types.Chan:
			b.errs.Add(vpos, "tool %s: parameter %s is a %s, which no JSON argument can be; take a value the model can send", d.Name, v.Name(), map[bool]string{true: "func", false: "channel"}[isSig(u)])
			ok = false
			continue
		}
		if sig.Variadic() && i == sig.Params().Len()-1 {
			b.errs.Add(vpos, "tool %s: parameter %s is variadic; take a slice ([]T) instead", d.Name, v.Name())
			ok = false
			continue
		}
		te, why := b.exprOf(c, v.Type())
		if why != "" {
			b.errs.Add(vpos, "tool %s: parameter %s cannot be written in the generated file: %s", d.Name, v.Name(), why)
			ok = false
			continue
		}
		switch {
		case i == 0 && isNamedType(v.Type(), "context", "Context"):
			f.Params = append(f.Params, model.FuncParam{Kind: model.ParamContext, Name: v.Name(), Type: te})
			continue
		case i <= 1 && isNamedType(v.Type(), toolPkgPath, "Context") && !slices.ContainsFunc(f.Params, func(p model.FuncParam) bool { return p.Kind == model.ParamTool }):
			f.Params = append(f.Params, model.FuncParam{Kind: model.ParamTool, Name: v.Name(), Type: te})
			continue
		}
		name := v.Name()
		if name == "" || name == "_" {
			b.errs.Add(vpos, "tool %s: parameter %d has no name; name it, and describe it with //tool:param", d.Name, i+1)
			ok = false
			continue
		}
		pp, has := params[name]
		if !has {
			b.errs.Add(vpos, "tool %s: parameter %s has no //tool:param line; add one with its description, e.g. //tool:param %s The ...", d.Name, name, name)
			ok = false
			continue
		}
		if pp.Description == "" {
			b.errs.Add(pp.Pos, "//tool:param %s needs a description after the name (and options): the model reads it", name)
			ok = false
		}
		wire := pp.Wire
		if wire == "" {
			wire = name
		}
		opts := pp.Options
		_, isPtr := v.Type().(*types.Pointer)
		if !isPtr && !strings.Contains(","+opts, ",default=") && !hasOption(opts, "required") {
			opts = strings.TrimPrefix(opts+",required", ",")
		}
		jsonTag := wire
		if isPtr {
			jsonTag += ",omitempty"
		}
		tag := `json:` + strconv.Quote(jsonTag)
		if opts != "" {
			tag += ` tool:` + strconv.Quote(opts)
		}
		field := upperFirst(name)
		fieldParams[field] = pp
		paramPos[field] = vpos
		fv := types.NewField(v.Pos(), p.Pkg, field, v.Type(), false)
		vars = append(vars, fv)
		tags = append(tags, tag)
		syntax = append(syntax, &ast.Field{
			Doc:   &ast.CommentGroup{List: []*ast.Comment{{Slash: token.NoPos, Text: "// " + pp.Description}}},
			Names: []*ast.Ident{ast.NewIdent(field)},
		})
		f.Params = append(f.Params, model.FuncParam{Kind: model.ParamInput, Name: name, Field: field, Type: te, Tag: tag, Doc: pp.Description})
	}
	for _, pp := range d.Params {
		if !used[pp.Name] {
			b.errs.Add(pp.Pos, "//tool:param %s names no parameter of %s; its parameters are %s", pp.Name, fd.Name.Name, paramNames(sig))
			ok = false
		}
	}
	if !ok {
		return nil
	}
	st := types.NewStruct(vars, tags)
	named := types.NewNamed(types.NewTypeName(fd.Pos(), p.Pkg, inputName, nil), st, nil)
	t := &model.Tool{
		Pos:         pos,
		Name:        d.Name,
		Description: d.Description,
		TypeName:    inputName,
		Keywords:    d.Keywords,
		Title:       d.Title,
		OpenWorld:   d.OpenWorld,
		Idempotent:  d.Idempotent,
		Unexported:  true, // the struct path's constructor and binder; Func.Ctor is the public one
		Concurrency: d.Concurrency,
		Interrupt:   d.Interrupt,
		SideEffect:  sideEffects[d.SideEffect],
		Loading:     d.Loading,
		Subject:     d.Subject,
		Timeout:     d.Timeout,
		Func:        f,
	}
	if !d.HasDescription {
		t.Description = b.docDescription(d, fd.Name.Name, lines)
	}
	c.tool = t
	c.stack = []*types.Named{named}
	c.params, c.paramStruct = fieldParams, st
	n0 := len(b.errs)
	t.Fields = b.fields(c, st, &ast.StructType{Fields: &ast.FieldList{List: syntax}}, nil)
	// The struct path words its messages for a field the user wrote; here
	// the user wrote a parameter (messages about a struct the parameter's
	// type reaches, at that struct's fields, stay as they are).
	for i := n0; i < len(b.errs); i++ {
		e := b.errs[i]
		for field, pp := range fieldParams {
			at := e.Pos.File == pp.Pos.File && e.Pos.Line == pp.Pos.Line || e.Pos == paramPos[field]
			if rest, ok := strings.CutPrefix(e.Msg, "field "+field); ok && at && (rest == "" || rest[0] == ':' || rest[0] == ' ') {
				e.Msg = "tool " + d.Name + ": parameter " + pp.Name + strings.Replace(rest, ": tool tag: ", ": //tool:param options: ", 1)
				break
			}
		}
	}
	// The input struct is generated with the tool: only the types its
	// fields reach are guarded; the function's signature is guarded by
	// the emitter.
	t.Guards = c.guards
	if s := t.Subject; s != nil {
		i := slices.IndexFunc(t.Fields, func(f *model.Field) bool { return f.Wire == s.Param })
		switch {
		case i < 0:
			b.errs.Add(d.SubjectPos, "//tool:subject names %q, which is not a parameter's wire name", s.Param)
		case t.Fields[i].Type.Scalar().Kind != model.String:
			b.errs.Add(d.SubjectPos, "//tool:subject names %q, which is not a string parameter", s.Param)
		}
	}
	return t
}

// funcResults reads the function's results: (O, error), O or error.
func (b *builder) funcResults(d annotations.Directives, fd *ast.FuncDecl, sig *types.Signature, f *model.Func, c *ctx) bool {
	res := sig.Results()
	isErr := func(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }
	switch {
	case res.Len() == 1 && isErr(res.At(0).Type()):
		f.Err = true
	case res.Len() == 1:
		f.Value = true
	case res.Len() == 2 && isErr(res.At(1).Type()) && !isErr(res.At(0).Type()):
		f.Value, f.Err = true, true
	default:
		b.errs.Add(b.pos(fd.Name.Pos()), "tool %s: %s returns %s; a tool's function returns (T, error), T or error", d.Name, fd.Name.Name, res.String())
		return false
	}
	for i := range res.Len() {
		e, why := b.exprOf(c, res.At(i).Type())
		if why != "" {
			b.errs.Add(b.pos(fd.Name.Pos()), "tool %s: a result of %s cannot be written in the generated file: %s", d.Name, fd.Name.Name, why)
			return false
		}
		f.Results = append(f.Results, e)
	}
	return true
}

func isSig(t types.Type) bool { _, ok := t.(*types.Signature); return ok }

// isNamedType reports whether t is the named type path.name.
func isNamedType(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// hasOption reports whether a tool tag's options name opt.
func hasOption(opts, opt string) bool {
	for _, item := range strings.Split(opts, ",") {
		if k, _, _ := strings.Cut(item, "="); k == opt {
			return true
		}
	}
	return false
}

// paramNames lists a signature's parameter names for a message.
func paramNames(sig *types.Signature) string {
	var names []string
	for i := range sig.Params().Len() {
		names = append(names, sig.Params().At(i).Name())
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// upperFirst returns s with its first letter upper-cased.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
