package load

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
	"github.com/toolgen/toolgen/runtime/permission"
)

// tool builds one tool from its input struct.
func (b *builder) tool(p *Unit, obj *types.TypeName, ts *ast.TypeSpec, d annotations.Directives, lines []annotations.Comment) *model.Tool {
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
		Idempotent:  d.Idempotent,
		Unexported:  d.Unexported,
		Concurrency: d.Concurrency,
		Interrupt:   d.Interrupt,
		SideEffect:  sideEffects[d.SideEffect],
		Loading:     d.Loading,
		Subject:     d.Subject,
		Timeout:     d.Timeout,
	}
	if !d.HasDescription {
		t.Description = b.docDescription(d, obj.Name(), lines)
	}
	c := &ctx{tool: t, pkg: p.Pkg, stack: []*types.Named{named}, keys: map[string]bool{}, typeErrs: p.TypeErrors, module: p.Module}
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

// sideEffects maps the grammar's values of //tool:side-effect to the
// runtime's; the unset directive to permission.Unknown, which a
// Definition reads as the default.
var sideEffects = map[annotations.SideEffect]permission.SideEffect{
	annotations.SideEffectUnset:       permission.Unknown,
	annotations.SideEffectReadOnly:    permission.ReadOnly,
	annotations.SideEffectMutating:    permission.Mutating,
	annotations.SideEffectDestructive: permission.Destructive,
}

// docDescription is the description of a tool without //tool:description:
// its doc comment's prose, less a first sentence that only restates the
// type's name. Either way a warning says what to write.
func (b *builder) docDescription(d annotations.Directives, typeName string, lines []annotations.Comment) string {
	prose := annotations.Prose(lines)
	desc, _ := annotations.DocDescription(prose, typeName, d.Name)
	const fix = "add //tool:description with what the tool does and when to use it"
	switch {
	case prose == "":
		b.warns.Add(d.Pos, "tool %s has no //tool:description and no doc comment, so the model will see no description; %s", d.Name, fix)
	case desc == "":
		b.warns.Add(d.Pos, "tool %s has no //tool:description and its doc comment only restates the type's name (%q), so the model will see no description; %s", d.Name, clip(prose), fix)
	default:
		b.warns.Add(d.Pos, "tool %s has no //tool:description, so the model is shown its doc comment instead (%q); %s", d.Name, clip(desc), fix)
	}
	return desc
}

// clip shortens s for a message: its first line, at most 60 runes.
func clip(s string) string {
	s, _, cut := strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	if cut {
		return s + " ..."
	}
	return s
}

// output builds the output type //tool:output names: a struct type of the
// tool's package, loaded as an input struct is (wire names from json tags,
// descriptions from doc comments), for the output schema.
func (b *builder) output(p *Unit, t *model.Tool, d annotations.Directives) *model.Output {
	if d.Output == "" {
		return nil
	}
	obj, _ := p.Pkg.Scope().Lookup(d.Output).(*types.TypeName)
	if obj == nil {
		b.errs.Add(d.OutputPos, "//tool:output names %s, which is not a type of package %s; declare the struct the tool's function returns there", d.Output, p.Pkg.Name())
		return nil
	}
	named, _ := obj.Type().(*types.Named)
	st, ok := obj.Type().Underlying().(*types.Struct)
	if !ok || named == nil || obj.IsAlias() || named.TypeParams().Len() > 0 {
		b.errs.Add(d.OutputPos, "//tool:output names %s, which is not a non-generic struct type; the output schema describes a JSON object", d.Output)
		return nil
	}
	// A context of its own: the output's wire names are not the input's.
	c := &ctx{tool: t, pkg: p.Pkg, stack: []*types.Named{named}, keys: map[string]bool{}, typeErrs: p.TypeErrors, module: p.Module}
	b.addGuard(c, named)
	out := &model.Output{TypeName: obj.Name(), Fields: b.fields(c, st, b.structSyntax(named), nil)}
	// The output's struct types are guarded as the input's are: a field
	// added to them without regenerating would be sent and refused by the
	// stale output schema. A type both bind is guarded once.
	for _, g := range c.guards {
		if !slices.ContainsFunc(t.Guards, func(h model.Guard) bool { return sameExpr(h.Type, g.Type) }) {
			t.Guards = append(t.Guards, g)
		}
	}
	return out
}

// sameExpr reports whether two type expressions spell the same type.
func sameExpr(a, b *model.TypeExpr) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Path != b.Path || a.Name != b.Name || a.Len != b.Len || len(a.Args) != len(b.Args) || len(a.Fields) != len(b.Fields) ||
		!sameExpr(a.Elem, b.Elem) || !sameExpr(a.Key, b.Key) {
		return false
	}
	for i := range a.Args {
		if !sameExpr(a.Args[i], b.Args[i]) {
			return false
		}
	}
	for i := range a.Fields {
		if a.Fields[i].Name != b.Fields[i].Name || a.Fields[i].Embedded != b.Fields[i].Embedded || a.Fields[i].Tag != b.Fields[i].Tag || !sameExpr(a.Fields[i].Type, b.Fields[i].Type) {
			return false
		}
	}
	return true
}

// ctx is the state of building one tool.
type ctx struct {
	tool  *model.Tool
	pkg   *types.Package // the package the generated file belongs to
	stack []*types.Named // named struct types being expanded, for recursion
	keys  map[string]bool

	guards  []model.Guard  // the struct types bound, for the guard
	guarded []*types.Named // their types, to add each once

	module   string        // identifies the tool's module (see Unit.Module); "" if unknown
	typeErrs []types.Error // the tool's package's type errors
	outside  *outsideUse   // set while binding a struct declared outside the module

	// params holds a function tool's //tool:param lines by the Go name of
	// the field each becomes in paramStruct, the generated input struct:
	// their options are checked at those lines.
	params      map[string]annotations.Param
	paramStruct *types.Struct
}

// fieldSyntax is the syntax of one struct field (one name of a field list).
type fieldSyntax struct {
	doc  *ast.CommentGroup
	tag  *ast.BasicLit // nil when its position is not in b.fset
	expr ast.Expr
}

// flatten lists the fields of sx. The tags of another package's
// declaration (from [Deps]) are left out: their positions are not the
// declaring file's, so messages use the field's position instead.
func (b *builder) flatten(sx *ast.StructType) []fieldSyntax {
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
			fs := fieldSyntax{doc: doc, tag: f.Tag, expr: f.Type}
			if b.isForeign(f.Pos()) {
				fs.tag = nil
			}
			out = append(out, fs)
		}
	}
	return out
}

// fields builds the bound fields of a struct; prefix is the Go selector
// path of an embedded struct whose fields are promoted.
func (b *builder) fields(c *ctx, st *types.Struct, sx *ast.StructType, prefix []string) []*model.Field {
	syn := b.flatten(sx)
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
				if n, ok := inner.(*types.Named); ok {
					if b.enter(c, n, pos) {
						esx := b.structSyntax(n)
						use := b.useOutside(c, n, pos, v.Name())
						add(b.fields(c, est, esx, append(slices.Clone(prefix), v.Name()))...)
						b.endOutside(c, use)
						c.stack = c.stack[:len(c.stack)-1]
					}
				} else {
					add(b.fields(c, est, nil, append(slices.Clone(prefix), v.Name()))...)
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
			OmitEmpty:   omitsEmpty(jsonTag),
		}
		typ := b.typeOf(c, v.Type(), fs.expr, pos, v.Name())
		if typ == nil {
			continue
		}
		f.Type = typ
		opts, terrs := annotations.ParseTag(toolTag)
		optPos := b.tagOffset(fs.tag, tagPos)
		if pp, ok := c.params[v.Name()]; ok && st == c.paramStruct {
			optPos = pp.OptionsPos
		}
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

// structSyntax finds the struct type syntax of a named type's declaration:
// in the files being loaded, or from [Deps] for another package's type.
func (b *builder) structSyntax(n *types.Named) *ast.StructType {
	ts, _, _ := b.typeSpec(n.Obj())
	if ts == nil {
		return nil
	}
	sx, _ := ts.Type.(*ast.StructType)
	return sx
}

// typeSpec finds the declaration of a type name and its doc comment lines,
// and reports whether its positions are in b.fset.
func (b *builder) typeSpec(obj *types.TypeName) (*ast.TypeSpec, []annotations.Comment, bool) {
	if !obj.Pos().IsValid() {
		return nil, nil, false
	}
	if f, ok := b.parsed[b.fset.Position(obj.Pos()).Filename]; ok {
		gd, ts := findSpec(f, obj.Name())
		if ts == nil {
			return nil, nil, false
		}
		return ts, b.comments(typeDoc(gd, ts)), true
	}
	td, ok := b.foreign(obj)
	if !ok {
		return nil, nil, false
	}
	if b.other == nil {
		// Past every position of b.fset, so that a position tells which
		// file set holds it (see isForeign).
		b.other = token.NewFileSet()
		b.otherBase = token.Pos(b.fset.Base())
		b.other.AddFile("", -1, b.fset.Base())
	}
	key := foreignKey(obj)
	f, ok := b.foreignFiles[key]
	if !ok {
		f, _, _ = parseDecl(b.other, key, td)
		b.foreignFiles[key] = f
	}
	if f == nil {
		return nil, nil, false
	}
	gd, ts := findSpec(f, obj.Name())
	if ts == nil {
		return nil, nil, false
	}
	var lines []annotations.Comment
	if g := typeDoc(gd, ts); g != nil {
		for _, c := range g.List {
			lines = append(lines, annotations.Comment{Pos: b.pos(c.Slash), Text: c.Text})
		}
	}
	return ts, lines, false
}

// isForeign reports whether p is a position in another package's
// declaration from [Deps], parsed into b.other.
func (b *builder) isForeign(p token.Pos) bool {
	return b.other != nil && p >= b.otherBase
}

// foreign returns another package's declaration of obj, once asked.
func (b *builder) foreign(obj *types.TypeName) (TypeDecl, bool) {
	if b.foreignFiles == nil {
		b.foreignFiles = map[string]*ast.File{}
		b.foreignDecls = map[string]TypeDecl{}
	}
	key := foreignKey(obj)
	if td, ok := b.foreignDecls[key]; ok {
		return td, true
	}
	if b.deps == nil || obj.Pkg() == nil {
		return TypeDecl{}, false
	}
	td, ok := b.deps.Decl(obj)
	if ok {
		b.foreignDecls[key] = td
	}
	return td, ok
}

func foreignKey(obj *types.TypeName) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// findSpec finds the declaration of the type named name in f.
func findSpec(f *ast.File, name string) (*ast.GenDecl, *ast.TypeSpec) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			if ts := spec.(*ast.TypeSpec); ts.Name.Name == name {
				return gd, ts
			}
		}
	}
	return nil, nil
}

// enumValues returns the values of a //tool:enum type's constants in
// declaration order, and whether the type is marked.
func (b *builder) enumValues(n *types.Named) ([]string, bool) {
	_, lines, local := b.typeSpec(n.Obj())
	d, _ := annotations.ParseDirectives(lines)
	if !d.Enum || n.Obj().Pkg() == nil {
		return nil, false
	}
	if local {
		return enumConsts(b.fset, n), true
	}
	td, _ := b.foreign(n.Obj())
	return td.Enum, true
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

// omitsEmpty reports whether a json tag's options leave an empty value out
// (omitempty, or omitzero, which leaves out a nil pointer, slice or map).
func omitsEmpty(jsonTag string) bool {
	_, opts, _ := strings.Cut(jsonTag, ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return false
}
