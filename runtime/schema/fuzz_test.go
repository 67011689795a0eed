package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzValidate feeds Compile and Validate arbitrary JSON. Validate must never
// panic, must give the same answer every time (and for every compilation of
// the same schema), and its answer must keep the documented shape and order.
// Seeds come from f.Add below and from testdata/fuzz/FuzzValidate.
func FuzzValidate(f *testing.F) {
	seeds := []struct{ schema, args string }{
		{`{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"],"additionalProperties":false}`,
			`{"file_paht":"/tmp/x"}`},
		{`{"properties":{"n":{"type":"integer"},"m":{"type":"string","enum":["a","b"]}}}`,
			`{"n":3.5,"m":"c","x":null}`},
		{`{"properties":{"v":{"type":["string","null"],"enum":[1,"a",null,[1],{"k":true}]}},"additionalProperties":false}`,
			`{"v":{"k":true},"w":[]}`},
		{`{"properties":{"r":{"$ref":"#/$defs/r"},"o":{"oneOf":[{"type":"string"}]},"s":{"type":"string"}}}`,
			`{"r":1,"o":2,"s":3}`},
		{`{"properties":"nope"}`, `{}`},
		{`{"required":[1]}`, `{}`},
		{`{"properties":{"a":true,"b":false,"c":{"type":"date"}},"required":["a","z","a"]}`,
			`{"b":1,"c":"x"}`},
		{`{"properties":{"a":{"type":"array"},"o":{"type":"object"}},"additionalProperties":false}`,
			`{"a":{"x":1},"o":[1,2,[3,[4]]],"":1,"A":2}`},
		{`{"properties":{"n":{"type":"integer","enum":[1e400,-0,12345678901234567890]}}}`,
			`{"n":1e400}`},
		{`{"properties":{"p":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"}},"additionalProperties":false}`,
			`{"p":"a","x-n":"1","q":null}`},
		{`{"properties":{"x":{"type":["string","null"],"enum":["a",null]},"o":{"type":"object","properties":{"k":{"const":1}}}},"required":["x"]}`,
			`{"x":null,"o":{"k":2}}`},
		{`{"$defs":{"n":{"type":"integer","minimum":0}},"properties":{"a":{"type":"array","items":{"$ref":"#/$defs/n"}}},"unevaluatedProperties":false}`,
			`{"a":[1,-1,"x"],"b":1}`},
	}
	for _, s := range seeds {
		f.Add([]byte(s.schema), []byte(s.args))
	}
	f.Fuzz(func(t *testing.T, schemaJSON, argsJSON []byte) {
		var s map[string]any
		_ = json.Unmarshal(schemaJSON, &s) // not an object: a nil schema
		args := decodeArgs(argsJSON, false)

		v, err := Compile(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "schema: ") {
				t.Errorf("Compile error without prefix: %v", err)
			}
			if got := Validate(s, args); got != nil {
				t.Errorf("Validate on a malformed schema = %v, want nil", got)
			}
			return
		}
		got := v.Validate(args)
		if diff := cmp.Diff(got, v.Validate(args)); diff != "" {
			t.Fatalf("Validate is not deterministic (-first +second)\n%s", diff)
		}
		v2, err := Compile(s)
		if err != nil {
			t.Fatalf("second Compile: %v", err)
		}
		if diff := cmp.Diff(got, v2.Validate(args)); diff != "" {
			t.Fatalf("Validate differs between compilations (-first +second)\n%s", diff)
		}
		checkShape(t, v, s, got)

		// The other ways values arrive must not panic either.
		v.Validate(decodeArgs(argsJSON, true))
		var raw map[string]json.RawMessage
		if json.Unmarshal(argsJSON, &raw) == nil {
			m := make(map[string]any, len(raw))
			for k, r := range raw {
				m[k] = r
			}
			checkShape(t, v, s, v.Validate(m))
		}
	})
}

// decodeArgs decodes arguments as tool.Input does: top-level nulls dropped.
func decodeArgs(b []byte, useNumber bool) map[string]any {
	d := json.NewDecoder(bytes.NewReader(b))
	if useNumber {
		d.UseNumber()
	}
	var args map[string]any
	if d.Decode(&args) != nil {
		return nil
	}
	for k, v := range args {
		if v == nil {
			delete(args, k)
		}
	}
	return args
}

// checkShape checks what every answer must look like: whole sentences on
// one line, none twice. Where the fast gate decides alone (the schema needs
// no complete validation), the order is documented too: missing required
// parameters first in the schema's order, then the rest by name, a
// parameter's violations together, of the kinds the fast gate words.
func checkShape(t *testing.T, v *Validator, s map[string]any, vs Violations) {
	t.Helper()
	seen := map[string]bool{}
	for _, x := range vs {
		if !strings.HasSuffix(x.Message, tail) || strings.ContainsAny(x.Message, "\n\r") {
			t.Errorf("bad sentence %q", x.Message)
		}
		if seen[x.Message] {
			t.Errorf("sentence given twice: %q", x.Message)
		}
		seen[x.Message] = true
	}
	if v.full != nil {
		return
	}
	var required []string
	if l, ok := s["required"].([]any); ok {
		for _, r := range l {
			if name, ok := r.(string); ok && !slices.Contains(required, name) {
				required = append(required, name)
			}
		}
	}
	i := 0
	for _, name := range required {
		if i < len(vs) && vs[i].Kind == KindRequired && vs[i].Param == name {
			i++
		}
	}
	done := map[string]bool{}
	for j := i; j < len(vs); j++ {
		x := vs[j]
		if x.Kind == KindRequired {
			t.Errorf("required violation out of order: %v", vs)
		}
		if j > i && vs[j-1].Param != x.Param {
			if vs[j-1].Param > x.Param {
				t.Errorf("violations not sorted: %q before %q", vs[j-1].Param, x.Param)
			}
			done[vs[j-1].Param] = true
		}
		if done[x.Param] {
			t.Errorf("violations of %q apart: %v", x.Param, vs)
		}
		switch x.Kind {
		case KindType, KindEnum, KindUnknown, KindMinimum, KindMaximum, KindMinLength, KindMaxLength,
			KindMinItems, KindMaxItems, KindPattern:
		default:
			t.Errorf("the fast gate reported kind %v", x.Kind)
		}
	}
}

func TestValidateDeepAndHuge(t *testing.T) {
	// Deeply nested values, in the args and in an enum.
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	s := map[string]any{}
	if err := json.Unmarshal([]byte(`{"properties":{"a":{"type":"array","enum":[`+deep+`]},"o":{"type":"object"}},"additionalProperties":false}`), &s); err != nil {
		t.Fatal(err)
	}
	args := decodeArgs([]byte(`{"a":`+deep+`,"o":`+deep+`}`), false)
	got := Validate(s, args)
	if len(got) != 2 || got[0].Kind != KindEnum || got[1].Kind != KindType {
		t.Errorf("deep values: %v", got)
	}
	if len(got[0].Message) > 2*len(deep)+200 {
		t.Errorf("deep values: message of %d bytes", len(got[0].Message))
	}

	// Many unknown keys.
	many := map[string]any{}
	for i := range 5000 {
		many[strings.Repeat("k", i%50)+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))] = i
	}
	got = Validate(map[string]any{"properties": map[string]any{"kkkkab": map[string]any{"type": "string"}}, "additionalProperties": false}, many)
	if len(got) != len(many)-1 && len(got) != len(many) {
		t.Errorf("many keys: %d violations for %d keys", len(got), len(many))
	}
}
