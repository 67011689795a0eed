package toolimpl

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

func TestKeys(t *testing.T) {
	str := map[string]any{"type": "string"}
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"b": str,
		"a": map[string]any{"type": "object", "properties": map[string]any{"y": str, "x": str}},
		"l": map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{"q": str}}},
		"m": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "object", "properties": map[string]any{}}},
	}}
	tests := []struct {
		path []string
		want []string
		msg  string // the panic's
	}{
		{nil, []string{"a", "b", "l", "m"}, ""},
		{[]string{"properties", "a"}, []string{"x", "y"}, ""},
		{[]string{"properties", "l", "items"}, []string{"q"}, ""},
		{[]string{"properties", "m", "additionalProperties"}, []string{}, ""},
		{[]string{"properties", "z"}, nil, "toolimpl.Keys: no schema at properties.z"},
		{[]string{"properties", "b"}, nil, "toolimpl.Keys: no properties at properties.b.properties"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.path), func(t *testing.T) {
			defer func() {
				msg := ""
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
				if msg != tt.msg {
					t.Errorf("panic %q, want %q", msg, tt.msg)
				}
			}()
			got := Keys(schema, tt.path...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Keys (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFieldHelpers: Default and Optional bind a present value with their
// Elem and say what an absent or null one means; a field read with
// RequiredField is reported missing, once.
func TestFieldHelpers(t *testing.T) {
	keys := []string{"a", "b", "c"}
	type got struct {
		Req  int
		Def  string
		Opt  *int
		Msgs []string
	}
	bind := func(args string) got {
		in, err := tool.DecodeInput([]byte(args))
		if err != nil {
			t.Fatal(err)
		}
		b := NewBinder(in)
		b.Locate(keys)
		var g got
		g.Req = IntIn[int](&b, b.RequiredField(0, "a", "integer"), "a", 1, 9)
		g.Def = Default(&b, b.Field(1), "b", "fast", ElemWith(String[string], modeRule))
		g.Opt = Optional(&b, b.Field(2), "c", Int[int])
		_, err = Done(&b, 0)
		g.Msgs = messages(err)
		return g
	}
	tests := []struct {
		args string
		want got
	}{
		{`{"a":3,"b":"slow","c":7}`, got{Req: 3, Def: "slow", Opt: new(7)}},
		{`{"a":3}`, got{Req: 3, Def: "fast"}},
		{`{"a":null,"b":null,"c":null}`, got{Def: "fast", Msgs: []string{"Parameter 'a' is required (integer)."}}},
		{`{"a":10,"b":"slower","c":"x"}`, got{Req: 10, Msgs: []string{
			"Parameter 'a' must be at most 9.",
			"Parameter 'b' must be one of [fast, slow], but was 'slower'.",
			"Parameter 'c' must be an integer.",
		}, Opt: new(0)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, bind(tt.args)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.args, diff)
		}
	}
}

// TestElemAllocs: an Elem made by ElemWith or ElemWithin, or passed to
// Default, costs no allocation: binding with them allocates what a
// function literal does, the lists bound.
func TestElemAllocs(t *testing.T) {
	in, err := tool.DecodeInput([]byte(`{"modes":["fast","slow"],"ns":[1,2],"m":"slow","r":3}`))
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"m", "modes", "ns", "r"}
	shared := func() {
		b := NewBinder(in)
		b.Locate(keys)
		_ = Slice(&b, b.Field(1), "modes", ElemWith(String[string], modeRule))
		_ = Slice(&b, b.Field(2), "ns", ElemWithin(IntIn[int], 0, 9))
		_ = Default(&b, b.Field(0), "m", "fast", ElemWith(String[string], modeRule))
		_ = IntClamp[int](&b, b.RequiredField(3, "r", "integer"), "r", 0, 9)
		_, _ = Done(&b, 0)
	}
	literal := func() {
		b := NewBinder(in)
		b.Locate(keys)
		_ = Slice(&b, b.Field(1), "modes", func(b *Binder, v Value, key string) string { return String[string](b, v, key, modeRule) })
		_ = Slice(&b, b.Field(2), "ns", func(b *Binder, v Value, key string) int { return IntIn[int](b, v, key, 0, 9) })
		if v := b.Field(0); v.Present() {
			_ = String[string](&b, v, "m", modeRule)
		}
		if v := b.Field(3); b.Required(v, "r", "integer") {
			_ = IntClamp[int](&b, v, "r", 0, 9)
		}
		_, _ = Done(&b, 0)
	}
	if s, l := testing.AllocsPerRun(100, shared), testing.AllocsPerRun(100, literal); s != l {
		t.Errorf("binding with shared Elems: %v allocations, with literals %v", s, l)
	}
}
