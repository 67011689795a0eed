package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// fullPackage is the package whose import links complete validation.
const fullPackage = "github.com/toolgen/toolgen/runtime/schema/full"

// fullSchema is a schema compiled for complete JSON Schema validation by
// the validator package full registers.
type fullSchema struct {
	sch complete.Schema
	doc any // the schema as JSON values, to read names and types for messages
}

// normalize turns a schema written as Go values ([]string, int, nested
// map literals) into the values encoding/json decodes, numbers as
// json.Number, which is what the complete validation reads.
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
	doc, err := decodeNumbers(data)
	if err != nil {
		return nil, fmt.Errorf("schema: the schema cannot be read back from JSON: %w", err)
	}
	return doc, nil
}

// decodeNumbers decodes one JSON value, numbers as json.Number.
func decodeNumbers(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// staticNullable tells from a property's schema alone whether it accepts
// null: true, no type, or a type list with "null", an enum (if any) with
// null and a const (if any) that is null. It is exact for the properties
// the fast pass covers (see coveredProperty), whose other keywords do not
// apply to null.
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
		if c, ok := p["const"]; ok && c != nil {
			return false
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

// uncovered returns why the fast gate alone does not decide the schema
// exactly as JSON Schema does (null-as-absent aside), as a phrase naming
// the first keyword it does not cover ("anyOf" at /properties/x), or ""
// when it does: an object schema whose assertions are "type": "object",
// "properties" of covered properties, "required" and a boolean
// "additionalProperties".
func uncovered(doc any) string {
	root, ok := doc.(map[string]any)
	if !ok {
		return "a schema that is not an object"
	}
	for _, k := range sortedKeys(root) {
		v := root[k]
		switch k {
		case "$schema":
			s, _ := v.(string)
			if !containsString(fastDialects, strings.TrimSuffix(s, "#")) {
				return "the dialect " + quoted(v)
			}
		case "type":
			if v != "object" {
				return `"type" ` + quoted(v) + " at the top"
			}
		case "required":
		case "additionalProperties":
			if _, ok := v.(bool); !ok {
				return `"additionalProperties" as a schema`
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return `"properties" that is not an object`
			}
			for _, name := range sortedKeys(props) {
				if why := uncoveredProperty(props[name]); why != "" {
					return why + " at /properties/" + pointerToken(name)
				}
			}
		default:
			if assertingKeywords[k] {
				return strconv.Quote(k)
			}
		}
	}
	return ""
}

// uncoveredProperty returns why the fast gate does not check a property
// completely, or "" when it does: true, or a schema whose assertions are a
// "type" of known names, a non-empty "enum", "const", the numeric ranges,
// the lengths and sizes, and a "pattern", each in the shape the fast gate
// reads.
func uncoveredProperty(p any) string {
	switch s := p.(type) {
	case bool:
		if !s {
			return "a false schema"
		}
		return ""
	case map[string]any:
		for _, k := range sortedKeys(s) {
			v := s[k]
			covered := true
			switch k {
			case "type":
				types, ok := stringsOf(v)
				if t, isString := v.(string); isString {
					types, ok = []string{t}, true
				}
				if !ok || len(types) == 0 {
					covered = false
				}
				for _, t := range types {
					if _, known := typeMasks[t]; !known {
						covered = false
					}
				}
			case "enum":
				if l, ok := v.([]any); !ok || len(l) == 0 {
					covered = false
				}
			case "const":
			case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
				_, covered = v.(json.Number)
			case "minLength", "maxLength", "minItems", "maxItems":
				n, ok := toNumber(v)
				if _, isNum := v.(json.Number); !isNum || !ok || !n.exact || n.i < 0 || n.i > math.MaxInt32 {
					covered = false
				}
			case "pattern":
				pat, ok := v.(string)
				if !ok {
					covered = false
				} else if _, err := regexp.Compile(pat); err != nil {
					covered = false
				}
			default:
				if assertingKeywords[k] || strings.HasPrefix(k, "$") && k != "$comment" && k != "$id" && k != "$anchor" {
					covered = false
				}
			}
			if !covered {
				return strconv.Quote(k)
			}
		}
		return ""
	}
	return "a schema that is neither an object nor a boolean"
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pointerToken escapes a name for a JSON pointer.
func pointerToken(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
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
	d, err := decodeNumbers(data)
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
