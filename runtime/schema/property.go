package schema

import (
	"fmt"
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

	maskAll = maskString | maskInteger | maskNumber | maskBoolean | maskArray | maskObject | maskNull
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

// lenientKeys are the keywords whose meaning the fast pass does not
// evaluate; it leaves a property using one to the complete validation (in
// the older drafts "$ref" even hides its siblings).
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
	nullable bool      // the schema accepts null: a null value is given, not absent
	bounds   *bounds   // nil: no const, range, length or pattern check
	typeOnly bool      // checked, and by its type alone
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
		if _, has := ps["type"]; has {
			p.check = false
		} else {
			p.mask = maskAll // no type: any value, still held to the rest
		}
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
	p.bounds = compileBounds(ps)
	p.typeOnly = p.check && p.enum == nil && p.bounds == nil
	return p, nil
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
	if p.bounds != nil {
		return p.bounds.broken(val, kind)
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
