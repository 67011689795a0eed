package schema

import (
	"errors"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
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
	ve := v.full.validate(inst)
	if ve != nil && len(tentative) > 0 {
		refused := refusedNulls(ve, tentative)
		for _, k := range refused {
			delete(inst, k)
		}
		if len(refused) > 0 {
			ve = v.full.validate(inst)
		}
	}
	if ve == nil {
		return nil
	}
	t := translator{v: v, inst: inst}
	t.walk(ve)
	return t.out
}

// validate returns the validation error tree, nil when inst is valid.
func (f *fullSchema) validate(inst map[string]any) *jsonschema.ValidationError {
	err := f.sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		ve = &jsonschema.ValidationError{ErrorKind: &kind.Group{}}
	}
	return ve
}

// refusedNulls returns the keys among nulls whose null value the schema
// refuses: an error at the key itself, or the key named as not allowed.
func refusedNulls(ve *jsonschema.ValidationError, nulls []string) []string {
	var out []string
	var visit func(e *jsonschema.ValidationError)
	visit = func(e *jsonschema.ValidationError) {
		if len(e.InstanceLocation) == 1 && slices.Contains(nulls, e.InstanceLocation[0]) && !slices.Contains(out, e.InstanceLocation[0]) {
			out = append(out, e.InstanceLocation[0])
		}
		if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok && len(e.InstanceLocation) == 0 {
			for _, p := range ap.Properties {
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
func (t *translator) walk(e *jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
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

// schemaAt returns the schema object an error's SchemaURL points to, when it
// lies in the tool's own document.
func (t *translator) schemaAt(schemaURL string) map[string]any {
	base, frag, _ := strings.Cut(schemaURL, "#")
	if base != rootURL {
		return nil
	}
	cur := t.v.full.doc
	if frag != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			if u, err := url.PathUnescape(tok); err == nil {
				tok = u
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
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

// ratText writes a bound exactly: integers in full, other numbers as
// encoding/json writes them.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return formatNumber(f)
}

func (t *translator) translate(e *jsonschema.ValidationError) Violations {
	param := t.path(e.InstanceLocation)
	root := len(e.InstanceLocation) == 0
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var out Violations
		s := t.schemaAt(e.SchemaURL)
		for _, m := range k.Missing {
			if root {
				if p, ok := t.v.props[m]; ok {
					out = append(out, p.required)
					continue
				}
			}
			out = append(out, RequiredOf(join(param, m), typesOf(s, m)))
		}
		return out
	case *kind.DependentRequired:
		return t.requiredWith(param, k.Prop, k.Missing)
	case *kind.Dependency:
		return t.requiredWith(param, k.Prop, k.Missing)
	case *kind.AdditionalProperties:
		var names []string
		if root {
			names = t.v.names
		} else if s := t.schemaAt(e.SchemaURL); s != nil {
			names = declared(s)
		}
		out := make(Violations, 0, len(k.Properties))
		for _, p := range k.Properties {
			out = append(out, Unknown(join(param, p), names))
		}
		return out
	case *kind.FalseSchema:
		if strings.HasSuffix(e.SchemaURL, "/unevaluatedProperties") || strings.HasSuffix(e.SchemaURL, "/additionalProperties") {
			loc := e.InstanceLocation
			var names []string
			if len(loc) == 1 {
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
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		if o, ok := k.(*kind.OneOf); !ok || len(o.Subschemas) == 0 {
			if types := t.branchTypes(e); types != nil {
				return Violations{WrongTypeOf(param, types)}
			}
		}
	case *kind.Type:
		if len(e.InstanceLocation) == 1 {
			if p, ok := t.v.props[param]; ok && p.check {
				return Violations{p.wrong}
			}
		}
		return Violations{WrongTypeOf(param, k.Want)}
	case *kind.Enum:
		allowed := make([]string, len(k.Want))
		for i, w := range k.Want {
			allowed[i] = cut(render(w, allowedLimit), allowedLimit)
		}
		return Violations{NotInEnum(param, allowed, render(k.Got, 4*(EchoLimit+1)))}
	case *kind.Const:
		return Violations{NotConst(param, cut(render(k.Want, allowedLimit), allowedLimit), render(k.Got, 4*(EchoLimit+1)))}
	case *kind.Minimum:
		return Violations{atLeast(KindMinimum, param, "at least", ratText(k.Want))}
	case *kind.Maximum:
		return Violations{atLeast(KindMaximum, param, "at most", ratText(k.Want))}
	case *kind.ExclusiveMinimum:
		return Violations{atLeast(KindMinimum, param, "greater than", ratText(k.Want))}
	case *kind.ExclusiveMaximum:
		return Violations{atLeast(KindMaximum, param, "less than", ratText(k.Want))}
	case *kind.MultipleOf:
		return Violations{NotMultipleOf(param, ratText(k.Want))}
	case *kind.MinLength:
		return Violations{TooShort(param, k.Want)}
	case *kind.MaxLength:
		return Violations{TooLong(param, k.Want)}
	case *kind.MinItems:
		return Violations{TooFewItems(param, k.Want)}
	case *kind.MaxItems:
		return Violations{TooManyItems(param, k.Want)}
	case *kind.Pattern:
		return Violations{PatternMismatch(param, k.Want)}
	case *kind.Format:
		return Violations{BadFormat(param, k.Want)}
	case *kind.PropertyNames:
		return Violations{Invalid(join(param, k.Property), "this name is not allowed here")}
	case *kind.InvalidJsonValue:
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
func (t *translator) detail(e *jsonschema.ValidationError, it, its string) string {
	switch k := e.ErrorKind.(type) {
	case *kind.Not:
		return it + ` must not match the schema under "not"`
	case *kind.AnyOf:
		return it + ` must match one of the schemas under "anyOf"`
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			return it + ` must match one of the schemas under "oneOf"`
		}
		idx := make([]string, len(k.Subschemas))
		for i, s := range k.Subschemas {
			idx[i] = strconv.Itoa(s)
		}
		return it + ` matches the schemas ` + strings.Join(idx, " and ") + ` under "oneOf" and must match only one`
	case *kind.Contains:
		return it + ` must contain an item that matches the schema under "contains"`
	case *kind.MinContains:
		return it + " must contain at least " + count(k.Want, "item") + ` that match the schema under "contains"`
	case *kind.MaxContains:
		return it + " must contain at most " + count(k.Want, "item") + ` that match the schema under "contains"`
	case *kind.UniqueItems:
		return its + " items must be unique, but items " + strconv.Itoa(k.Duplicates[0]) + " and " + strconv.Itoa(k.Duplicates[1]) + " are equal"
	case *kind.MinProperties:
		return it + " must have at least " + count(k.Want, "member")
	case *kind.MaxProperties:
		return it + " must have at most " + count(k.Want, "member")
	case *kind.AdditionalItems:
		return it + " must have at most " + count(k.Count, "item")
	case *kind.Type:
		return it + " must be " + typeWords(k.Want)
	case *kind.Enum, *kind.Const:
		return it + " must be one of the values the schema allows"
	case *kind.PropertyNames:
		return "the parameter name '" + echo(k.Property) + "' is not allowed"
	}
	return strings.TrimRight(e.ErrorKind.LocalizedString(printer), ".")
}

// branchTypes returns the union of the wanted types when every branch of
// an anyOf or oneOf failed on its type alone, so that the sentence can say
// which types are accepted.
func (t *translator) branchTypes(e *jsonschema.ValidationError) []string {
	var types []string
	for _, c := range e.Causes {
		for len(c.Causes) == 1 {
			if _, ok := c.ErrorKind.(*kind.Type); ok {
				break
			}
			c = c.Causes[0]
		}
		k, ok := c.ErrorKind.(*kind.Type)
		if !ok || len(c.Causes) != 0 {
			return nil
		}
		for _, w := range k.Want {
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
