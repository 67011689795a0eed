package tool

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/jsonscan"
)

func TestDecodeInput(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		keys    []string
		wantErr string
	}{
		{name: "object", data: `{"a":1,"b":"x"}`, keys: []string{"a", "b"}},
		{name: "nulls dropped", data: `{"a":null,"b":true}`, keys: []string{"b"}},
		{name: "empty object", data: ` {} `, keys: []string{}},
		{name: "empty bytes", data: ``, wantErr: "tool arguments must be a JSON object, got no bytes"},
		{name: "null", data: `null`, wantErr: "tool arguments must be a JSON object, got null"},
		{name: "array", data: `[1,2]`, wantErr: "tool arguments must be a JSON object, got an array"},
		{name: "string", data: `"x"`, wantErr: "tool arguments must be a JSON object, got a string"},
		{name: "number", data: `3`, wantErr: "tool arguments must be a JSON object, got a number"},
		{name: "not json", data: `{a:1}`, wantErr: "tool arguments are not valid JSON"},
		{name: "trailing", data: `{"a":1} x`, wantErr: "tool arguments are not valid JSON"},
		{name: "truncated", data: `{"a":`, wantErr: "tool arguments are not valid JSON"},
		{name: "deep", data: strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000), wantErr: "tool arguments are not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := DecodeInput([]byte(tt.data))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("DecodeInput(%.40q) error = %v, want it to contain %q", tt.data, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeInput(%q): %v", tt.data, err)
			}
			if diff := cmp.Diff(tt.keys, in.Keys()); diff != "" {
				t.Errorf("keys (-want +got):\n%s", diff)
			}
			if string(in.Raw()) != tt.data {
				t.Errorf("Raw() = %q, want %q", in.Raw(), tt.data)
			}
		})
	}
}

func TestDecodeInputNotObjectIserrNotObject(t *testing.T) {
	_, err := DecodeInput([]byte(`[]`))
	if !errors.Is(err, errNotObject) {
		t.Fatalf("error %v is not errNotObject", err)
	}
}

func TestDecodeInputTooLarge(t *testing.T) {
	data := make([]byte, jsonscan.MaxBytes+1)
	_, err := DecodeInput(data)
	if err == nil || !strings.Contains(err.Error(), "the limit is") {
		t.Fatalf("error = %v, want a size error", err)
	}
}

func TestNewInputCopiesAndDropsNulls(t *testing.T) {
	nested := map[string]any{"k": "v"}
	m := map[string]any{"a": nil, "b": nested, "c": []any{1.0}}
	in := NewInput(m)
	nested["k"] = "changed"
	m["d"] = "added"
	_, hasA := in.Get("a")
	_, hasD := in.Get("d")
	if hasA || hasD || in.Len() != 2 {
		t.Fatalf("keys = %v, want [b c]", in.Keys())
	}
	b, _ := in.Get("b")
	if diff := cmp.Diff(map[string]any{"k": "v"}, b); diff != "" {
		t.Errorf("nested value changed through the caller's map (-want +got):\n%s", diff)
	}
	if (Input{}).Len() != 0 || NewInput(nil).Len() != 0 {
		t.Error("zero and nil inputs must be empty")
	}
}

// TestNewInputTakesGoValuesAsJSON: Go values of other shapes than decoded
// JSON's are held in decoded JSON's shapes, copied, so binders read them as
// they read a model's arguments and the caller's later changes do not
// reach the Input.
func TestNewInputTakesGoValuesAsJSON(t *testing.T) {
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
	}
	paths := []string{"a.go", "b.go"}
	edits := []edit{{"x", "y"}}
	env := map[string]int{"n": 1}
	var none *edit
	in := NewInput(map[string]any{
		"paths": paths, "edits": edits, "env": env, "raw": json.RawMessage(`{"k":[1,true]}`),
		"none": none, "nilslice": []string(nil), "n": 3, "ch": make(chan int),
	})
	paths[0], edits[0].Old, env["n"] = "changed", "changed", 2
	got := map[string]any{}
	for _, k := range in.Keys() {
		if k != "ch" {
			got[k], _ = in.Get(k)
		}
	}
	want := map[string]any{
		"paths": []any{"a.go", "b.go"},
		"edits": []any{map[string]any{"old_string": "x", "new_string": "y"}},
		"env":   map[string]any{"n": 1.0},
		"raw":   map[string]any{"k": []any{1.0, true}},
		"n":     3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NewInput (-want +got):\n%s", diff)
	}
	if ch, _ := in.Get("ch"); ch == nil {
		t.Error("a value JSON cannot encode was dropped; want it kept for the binder to refuse")
	}
}

// TestAccessorsNullIsAbsent shows that a key sent as null behaves exactly
// like a key not sent, in every accessor and every constructor.
func TestAccessorsNullIsAbsent(t *testing.T) {
	fromMap := NewInput(map[string]any{"x": nil})
	fromJSON, err := DecodeInput([]byte(`{"x":null}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range map[string]Input{"NewInput": fromMap, "DecodeInput": fromJSON, "absent": {}} {
		t.Run(name, func(t *testing.T) {
			if _, ok := in.Get("x"); ok {
				t.Error("Get(x) found it")
			}
			if _, ok := in.Get("x"); ok {
				t.Error("Get(x) found a value")
			}
			checkRequired := func(what string, err error, typ string) {
				t.Helper()
				want := "Parameter 'x' is required (" + typ + "). The tool was not executed."
				if err == nil || err.Error() != want {
					t.Errorf("%s error = %v, want %q", what, err, want)
				}
			}
			_, err := Param[string](in, "x")
			checkRequired("String", err, "string")
			_, err = Param[bool](in, "x")
			checkRequired("Bool", err, "boolean")
			_, err = Param[int](in, "x")
			checkRequired("Int", err, "integer")
			_, err = Param[int64](in, "x")
			checkRequired("Int64", err, "integer")
			_, err = Param[float64](in, "x")
			checkRequired("Float64", err, "number")

			if v, err := ParamOr[string](in, "x", "d"); v != "d" || err != nil {
				t.Errorf("StringOr = %q, %v", v, err)
			}
			if v, err := ParamOr[bool](in, "x", true); !v || err != nil {
				t.Errorf("BoolOr = %v, %v", v, err)
			}
			if v, err := ParamOr[int](in, "x", 5); v != 5 || err != nil {
				t.Errorf("IntOr = %v, %v", v, err)
			}
			if v, err := ParamOr[int64](in, "x", 6); v != 6 || err != nil {
				t.Errorf("Int64Or = %v, %v", v, err)
			}
			if v, err := ParamOr[float64](in, "x", 1.5); v != 1.5 || err != nil {
				t.Errorf("Float64Or = %v, %v", v, err)
			}
			if _, ok, err := OptParam[string](in, "x"); ok || err != nil {
				t.Errorf("OptString ok=%v err=%v", ok, err)
			}
			if _, ok, err := OptParam[bool](in, "x"); ok || err != nil {
				t.Errorf("OptBool ok=%v err=%v", ok, err)
			}
			if _, ok, err := OptParam[int](in, "x"); ok || err != nil {
				t.Errorf("OptInt ok=%v err=%v", ok, err)
			}
			if _, ok, err := OptParam[int64](in, "x"); ok || err != nil {
				t.Errorf("OptInt64 ok=%v err=%v", ok, err)
			}
			if _, ok, err := OptParam[float64](in, "x"); ok || err != nil {
				t.Errorf("OptFloat64 ok=%v err=%v", ok, err)
			}
		})
	}
}

func TestAccessorsValues(t *testing.T) {
	in, err := DecodeInput([]byte(`{"s":"hi","b":true,"i":3.0,"f":3.5,"n":"10","big":1e30,"arr":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		got     any
		err     error
		want    any
		wantErr string
	}{
		{name: "string", got: must(Param[string](in, "s")), want: "hi"},
		{name: "bool", got: must(Param[bool](in, "b")), want: true},
		{name: "int from 3.0", got: must(Param[int](in, "i")), want: 3},
		{name: "int from string", got: must(Param[int](in, "n")), want: 10},
		{name: "int64 from string", got: must(Param[int64](in, "n")), want: int64(10)},
		{name: "float", got: must(Param[float64](in, "f")), want: 3.5},
		{name: "float from string", got: must(Param[float64](in, "n")), want: 10.0},
		{name: "int from 3.5", err: errOf(Param[int](in, "f")), wantErr: "Parameter 'f' must be an integer. The tool was not executed."},
		{name: "int out of range", err: errOf(Param[int64](in, "big")), wantErr: "Parameter 'big' is invalid: the number is out of range. The tool was not executed."},
		{name: "string mistyped", err: errOf(Param[string](in, "b")), wantErr: "Parameter 'b' must be a string. The tool was not executed."},
		{name: "bool mistyped", err: errOf(Param[bool](in, "s")), wantErr: "Parameter 's' must be a boolean. The tool was not executed."},
		{name: "float mistyped", err: errOf(Param[float64](in, "arr")), wantErr: "Parameter 'arr' must be a number. The tool was not executed."},
		{name: "default mistyped", err: errOf(ParamOr[string](in, "b", "d")), wantErr: "Parameter 'b' must be a string. The tool was not executed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.wantErr != "" {
				if tt.err == nil || tt.err.Error() != tt.wantErr {
					t.Fatalf("error = %v, want %q", tt.err, tt.wantErr)
				}
				return
			}
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if v, ok, err := OptParam[int](in, "i"); v != 3 || !ok || err != nil {
		t.Errorf("OptInt(i) = %v, %v, %v", v, ok, err)
	}
	if _, ok, err := OptParam[string](in, "b"); !ok || err == nil {
		t.Errorf("OptString(b) on a boolean: ok=%v err=%v; want present and an error", ok, err)
	}
}

func must[T any](v T, err error) any {
	if err != nil {
		return err.Error()
	}
	return v
}

func errOf[T any](_ T, err error) error { return err }

func TestInputMapAndJSON(t *testing.T) {
	in := NewInput(map[string]any{"a": "x"})
	m := in.Map()
	m["a"] = "changed"
	if v, _ := in.Get("a"); v != "x" {
		t.Errorf("Map() shares storage with the Input")
	}
	data, err := in.MarshalJSON()
	if err != nil || string(data) != `{"a":"x"}` {
		t.Errorf("MarshalJSON = %s, %v", data, err)
	}
	if data, _ := (Input{}).MarshalJSON(); string(data) != "{}" {
		t.Errorf("empty MarshalJSON = %s", data)
	}
}
