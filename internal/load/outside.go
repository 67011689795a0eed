package load

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/toolgen/toolgen/annotations"
)

// An outsideUse is a field of the user's whose struct type is declared
// outside the user's module (the standard library, a dependency). What is
// wrong inside such a type is reported at the user's field, with a fix the
// user can make there, not at a position in a file they cannot edit.
type outsideUse struct {
	pos      annotations.Pos // the user's field
	field    string          // its Go name
	typ      *types.Named
	mark     int          // len(b.errs) when binding the type began
	untagged []*types.Var // exported fields without a wire name
}

// useOutside starts binding the struct type n for the field name at pos.
// It returns nil when n is declared in the tool's module (its own fields
// are then the place to fix), or when an outer field already started.
func (b *builder) useOutside(c *ctx, n *types.Named, pos annotations.Pos, name string) *outsideUse {
	if c.outside != nil || c.module == "" || b.inModule(c, n.Obj()) {
		return nil
	}
	c.outside = &outsideUse{pos: pos, field: name, typ: n, mark: len(b.errs)}
	return c.outside
}

// inModule reports whether obj is declared in the tool's module.
func (b *builder) inModule(c *ctx, obj types.Object) bool {
	if obj.Pkg() == c.pkg {
		return true
	}
	return b.deps.Module(obj) == c.module
}

// endOutside ends the binding use started: the errors found inside the
// type move to the user's field, and fields without json tags become one
// error that shows the struct to declare instead.
func (b *builder) endOutside(c *ctx, use *outsideUse) {
	if use == nil {
		return
	}
	c.outside = nil
	tn := typeName(c, use.typ)
	for _, e := range b.errs[use.mark:] {
		e.Msg = fmt.Sprintf("field %s: type %s (declared outside this module, at %s) cannot be bound: %s; declare a struct of your own for it, or use json.RawMessage and decode it in the tool",
			use.field, tn, shortPos(e.Pos), e.Msg)
		e.Pos = use.pos
	}
	if st, ok := use.typ.Underlying().(*types.Struct); ok && st.NumFields() > 0 && !hasExported(st) {
		b.errs.Add(use.pos, "field %s: type %s is declared outside this module and has no exported fields, so nothing of it can be bound; take a string (or json.RawMessage) and build the %s in the tool", use.field, tn, tn)
		return
	}
	if len(use.untagged) == 0 {
		return
	}
	names := make([]string, len(use.untagged))
	for i, v := range use.untagged {
		names[i] = v.Name()
	}
	fieldWord := "field " + names[0] + " has"
	if len(names) > 1 {
		fieldWord = "fields " + strings.Join(names, ", ") + " have"
	}
	b.errs.Add(use.pos, "field %s: type %s is declared outside this module and its %s no json tag (toolgen never derives wire names from Go names); declare a struct of your own with json tags, e.g. %s, and convert it to %s in the tool",
		use.field, tn, fieldWord, b.ownStruct(c, use.typ), tn)
}

func hasExported(st *types.Struct) bool {
	for i := range st.NumFields() {
		if st.Field(i).Exported() {
			return true
		}
	}
	return false
}

// ownStruct writes the struct a user can declare in place of the foreign
// struct type n: its exported fields, each with its json tag or one
// suggested from its name.
func (b *builder) ownStruct(c *ctx, n *types.Named) string {
	st, _ := n.Underlying().(*types.Struct)
	qual := func(p *types.Package) string {
		if p == c.pkg {
			return ""
		}
		return p.Name()
	}
	var fields []string
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		wire, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if wire == "-" {
			continue
		}
		if wire == "" {
			wire = snake(f.Name())
		}
		fields = append(fields, fmt.Sprintf("%s %s `json:%q`", f.Name(), types.TypeString(f.Type(), qual), wire))
	}
	const most = 6
	if len(fields) > most {
		fields = append(fields[:most], "...")
	}
	return "struct { " + strings.Join(fields, "; ") + " }"
}

// shortPos names a position by the file's base name and line.
func shortPos(p annotations.Pos) string {
	if p.File == "" {
		return "an unknown position"
	}
	return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line)
}

// invalidType says why a field's type did not type-check: the type
// checker's own error within the type's syntax when there is one, and what
// to do.
func (b *builder) invalidType(c *ctx, expr ast.Expr) string {
	var text, why string
	if expr != nil {
		text = types.ExprString(expr)
		for _, e := range c.typeErrs {
			if e.Fset == b.fset && e.Pos >= expr.Pos() && e.Pos < expr.End() {
				why = e.Msg
				break
			}
		}
	}
	switch {
	case text != "" && why != "":
		return fmt.Sprintf("type %s does not compile (%s); declare it, or import the package that declares it", text, why)
	case text != "":
		return fmt.Sprintf("type %s does not compile; fix the compiler's error for this line", text)
	}
	return "its type does not compile; fix the compiler's error for this line"
}
