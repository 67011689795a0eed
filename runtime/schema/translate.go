package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// validateFull runs the complete validation of inst (the arguments as JSON
// values) and words every error as the gate words its own. tentative are
// the top-level keys given as null that no property declares: null is a
// value where the schema accepts it there, and absent where it does not,
// so a null the schema refuses is taken out and the arguments validated
// again without it.
func (v *Validator) validateFull(inst map[string]any, tentative []string) (out Violations) {
	defer func() {
		if p := recover(); p != nil {
			out = Violations{Arguments("the schema validator failed on them")}
		}
	}()
	ve := v.full.sch.Validate(inst)
	if ve != nil && len(tentative) > 0 {
		refused := refusedNulls(ve, tentative)
		for _, k := range refused {
			delete(inst, k)
		}
		if len(refused) > 0 {
			ve = v.full.sch.Validate(inst)
		}
	}
	if ve == nil {
		return nil
	}
	t := translator{v: v, inst: inst}
	t.walk(ve)
	return t.out
}

// refusedNulls returns the keys among nulls whose null value the schema
// refuses: an error at the key itself, or the key named as not allowed.
func refusedNulls(ve *complete.Error, nulls []string) []string {
	var out []string
	var visit func(e *complete.Error)
	visit = func(e *complete.Error) {
		if len(e.Location) == 1 && slices.Contains(nulls, e.Location[0]) && !slices.Contains(out, e.Location[0]) {
			out = append(out, e.Location[0])
		}
		if e.Kind == complete.AdditionalProperties && len(e.Location) == 0 {
			for _, p := range e.Names {
				if slices.Contains(nulls, p) && !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
		for _, c := range e.Causes {
			visit(c)
		}
	}
	visit(ve)
	return out
}

type translator struct {
	v    *Validator
	inst map[string]any
	out  Violations
}

// walk translates the errors of a tree; groups, references and allOf pass
// their causes through.
func (t *translator) walk(e *complete.Error) {
	if e.Kind == complete.Group {
		for _, c := range e.Causes {
			t.walk(c)
		}
		return
	}
	t.out = append(t.out, t.translate(e)...)
}

// path writes an instance location as the gate names parameters:
// edits[2].old_string.
func (t *translator) path(loc []string) string {
	var b strings.Builder
	var cur any = t.inst
	for i, tok := range loc {
		switch c := cur.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			n, err := strconv.Atoi(tok)
			if err == nil && n >= 0 && n < len(c) {
				cur = c[n]
			} else {
				cur = nil
			}
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(tok)
			if m, ok := c.(map[string]any); ok {
				cur = m[tok]
			} else {
				cur = nil
			}
		}
	}
	return b.String()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// schemaAt returns the schema object an error's keyword belongs to, when
// it lies in the tool's own document.
func (t *translator) schemaAt(e *complete.Error) map[string]any {
	if !e.InDoc {
		return nil
	}
	cur := t.v.full.doc
	for _, tok := range e.Keyword {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(c) {
				return nil
			}
			cur = c[n]
		default:
			return nil
		}
	}
	m, _ := cur.(map[string]any)
	return m
}

// declared returns the property names a schema object declares, sorted.
func declared(s map[string]any) []string {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (t *translator) translate(e *complete.Error) Violations {
	param := t.path(e.Location)
	root := len(e.Location) == 0
	switch e.Kind {
	case complete.Required:
		var out Violations
		s := t.schemaAt(e)
		for _, m := range e.Names {
			if root {
				if p, ok := t.v.props[m]; ok {
					out = append(out, p.required)
					continue
				}
			}
			out = append(out, RequiredOf(join(param, m), typesOf(s, m)))
		}
		return out
	case complete.DependentRequired:
		return t.requiredWith(param, e.Name, e.Names)
	case complete.AdditionalProperties:
		var names []string
		if root {
			names = t.v.names
		} else if s := t.schemaAt(e); s != nil {
			names = declared(s)
		}
		out := make(Violations, 0, len(e.Names))
		for _, p := range e.Names {
			out = append(out, Unknown(join(param, p), names))
		}
		return out
	case complete.FalseSchema:
		if last := lastOf(e.Keyword); last == "unevaluatedProperties" || last == "additionalProperties" {
			var names []string
			if len(e.Location) == 1 {
				names = t.v.names
			}
			return Violations{Unknown(param, names)}
		}
		if root {
			return Violations{Arguments("the schema accepts no arguments")}
		}
		return Violations{NotAllowed(param)}
	}
	if root {
		return Violations{Arguments(t.detail(e, "they", "their"))}
	}
	switch e.Kind {
	case complete.AnyOf, complete.OneOf:
		if e.Kind == complete.AnyOf || len(e.Indexes) == 0 {
			if types := t.branchTypes(e); types != nil {
				return Violations{WrongTypeOf(param, types)}
			}
		}
	case complete.Type:
		if len(e.Location) == 1 {
			if p, ok := t.v.props[param]; ok && p.check {
				return Violations{p.wrong}
			}
		}
		return Violations{WrongTypeOf(param, e.Names)}
	case complete.Enum:
		want, _ := e.Want.([]any)
		allowed := make([]string, len(want))
		for i, w := range want {
			allowed[i] = cut(render(w, allowedLimit), allowedLimit)
		}
		return Violations{NotInEnum(param, allowed, render(e.Got, 4*(EchoLimit+1)))}
	case complete.Const:
		return Violations{NotConst(param, cut(render(e.Want, allowedLimit), allowedLimit), render(e.Got, 4*(EchoLimit+1)))}
	case complete.Minimum:
		return Violations{atLeast(KindMinimum, param, "at least", e.Bound)}
	case complete.Maximum:
		return Violations{atLeast(KindMaximum, param, "at most", e.Bound)}
	case complete.ExclusiveMinimum:
		return Violations{atLeast(KindMinimum, param, "greater than", e.Bound)}
	case complete.ExclusiveMaximum:
		return Violations{atLeast(KindMaximum, param, "less than", e.Bound)}
	case complete.MultipleOf:
		return Violations{NotMultipleOf(param, e.Bound)}
	case complete.MinLength:
		return Violations{TooShort(param, e.N)}
	case complete.MaxLength:
		return Violations{TooLong(param, e.N)}
	case complete.MinItems:
		return Violations{TooFewItems(param, e.N)}
	case complete.MaxItems:
		return Violations{TooManyItems(param, e.N)}
	case complete.Pattern:
		return Violations{PatternMismatch(param, e.Name)}
	case complete.Format:
		return Violations{BadFormat(param, e.Name)}
	case complete.PropertyNames:
		return Violations{Invalid(join(param, e.Name), "this name is not allowed here")}
	case complete.InvalidValue:
		return Violations{Invalid(param, "its value has no JSON form")}
	}
	return Violations{Invalid(param, t.detail(e, "it", "its"))}
}

// requiredWith words dependentRequired.
func (t *translator) requiredWith(param, prop string, missing []string) Violations {
	out := make(Violations, 0, len(missing))
	for _, m := range missing {
		out = append(out, RequiredWith(join(param, m), prop))
	}
	return out
}

// typesOf returns the declared types of a property of s, for the required
// sentence.
func typesOf(s map[string]any, name string) []string {
	props, _ := s["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	switch t := p["type"].(type) {
	case string:
		if _, known := typeMasks[t]; known {
			return []string{t}
		}
	case []any:
		types, ok := stringsOf(t)
		if ok {
			for _, n := range types {
				if _, known := typeMasks[n]; !known {
					return nil
				}
			}
			return types
		}
	}
	return nil
}

// detail words the rule an error breaks as a phrase for [Invalid] (it,
// its) and [Arguments] (they, their).
func (t *translator) detail(e *complete.Error, it, its string) string {
	switch e.Kind {
	case complete.Not:
		return it + ` must not match the schema under "not"`
	case complete.AnyOf:
		return it + ` must match one of the schemas under "anyOf"`
	case complete.OneOf:
		if len(e.Indexes) == 0 {
			return it + ` must match one of the schemas under "oneOf"`
		}
		idx := make([]string, len(e.Indexes))
		for i, s := range e.Indexes {
			idx[i] = strconv.Itoa(s)
		}
		return it + ` matches the schemas ` + strings.Join(idx, " and ") + ` under "oneOf" and must match only one`
	case complete.Contains:
		return it + ` must contain an item that matches the schema under "contains"`
	case complete.MinContains:
		return it + " must contain at least " + count(e.N, "item") + ` that match the schema under "contains"`
	case complete.MaxContains:
		return it + " must contain at most " + count(e.N, "item") + ` that match the schema under "contains"`
	case complete.UniqueItems:
		return its + " items must be unique, but items " + strconv.Itoa(e.Indexes[0]) + " and " + strconv.Itoa(e.Indexes[1]) + " are equal"
	case complete.MinProperties:
		return it + " must have at least " + count(e.N, "member")
	case complete.MaxProperties:
		return it + " must have at most " + count(e.N, "member")
	case complete.AdditionalItems:
		return it + " must have at most " + count(e.N, "item")
	case complete.Type:
		return it + " must be " + typeWords(e.Names)
	case complete.Enum, complete.Const:
		return it + " must be one of the values the schema allows"
	case complete.PropertyNames:
		return "the parameter name '" + echo(e.Name) + "' is not allowed"
	}
	return e.Message
}

// branchTypes returns the union of the wanted types when every branch of
// an anyOf or oneOf failed on its type alone, so that the sentence can say
// which types are accepted.
func (t *translator) branchTypes(e *complete.Error) []string {
	var types []string
	for _, c := range e.Causes {
		for len(c.Causes) == 1 {
			if c.Kind == complete.Type {
				break
			}
			c = c.Causes[0]
		}
		if c.Kind != complete.Type || len(c.Causes) != 0 {
			return nil
		}
		for _, w := range c.Names {
			if !slices.Contains(types, w) {
				types = append(types, w)
			}
		}
	}
	return types
}

// typeWords words a list of types with their articles: "a string or an
// integer".
func typeWords(types []string) string {
	m := WrongTypeOf("x", types).Message
	m = strings.TrimPrefix(m, "Parameter 'x' must be ")
	return strings.TrimSuffix(m, "."+notExecuted)
}

// lastOf returns the last of toks, "" when there is none.
func lastOf(toks []string) string {
	if len(toks) == 0 {
		return ""
	}
	return toks[len(toks)-1]
}
