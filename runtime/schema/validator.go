package schema

import (
	"fmt"
	"reflect"
	"slices"
	"unicode/utf8"
)

// typeMask is a set of JSON-schema types.
type typeMask uint8

const (
	maskString typeMask = 1 << iota
	maskInteger
	maskNumber
	maskBoolean
	maskArray
	maskObject
	maskNull
)

var typeMasks = map[string]typeMask{
	"string":  maskString,
	"integer": maskInteger,
	"number":  maskNumber,
	"boolean": maskBoolean,
	"array":   maskArray,
	"object":  maskObject,
	"null":    maskNull,
}

// accepts reports whether a value of kind k has one of the types in m.
// Values whose JSON type cannot be told are accepted.
func (m typeMask) accepts(k jsonKind) bool {
	switch k {
	case jString:
		return m&maskString != 0
	case jInteger:
		return m&(maskInteger|maskNumber) != 0
	case jNumber:
		return m&maskNumber != 0
	case jBoolean:
		return m&maskBoolean != 0
	case jArray:
		return m&maskArray != 0
	case jObject:
		return m&maskObject != 0
	case jNull:
		return m&maskNull != 0
	}
	return true
}

// lenientKeys are the keywords whose meaning the gate does not evaluate; a
// property using one is not checked at all.
var lenientKeys = [...]string{"$ref", "oneOf", "anyOf", "allOf", "not"}

// allowedLimit bounds the text of one enum value in a message: schemas are
// trusted, but a Go value can contain itself.
const allowedLimit = 1 << 12

// cut shortens s to limit bytes (at a character boundary) followed by "...".
func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	i := limit
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// property is the compiled check of one declared parameter.
type property struct {
	check    bool      // false: the gate lets any value through
	mask     typeMask  // the accepted types
	required Violation // the sentence when it is required and missing
	wrong    Violation // the sentence for a value of the wrong type
	enum     []any     // nil: no enum check
	allowed  []string  // enum rendered for the message
}

// Validator is a compiled schema: the gate for one tool's arguments. It is
// immutable and safe for concurrent use.
type Validator struct {
	props    map[string]*property
	names    []string // declared names, sorted: for Unknown's suggestion
	required []string // required names, in the schema's order, without repeats
	closed   bool     // additionalProperties is false
}

// Compile reads a tool's input schema into a [Validator].
//
// It fails only for a schema it cannot read: "properties" that is not an
// object, "required" that is not a list of strings, or a property schema that
// is neither an object nor a boolean (true and false are valid JSON schemas;
// the gate lets any value of such a property through). A null "properties"
// or "required" counts as absent. Everything else it does not know is
// ignored, and a nil schema compiles to a validator that accepts any
// arguments.
//
// The schema is only read, never modified. The Validator shares the schema's
// enum values (it copies the lists, not the values in them), so a schema
// must not be changed while its Validator is in use.
func Compile(s map[string]any) (*Validator, error) {
	v := &Validator{props: map[string]*property{}}
	var names []string
	if raw, ok := s["properties"]; ok && raw != nil {
		props, ok := asObject(raw)
		if !ok {
			return nil, fmt.Errorf(`schema: "properties" must be an object, got %s`, typeName(raw))
		}
		names = make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			p, err := compileProperty(name, props[name])
			if err != nil {
				return nil, err
			}
			v.props[name] = p
		}
	}
	if raw, ok := s["required"]; ok && raw != nil {
		list, err := requiredList(raw)
		if err != nil {
			return nil, err
		}
		added := false
		for _, name := range list {
			if slices.Contains(v.required, name) {
				continue
			}
			v.required = append(v.required, name)
			if _, ok := v.props[name]; !ok {
				// Required but not described: declared, and not checked.
				v.props[name] = &property{required: Required(name, "")}
				names = append(names, name)
				added = true
			}
		}
		if added {
			slices.Sort(names)
		}
	}
	v.names = names
	if ap, ok := s["additionalProperties"].(bool); ok && !ap {
		v.closed = true
	}
	return v, nil
}

func compileProperty(name string, raw any) (*property, error) {
	if _, ok := raw.(bool); ok {
		return &property{required: Required(name, "")}, nil
	}
	ps, ok := asObject(raw)
	if !ok {
		return nil, fmt.Errorf("schema: property %q must be an object, got %s", name, typeName(raw))
	}
	p := &property{check: true}

	// The declared types. An unknown name, a malformed "type" or no "type"
	// at all turns the check off.
	var types []string
	switch t := ps["type"].(type) {
	case string:
		types = []string{t}
	case nil:
		p.check = false
	default:
		list, ok := stringsOf(t)
		if !ok || len(list) == 0 {
			p.check = false
		}
		types = list
	}
	for _, t := range types {
		m, known := typeMasks[t]
		if !known {
			p.check = false
			types = nil
			break
		}
		p.mask |= m
	}
	if len(types) == 1 {
		p.required = Required(name, types[0])
		p.wrong = WrongType(name, types[0])
	} else {
		p.required = RequiredOf(name, types)
		p.wrong = WrongTypeOf(name, types)
	}

	for _, k := range lenientKeys {
		if _, ok := ps[k]; ok {
			p.check = false
		}
	}
	if !p.check {
		return p, nil
	}

	if list, ok := listOf(ps["enum"]); ok && len(list) > 0 {
		p.enum = slices.Clone(list)
		p.allowed = make([]string, len(list))
		for i, e := range list {
			p.allowed[i] = cut(render(e, allowedLimit), allowedLimit)
		}
	}
	return p, nil
}

// requiredList reads "required".
func requiredList(raw any) ([]string, error) {
	if list, ok := stringsOf(raw); ok {
		return list, nil
	}
	if items, ok := listOf(raw); ok {
		for i, it := range items {
			if _, ok := it.(string); !ok {
				return nil, fmt.Errorf(`schema: "required" must be a list of strings, got %s at index %d`, typeName(it), i)
			}
		}
	}
	return nil, fmt.Errorf(`schema: "required" must be a list of strings, got %s`, typeName(raw))
}

// asObject reads a schema object: map[string]any, or another map with string
// keys (as a Go literal may hold).
func asObject(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, m != nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String || rv.IsNil() {
		return nil, false
	}
	return members(v)
}

// listOf reads a list: []any or any other slice or array.
func listOf(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Slice, reflect.Array:
		return elements(v)
	}
	return nil, false
}

// stringsOf reads a list of strings.
func stringsOf(v any) ([]string, bool) {
	if l, ok := v.([]string); ok {
		return l, true
	}
	items, ok := listOf(v)
	if !ok {
		return nil, false
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// Validate checks args against the schema and returns what is wrong, nil
// when nothing is. args is the tool call's arguments with top-level nulls
// dropped (a nil value counts as missing all the same); it is only read.
//
// The order is fixed: first the missing required parameters, in the order of
// the schema's "required" list; then the given parameters in sorted order,
// each with at most one violation (unknown, wrong type, or outside the
// enum). Validate never panics; a nil Validator accepts everything.
func (v *Validator) Validate(args map[string]any) Violations {
	if v == nil || v.ok(args) {
		return nil
	}
	return v.report(args)
}

// ok is Validate's fast path: true when there is nothing to report. It does
// not allocate for the value types encoding/json produces.
func (v *Validator) ok(args map[string]any) bool {
	for _, name := range v.required {
		if classify(args[name]) == jNull {
			return false
		}
	}
	for k, val := range args {
		kind := classify(val)
		if kind == jNull {
			continue
		}
		p, declared := v.props[k]
		if !declared {
			if v.closed {
				return false
			}
			continue
		}
		if p.violated(val, kind) != 0 {
			return false
		}
	}
	return true
}

// report lists the violations in their documented order.
func (v *Validator) report(args map[string]any) Violations {
	var out Violations
	for _, name := range v.required {
		if classify(args[name]) == jNull {
			out = append(out, v.props[name].required)
		}
	}
	keys := make([]string, 0, len(args))
	for k, val := range args {
		if classify(val) != jNull {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		val := args[k]
		p, declared := v.props[k]
		if !declared {
			if v.closed {
				out = append(out, Unknown(k, v.names))
			}
			continue
		}
		switch p.violated(val, classify(val)) {
		case KindType:
			out = append(out, p.wrong)
		case KindEnum:
			out = append(out, NotInEnum(k, p.allowed, render(val, 4*(EchoLimit+1))))
		}
	}
	return out
}

// violated returns the kind of the property's violation by val, or 0.
func (p *property) violated(val any, kind jsonKind) Kind {
	if !p.check || kind == jUnknown {
		return 0
	}
	if !p.mask.accepts(kind) {
		return KindType
	}
	if p.enum != nil && !p.inEnum(val) {
		return KindEnum
	}
	return 0
}

func (p *property) inEnum(val any) bool {
	if s, ok := val.(string); ok {
		for _, e := range p.enum {
			if es, ok := e.(string); ok {
				if es == s {
					return true
				}
			} else if jsonEqual(e, val) {
				return true
			}
		}
		return false
	}
	for _, e := range p.enum {
		if jsonEqual(e, val) {
			return true
		}
	}
	return false
}

// Validate compiles s and validates args against it: a convenience for a
// schema used once. A schema that does not compile validates nothing (nil).
// Code that validates many calls against one schema should [Compile] it once.
func Validate(s map[string]any, args map[string]any) Violations {
	v, err := Compile(s)
	if err != nil {
		return nil
	}
	return v.Validate(args)
}
