package tool

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/jsonscan"
)

// TestNewInputBytes shows that NewInput encodes its map once, keys sorted,
// nulls written as null, in bytes encoding/json reads back as the map.
func TestNewInputBytes(t *testing.T) {
	type pair struct {
		A string `json:"a"`
	}
	tests := []struct {
		name string
		m    map[string]any
		want string
	}{
		{"empty", nil, `{}`},
		{"sorted", map[string]any{"b": 1, "a": "x", "c": true}, `{"a":"x","b":1,"c":true}`},
		{"null kept as null", map[string]any{"a": nil, "b": (*pair)(nil)}, `{"a":null,"b":null}`},
		{"numbers as encoding/json", map[string]any{"f": 0.5, "g": 1e21, "h": 1e-7, "i": int64(math.MaxInt64), "u": uint8(7), "s": float32(0.1), "n": json.Number("-1.5e3")},
			`{"f":0.5,"g":1e+21,"h":1e-7,"i":9223372036854775807,"n":-1.5e3,"s":0.1,"u":7}`},
		{"strings escaped", map[string]any{"s": "a\"b\\c\n\t\x01\u2028é", "bad": "x\xffy"}, `{"bad":"x\ufffdy","s":"a\"b\\c\n\t\u0001` + "\u2028" + `é"}`},
		{"Go values as JSON", map[string]any{"l": []string{"x"}, "p": pair{"v"}, "m": map[string]int{"z": 1, "y": 2}}, `{"l":["x"],"m":{"y":2,"z":1},"p":{"a":"v"}}`},
		{"string slices and maps", map[string]any{"l": []string{"b", "a"}, "m": map[string]string{"k": "v"}, "nil": []string(nil), "nilmap": map[string]string(nil)},
			`{"l":["b","a"],"m":{"k":"v"},"nil":null,"nilmap":null}`},
		{"nested", map[string]any{"o": map[string]any{"b": []any{1.0, nil, map[string]any{}}, "a": ""}}, `{"o":{"a":"","b":[1,null,{}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := NewInput(tt.m)
			if err := in.Err(); err != nil {
				t.Fatalf("Err = %v", err)
			}
			if _, ok := in.Document(); !ok {
				t.Fatal("no document")
			}
			if diff := cmp.Diff(tt.want, string(in.Raw())); diff != "" {
				t.Errorf("bytes (-want +got):\n%s", diff)
			}
			if again := NewInput(tt.m); string(again.Raw()) != string(in.Raw()) {
				t.Errorf("a second NewInput gave other bytes: %s", again.Raw())
			}
			if _, err := DecodeInput(in.Raw()); err != nil {
				t.Fatalf("DecodeInput of the bytes: %v", err)
			}
			var fromBytes, fromMap any
			if err := json.Unmarshal(in.Raw(), &fromBytes); err != nil {
				t.Fatalf("bytes do not decode: %v", err)
			}
			for k, v := range fromBytes.(map[string]any) {
				if v == nil { // the map accessors drop nulls
					delete(fromBytes.(map[string]any), k)
				}
			}
			m, _ := json.Marshal(in)
			_ = json.Unmarshal(m, &fromMap)
			if diff := cmp.Diff(fromMap, fromBytes); diff != "" {
				t.Errorf("the map and the bytes disagree (-map +bytes):\n%s", diff)
			}
		})
	}
}

// TestNewInputUnencodable shows what NewInput does with a value JSON cannot
// encode: the Input keeps it for the map accessors, has no document, and
// Err names each such parameter in the gate's words.
func TestNewInputUnencodable(t *testing.T) {
	self := map[string]any{}
	self["self"] = self
	fn := func() {}
	ch := make(chan int)
	tests := []struct {
		name string
		m    map[string]any
		want string
	}{
		{"func", map[string]any{"ok": "x", "f": fn}, "Parameter 'f' is invalid: a Go func() cannot be sent as JSON. The tool was not executed."},
		{"chan and NaN", map[string]any{"c": ch, "n": math.NaN()}, "Parameter 'c' is invalid: a Go chan int cannot be sent as JSON.\n" +
			"Parameter 'n' is invalid: the number must be finite. The tool was not executed."},
		{"nested infinity", map[string]any{"o": map[string]any{"x": []any{math.Inf(-1)}}}, "Parameter 'o' is invalid: the number must be finite. The tool was not executed."},
		{"bad number", map[string]any{"n": json.Number("0x10")}, `Parameter 'n' is invalid: "0x10" is not a JSON number. The tool was not executed.`},
		{"a map that contains itself", map[string]any{"m": self}, "Parameter 'm' is invalid: it is nested deeper than 512 levels. The tool was not executed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := NewInput(tt.m)
			if in.Err() == nil {
				t.Fatal("Err = nil")
			}
			if diff := cmp.Diff(tt.want, in.Err().Error()); diff != "" {
				t.Errorf("Err (-want +got):\n%s", diff)
			}
			if _, ok := in.Document(); ok {
				t.Error("an Input that could not be encoded has a document")
			}
			if _, err := json.Marshal(in); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("MarshalJSON error = %v, want Err", err)
			}
			if in.Len() != len(tt.m) {
				t.Errorf("Len = %d, want %d: the map accessors must still read every value", in.Len(), len(tt.m))
			}
		})
	}
}

// FuzzAppendString checks that appendString writes a JSON string that
// encoding/json reads back as s, its invalid UTF-8 replaced by U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a", "\"\\", "\x00\x1f\x7f", "\u2028\u2029", "é\xff", "\xed\xa0\x80", "<&>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := appendString(nil, s)
		var got string
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("appendString(%q) = %s: %v", s, b, err)
		}
		if want := string([]rune(s)); got != want { // each invalid byte becomes U+FFFD
			t.Fatalf("appendString(%q) reads back as %q, want %q", s, got, want)
		}
	})
}

// FuzzNewInput checks the claim Document's unchecked reading rests on: the
// bytes NewInput writes for any arguments a model can send are one valid
// JSON object (jsonscan.Validate accepts them) that reads back as the map.
func FuzzNewInput(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":1}`, `{"a":null,"b":[1,null,{"c":"\u0000"}]}`, `{"\u2028":"é","n":-0.0,"e":1e-300}`,
		`{"x":{"y":{"z":[[[[]]]]}}}`, `{"s":"\ud800"}`, `{"big":123456789012345678901234567890}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		from, err := DecodeInput(data)
		if err != nil {
			return
		}
		in := NewInput(from.Map())
		if err := in.Err(); err != nil {
			t.Fatalf("NewInput of decoded arguments %s: %v", data, err)
		}
		if err := jsonscan.Validate(in.Raw()); err != nil {
			t.Fatalf("NewInput wrote %s for %s: %v", in.Raw(), data, err)
		}
		var want, got any
		_ = json.Unmarshal(data, &want)
		if err := json.Unmarshal(in.Raw(), &got); err != nil {
			t.Fatalf("bytes %s do not decode: %v", in.Raw(), err)
		}
		for k, v := range want.(map[string]any) {
			if v == nil {
				delete(want.(map[string]any), k)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("NewInput's bytes read back otherwise (-want +got):\n%s", diff)
		}
	})
}

// TestNewInputDepth: nesting up to jsonscan.MaxDepth is kept, one level
// more is a violation, never a stack overflow.
func TestNewInputDepth(t *testing.T) {
	nest := func(levels int) any { // levels of arrays below the top-level object
		var v any = "leaf"
		for range levels {
			v = []any{v}
		}
		return v
	}
	if in := NewInput(map[string]any{"v": nest(jsonscan.MaxDepth - 1)}); in.Err() != nil {
		t.Errorf("at the limit: %v", in.Err())
	} else if err := jsonscan.Validate(in.Raw()); err != nil {
		t.Errorf("at the limit the bytes do not validate: %v", err)
	}
	if in := NewInput(map[string]any{"v": nest(jsonscan.MaxDepth)}); in.Err() == nil {
		t.Error("one level beyond the limit: no error")
	}
}
