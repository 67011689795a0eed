package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// maxErrorsListed bounds the places a malformed schema's error names.
const maxErrorsListed = 5

// wellFormed checks doc (normalized) against the part of the draft 2020-12
// and 2019-09 metaschemas that needs no validator: the shape of every
// keyword both drafts define, at every level of the schema. It asserts
// nothing those metaschemas allow, so that a schema the complete
// validation would compile is never refused here; what it cannot judge
// ("$ref" targets, older drafts, the formats of "$id") is left to the
// complete validation. A schema naming another dialect in "$schema" is
// not checked here.
func wellFormed(doc any) error {
	if root, ok := doc.(map[string]any); ok {
		if d, ok := root["$schema"].(string); ok && !containsString(fastDialects, strings.TrimSuffix(d, "#")) {
			return nil
		}
	}
	w := shapeCheck{}
	w.schema(doc, "", 0)
	if len(w.errs) == 0 {
		return nil
	}
	return fmt.Errorf("schema: the schema is not a valid JSON schema: %s", strings.Join(w.errs, "; "))
}

type shapeCheck struct{ errs []string }

func (w *shapeCheck) fail(at, format string, args ...any) {
	if len(w.errs) < maxErrorsListed {
		if at == "" {
			at = "/"
		}
		w.errs = append(w.errs, "at "+at+": "+fmt.Sprintf(format, args...))
	}
}

// The keywords checked, by shape, each defined alike by draft 2020-12 and
// 2019-09 (the keywords only one of them defines are unknown, and so
// free, in the other): schemaKeywords take one schema, schemaMaps an
// object of schemas, schemaLists a non-empty list of schemas.
var (
	schemaKeywords = []string{"additionalProperties", "not", "if", "then", "else", "contains",
		"propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	schemaMaps     = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaLists    = []string{"allOf", "anyOf", "oneOf"}
	numberKeywords = []string{"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"}
	countKeywords  = []string{"maxLength", "minLength", "maxItems", "minItems", "maxProperties",
		"minProperties", "maxContains", "minContains"}
	stringKeywords = []string{"title", "description", "$comment", "format", "contentEncoding",
		"contentMediaType", "$ref", "$schema", "$anchor"}
	boolKeywords = []string{"deprecated", "readOnly", "writeOnly", "uniqueItems"}
)

// schema checks one schema: an object or a boolean.
func (w *shapeCheck) schema(s any, at string, depth int) {
	if depth > maxDepth || len(w.errs) >= maxErrorsListed {
		return
	}
	if _, ok := s.(bool); ok {
		return
	}
	m, ok := s.(map[string]any)
	if !ok {
		w.fail(at, "a schema must be an object or a boolean, got %s", typeName(s))
		return
	}
	for _, k := range sortedKeys(m) {
		v, kat := m[k], at+"/"+pointerToken(k)
		switch {
		case k == "type":
			w.typeKeyword(v, kat)
		case k == "enum" || k == "examples":
			if _, ok := v.([]any); !ok {
				w.fail(kat, "must be an array, got %s", typeName(v))
			}
		case k == "required":
			w.uniqueStrings(v, kat)
		case k == "dependentRequired":
			o, ok := v.(map[string]any)
			if !ok {
				w.fail(kat, "must be an object, got %s", typeName(v))
				break
			}
			for _, name := range sortedKeys(o) {
				w.uniqueStrings(o[name], kat+"/"+pointerToken(name))
			}
		case k == "items":
			if l, ok := v.([]any); ok { // 2019-09's form
				for i, e := range l {
					w.schema(e, fmt.Sprintf("%s/%d", kat, i), depth+1)
				}
				break
			}
			w.schema(v, kat, depth+1)
		case slices.Contains(schemaKeywords, k):
			w.schema(v, kat, depth+1)
		case slices.Contains(schemaMaps, k):
			o, ok := v.(map[string]any)
			if !ok {
				w.fail(kat, "must be an object, got %s", typeName(v))
				break
			}
			for _, name := range sortedKeys(o) {
				if k == "patternProperties" {
					if _, err := regexp.Compile(name); err != nil {
						w.fail(kat, "%q is not a regular expression: %v", name, err)
					}
				}
				w.schema(o[name], kat+"/"+pointerToken(name), depth+1)
			}
		case slices.Contains(schemaLists, k):
			l, ok := v.([]any)
			if !ok || len(l) == 0 {
				w.fail(kat, "must be a non-empty array of schemas")
				break
			}
			for i, e := range l {
				w.schema(e, fmt.Sprintf("%s/%d", kat, i), depth+1)
			}
		case k == "multipleOf":
			if n, ok := v.(json.Number); !ok || !positive(n) {
				w.fail(kat, "must be a number greater than 0, got %s", quoted(v))
			}
		case slices.Contains(numberKeywords, k):
			if _, ok := v.(json.Number); !ok {
				w.fail(kat, "must be a number, got %s", typeName(v))
			}
		case slices.Contains(countKeywords, k):
			if n, ok := toNumber(v); !ok || classify(v) != jInteger || n.less(number{exact: true}) {
				w.fail(kat, "must be a non-negative integer, got %s", quoted(v))
			}
		case k == "pattern":
			p, ok := v.(string)
			if !ok {
				w.fail(kat, "must be a string, got %s", typeName(v))
			} else if _, err := regexp.Compile(p); err != nil {
				w.fail(kat, "%q is not a regular expression: %v", p, err)
			}
		case slices.Contains(stringKeywords, k):
			if _, ok := v.(string); !ok {
				w.fail(kat, "must be a string, got %s", typeName(v))
			}
		case slices.Contains(boolKeywords, k):
			if _, ok := v.(bool); !ok {
				w.fail(kat, "must be a boolean, got %s", typeName(v))
			}
		case k == "$id":
			if id, ok := v.(string); !ok || strings.Contains(strings.TrimSuffix(id, "#"), "#") {
				w.fail(kat, "must be a URI reference without a fragment, got %s", quoted(v))
			}
		}
	}
}

// typeKeyword checks "type": a JSON type's name, or a non-empty list of
// distinct names.
func (w *shapeCheck) typeKeyword(v any, at string) {
	if t, ok := v.(string); ok {
		if _, known := typeMasks[t]; !known {
			w.fail(at, "%s is not a JSON type (array, boolean, integer, null, number, object, string)", quoted(t))
		}
		return
	}
	l, ok := v.([]any)
	if !ok || len(l) == 0 {
		w.fail(at, "must be a type's name or a non-empty array of them, got %s", quoted(v))
		return
	}
	seen := map[string]bool{}
	for _, e := range l {
		t, ok := e.(string)
		if _, known := typeMasks[t]; !ok || !known {
			w.fail(at, "%s is not a JSON type (array, boolean, integer, null, number, object, string)", quoted(e))
			return
		}
		if seen[t] {
			w.fail(at, "names %q twice", t)
			return
		}
		seen[t] = true
	}
}

// uniqueStrings checks a list of distinct strings.
func (w *shapeCheck) uniqueStrings(v any, at string) {
	l, ok := v.([]any)
	if !ok {
		w.fail(at, "must be an array of strings, got %s", typeName(v))
		return
	}
	seen := map[string]bool{}
	for _, e := range l {
		s, ok := e.(string)
		if !ok {
			w.fail(at, "must be an array of strings, got %s in it", typeName(e))
			return
		}
		if seen[s] {
			w.fail(at, "names %s twice", quoted(s))
			return
		}
		seen[s] = true
	}
}

// positive reports whether n is greater than 0.
func positive(n json.Number) bool {
	x, ok := toNumber(n)
	return ok && (number{exact: true}).less(x)
}

// quoted writes a schema's value for an error: a string in Go's quotes,
// anything else as compact JSON, cut to EchoLimit.
func quoted(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(cut(s, EchoLimit))
	}
	return render(v, EchoLimit)
}
