package provider

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// ErrNotStrict is wrapped by the error StrictSchema returns for a schema
// that OpenAI's strict mode cannot express.
var ErrNotStrict = errors.New("provider: schema cannot be strict")

// Limits of OpenAI's strict mode.
const (
	maxStrictDepth      = 10
	maxStrictProperties = 5000
)

// Keywords strict mode accepts as they are.
var strictKeywords = map[string]bool{
	"type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "enum": true, "const": true, "anyOf": true, "$ref": true,
	"$defs": true, "definitions": true, "description": true, "title": true,
	"pattern": true, "format": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true,
	"minItems": true, "maxItems": true,
}

// Keywords strict mode refuses but that only inform the model (the tool
// checks them itself): they move into the description.
var hintKeywords = []string{"default", "minLength", "maxLength", "minProperties", "maxProperties", "uniqueItems", "examples"}

// Keywords that describe the schema document, not the value: dropped.
var metaKeywords = []string{"$schema", "$id", "$comment"}

// StrictSchema returns the strict-mode form of an object schema: every
// object lists all its properties as required and has
// "additionalProperties": false; a property that was optional becomes
// nullable (its type gains "null", its enum gains null; a $ref or anyOf gains
// a null branch), so the model sends null for "absent" and tool.Input drops
// it again (the gate judges the call by the tool's own schema, where null
// is not a value); keywords strict mode refuses but that only inform the
// model (default, minLength, maxLength, a "format" outside the formats
// strict mode knows, ...) move into the description. s is not changed.
//
// A schema strict mode cannot express is an error wrapping ErrNotStrict that
// names the property and the reason: a map (additionalProperties as a
// schema or true), an object without declared properties, a property
// without a type, oneOf/allOf/not and the other keywords strict mode lacks,
// a root that is not an object (a root without properties is a tool
// without parameters), or more nesting or properties than OpenAI
// allows.
func StrictSchema(s map[string]any) (map[string]any, error) {
	c := &strictConv{}
	root := maps.Clone(s)
	if root == nil {
		root = map[string]any{}
	}
	if _, ok := root["type"]; !ok {
		root["type"] = "object"
	}
	if root["type"] != "object" {
		return nil, c.fail("", "the root must be an object schema, its type is %v", root["type"])
	}
	if _, ok := root["properties"]; !ok {
		if _, ok := root["additionalProperties"]; !ok {
			// A tool without declared parameters takes none.
			root["properties"] = map[string]any{}
		}
	}
	out, err := c.convert(root, "", 0)
	if err != nil {
		return nil, err
	}
	return out, nil
}

type strictConv struct {
	properties int
}

func (c *strictConv) fail(path, format string, args ...any) error {
	where := "the schema"
	if path != "" {
		where = fmt.Sprintf("property '%s'", path)
	}
	return fmt.Errorf("%w: %s: %s", ErrNotStrict, where, fmt.Sprintf(format, args...))
}

// convert returns the strict form of one schema node.
func (c *strictConv) convert(s map[string]any, path string, depth int) (map[string]any, error) {
	if depth > maxStrictDepth {
		return nil, c.fail(path, "nested more than %d levels deep", maxStrictDepth)
	}
	out := make(map[string]any, len(s))
	var hints []string
	for _, k := range slices.Sorted(maps.Keys(s)) {
		v := s[k]
		switch {
		case slices.Contains(metaKeywords, k):
		case slices.Contains(hintKeywords, k):
			if h := hint(k, v); h != "" {
				hints = append(hints, h)
			}
		case k == "format":
			if f, ok := v.(string); ok && slices.Contains(strictFormats, f) {
				out[k] = v
			} else if h := hint(k, v); h != "" {
				hints = append(hints, h)
			}
		case strictKeywords[k]:
			out[k] = v
		default:
			return nil, c.fail(path, "it uses %q, which strict mode does not support", k)
		}
	}
	if len(hints) > 0 {
		desc, _ := out["description"].(string)
		out["description"] = strings.TrimSpace(strings.TrimSpace(desc) + " " + strings.Join(hints, " "))
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := out[key]; ok {
			m, ok := defs.(map[string]any)
			if !ok {
				return nil, c.fail(path, "%s is not an object", key)
			}
			conv := make(map[string]any, len(m))
			for _, name := range slices.Sorted(maps.Keys(m)) {
				sub, ok := m[name].(map[string]any)
				if !ok {
					return nil, c.fail(join(path, key+"."+name), "the definition is not a schema object")
				}
				cs, err := c.convert(sub, join(path, key+"."+name), depth+1)
				if err != nil {
					return nil, err
				}
				conv[name] = cs
			}
			out[key] = conv
		}
	}
	if branches, ok := out["anyOf"]; ok {
		list, ok := anyList(branches)
		if !ok || len(list) == 0 {
			return nil, c.fail(path, "anyOf is not a list of schemas")
		}
		conv := make([]any, len(list))
		for i, b := range list {
			sub, ok := b.(map[string]any)
			if !ok {
				return nil, c.fail(path, "anyOf branch %d is not a schema object", i)
			}
			cs, err := c.convert(sub, path, depth+1)
			if err != nil {
				return nil, err
			}
			conv[i] = cs
		}
		out["anyOf"] = conv
	}
	types, err := typeNames(out["type"])
	if err != nil {
		return nil, c.fail(path, "%v", err)
	}
	_, hasRef := out["$ref"]
	_, hasAnyOf := out["anyOf"]
	_, hasEnum := out["enum"]
	_, hasConst := out["const"]
	_, hasProps := out["properties"]
	if len(types) == 0 && hasProps {
		types = []string{"object"}
		out["type"] = "object"
	}
	if len(types) == 0 && !hasRef && !hasAnyOf && !hasEnum && !hasConst {
		return nil, c.fail(path, "it has no type (a value of any type cannot be strict)")
	}
	if slices.Contains(types, "object") {
		if err := c.object(out, path, depth); err != nil {
			return nil, err
		}
	}
	if slices.Contains(types, "array") {
		items, ok := out["items"]
		if !ok {
			return nil, c.fail(path, "it is an array without an items schema")
		}
		sub, ok := items.(map[string]any)
		if !ok {
			return nil, c.fail(path, "its items is not a single schema object")
		}
		cs, err := c.convert(sub, path+"[]", depth+1)
		if err != nil {
			return nil, err
		}
		out["items"] = cs
	}
	return out, nil
}

// object makes an object node strict: all properties required, optional ones
// nullable, no additional properties.
func (c *strictConv) object(out map[string]any, path string, depth int) error {
	switch ap := out["additionalProperties"]; ap {
	case nil, false:
	default:
		if _, isSchema := ap.(map[string]any); isSchema {
			return c.fail(path, "it is a map (additionalProperties is a schema); strict mode needs every key declared")
		}
		return c.fail(path, "it allows undeclared keys (additionalProperties is %v)", ap)
	}
	rawProps, ok := out["properties"]
	if !ok {
		if _, has := out["additionalProperties"]; !has {
			return c.fail(path, "it is an object without declared properties")
		}
		rawProps = map[string]any{}
	}
	props, ok := rawProps.(map[string]any)
	if !ok {
		return c.fail(path, "properties is not an object")
	}
	c.properties += len(props)
	if c.properties > maxStrictProperties {
		return c.fail(path, "the schema has more than %d properties", maxStrictProperties)
	}
	required, err := stringList(out["required"])
	if err != nil {
		return c.fail(path, "required: %v", err)
	}
	names := slices.Sorted(maps.Keys(props))
	conv := make(map[string]any, len(props))
	for _, name := range names {
		sub, ok := props[name].(map[string]any)
		if !ok {
			return c.fail(join(path, name), "its schema is not an object")
		}
		cs, err := c.convert(sub, join(path, name), depth+1)
		if err != nil {
			return err
		}
		if !slices.Contains(required, name) {
			cs = nullable(cs)
		}
		conv[name] = cs
	}
	all := make([]any, len(names))
	for i, n := range names {
		all[i] = n
	}
	out["properties"] = conv
	out["required"] = all
	out["additionalProperties"] = false
	return nil
}

// nullable returns s accepting null as well.
func nullable(s map[string]any) map[string]any {
	if _, ok := s["const"]; ok {
		return wrapNull(s)
	}
	if _, ok := s["$ref"]; ok {
		return wrapNull(s)
	}
	if branches, ok := anyList(s["anyOf"]); ok {
		for _, b := range branches {
			if m, ok := b.(map[string]any); ok && m["type"] == "null" {
				return s
			}
		}
		s["anyOf"] = append(slices.Clone(branches), map[string]any{"type": "null"})
		return s
	}
	types, _ := typeNames(s["type"])
	if len(types) == 0 {
		return wrapNull(s)
	}
	if !slices.Contains(types, "null") {
		list := make([]any, 0, len(types)+1)
		for _, t := range types {
			list = append(list, t)
		}
		s["type"] = append(list, "null")
	}
	if enum, ok := anyList(s["enum"]); ok && !slices.Contains(enum, nil) {
		s["enum"] = append(slices.Clone(enum), nil)
	}
	return s
}

// anyList reads a list held as any slice ([]any, or []string as generated
// schemas hold enums), as []any.
func anyList(v any) ([]any, bool) {
	switch l := v.(type) {
	case []any:
		return l, true
	case nil:
		return nil, false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// strictFormats are the values of "format" strict mode accepts; any other
// moves into the description.
var strictFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// wrapNull returns anyOf [s, null], keeping the description on the outside.
func wrapNull(s map[string]any) map[string]any {
	out := map[string]any{}
	inner := maps.Clone(s)
	if d, ok := inner["description"]; ok {
		out["description"] = d
		delete(inner, "description")
	}
	out["anyOf"] = []any{inner, map[string]any{"type": "null"}}
	return out
}

func typeNames(v any) ([]string, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{t}, nil
	case []string:
		return t, nil
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("type list holds %v", e)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("type is %v", v)
}

func stringList(v any) ([]string, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return t, nil
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("holds %v, want names", e)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("is %T, want a list of names", v)
}

// hint words a keyword moved into the description.
func hint(k string, v any) string {
	val := "?"
	if data, err := json.Marshal(v); err == nil {
		val = string(data)
	}
	switch k {
	case "default":
		return "Default: " + val + "."
	case "minLength":
		return "At least " + val + " characters."
	case "maxLength":
		return "At most " + val + " characters."
	case "minProperties":
		return "At least " + val + " keys."
	case "maxProperties":
		return "At most " + val + " keys."
	case "format":
		return "Format: " + strings.Trim(val, `"`) + "."
	case "uniqueItems":
		if v == true {
			return "Items must be unique."
		}
		return ""
	}
	return "Examples: " + val + "."
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
