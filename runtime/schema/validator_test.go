package schema

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// obj and list keep the tables short.
type obj = map[string]any
type list = []any

func prop(typ any, kv ...any) obj {
	p := obj{}
	if typ != nil {
		p["type"] = typ
	}
	for i := 0; i+1 < len(kv); i += 2 {
		p[kv[i].(string)] = kv[i+1]
	}
	return p
}

func closed(props obj, required ...string) obj {
	s := obj{"type": "object", "properties": props, "additionalProperties": false}
	if required != nil {
		r := list{}
		for _, n := range required {
			r = append(r, n)
		}
		s["required"] = r
	}
	return s
}

// messages is what the tables compare: the sentences, in order.
func messages(vs Violations) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Message)
	}
	return out
}

const tail = " The tool was not executed."

type myString string
type myInt int16

func TestValidate(t *testing.T) {
	str := prop("string")
	integer := prop("integer")
	tests := []struct {
		name   string
		schema obj
		args   obj
		want   []string
	}{
		// Required.
		{"required present", closed(obj{"x": str}, "x"), obj{"x": "a"}, nil},
		{"required missing", closed(obj{"x": str}, "x"), obj{},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"required nil counts as missing", closed(obj{"x": str}, "x"), obj{"x": nil},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"required nil args", closed(obj{"x": integer}, "x"), nil,
			[]string{"Parameter 'x' is required (integer)." + tail}},
		{"required typed nil counts as missing", closed(obj{"x": prop("array")}, "x"), obj{"x": []any(nil)},
			[]string{"Parameter 'x' is required (array)." + tail}},
		{"required raw null counts as missing", closed(obj{"x": str}, "x"), obj{"x": json.RawMessage("null")},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"required type list", closed(obj{"x": prop(list{"string", "null"})}, "x"), obj{},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"required without type", closed(obj{"x": obj{"description": "d"}}, "x"), obj{},
			[]string{"Parameter 'x' is required." + tail}},
		{"required not in properties", closed(obj{}, "x"), obj{},
			[]string{"Parameter 'x' is required." + tail}},
		{"required not in properties is declared", closed(obj{}, "x"), obj{"x": 1}, nil},
		{"required []string", obj{"properties": obj{"x": str}, "required": []string{"x"}}, obj{},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"not required, absent", closed(obj{"x": str}), obj{}, nil},

		// Types.
		{"integer 3", closed(obj{"n": integer}), obj{"n": 3}, nil},
		{"integer 3.0", closed(obj{"n": integer}), obj{"n": 3.0}, nil},
		{"integer -0.0", closed(obj{"n": integer}), obj{"n": math.Copysign(0, -1)}, nil},
		{"integer 1e300", closed(obj{"n": integer}), obj{"n": 1e300}, nil},
		{"integer 3.5", closed(obj{"n": integer}), obj{"n": 3.5},
			[]string{"Parameter 'n' must be an integer." + tail}},
		{"integer string", closed(obj{"n": integer}), obj{"n": "3"},
			[]string{"Parameter 'n' must be an integer." + tail}},
		{"integer bool", closed(obj{"n": integer}), obj{"n": true},
			[]string{"Parameter 'n' must be an integer." + tail}},
		{"integer NaN", closed(obj{"n": integer}), obj{"n": math.NaN()},
			[]string{"Parameter 'n' must be an integer." + tail}},
		{"integer Inf", closed(obj{"n": integer}), obj{"n": math.Inf(1)},
			[]string{"Parameter 'n' must be an integer." + tail}},
		{"integer Go kinds", closed(obj{"a": integer, "b": integer, "c": integer, "d": integer, "e": integer, "f": integer}),
			obj{"a": int8(1), "b": uint64(math.MaxUint64), "c": int64(-5), "d": float32(2), "e": myInt(7), "f": uintptr(1)}, nil},
		{"integer json.Number", closed(obj{"a": integer, "b": integer, "c": integer, "d": integer}),
			obj{"a": json.Number("3"), "b": json.Number("3.0"), "c": json.Number("1e3"), "d": json.Number("123456789012345678901234567890")}, nil},
		{"integer json.Number fraction", closed(obj{"a": integer}), obj{"a": json.Number("3.5")},
			[]string{"Parameter 'a' must be an integer." + tail}},
		{"integer json.RawMessage", closed(obj{"a": integer, "b": integer}), obj{"a": json.RawMessage(" 4 "), "b": json.RawMessage(`"4"`)},
			[]string{"Parameter 'b' must be an integer." + tail}},
		{"number accepts all", closed(obj{"a": prop("number"), "b": prop("number"), "c": prop("number"), "d": prop("number")}),
			obj{"a": 3, "b": 3.5, "c": json.Number("-1.5e-3"), "d": uint8(1)}, nil},
		{"numeric string is not a number", closed(obj{"a": prop("number")}), obj{"a": "3.5"},
			[]string{"Parameter 'a' must be a number." + tail}},
		{"string", closed(obj{"s": str}), obj{"s": ""}, nil},
		{"named string", closed(obj{"s": str}), obj{"s": myString("x")}, nil},
		{"string got number", closed(obj{"s": str}), obj{"s": 1},
			[]string{"Parameter 's' must be a string." + tail}},
		{"boolean", closed(obj{"b": prop("boolean")}), obj{"b": false}, nil},
		{"boolean got string", closed(obj{"b": prop("boolean")}), obj{"b": "true"},
			[]string{"Parameter 'b' must be a boolean." + tail}},
		{"array kinds", closed(obj{"a": prop("array"), "b": prop("array"), "c": prop("array"), "d": prop("array")}),
			obj{"a": list{}, "b": []string{"x"}, "c": []int{1}, "d": [2]bool{}}, nil},
		{"array got object", closed(obj{"a": prop("array")}), obj{"a": obj{}},
			[]string{"Parameter 'a' must be an array." + tail}},
		{"array got string", closed(obj{"a": prop("array")}), obj{"a": "[1]"},
			[]string{"Parameter 'a' must be an array." + tail}},
		{"object kinds", closed(obj{"a": prop("object"), "b": prop("object"), "c": prop("object")}),
			obj{"a": obj{}, "b": map[string]string{"k": "v"}, "c": map[string]int{}}, nil},
		{"object got array", closed(obj{"a": prop("object")}), obj{"a": list{obj{}}},
			[]string{"Parameter 'a' must be an object." + tail}},
		{"type list accepts any listed", closed(obj{"a": prop(list{"string", "integer"}), "b": prop(list{"string", "integer"})}),
			obj{"a": "x", "b": 2}, nil},
		{"type list rejects", closed(obj{"a": prop(list{"string", "integer"})}), obj{"a": 2.5},
			[]string{"Parameter 'a' must be a string or an integer." + tail}},
		{"type list with null rejects", closed(obj{"a": prop([]string{"string", "null"})}), obj{"a": 2},
			[]string{"Parameter 'a' must be a string." + tail}},
		{"unreadable Go values let through", closed(obj{"a": str, "b": str, "c": prop("object")}),
			obj{"a": time.Now(), "b": func() {}, "c": struct{ X int }{1}}, nil},
		{"pointer", closed(obj{"a": str, "b": str}), obj{"a": ptr("x"), "b": ptr(3)},
			[]string{"Parameter 'b' must be a string." + tail}},

		// Nested members and items: the complete validation, with paths.
		{"nested object members checked", closed(obj{"o": prop("object", "properties", obj{"n": integer, "file_path": str}, "required", list{"n", "m", "file_path"}, "additionalProperties", false)}),
			obj{"o": obj{"n": "not a number", "file_paht": 1}}, []string{
				"Parameter 'o.m' is required." + tail,
				"Parameter 'o.file_path' is required (string)." + tail,
				"Unknown parameter 'o.file_paht'. Did you mean 'file_path'?" + tail,
				"Parameter 'o.n' must be an integer." + tail,
			}},
		{"array items checked", closed(obj{"a": prop("array", "items", integer)}),
			obj{"a": list{"x", 1, obj{}}}, []string{
				"Parameter 'a[0]' must be an integer." + tail,
				"Parameter 'a[2]' must be an integer." + tail,
			}},
		{"deep path", closed(obj{"edits": prop("array", "items", prop("object", "properties", obj{"old_string": str}))}),
			obj{"edits": list{obj{"old_string": "a"}, obj{}, obj{"old_string": 3}}},
			[]string{"Parameter 'edits[2].old_string' must be a string." + tail}},
		{"nested object type checked", closed(obj{"o": prop("object", "properties", obj{"n": integer})}),
			obj{"o": "{}"}, []string{"Parameter 'o' must be an object." + tail}},

		// Enum.
		{"enum in", closed(obj{"m": prop("string", "enum", list{"a", "b"})}), obj{"m": "a"}, nil},
		{"enum out", closed(obj{"m": prop("string", "enum", list{"a", "b"})}), obj{"m": "c"},
			[]string{"Parameter 'm' must be one of [a, b], but was 'c'." + tail}},
		{"enum []string", closed(obj{"m": prop("string", "enum", []string{"a", "b"})}), obj{"m": "c"},
			[]string{"Parameter 'm' must be one of [a, b], but was 'c'." + tail}},
		{"enum named string value", closed(obj{"m": prop("string", "enum", list{"a", "b"})}), obj{"m": myString("b")}, nil},
		{"enum wrong type reports type only", closed(obj{"m": prop("string", "enum", list{"a", "b"})}), obj{"m": 1},
			[]string{"Parameter 'm' must be a string." + tail}},
		{"enum integers JSON-equal", closed(obj{"n": prop("integer", "enum", list{1, 2, 3})}), obj{"n": 2.0}, nil},
		{"enum floats JSON-equal", closed(obj{"n": prop("number", "enum", list{1.0, 2.5})}), obj{"n": json.Number("1")}, nil},
		{"enum number out", closed(obj{"n": prop("integer", "enum", list{1, 2})}), obj{"n": 3.0},
			[]string{"Parameter 'n' must be one of [1, 2], but was '3'." + tail}},
		{"enum mixed", closed(obj{"v": prop(list{"string", "integer", "boolean"}, "enum", list{"a", 1, true})}), obj{"v": true}, nil},
		{"enum mixed out", closed(obj{"v": prop(list{"string", "integer", "boolean"}, "enum", list{"a", 1, true})}), obj{"v": false},
			[]string{"Parameter 'v' must be one of [a, 1, true], but was 'false'." + tail}},
		{"enum arrays", closed(obj{"v": prop("array", "enum", list{list{1, "x"}, list{}})}), obj{"v": list{1.0, "x"}}, nil},
		{"enum arrays out", closed(obj{"v": prop("array", "enum", list{list{1, "x"}})}), obj{"v": list{"x", 1}},
			[]string{`Parameter 'v' must be one of [[1,"x"]], but was '["x",1]'.` + tail}},
		{"enum objects", closed(obj{"v": prop("object", "enum", list{obj{"a": 1, "b": list{true}}})}), obj{"v": obj{"b": list{true}, "a": 1.0}}, nil},
		{"enum objects out", closed(obj{"v": prop("object", "enum", list{obj{"a": 1}})}), obj{"v": obj{"b": "x\n", "a": 2}},
			[]string{`Parameter 'v' must be one of [{"a":1}], but was '{"a":2,"b":"x\n"}'.` + tail}},
		{"enum huge value is cut", closed(obj{"v": prop("string", "enum", list{"a"})}), obj{"v": strings.Repeat("x", 1<<20)},
			[]string{"Parameter 'v' must be one of [a], but was '" + strings.Repeat("x", 100) + "...'." + tail}},
		{"enum huge array is cut", closed(obj{"v": prop("array", "enum", list{list{}})}), obj{"v": make(list, 100000)},
			[]string{"Parameter 'v' must be one of [[]], but was '[" + strings.Repeat("null,", 19) + "null...'." + tail}},
		{"enum raw JSON in", closed(obj{"m": prop("string", "enum", list{"a", "b"}), "n": prop("integer", "enum", list{1})}),
			obj{"m": json.RawMessage(`"b"`), "n": json.RawMessage(`1.0`)}, nil},
		{"enum raw JSON out", closed(obj{"m": prop("string", "enum", list{"a", "b"})}), obj{"m": json.RawMessage(` "c" `)},
			[]string{"Parameter 'm' must be one of [a, b], but was 'c'." + tail}},
		{"enum raw JSON schema values", closed(obj{"m": prop("object", "enum", list{json.RawMessage(`{"a": [1, 2]}`)})}), obj{"m": obj{"a": list{1, 2}}}, nil},
		{"enum empty allows nothing", closed(obj{"v": prop("string", "enum", list{})}), obj{"v": "x"},
			[]string{"Parameter 'v' must be one of [], but was 'x'." + tail}},
		{"enum without type checked", closed(obj{"v": obj{"enum": list{"a"}}}), obj{"v": "x"},
			[]string{"Parameter 'v' must be one of [a], but was 'x'." + tail}},

		// Unknown parameters.
		{"unknown with suggestion", closed(obj{"file_path": str}), obj{"file_paht": "a"},
			[]string{"Unknown parameter 'file_paht'. Did you mean 'file_path'?" + tail}},
		{"unknown without suggestion", closed(obj{"file_path": str}), obj{"zzz": "a"},
			[]string{"Unknown parameter 'zzz'." + tail}},
		{"unknown nil value ignored", closed(obj{"file_path": str}), obj{"zzz": nil}, nil},
		{"additionalProperties absent", obj{"properties": obj{"a": str}}, obj{"zzz": 1}, nil},
		{"additionalProperties true", obj{"properties": obj{"a": str}, "additionalProperties": true}, obj{"zzz": 1}, nil},
		{"additionalProperties schema", obj{"properties": obj{"a": str}, "additionalProperties": obj{"type": "string"}}, obj{"zzz": 1, "y": "ok"},
			[]string{"Parameter 'zzz' must be a string." + tail}},
		{"additionalProperties false", obj{"properties": obj{"a": str}, "additionalProperties": false}, obj{"zzz": 1},
			[]string{"Unknown parameter 'zzz'." + tail}},
		{"closed without properties", obj{"additionalProperties": false}, obj{"a": 1},
			[]string{"Unknown parameter 'a'." + tail}},
		{"open schema still checks types", obj{"properties": obj{"a": str}}, obj{"a": 1, "zzz": 1},
			[]string{"Parameter 'a' must be a string." + tail}},

		// Keywords the fast gate does not evaluate: the complete validation.
		{"$ref", obj{"properties": obj{"l": obj{"$ref": "#/$defs/x"}, "s": str}, "$defs": obj{"x": integer}, "additionalProperties": false},
			obj{"l": "1", "s": 1},
			[]string{"Parameter 's' must be a string." + tail, "Parameter 'l' must be an integer." + tail}},
		{"oneOf of types", closed(obj{"l": obj{"oneOf": list{str, integer}}, "s": str}), obj{"l": true, "s": 1},
			[]string{"Parameter 's' must be a string." + tail, "Parameter 'l' must be a string or an integer." + tail}},
		{"oneOf matching two", closed(obj{"l": obj{"oneOf": list{integer, prop("number")}}}), obj{"l": 1},
			[]string{`Parameter 'l' is invalid: it matches the schemas 0 and 1 under "oneOf" and must match only one.` + tail}},
		{"anyOf", closed(obj{"l": prop("integer", "anyOf", list{prop("integer", "minimum", 5)}), "s": str}), obj{"l": 1.0, "s": 1},
			[]string{"Parameter 's' must be a string." + tail, `Parameter 'l' is invalid: it must match one of the schemas under "anyOf".` + tail}},
		{"allOf", closed(obj{"l": prop("string", "allOf", list{str, prop("string", "enum", list{"a"})}), "s": str}), obj{"l": "zzz", "s": 1},
			[]string{"Parameter 's' must be a string." + tail, "Parameter 'l' must be one of [a], but was 'zzz'." + tail}},
		{"not", closed(obj{"l": obj{"not": str}}), obj{"l": "x"},
			[]string{`Parameter 'l' is invalid: it must not match the schema under "not".` + tail}},
		{"const", closed(obj{"l": obj{"const": "on"}}), obj{"l": "off"},
			[]string{"Parameter 'l' must be exactly 'on', but was 'off'." + tail}},
		{"no type: anything", closed(obj{"l": obj{"description": "anything"}, "s": str}), obj{"l": 1, "s": 1},
			[]string{"Parameter 's' must be a string." + tail}},
		{"boolean schema true: anything", closed(obj{"l": true, "s": str}), obj{"l": 1, "s": 1},
			[]string{"Parameter 's' must be a string." + tail}},
		{"boolean schema false: nothing", closed(obj{"l": false, "s": str}), obj{"l": 1, "s": 1},
			[]string{"Parameter 's' must be a string." + tail, "Parameter 'l' is not allowed." + tail}},
		{"lenient property is declared", obj{"properties": obj{"l": obj{"$ref": "#/$defs/x"}}, "$defs": obj{"x": true}, "additionalProperties": false}, obj{"l": 1}, nil},
		{"lenient property still required", obj{"properties": obj{"l": obj{"$ref": "#/$defs/x"}, "t": prop("string", "oneOf", list{str})},
			"$defs": obj{"x": true}, "required": list{"l", "t"}, "additionalProperties": false}, obj{},
			[]string{"Parameter 'l' is required." + tail, "Parameter 't' is required (string)." + tail}},
		{"if then else", closed(obj{"n": obj{"if": integer, "then": prop("integer", "minimum", 10), "else": str}}), obj{"n": 3},
			[]string{"Parameter 'n' must be at least 10." + tail}},
		{"dependentRequired", obj{"properties": obj{"a": str, "b": str}, "dependentRequired": obj{"a": list{"b"}}}, obj{"a": "x"},
			[]string{"Parameter 'b' is required when 'a' is given." + tail}},
		{"unevaluatedProperties", obj{"allOf": list{obj{"properties": obj{"file_path": str}}}, "unevaluatedProperties": false}, obj{"file_path": "a", "file_paht": "b"},
			[]string{"Unknown parameter 'file_paht'." + tail}},
		{"minProperties at the top", obj{"minProperties": 2}, obj{"a": 1},
			[]string{"The arguments are invalid: they must have at least 2 members." + tail}},

		// patternProperties declare names, also where additionalProperties is false.
		{"patternProperties declare", obj{"properties": obj{"a": str}, "patternProperties": obj{"^x_": integer}, "additionalProperties": false},
			obj{"a": "s", "x_n": 1}, nil},
		{"patternProperties check", obj{"properties": obj{"path": str}, "patternProperties": obj{"^x_": integer}, "additionalProperties": false},
			obj{"path": "s", "x_n": "1", "paht": 1}, []string{
				"Unknown parameter 'paht'. Did you mean 'path'?" + tail,
				"Parameter 'x_n' must be an integer." + tail,
			}},

		// Nullable parameters: null is a value where the schema accepts it.
		{"nullable required given null", closed(obj{"x": prop(list{"string", "null"})}, "x"), obj{"x": nil}, nil},
		{"nullable required absent", closed(obj{"x": prop(list{"string", "null"})}, "x"), obj{},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"nullable enum without null", closed(obj{"x": prop(list{"string", "null"}, "enum", list{"a"})}, "x"), obj{"x": nil},
			[]string{"Parameter 'x' is required (string)." + tail}},
		{"nullable enum with null", closed(obj{"x": prop(list{"string", "null"}, "enum", []any{"a", nil})}, "x"), obj{"x": nil}, nil},
		{"nullable anyOf", closed(obj{"x": obj{"anyOf": list{str, prop("null")}}}, "x"), obj{"x": nil}, nil},
		{"not nullable: null is absent", closed(obj{"x": str, "y": str}, "x"), obj{"x": "a", "y": nil}, nil},

		// Ranges, lengths, sizes and patterns: the gate checks them too.
		{"ranges", closed(obj{
			"n": prop("integer", "minimum", 1, "maximum", 2, "default", 1),
			"x": prop("number", "exclusiveMinimum", 0, "exclusiveMaximum", 1),
			"s": prop("string", "minLength", 5, "maxLength", 6, "pattern", "^a+$", "format", "date-time"),
			"a": prop("array", "minItems", 3, "maxItems", 4, "uniqueItems", true),
			"u": prop("integer", "maximum", uint64(math.MaxUint64), "minimum", json.Number("-9223372036854775808")),
		}), obj{"n": 100, "x": 1, "s": "b", "a": list{1, 1}, "u": -1e19}, []string{
			"Parameter 'a' must have at least 3 items." + tail,
			"Parameter 'n' must be at most 2." + tail,
			"Parameter 's' must be at least 5 characters long." + tail,
			"Parameter 's' must match the pattern '^a+$'." + tail,
			"Parameter 'u' must be at least -9223372036854775808." + tail,
			"Parameter 'x' must be less than 1." + tail,
			"Parameter 'a' is invalid: its items must be unique, but items 0 and 1 are equal." + tail,
		}},
		{"length counts characters", closed(obj{"s": prop("string", "maxLength", 2)}), obj{"s": "üü"}, nil},
		{"format is an annotation", closed(obj{"s": prop("string", "format", "date-time")}), obj{"s": "yesterday"}, nil},

		// Order: required in schema order, then given keys sorted; one per key.
		{"order", closed(obj{
			"b": str, "a": str, "c": integer,
			"m": prop("string", "enum", list{"x"}),
		}, "b", "a"), obj{"zz": 1, "c": "1", "m": "y", "aa": 1, "": 1},
			[]string{
				"Parameter 'b' is required (string)." + tail,
				"Parameter 'a' is required (string)." + tail,
				"Unknown parameter ''." + tail,
				"Unknown parameter 'aa'." + tail, // one edit, but as long as 'a' itself,
				"Parameter 'c' must be an integer." + tail,
				"Parameter 'm' must be one of [x], but was 'y'." + tail,
				"Unknown parameter 'zz'." + tail,
			}},

		// Schemas that say little.
		{"nil schema", nil, obj{"anything": 1}, nil},
		{"empty schema", obj{}, obj{"anything": 1}, nil},
		{"null properties and required", obj{"properties": nil, "required": nil}, obj{"a": 1}, nil},
		{"uncovered Go values", closed(obj{"a": prop("array", "items", str)}), obj{"a": []string{"x"}}, nil},
		{"typed Go map schema", obj{"properties": map[string]map[string]any{"a": {"type": "integer"}}}, obj{"a": "x"},
			[]string{"Parameter 'a' must be an integer." + tail}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Compile(tt.schema)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			got := v.Validate(tt.args)
			if diff := cmp.Diff(tt.want, messages(got)); diff != "" {
				t.Errorf("Validate (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(got, Validate(tt.schema, tt.args)); diff != "" {
				t.Errorf("package Validate differs from Validator.Validate (-method +func)\n%s", diff)
			}
			if (got == nil) != (len(tt.want) == 0) {
				t.Errorf("Validate = %#v, want nil exactly when there are no violations", got)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestValidateKindsAndParams(t *testing.T) {
	s := closed(obj{"a": prop("string"), "e": prop("string", "enum", list{"x"})}, "r")
	got := Validate(s, obj{"a": 1, "e": "y", "u": 1})
	want := Violations{
		{KindRequired, "r", "Parameter 'r' is required." + tail},
		{KindType, "a", "Parameter 'a' must be a string." + tail},
		{KindEnum, "e", "Parameter 'e' must be one of [x], but was 'y'." + tail},
		{KindUnknown, "u", "Unknown parameter 'u'." + tail},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestValidateDoesNotMutate(t *testing.T) {
	s := closed(obj{"a": prop("string", "enum", list{"x"})}, "a")
	args := obj{"a": "y", "b": nil, "c": list{1}}
	sCopy, _ := json.Marshal(s)
	argsCopy, _ := json.Marshal(args)
	Validate(s, args)
	s2, _ := json.Marshal(s)
	a2, _ := json.Marshal(args)
	if string(sCopy) != string(s2) || string(argsCopy) != string(a2) {
		t.Errorf("Validate changed its inputs")
	}
}

func TestNilValidator(t *testing.T) {
	var v *Validator
	if got := v.Validate(obj{"a": 1}); got != nil {
		t.Errorf("nil Validator: %v", got)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name   string
		schema obj
		want   string
	}{
		{"properties string", obj{"properties": "x"}, `schema: "properties" must be an object, got string`},
		{"properties list", obj{"properties": list{}}, `schema: "properties" must be an object, got array`},
		{"properties number", obj{"properties": 1.0}, `schema: "properties" must be an object, got number`},
		{"required number", obj{"required": 1.0}, `schema: "required" must be a list of strings, got number`},
		{"required string", obj{"required": "a"}, `schema: "required" must be a list of strings, got string`},
		{"required object", obj{"required": obj{}}, `schema: "required" must be a list of strings, got object`},
		{"required with number", obj{"required": list{"a", 2.0}}, `schema: "required" must be a list of strings, got number at index 1`},
		{"required with null", obj{"required": list{nil}}, `schema: "required" must be a list of strings, got null at index 0`},
		{"property string", obj{"properties": obj{"a": "string"}}, `schema: property "a" must be an object, got string`},
		{"property null", obj{"properties": obj{"a": nil}}, `schema: property "a" must be an object, got null`},
		{"property list", obj{"properties": obj{"a": list{}}}, `schema: property "a" must be an object, got array`},
		{"first bad property by name", obj{"properties": obj{"b": 1, "a": "x"}}, `schema: property "a" must be an object, got string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Compile(tt.schema)
			if err == nil {
				t.Fatalf("Compile = %v, want error %q", v, tt.want)
			}
			if v != nil {
				t.Errorf("Compile returned a validator with its error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
			if got := Validate(tt.schema, obj{"a": 1}); got != nil {
				t.Errorf("Validate on a malformed schema = %v, want nil", got)
			}
		})
	}
}

func TestCompileRefusesWhatTheStandardRefuses(t *testing.T) {
	// Once ignored, now each a reason the schema does not compile: a tool
	// whose schema is not a JSON schema is not checked by guesswork.
	s := obj{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "object",
		"title":   7,
		"$defs":   "not even an object",
		"properties": obj{
			"a": obj{"type": "string", "x-custom": list{1}, "description": nil},
		},
		"patternProperties":    obj{"^x": obj{}},
		"additionalProperties": false,
	}
	_, err := Compile(s)
	if err == nil {
		t.Fatal("Compile accepted an invalid schema")
	}
	for _, want := range []string{"/$defs", "/properties/a/description", "/title"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
	// Unknown keywords are annotations in JSON Schema: still ignored.
	delete(s, "title")
	delete(s, "$defs")
	delete(s["properties"].(obj)["a"].(obj), "description")
	if _, err := Compile(s); err != nil {
		t.Errorf("Compile: %v", err)
	}
}

func TestCompileErrorsOfTheStandard(t *testing.T) {
	tests := []struct {
		name   string
		schema obj
		want   string
	}{
		{"unknown type", closed(obj{"l": prop("date")}), "/properties/l/type"},
		{"type list with unknown name", closed(obj{"l": prop(list{"string", "date"})}), "/properties/l/type"},
		{"type not a name", closed(obj{"l": prop(7)}), "/properties/l/type"},
		{"empty type list", closed(obj{"l": prop(list{})}), "/properties/l/type"},
		{"enum not a list", closed(obj{"v": prop("string", "enum", "a")}), "/properties/v/enum"},
		{"additionalProperties a string", obj{"additionalProperties": "false"}, "/additionalProperties"},
		{"required twice", closed(obj{"x": prop("string")}, "x", "x"), "/required"},
		{"empty oneOf", closed(obj{"t": obj{"oneOf": list{}}}), "/properties/t/oneOf"},
		{"reference to nothing", closed(obj{"l": obj{"$ref": "#/x"}}), `json-pointer in "the schema#/x" not found`},
		{"remote reference", closed(obj{"l": obj{"$ref": "https://example.com/s.json"}}), "the gate does not load https://example.com/s.json"},
		{"file reference", closed(obj{"l": obj{"$ref": "file:///etc/passwd"}}), "the gate does not load file:///etc/passwd"},
		{"bad pattern", closed(obj{"l": prop("string", "pattern", "(")}), "/properties/l/pattern"},
		{"cyclic value", func() obj { c := obj{}; c["c"] = c; return closed(obj{"l": obj{"const": c}}) }(), "cannot be written as JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Compile(tt.schema)
			if err == nil {
				t.Fatalf("Compile = %v, want an error naming %q", v, tt.want)
			}
			if !strings.HasPrefix(err.Error(), "schema: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to name %q", err, tt.want)
			}
		})
	}
}

func TestValidateAllocs(t *testing.T) {
	v, err := Compile(grepSchema())
	if err != nil {
		t.Fatal(err)
	}
	args := grepValid()
	if got := v.Validate(args); got != nil {
		t.Fatalf("valid input: %v", got)
	}
	if n := testing.AllocsPerRun(100, func() { v.Validate(args) }); n != 0 {
		t.Errorf("Validate on a valid input: %v allocations, want 0", n)
	}
}

func TestValidateConcurrent(t *testing.T) {
	v, err := Compile(grepSchema())
	if err != nil {
		t.Fatal(err)
	}
	want := v.Validate(grepInvalid())
	done := make(chan Violations)
	for range 8 {
		go func() {
			var last Violations
			for range 100 {
				last = v.Validate(grepInvalid())
				v.Validate(grepValid())
			}
			done <- last
		}()
	}
	for range 8 {
		if diff := cmp.Diff(want, <-done); diff != "" {
			t.Errorf("concurrent Validate differs (-want +got)\n%s", diff)
		}
	}
}

func TestIsJSONNumber(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "12", "1.5", "-1.5e10", "1E+2", "0.0e-0"} {
		if !IsJSONNumber(s) {
			t.Errorf("IsJSONNumber(%q) = false", s)
		}
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "0x10", "NaN", "1 "} {
		if IsJSONNumber(s) {
			t.Errorf("IsJSONNumber(%q) = true", s)
		}
	}
}

func TestValidateCyclicValues(t *testing.T) {
	// Go values (not JSON) can contain themselves; the gate must still end,
	// on the fast path and on the complete one.
	cyc := map[string]any{"k": nil, "j": nil}
	cyc["k"], cyc["j"] = cyc, cyc
	arr := []any{nil, nil}
	arr[0], arr[1] = arr, arr
	fast := closed(obj{
		"o": prop("object", "enum", list{obj{"k": 1}}),
		"a": prop("array", "enum", list{list{1}}),
	})
	// A schema that follows itself as deep as the value goes.
	full := obj{
		"properties": obj{"o": obj{"$ref": "#/$defs/o"}, "a": obj{"$ref": "#/$defs/a"}},
		"$defs": obj{
			"o": prop("object", "additionalProperties", obj{"$ref": "#/$defs/o"}),
			"a": prop("array", "items", obj{"$ref": "#/$defs/a"}),
		},
	}
	for _, s := range []obj{fast, full} {
		got := Validate(s, obj{"o": cyc, "a": arr})
		if len(got) != 2 {
			t.Fatalf("got %v", got)
		}
		if _, err := Compile(s); err != nil {
			t.Fatal(err)
		}
		for _, v := range got {
			if len(v.Message) > 2*allowedLimit+200 {
				t.Errorf("%v: message of %d bytes", v.Kind, len(v.Message))
			}
		}
	}
}
