package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// rootURL is the address a compiled schema document is filed under. It is
// never fetched: references that leave the document are refused (see
// noLoader). The .invalid domain can never resolve.
const rootURL = "https://toolgen.invalid/input-schema.json"

// printer words the validator's own texts (compile errors, rare kinds).
var printer = message.NewPrinter(language.English)

// noLoader refuses every document the schema refers to by address: a tool's
// schema is checked on its own, and the gate reads neither the network nor
// the disk on a schema's behalf.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("the gate does not load %s: put what the schema refers to in the schema itself (\"$defs\")", u)
}

// olderDrafts are the dialects before 2019-09, where the validator asserts
// "format" by default; the gate keeps it an annotation there too.
var olderDrafts = []string{"draft-04", "draft-06", "draft-07"}

// annotationFormats are the formats the validator knows ("regex" cannot be
// replaced, so it stays asserted in the older drafts).
var annotationFormats = []string{
	"date-time", "date", "time", "duration", "period", "email", "idn-email",
	"hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri",
	"iri-reference", "uri-template", "json-pointer", "relative-json-pointer",
	"uuid", "semver",
}

// fullSchema is a schema compiled for complete JSON Schema validation.
type fullSchema struct {
	sch *jsonschema.Schema
	doc any // the schema as JSON values, to read names and types for messages
	// nullable tells, for each top-level property, whether its schema
	// accepts null (then a null value is a value, not an absent one).
	nullable map[string]bool
}

// normalize turns a schema written as Go values ([]string, int, nested
// map literals) into the values encoding/json decodes, numbers as
// json.Number, which is what the validator reads.
//
// A null "properties", "required" or other keyword at the top counts as
// absent, as the fast gate reads it: in a Go literal nil means "none".
func normalize(s map[string]any) (any, error) {
	root := make(map[string]any, len(s))
	for k, v := range s {
		if v != nil {
			root[k] = v
		}
	}
	data, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("schema: the schema cannot be written as JSON: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("schema: the schema cannot be read back from JSON: %w", err)
	}
	return doc, nil
}

// compileFull compiles doc (normalized) for complete validation.
func compileFull(doc any, names []string) (f *fullSchema, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, fmt.Errorf("schema: the schema does not compile: the validator failed: %v", p)
		}
	}()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if root, ok := doc.(map[string]any); ok {
		if sch, ok := root["$schema"].(string); ok && isOlderDraft(sch) {
			for _, f := range annotationFormats {
				c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
			}
		}
	}
	if err := c.AddResource(rootURL, doc); err != nil {
		return nil, compileError(err)
	}
	sch, err := c.Compile(rootURL)
	if err != nil {
		return nil, compileError(err)
	}
	f = &fullSchema{sch: sch, doc: doc, nullable: make(map[string]bool, len(names))}
	props, _ := propertiesOf(doc)
	for _, name := range names {
		ps, declared := props[name]
		if !declared {
			continue // required but not described: any value, null too
		}
		sub, err := c.Compile(rootURL + "#/properties/" + pointerToken(name))
		if err != nil {
			// A name the fragment cannot carry: judge the schema itself.
			f.nullable[name] = staticNullable(ps)
			continue
		}
		f.nullable[name] = sub.Validate(nil) == nil
	}
	return f, nil
}

func isOlderDraft(s string) bool {
	for _, d := range olderDrafts {
		if strings.Contains(s, "json-schema.org/"+d+"/") {
			return true
		}
	}
	return false
}

// pointerToken escapes a property name for a JSON pointer in a URL fragment.
func pointerToken(name string) string {
	name = strings.ReplaceAll(name, "~", "~0")
	name = strings.ReplaceAll(name, "/", "~1")
	return url.PathEscape(name)
}

// staticNullable tells from a property's schema alone whether it accepts
// null: true, no type, or a type list with "null", and an enum (if any)
// with null.
func staticNullable(ps any) bool {
	switch p := ps.(type) {
	case bool:
		return p
	case map[string]any:
		if t, ok := p["type"]; ok {
			types, _ := stringsOf(t)
			if !containsString(types, "null") && t != "null" {
				return false
			}
		}
		if e, ok := p["enum"].([]any); ok {
			for _, v := range e {
				if v == nil {
					return true
				}
			}
			return false
		}
		return true
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// compileError words why a schema does not compile.
func compileError(err error) error {
	var sv *jsonschema.SchemaValidationError
	if errors.As(err, &sv) {
		var ve *jsonschema.ValidationError
		if errors.As(sv.Err, &ve) {
			var parts []string
			for _, l := range leaves(ve) {
				at := "/" + strings.Join(l.InstanceLocation, "/")
				parts = append(parts, fmt.Sprintf("at %s: %s", at, l.ErrorKind.LocalizedString(printer)))
				if len(parts) == 5 {
					break
				}
			}
			return fmt.Errorf("schema: the schema is not a valid JSON schema: %s", strings.Join(parts, "; "))
		}
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, rootURL, "the schema")
	return fmt.Errorf("schema: the schema does not compile: %s", msg)
}

// leaves returns the errors at the bottom of an error tree.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// propertiesOf returns a schema object's "properties".
func propertiesOf(s any) (map[string]any, bool) {
	m, ok := s.(map[string]any)
	if !ok {
		return nil, false
	}
	p, ok := m["properties"].(map[string]any)
	return p, ok
}

// keywordsSkipped are the keywords that assert something or apply
// subschemas; a schema whose only such keywords are the ones the fast gate
// evaluates completely (below) needs no further validation. Every other
// keyword is an annotation (or unknown, which JSON Schema ignores).
var assertingKeywords = map[string]bool{
	"allOf": true, "anyOf": true, "oneOf": true, "not": true, "if": true, "then": true, "else": true,
	"dependentSchemas": true, "prefixItems": true, "items": true, "contains": true,
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"propertyNames": true, "unevaluatedItems": true, "unevaluatedProperties": true,
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true, "dependencies": true, "additionalItems": true,
	"type": true, "enum": true, "const": true, "multipleOf": true, "maximum": true,
	"exclusiveMaximum": true, "minimum": true, "exclusiveMinimum": true, "maxLength": true,
	"minLength": true, "pattern": true, "maxItems": true, "minItems": true, "uniqueItems": true,
	"maxContains": true, "minContains": true, "maxProperties": true, "minProperties": true,
	"required": true, "dependentRequired": true, "contentSchema": true,
}

// fastDialects are the values of "$schema" under which the fast gate's
// reading of its keywords is the standard's (draft 2019-09 and 2020-12;
// "format" an annotation). Older drafts and other dialects get complete
// validation.
var fastDialects = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"https://json-schema.org/draft/2019-09/schema",
}

// coveredRoot reports whether the fast gate alone decides the schema
// exactly as JSON Schema does (null-as-absent aside): an object schema whose
// assertions are "type": "object", "properties" of covered properties,
// "required" and a boolean "additionalProperties".
func coveredRoot(doc any) bool {
	root, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range root {
		switch k {
		case "$schema":
			s, _ := v.(string)
			if !containsString(fastDialects, strings.TrimSuffix(s, "#")) {
				return false
			}
		case "type":
			if v != "object" {
				return false
			}
		case "required":
		case "additionalProperties":
			if _, ok := v.(bool); !ok {
				return false
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return false
			}
			for _, p := range props {
				if !coveredProperty(p) {
					return false
				}
			}
		default:
			if assertingKeywords[k] {
				return false
			}
		}
	}
	return true
}

// coveredProperty reports whether the fast gate checks a property
// completely: true, or a schema whose assertions are a "type" of known
// names, a non-empty "enum", "const", the numeric ranges, the lengths and
// sizes, and a "pattern", each in the shape the fast gate reads.
func coveredProperty(p any) bool {
	switch s := p.(type) {
	case bool:
		return s
	case map[string]any:
		for k, v := range s {
			switch k {
			case "type":
				types, ok := stringsOf(v)
				if t, isString := v.(string); isString {
					types, ok = []string{t}, true
				}
				if !ok || len(types) == 0 {
					return false
				}
				for _, t := range types {
					if _, known := typeMasks[t]; !known {
						return false
					}
				}
			case "enum":
				if l, ok := v.([]any); !ok || len(l) == 0 {
					return false
				}
			case "const":
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				if _, ok := v.(json.Number); !ok {
					return false
				}
			case "minLength", "maxLength", "minItems", "maxItems":
				n, ok := toNumber(v)
				if _, isNum := v.(json.Number); !isNum || !ok || !n.exact || n.i < 0 || n.i > math.MaxInt32 {
					return false
				}
			case "pattern":
				pat, ok := v.(string)
				if !ok {
					return false
				}
				if _, err := regexp.Compile(pat); err != nil {
					return false
				}
			default:
				if assertingKeywords[k] || strings.HasPrefix(k, "$") && k != "$comment" && k != "$id" && k != "$anchor" {
					return false
				}
			}
		}
		return true
	}
	return false
}

// jsonValue returns v as the values encoding/json decodes (map[string]any,
// []any, string, bool, numbers, nil), converting only what is not already
// in that form: the complete validation reads nothing else. A value that
// has no JSON form (a func, a map that contains itself) becomes
// unreadable{}, which the validator reports instead of following.
func jsonValue(v any) any {
	if plain(v, 0) {
		return v
	}
	var data []byte
	if raw, ok := v.(json.RawMessage); ok {
		data = raw
	} else {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return unreadable{}
		}
	}
	d, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return unreadable{}
	}
	return d
}

// unreadable stands for a value without a JSON form.
type unreadable struct{}

// plain reports whether v holds only decoded-JSON values.
func plain(v any, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch x := v.(type) {
	case nil, string, bool, float64, json.Number, int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64:
		return true
	case map[string]any:
		for _, e := range x {
			if !plain(e, depth+1) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !plain(e, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}
