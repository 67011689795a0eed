package schema

import (
	"errors"
	"fmt"
	"reflect"
	"slices"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// Compile reads a tool's input schema into a [Validator].
//
// It fails for a schema that is not a valid JSON schema, or that refers to
// a document outside itself (see the package documentation); the error
// says where. The fast pass's own reading fails first, with its own words,
// for "properties" that is not an object, "required" that is not a list of
// strings, or a property schema that is neither an object nor a boolean. A
// null keyword at the top counts as absent, and a nil schema compiles to a
// validator that accepts any arguments.
//
// Where the schema needs the complete validation (see the package
// documentation), Compile compiles it, if the program links it (package
// runtime/schema/full); if not, the Validator checks the fast pass's
// part and [Validator.Incomplete] says why it is not complete.
//
// The schema is only read, never modified. The Validator shares the schema's
// enum values (it copies the lists, not the values in them), so a schema
// must not be changed while its Validator is in use.
func Compile(s map[string]any) (*Validator, error) {
	v, err := compileFast(s)
	if err != nil || s == nil {
		return v, err
	}
	doc, why, err := readSchema(s)
	if err != nil {
		return nil, err
	}
	if why != "" {
		if c := complete.Registered(); c != nil {
			sch, err := c(doc, v.names)
			if err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
			v.full = &fullSchema{sch: sch, doc: doc}
		} else {
			v.incomplete = incompleteError(why)
		}
	}
	props, _ := propertiesOf(doc)
	for name, p := range v.props {
		ps, declared := props[name]
		switch {
		case !declared:
			p.nullable = true // required but not described: any value
		case v.full != nil:
			n, ok := v.full.sch.Nullable(name)
			if !ok {
				n = staticNullable(ps)
			}
			p.nullable = n
		default:
			p.nullable = staticNullable(ps)
		}
	}
	v.reqNullable = make([]bool, len(v.required))
	for i, name := range v.required {
		v.reqNullable[i] = v.props[name].nullable
	}
	return v, nil
}

// readSchema reads s as the complete validation would: normalized, checked
// for the shape of its keywords, with why the fast pass alone does not
// decide it ("" when it does).
func readSchema(s map[string]any) (doc any, why string, err error) {
	doc, err = normalize(s)
	if err != nil {
		return nil, "", err
	}
	if err := wellFormed(doc); err != nil {
		return nil, "", err
	}
	return doc, uncovered(doc), nil
}

// incompleteError says that a schema needs the complete validation, which
// is not linked, and how to link it.
func incompleteError(why string) error {
	return fmt.Errorf("%w: the schema uses %s; import _ %q to link it", ErrIncomplete, why, fullPackage)
}

// compileFast reads what the fast pass checks.
func compileFast(s map[string]any) (*Validator, error) {
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
		// Names matching "patternProperties" are declared too: the
		// complete validation judges them.
		_, patterns := s["patternProperties"]
		v.closed = !patterns
	}
	return v, nil
}

// ErrIncomplete is wrapped by the error [Validator.Incomplete] returns
// for a schema that only the complete validation decides, in a program
// that does not link it.
var ErrIncomplete = errors.New("schema: only the complete JSON Schema validator checks this schema, and it is not linked")

// Incomplete returns nil when [Validator.Validate] decides every call as
// JSON Schema does. It returns an error wrapping [ErrIncomplete] when the
// schema uses what only the complete validation checks and the program
// does not link it (package runtime/schema/full, by import): the error
// names the first such keyword and the package to import, and Validate
// then checks the fast pass's part alone.
func (v *Validator) Incomplete() error {
	if v == nil {
		return nil
	}
	return v.incomplete
}

// Check reads s as [Compile] does without compiling the complete
// validation: it returns the error Compile's own reading finds (a
// malformed "properties", "required" or keyword), else an error wrapping
// [ErrIncomplete] when s needs the complete validation and the program
// does not link it, else nil. It is cheap enough to run for every tool
// registered; a schema's references and composite keywords are checked
// by Compile, when the complete validation is linked.
func Check(s map[string]any) error {
	if _, err := compileFast(s); err != nil || s == nil {
		return err
	}
	_, why, err := readSchema(s)
	if err != nil {
		return err
	}
	if why != "" && complete.Registered() == nil {
		return incompleteError(why)
	}
	return nil
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
