package schema

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// unlinked runs f as in a program that does not import package full.
func unlinked(t *testing.T, f func()) {
	t.Helper()
	c := complete.Registered()
	complete.Register(nil)
	defer complete.Register(c)
	f()
}

// TestIncomplete: without the complete validation, a schema the fast pass
// covers behaves as with it, and one it does not cover compiles to a
// validator that checks the fast pass's part and says, naming the first
// keyword it does not cover and the package to import, that it is not
// complete; Check says so too, without compiling.
func TestIncomplete(t *testing.T) {
	covered := closed(obj{"path": prop("string", "minLength", 1), "n": prop("integer", "maximum", 3)}, "path")
	tests := []struct {
		name   string
		schema obj
		args   obj
		want   []string // the violations found without the complete validation
		why    string   // "" when complete
	}{
		{"covered", covered, obj{"n": 4},
			[]string{"Parameter 'path' is required (string). The tool was not executed.", "Parameter 'n' must be at most 3. The tool was not executed."}, ""},
		{"anyOf", closed(obj{"x": obj{"anyOf": list{prop("string"), prop("integer")}}, "s": prop("string")}), obj{"s": 1, "x": true},
			[]string{"Parameter 's' must be a string. The tool was not executed."}, `"anyOf" at /properties/x`},
		{"nested properties", closed(obj{"o": prop("object", "properties", obj{"k": prop("string")})}), obj{"o": obj{"k": 1}},
			nil, `"properties" at /properties/o`},
		{"reference", obj{"$defs": obj{"n": prop("integer")}, "properties": obj{"n": obj{"$ref": "#/$defs/n"}}}, obj{"n": "x"},
			nil, `"$ref" at /properties/n`},
		{"older draft", obj{"$schema": "http://json-schema.org/draft-07/schema#", "properties": obj{"a": prop("string")}}, obj{"a": 1},
			[]string{"Parameter 'a' must be a string. The tool was not executed."}, `the dialect "http://json-schema.org/draft-07/schema#"`},
		{"composite at the top", obj{"type": "object", "oneOf": list{obj{"required": list{"a"}}, obj{"required": list{"b"}}}}, obj{},
			nil, `"oneOf"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unlinked(t, func() {
				v, err := Compile(tt.schema)
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				if diff := cmp.Diff(tt.want, messages(v.Validate(tt.args))); diff != "" {
					t.Errorf("Validate (-want +got):\n%s", diff)
				}
				inc, check := v.Incomplete(), Check(tt.schema)
				if tt.why == "" {
					if inc != nil || check != nil {
						t.Errorf("Incomplete = %v, Check = %v, want nil", inc, check)
					}
					return
				}
				want := `schema: only the complete JSON Schema validator checks this schema, and it is not linked: the schema uses ` +
					tt.why + `; import _ "github.com/toolgen/toolgen/runtime/schema/full" to link it`
				for _, err := range []error{inc, check} {
					if err == nil || err.Error() != want || !errors.Is(err, ErrIncomplete) {
						t.Errorf("got %v, want %s", err, want)
					}
				}
			})
			// Linked, the same schema is complete.
			v, err := Compile(tt.schema)
			if err != nil || v.Incomplete() != nil || Check(tt.schema) != nil {
				t.Errorf("linked: Compile = %v, Incomplete = %v, Check = %v", err, v.Incomplete(), Check(tt.schema))
			}
		})
	}
}

// TestMalformedWithoutTheValidator: what the fast pass reads is held to
// the standard's shape with or without the complete validation, so a typo
// in a schema is named as one, not as a reason to link a validator.
func TestMalformedWithoutTheValidator(t *testing.T) {
	tests := []struct {
		name   string
		schema obj
		want   string
	}{
		{"unknown type", closed(obj{"l": prop("strng")}), `at /properties/l/type: "strng" is not a JSON type`},
		{"type list twice", closed(obj{"l": prop(list{"string", "string"})}), `at /properties/l/type: names "string" twice`},
		{"empty type list", closed(obj{"l": prop(list{})}), "at /properties/l/type: must be a type's name or a non-empty array of them, got []"},
		{"enum not a list", closed(obj{"v": prop("string", "enum", "a")}), "at /properties/v/enum: must be an array, got string"},
		{"required twice", closed(obj{"x": prop("string")}, "x", "x"), `at /required: names "x" twice`},
		{"bad pattern", closed(obj{"l": prop("string", "pattern", "(")}), `at /properties/l/pattern: "(" is not a regular expression`},
		{"negative length", closed(obj{"l": prop("string", "minLength", -1)}), "at /properties/l/minLength: must be a non-negative integer, got -1"},
		{"description a number", closed(obj{"l": obj{"type": "string", "description": 3}}), "at /properties/l/description: must be a string, got number"},
		{"empty anyOf", closed(obj{"l": obj{"anyOf": list{}}}), "at /properties/l/anyOf: must be a non-empty array of schemas"},
		{"defs not an object", obj{"$defs": "x"}, "at /$defs: must be an object, got string"},
		{"nested", closed(obj{"o": prop("object", "properties", obj{"k": prop("strin")})}), `at /properties/o/properties/k/type: "strin" is not a JSON type`},
		{"multipleOf zero", closed(obj{"n": prop("number", "multipleOf", 0)}), "at /properties/n/multipleOf: must be a number greater than 0, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unlinked(t, func() {
				for name, err := range map[string]error{"Compile": compileErr(tt.schema), "Check": Check(tt.schema)} {
					if err == nil || !strings.HasPrefix(err.Error(), "schema: the schema is not a valid JSON schema: ") || !strings.Contains(err.Error(), tt.want) {
						t.Errorf("%s = %v, want it to say %q", name, err, tt.want)
					}
				}
			})
			if compileErr(tt.schema) == nil {
				t.Errorf("linked: Compile accepted the schema")
			}
		})
	}
}

func compileErr(s obj) error {
	_, err := Compile(s)
	return err
}
