package full

import (
	"encoding/json"
	"math/big"
	"net/url"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// convert turns the validator's error tree into complete's, which package
// schema words.
func convert(ve *jsonschema.ValidationError) *complete.Error {
	base, frag, _ := strings.Cut(ve.SchemaURL, "#")
	e := &complete.Error{
		Location: ve.InstanceLocation,
		Keyword:  pointerTokens(frag),
		InDoc:    base == rootURL,
		Message:  strings.TrimRight(ve.ErrorKind.LocalizedString(printer), "."),
	}
	for _, c := range ve.Causes {
		e.Causes = append(e.Causes, convert(c))
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		e.Kind = complete.Group
	case *kind.Required:
		e.Kind, e.Names = complete.Required, k.Missing
	case *kind.DependentRequired:
		e.Kind, e.Name, e.Names = complete.DependentRequired, k.Prop, k.Missing
	case *kind.Dependency:
		e.Kind, e.Name, e.Names = complete.DependentRequired, k.Prop, k.Missing
	case *kind.AdditionalProperties:
		e.Kind, e.Names = complete.AdditionalProperties, k.Properties
	case *kind.FalseSchema:
		e.Kind = complete.FalseSchema
	case *kind.AnyOf:
		e.Kind = complete.AnyOf
	case *kind.OneOf:
		e.Kind, e.Indexes = complete.OneOf, k.Subschemas
	case *kind.Type:
		e.Kind, e.Names = complete.Type, k.Want
	case *kind.Enum:
		e.Kind, e.Want, e.Got = complete.Enum, k.Want, k.Got
	case *kind.Const:
		e.Kind, e.Want, e.Got = complete.Const, k.Want, k.Got
	case *kind.Minimum:
		e.Kind, e.Bound = complete.Minimum, ratText(k.Want)
	case *kind.Maximum:
		e.Kind, e.Bound = complete.Maximum, ratText(k.Want)
	case *kind.ExclusiveMinimum:
		e.Kind, e.Bound = complete.ExclusiveMinimum, ratText(k.Want)
	case *kind.ExclusiveMaximum:
		e.Kind, e.Bound = complete.ExclusiveMaximum, ratText(k.Want)
	case *kind.MultipleOf:
		e.Kind, e.Bound = complete.MultipleOf, ratText(k.Want)
	case *kind.MinLength:
		e.Kind, e.N = complete.MinLength, k.Want
	case *kind.MaxLength:
		e.Kind, e.N = complete.MaxLength, k.Want
	case *kind.MinItems:
		e.Kind, e.N = complete.MinItems, k.Want
	case *kind.MaxItems:
		e.Kind, e.N = complete.MaxItems, k.Want
	case *kind.Pattern:
		e.Kind, e.Name = complete.Pattern, k.Want
	case *kind.Format:
		e.Kind, e.Name = complete.Format, k.Want
	case *kind.PropertyNames:
		e.Kind, e.Name = complete.PropertyNames, k.Property
	case *kind.InvalidJsonValue:
		e.Kind = complete.InvalidValue
	case *kind.Not:
		e.Kind = complete.Not
	case *kind.Contains:
		e.Kind = complete.Contains
	case *kind.MinContains:
		e.Kind, e.N = complete.MinContains, k.Want
	case *kind.MaxContains:
		e.Kind, e.N = complete.MaxContains, k.Want
	case *kind.UniqueItems:
		e.Kind, e.Indexes = complete.UniqueItems, k.Duplicates[:]
	case *kind.MinProperties:
		e.Kind, e.N = complete.MinProperties, k.Want
	case *kind.MaxProperties:
		e.Kind, e.N = complete.MaxProperties, k.Want
	case *kind.AdditionalItems:
		e.Kind, e.N = complete.AdditionalItems, k.Count
	}
	return e
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
	b, err := json.Marshal(f)
	if err != nil {
		return r.FloatString(6)
	}
	return string(b)
}

// pointerTokens splits a JSON pointer as a URL fragment writes it into its
// tokens.
func pointerTokens(frag string) []string {
	frag = strings.TrimPrefix(frag, "/")
	if frag == "" {
		return nil
	}
	toks := strings.Split(frag, "/")
	for i, tok := range toks {
		if u, err := url.PathUnescape(tok); err == nil {
			tok = u
		}
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return toks
}
