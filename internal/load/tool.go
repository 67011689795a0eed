package load

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// tool builds one tool from its input struct.
func (b *builder) tool(p *packages.Package, obj *types.TypeName, ts *ast.TypeSpec, d annotations.Directives, lines []annotations.Comment) *model.Tool {
	pos := b.pos(ts.Name.Pos())
	if d.Name == "" {
		b.errs.Add(d.Pos, "type %s has //tool: directives but no //tool:name; add one, e.g. //tool:name %s", obj.Name(), strings.TrimSuffix(obj.Name(), "Input"))
		return nil
	}
	if obj.IsAlias() {
		b.errs.Add(pos, "tool %s: %s is an alias; declare the input as a struct type (type %s struct{...})", d.Name, obj.Name(), obj.Name())
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	if named != nil && named.TypeParams().Len() > 0 {
		b.errs.Add(pos, "tool %s: input type %s is generic; declare a non-generic struct type", d.Name, obj.Name())
		return nil
	}
	st, ok := obj.Type().Underlying().(*types.Struct)
	sx, _ := ts.Type.(*ast.StructType)
	if !ok || named == nil {
		b.errs.Add(pos, "tool %s: input type %s is not a struct; declare type %s struct{...}", d.Name, obj.Name(), obj.Name())
		return nil
	}
	t := &model.Tool{
		Pos:         pos,
		Name:        d.Name,
		Description: d.Description,
		TypeName:    obj.Name(),
		Keywords:    d.Keywords,
		Title:       d.Title,
		OpenWorld:   d.OpenWorld,
		Concurrency: d.Concurrency,
		Interrupt:   d.Interrupt,
		SideEffect:  d.SideEffect,
		Loading:     d.Loading,
		Subject:     d.Subject,
	}
	if !d.HasDescription {
		t.Description = annotations.Prose(lines)
	}
	if t.Description == "" {
		b.errs.Add(d.Pos, "tool %s has no description; add //tool:description or a doc comment", d.Name)
	}
	c := &ctx{tool: t, pkg: p.Types, stack: []*types.Named{named}, keys: map[string]bool{}, typeErrs: p.TypeErrors}
	if p.Module != nil {
		c.modDir = p.Module.Dir
	}
	b.addGuard(c, named)
	t.Fields = b.fields(c, st, sx, nil)
	t.Guards = c.guards
	t.Output = b.output(p, t, d)
	if s := t.Subject; s != nil {
		i := slices.IndexFunc(t.Fields, func(f *model.Field) bool { return f.Wire == s.Param })
		switch {
		case i < 0:
			b.errs.Add(d.SubjectPos, "//tool:subject names %q, which is not a top-level wire name of %s", s.Param, obj.Name())
		case t.Fields[i].Type.Scalar().Kind != model.String:
			b.errs.Add(d.SubjectPos, "//tool:subject names %q, which is not a string field", s.Param)
		}
	}
	return t
}

// output builds the output type //tool:output names: a struct type of the
// tool's package, loaded as an input struct is (wire names from json tags,
// descriptions from doc comments), for the output schema.
func (b *builder) output(p *packages.Package, t *model.Tool, d annotations.Directives) *model.Output {
	if d.Output == "" {
		return nil
	}
	obj, _ := p.Types.Scope().Lookup(d.Output).(*types.TypeName)
	if obj == nil {
		b.errs.Add(d.OutputPos, "//tool:output names %s, which is not a type of package %s; declare the struct the tool's function returns there", d.Output, p.Types.Name())
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok || named == nil || obj.IsAlias() || named.TypeParams().Len() > 0 {
		b.errs.Add(d.OutputPos, "//tool:output names %s, which is not a non-generic struct type; the output schema describes a JSON object", d.Output)
		return nil
	}
	// A context of its own: the output's types are not the input's guards.
	c := &ctx{tool: t, pkg: p.Types, stack: []*types.Named{named}, keys: map[string]bool{}, typeErrs: p.TypeErrors}
	if p.Module != nil {
		c.modDir = p.Module.Dir
	}
	return &model.Output{TypeName: obj.Name(), Fields: b.fields(c, st, b.structSyntax(named), nil)}
}

// ctx is the state of building one tool.
type ctx struct {
	tool  *model.Tool
	pkg   *types.Package // the package the generated file belongs to
	stack []*types.Named // named struct types being expanded, for recursion
	keys  map[string]bool

	guards  []model.Guard  // the struct types bound, for the guard
	guarded []*types.Named // their types, to add each once

	modDir   string        // the tool's module directory; "" if unknown
	typeErrs []types.Error // the tool's package's type errors
	outside  *outsideUse   // set while binding a struct declared outside the module
}

// fieldSyntax is the syntax of one struct field (one name of a field list).
type fieldSyntax struct {
	doc  *ast.CommentGroup
	tag  *ast.BasicLit
	expr ast.Expr
}

func flatten(sx *ast.StructType) []fieldSyntax {
	if sx == nil {
		return nil
	}
	var out []fieldSyntax
	for _, f := range sx.Fields.List {
		doc := f.Doc
		if doc == nil {
			doc = f.Comment
		}
		n := max(1, len(f.Names))
		for range n {
			out = append(out, fieldSyntax{doc: doc, tag: f.Tag, expr: f.Type})
		}
	}
	return out
}

// fields builds the bound fields of a struct; prefix is the Go selector
// path of an embedded struct whose fields are promoted.
func (b *builder) fields(c *ctx, st *types.Struct, sx *ast.StructType, prefix []string) []*model.Field {
	syn := flatten(sx)
	if len(syn) != st.NumFields() {
		syn = nil
	}
	var out []*model.Field
	wires := map[string]annotations.Pos{}
	add := func(fs ...*model.Field) {
		for _, f := range fs {
			if prev, ok := wires[f.Wire]; ok {
				b.errs.Add(f.Pos, "wire name %q is already used at %s; wire names must be unique in an object", f.Wire, where(prev, f.Pos))
				continue
			}
			wires[f.Wire] = f.Pos
			out = append(out, f)
		}
	}
	for i := range st.NumFields() {
		v := st.Field(i)
		var fs fieldSyntax
		if syn != nil {
			fs = syn[i]
		}
		pos := b.pos(v.Pos())
		tag := reflect.StructTag(st.Tag(i))
		jsonTag, hasJSON := tag.Lookup("json")
		wire, _, _ := strings.Cut(jsonTag, ",")
		toolTag, hasTool := tag.Lookup(annotations.TagKey)
		tagPos := pos
		if fs.tag != nil {
			tagPos = b.pos(fs.tag.Pos())
		}
		if _, opts, ok := strings.Cut(jsonTag, ","); ok && jsonTag != "-" && slices.Contains(strings.Split(opts, ","), "string") {
			// encoding/json would read "5" into an int; the schema and the
			// binder read the JSON type itself, so they would disagree.
			b.errs.Add(tagPos, "field %s: the json option \",string\" is not supported (the schema gives the field's own JSON type); remove it, or make the field a string", v.Name())
			continue
		}
		switch {
		case jsonTag == "-":
			if hasTool {
				b.errs.Add(tagPos, "field %s is skipped (json:\"-\") but has a tool tag; remove one of them", v.Name())
			}
			continue
		case v.Embedded() && wire == "":
			inner := types.Unalias(v.Type())
			if _, isPtr := inner.(*types.Pointer); isPtr {
				if _, isStruct := inner.Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct); isStruct {
					b.errs.Add(pos, "embedded field %s is a pointer; embed the struct by value, or give it a json name", v.Name())
					continue
				}
			}
			if est, ok := inner.Underlying().(*types.Struct); ok {
				if hasTool {
					b.errs.Add(tagPos, "embedded struct %s has a tool tag; its fields are promoted, so tag them instead", v.Name())
				}
				var esx *ast.StructType
				if n, ok := inner.(*types.Named); ok {
					if b.enter(c, n, pos) {
						esx = b.structSyntax(n)
						use := b.useOutside(c, n, pos, v.Name())
						add(b.fields(c, est, esx, append(slices.Clone(prefix), v.Name()))...)
						b.endOutside(c, use)
						c.stack = c.stack[:len(c.stack)-1]
					}
				} else {
					add(b.fields(c, est, esx, append(slices.Clone(prefix), v.Name()))...)
				}
				continue
			}
			if !v.Exported() {
				continue
			}
			if c.outside != nil {
				c.outside.untagged = append(c.outside.untagged, v)
				continue
			}
			b.errs.Add(pos, "embedded field %s has no wire name; add a json tag, e.g. json:%q", v.Name(), strconv.Quote(lowerFirst(v.Name())))
			continue
		case !v.Exported():
			if hasTool || (hasJSON && wire != "") {
				b.errs.Add(pos, "field %s is unexported but has a %s tag; export it or remove the tag", v.Name(), map[bool]string{true: "tool", false: "json"}[hasTool])
			}
			continue
		case wire == "" && c.outside != nil:
			c.outside.untagged = append(c.outside.untagged, v)
			continue
		case wire == "":
			b.errs.Add(pos, "field %s has no wire name; add a json tag, e.g. json:%s (wire names are never derived from Go names)", v.Name(), strconv.Quote(snake(v.Name())))
			continue
		}
		f := &model.Field{
			Pos:         pos,
			GoPath:      append(slices.Clone(prefix), v.Name()),
			Wire:        wire,
			Description: annotations.Prose(b.comments(fs.doc)),
		}
		typ := b.typeOf(c, v.Type(), fs.expr, pos, v.Name())
		if typ == nil {
			continue
		}
		f.Type = typ
		opts, terrs := annotations.ParseTag(toolTag)
		optPos := b.tagOffset(fs.tag, tagPos)
		for _, e := range terrs {
			b.errs.Add(optPos.Shift(e.Offset), "field %s: tool tag: %s", v.Name(), e.Msg)
		}
		if len(terrs) == 0 {
			b.constraints(f, opts, optPos, v.Name())
		}
		add(f)
	}
	return out
}

// tagOffset returns the position of the first byte of the tool tag's value
// inside a raw-string tag literal, or fallback.
func (b *builder) tagOffset(lit *ast.BasicLit, fallback annotations.Pos) annotations.Pos {
	if lit == nil || !strings.HasPrefix(lit.Value, "`") {
		return fallback
	}
	key := annotations.TagKey + `:"`
	i := strings.Index(lit.Value, key)
	if i < 0 {
		return fallback
	}
	return b.pos(lit.Pos()).Shift(i + len(key))
}

// enter pushes a named struct type on the expansion stack; it reports a
// recursive type instead.
func (b *builder) enter(c *ctx, n *types.Named, pos annotations.Pos) bool {
	for _, s := range c.stack {
		if types.Identical(s, n) {
			b.errs.Add(pos, "type %s refers to itself; toolgen does not support recursive types: use json.RawMessage or any for the recursive part", typeName(c, n))
			return false
		}
	}
	c.stack = append(c.stack, n)
	b.addGuard(c, n)
	return true
}

// typeName spells t for a message as the user writes it: qualified by
// package name (dep.Target, not example.com/dep.Target), unqualified in
// the tool's own package.
func typeName(c *ctx, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == c.pkg {
			return ""
		}
		return p.Name()
	})
}

// structSyntax finds the struct type syntax of a named type's declaration,
// parsing the declaring file when it is not one of the loaded ones.
func (b *builder) structSyntax(n *types.Named) *ast.StructType {
	ts, _ := b.typeSpec(n.Obj())
	if ts == nil {
		return nil
	}
	sx, _ := ts.Type.(*ast.StructType)
	return sx
}

// typeSpec finds the declaration of a type name and its doc comment lines.
func (b *builder) typeSpec(obj *types.TypeName) (*ast.TypeSpec, []annotations.Comment) {
	if !obj.Pos().IsValid() {
		return nil, nil
	}
	name := b.fset.Position(obj.Pos()).Filename
	f, ok := b.parsed[name]
	fset := b.fset
	if !ok {
		if b.other == nil {
			b.other = token.NewFileSet()
		}
		f, _ = parser.ParseFile(b.other, name, nil, parser.ParseComments|parser.SkipObjectResolution)
		b.parsed[name] = f
	}
	if f == nil {
		return nil, nil
	}
	if fset.File(f.Pos()) == nil {
		fset = b.other
	}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			if ts.Name.Name != obj.Name() {
				continue
			}
			var lines []annotations.Comment
			if g := typeDoc(gd, ts); g != nil {
				for _, c := range g.List {
					p := fset.Position(c.Slash)
					lines = append(lines, annotations.Comment{Pos: annotations.Pos{File: p.Filename, Line: p.Line, Col: p.Column}, Text: c.Text})
				}
			}
			return ts, lines
		}
	}
	return nil, nil
}

// enumValues returns the values of a //tool:enum type's constants in
// declaration order, and whether the type is marked.
func (b *builder) enumValues(n *types.Named) ([]string, bool) {
	_, lines := b.typeSpec(n.Obj())
	d, _ := annotations.ParseDirectives(lines)
	if !d.Enum || n.Obj().Pkg() == nil {
		return nil, false
	}
	scope := n.Obj().Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if k, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(k.Type(), n) && k.Val().Kind() == constant.String {
			consts = append(consts, k)
		}
	}
	slices.SortStableFunc(consts, func(x, y *types.Const) int {
		px, py := b.fset.Position(x.Pos()), b.fset.Position(y.Pos())
		if px.Filename != py.Filename {
			return strings.Compare(px.Filename, py.Filename)
		}
		return px.Offset - py.Offset
	})
	var vals []string
	for _, k := range consts {
		v := constant.StringVal(k.Val())
		if !slices.Contains(vals, v) {
			vals = append(vals, v)
		}
	}
	return vals, true
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// snake suggests a wire name for a Go name: FilePath gives file_path and
// HTTPProxy gives http_proxy.
func snake(s string) string {
	var b strings.Builder
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			if i > 0 && (!isUpper(s[i-1]) || i+1 < len(s) && !isUpper(s[i+1]) && s[i+1] != '_') {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
