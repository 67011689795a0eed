package provider

import (
	"fmt"
	"sort"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Some Gemini models and endpoints (older models, some Vertex AI
// deployments) take a function's parameters only as the OpenAPI 3.0 subset
// of the "parameters" field, not as parametersJsonSchema. GeminiToolsOpenAPI
// gives that form: what the subset cannot say (additionalProperties,
// patternProperties, const, not, if/then/else, dependent schemas, multiples,
// exclusive bounds, unique items, $ref to a definition that cannot be
// inlined; a closed object's additionalProperties false is dropped, as the
// gate refuses unknown properties anyway) is said in the description instead, as the strict OpenAI path
// does, and the tool is reported: the model still reads the rule, but
// Gemini does not enforce it; the gate still does.

// GeminiOpenAPIDeclaration declares a tool with its parameters in the
// OpenAPI 3.0 subset.
type GeminiOpenAPIDeclaration struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// GeminiOpenAPITool is a Gemini tool of OpenAPI-subset declarations.
type GeminiOpenAPITool struct {
	FunctionDeclarations []GeminiOpenAPIDeclaration `json:"functionDeclarations"`
}

// GeminiToolsOpenAPI declares defs with their parameters in the OpenAPI
// subset; lossy names each tool whose schema said something the subset
// cannot, and what (it was moved into a description).
func GeminiToolsOpenAPI(defs []tool.Definition) (tools []GeminiOpenAPITool, lossy map[string]error) {
	decls := make([]GeminiOpenAPIDeclaration, 0, len(defs))
	for _, d := range defs {
		c := &openAPIConv{defs: definitionsOf(d.InputSchema)}
		params := c.schema(inputSchema(d.InputSchema), 0)
		decls = append(decls, GeminiOpenAPIDeclaration{Name: d.Name, Description: d.Description, Parameters: params})
		if len(c.lost) > 0 {
			if lossy == nil {
				lossy = map[string]error{}
			}
			lossy[d.Name] = fmt.Errorf("provider: gemini parameters cannot say %s; said in the description instead", strings.Join(c.lost, ", "))
		}
	}
	return []GeminiOpenAPITool{{FunctionDeclarations: decls}}, lossy
}

// openAPIConv converts one tool's schema.
type openAPIConv struct {
	defs map[string]any
	lost []string
}

// definitionsOf returns a schema's $defs (or definitions).
func definitionsOf(s map[string]any) map[string]any {
	if d, ok := s["$defs"].(map[string]any); ok {
		return d
	}
	d, _ := s["definitions"].(map[string]any)
	return d
}

// openAPIKept are the keywords the subset says, carried over as they are.
var openAPIKept = map[string]bool{"description": true, "title": true, "format": true, "pattern": true, "default": true, "example": true,
	"minimum": true, "maximum": true, "minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"minProperties": true, "maxProperties": true, "required": true, "nullable": true}

// openAPISilent are keywords that carry no rule for the model.
var openAPISilent = map[string]bool{"$schema": true, "$id": true, "$defs": true, "definitions": true, "$comment": true, "examples": true, "readOnly": true, "writeOnly": true, "deprecated": true}

func (c *openAPIConv) schema(s map[string]any, depth int) map[string]any {
	out := map[string]any{}
	if depth > 32 {
		c.lose("nesting deeper than 32 levels")
		return map[string]any{"type": "OBJECT"}
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(strings.TrimPrefix(ref, "#/$defs/"), "#/definitions/")
		if def, ok := c.defs[name].(map[string]any); ok && name != ref {
			return c.schema(def, depth+1)
		}
		c.lose("$ref " + ref)
		return map[string]any{"type": "OBJECT", "description": "A value as " + ref + " describes."}
	}
	var notes []string
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := s[k]
		switch {
		case k == "type":
			switch t := v.(type) {
			case string:
				out["type"] = strings.ToUpper(t)
			case []any:
				var kinds []string
				for _, x := range t {
					if x == "null" {
						out["nullable"] = true
					} else if xs, ok := x.(string); ok {
						kinds = append(kinds, strings.ToUpper(xs))
					}
				}
				if len(kinds) == 1 {
					out["type"] = kinds[0]
				} else if len(kinds) > 1 {
					var alts []any
					for _, k := range kinds {
						alts = append(alts, map[string]any{"type": k})
					}
					out["anyOf"] = alts
				}
			}
		case k == "enum":
			var vals []any
			for _, x := range asSlice(v) {
				vals = append(vals, fmt.Sprint(x))
			}
			out["enum"] = vals
		case k == "const":
			out["enum"] = []any{fmt.Sprint(v)}
		case k == "properties":
			props := map[string]any{}
			var order []string
			for name := range asMap(v) {
				order = append(order, name)
			}
			sort.Strings(order) // deterministic, and the order Gemini is told
			kept := order[:0]
			for _, name := range order {
				if pm, ok := asMap(v)[name].(map[string]any); ok {
					props[name] = c.schema(pm, depth+1)
					kept = append(kept, name)
				}
			}
			order = kept
			if len(order) > 0 {
				out["properties"] = props
				out["propertyOrdering"] = order
			}
		case k == "items":
			if im, ok := v.(map[string]any); ok {
				out["items"] = c.schema(im, depth+1)
			}
		case k == "anyOf" || k == "oneOf":
			var alts []any
			for _, x := range asSlice(v) {
				if xm, ok := x.(map[string]any); ok {
					alts = append(alts, c.schema(xm, depth+1))
				}
			}
			out["anyOf"] = alts
			if k == "oneOf" {
				notes = append(notes, "exactly one of the alternatives")
			}
		case k == "additionalProperties":
			switch a := v.(type) {
			case bool:
				// false: closed objects are the rule here, and the gate
				// refuses an unknown property with a sentence naming it.
			case map[string]any:
				notes = append(notes, "other properties as "+describe(a))
				c.lose("additionalProperties")
			}
		case openAPIKept[k]:
			out[k] = v
		case openAPISilent[k]:
		default:
			notes = append(notes, fmt.Sprintf("%s %v", k, clip80(v)))
			c.lose(k)
		}
	}
	if _, ok := out["type"]; !ok {
		if _, alts := out["anyOf"]; !alts {
			if _, props := out["properties"]; props {
				out["type"] = "OBJECT"
			}
		}
	}
	if len(notes) > 0 {
		desc, _ := out["description"].(string)
		if desc != "" && !strings.HasSuffix(desc, ".") {
			desc += "."
		}
		out["description"] = strings.TrimSpace(desc + " Also: " + strings.Join(notes, "; ") + ".")
	}
	return out
}

func (c *openAPIConv) lose(what string) {
	for _, l := range c.lost {
		if l == what {
			return
		}
	}
	c.lost = append(c.lost, what)
}

func asSlice(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	}
	return nil
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }

// describe says a sub-schema in a few words, for a description.
func describe(s map[string]any) string {
	if t, ok := s["type"].(string); ok {
		return t
	}
	return "described"
}

// clip80 renders a keyword's value for a description.
func clip80(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
