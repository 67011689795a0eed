package jsonscan

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/schema"
)

// validateCases are texts with what Validate says of them.
var validateCases = func() []validateCase {
	deep := func(n int) string { return strings.Repeat(`{"a":`, n-1) + "{}" + strings.Repeat("}", n-1) }
	return []validateCase{
		{"empty object", ` {} `, "", false},
		{"members", `{"a":[1,-0.5e+3,true,false,null,"x",{}],"b":{"c":[]}}`, "", false},
		{"escapes", `{"\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t":"\ud800"}`, "", false},
		{"max depth", deep(MaxDepth), "", false},
		{"too deep", deep(MaxDepth + 1), "tool arguments are not valid JSON: the text is nested more than 512 levels deep (at byte 2560)", true},
		{"not an object", `[1]`, "tool arguments must be a JSON object, got an array", false},
		{"null", `null`, "tool arguments must be a JSON object, got null", false},
		{"empty", ``, "tool arguments are not valid JSON: unexpected end of the text (at byte 0)", false},
		{"trailing", `{} x`, "tool arguments are not valid JSON: invalid character 'x' after the top-level value (at byte 3)", false},
		{"vertical tab", "{}\v", "tool arguments are not valid JSON: invalid character byte 0xb after the top-level value (at byte 2)", false},
		{"unquoted key", `{a:1}`, "tool arguments are not valid JSON: invalid character 'a' looking for the start of an object key (at byte 1)", false},
		{"trailing comma", `{"a":1,}`, "tool arguments are not valid JSON: invalid character '}' looking for the start of an object key (at byte 7)", false},
		{"leading zero", `{"a":01}`, "tool arguments are not valid JSON: invalid character '1' after an object member (at byte 6)", false},
		{"bare point", `{"a":1.}`, "tool arguments are not valid JSON: invalid character '}' after a decimal point (at byte 7)", false},
		{"out of range", `{"a":1e400}`, "tool arguments are not valid JSON: the number 1e400 is out of range (at byte 5)", false},
		{"tiny is zero", `{"a":1e-400}`, "", false},
		{"bad escape", `{"a":"\x"}`, "tool arguments are not valid JSON: invalid character 'x' in a string escape (at byte 7)", false},
		{"bad unicode", `{"a":"\u12g4"}`, `tool arguments are not valid JSON: invalid character 'g' in a \u escape (at byte 10)`, false},
		{"control", "{\"a\":\"\n\"}", "tool arguments are not valid JSON: control character byte 0xa in a string (escape it) (at byte 6)", false},
		{"literal", `{"a":nul}`, "tool arguments are not valid JSON: invalid character '}' in literal null (at byte 8)", false},
		{"truncated", `{"a":"b`, "tool arguments are not valid JSON: unexpected end of the text (at byte 7)", false},
		{"duplicate", `{"a":1,"b":2,"a":3}`, "Parameter 'a' is given more than once. The tool was not executed.", false},
		{"escaped duplicate", `{"a":1,"\u0061":2}`, "Parameter 'a' is given more than once. The tool was not executed.", false},
		{"same key, other objects", `{"a":{"a":1},"b":[{"a":1},{"a":2}]}`, "", false},
		{"nested duplicate", `{"a":{"b":1,"b":2},"c":3}`, "Parameter 'a.b' is given more than once. The tool was not executed.", false},
		{"missing colon", `{"a" 1}`, "tool arguments are not valid JSON: invalid character '1' after an object key (at byte 5)", false},
		{"missing comma", `{"a":1 "b":2}`, `tool arguments are not valid JSON: invalid character '"' after an object member (at byte 7)`, false},
		{"unclosed", `{"a":1`, "tool arguments are not valid JSON: unexpected end of the text (at byte 6)", false},
		{"bad literal", `{"a":tru}`, "tool arguments are not valid JSON: invalid character '}' in literal true (at byte 8)", false},
		{"negative fraction", `{"a":-0.5,"b":10,"c":1e3}`, "", false},
		{"too long", `{"a":"` + strings.Repeat("x", MaxBytes) + `"}`, "tool arguments are not valid JSON: the text is 8388616 bytes long; the limit is 8388608 (at byte 8388608)", true},
	}
}()

type validateCase struct {
	name  string
	data  string
	want  string // the error's text; "" for valid text
	limit bool
}

func TestValidate(t *testing.T) {
	for _, tt := range validateCases {
		t.Run(tt.name, func(t *testing.T) {
			err := Validate([]byte(tt.data))
			got := ""
			if err != nil {
				got = err.Error()
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate (-want +got):\n%s", diff)
			}
			if errors.Is(err, ErrLimit) != tt.limit {
				t.Errorf("errors.Is(err, ErrLimit) = %v, want %v", !tt.limit, tt.limit)
			}
		})
	}
}

func TestDuplicatePaths(t *testing.T) {
	data := `{"x":1,"x":2,"x":3,"e":[{"k":1},{"k":1,"k":2}],"o":{"a":{"b":0,"b":0}},` + many(40) + `}`
	var vs schema.Violations
	if !errors.As(Validate([]byte(data)), &vs) {
		t.Fatal("no violations")
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Param)
	}
	if diff := cmp.Diff([]string{"x", "e[1].k", "o.a.b", "m.k3"}, got); diff != "" {
		t.Errorf("duplicate paths (-want +got):\n%s", diff)
	}
}

// many is a member "m" with n keys and one of them twice: past the small
// set of keys each object tracks without a map.
func many(n int) string {
	var b strings.Builder
	b.WriteString(`"m":{`)
	for i := range n {
		b.WriteString(`"k` + string(rune('0'+i%10)) + strings.Repeat("_", i/10) + `":1,`)
	}
	b.WriteString(`"k3":2}`)
	return b.String()
}

func TestReadValues(t *testing.T) {
	doc, err := Parse([]byte(`{"s":"a\u00e9\ud83d\ude00\ud800\"","i":-12,"f":3.0,"h":1.5,"big":18446744073709551615,` +
		`"ns":" 10 ","b":true,"n":null,"a":[1,[2],{"x":3}],"o":{"z":1,"a":null},"e":1e2,` +
		`"p":200,"z":0,"d19":9223372036854775807}`))
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]Value{}
	for m := doc.Members(); m.Next(); {
		at[m.KeyString()] = m.Value()
	}
	type read struct {
		S       string
		SOK     bool
		I       int64
		IMM     Mismatch
		U       uint64
		UMM     Mismatch
		F       float64
		FMM     Mismatch
		Kind    Kind
		Present bool
	}
	get := func(v Value, bits int) read {
		var r read
		r.S, r.SOK = v.String()
		r.I, r.IMM = v.Int64(bits)
		r.U, r.UMM = v.Uint64(bits)
		r.F, r.FMM = v.Float64(bits)
		r.Kind, r.Present = v.Kind(), v.Present()
		return r
	}
	tests := []struct {
		key  string
		bits int
		want read
	}{
		{"s", 64, read{S: "aé😀\uFFFD\"", SOK: true, IMM: WrongType, UMM: WrongType, FMM: WrongType, Kind: String, Present: true}},
		{"i", 8, read{I: -12, UMM: OutOfRange, F: -12, Kind: Number, Present: true}},
		{"f", 64, read{I: 3, U: 3, F: 3, Kind: Number, Present: true}},
		{"h", 64, read{IMM: WrongType, UMM: WrongType, F: 1.5, Kind: Number, Present: true}},
		{"big", 64, read{IMM: OutOfRange, U: math.MaxUint64, F: 1.8446744073709552e19, Kind: Number, Present: true}},
		{"ns", 64, read{S: " 10 ", SOK: true, I: 10, U: 10, F: 10, Kind: String, Present: true}},
		{"e", 8, read{I: 100, U: 100, F: 100, Kind: Number, Present: true}},
		// Plain digits, read in one pass: beyond int8 but within uint8; zero.
		{"p", 8, read{IMM: OutOfRange, U: 200, F: 200, Kind: Number, Present: true}},
		{"z", 8, read{Kind: Number, Present: true}},
		// Nineteen digits take the general path.
		{"d19", 64, read{I: math.MaxInt64, U: math.MaxInt64, F: math.MaxInt64, Kind: Number, Present: true}},
		{"b", 64, read{IMM: WrongType, UMM: WrongType, FMM: WrongType, Kind: Bool, Present: true}},
		{"n", 64, read{IMM: WrongType, UMM: WrongType, FMM: WrongType, Kind: Null}},
		{"absent", 64, read{IMM: WrongType, UMM: WrongType, FMM: WrongType, Kind: Absent}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, get(at[tt.key], tt.bits)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.key, diff)
		}
	}
	if got := at["a"].Len(); got != 3 {
		t.Errorf("Len = %d, want 3", got)
	}
	if diff := cmp.Diff([]string{"a", "z"}, at["o"].Keys()); diff != "" {
		t.Errorf("Keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a", "b", "big", "d19", "e", "f", "h", "i", "ns", "o", "p", "s", "z"}, doc.Keys()); diff != "" {
		t.Errorf("Doc.Keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]any{"x": 3.0}, at["a"].Items().next(2).Decode()); diff != "" {
		t.Errorf("Decode (-want +got):\n%s", diff)
	}
	strict := Unchecked(doc.data, true)
	if _, mm := strict.Root().Members().find("ns").Int64(64); mm != WrongType {
		t.Errorf("strict numeric string: %v, want WrongType", mm)
	}
	if s, ok := doc.StringField("s"); !ok || s != "aé😀\uFFFD\"" {
		t.Errorf("StringField = %q, %v", s, ok)
	}
	if _, ok := doc.StringField("i"); ok {
		t.Error("StringField read a number")
	}
}

func (it Items) next(n int) Value {
	for range n + 1 {
		it.Next()
	}
	return it.Value()
}

func (m Members) find(key string) Value {
	for m.Next() {
		if string(m.Key()) == key {
			return m.Value()
		}
	}
	return Value{}
}

// TestNoAllocations keeps the valid path allocation-free: validating, and
// reading strings from an Unchecked document.
func TestNoAllocations(t *testing.T) {
	data := []byte(`{"pattern":"func w+","path":"/src","-A":2,"-i":true,"x":{"y":[1,2,{"z":null}]},"s":"é"}`)
	var sink int
	n := testing.AllocsPerRun(100, func() {
		if Validate(data) != nil {
			t.Fatal("invalid")
		}
		doc := Unchecked(data, false)
		for m := doc.Members(); m.Next(); {
			switch v := m.Value(); v.Kind() {
			case String:
				s, _ := v.String()
				sink += len(s)
			case Number:
				n, _ := v.Int64(64)
				sink += int(n)
			}
		}
	})
	if n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// FuzzValues checks Validate against encoding/json and every string and
// number read against what encoding/json decodes.
func FuzzValues(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":"\ud83d\ude00\ud800\udc00x\u0000"}`, `{"a":1,"a":2}`, `{"a":[1.5e3,-0,"3"]}`, "{\"a\":\"\xff\xfe\"}", `{"a":1e400}`, ` {"a" : { } } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]any
		jerr := json.Unmarshal(data, &want)
		doc, err := Parse(data)
		var vs schema.Violations
		switch {
		case err == nil && jerr != nil:
			t.Fatalf("Parse accepted %q, encoding/json: %v", data, jerr)
		case err != nil && jerr == nil && want != nil && !errors.Is(err, ErrLimit) && !errors.As(err, &vs):
			t.Fatalf("Parse refused %q: %v; encoding/json accepts it", data, err)
		case err != nil:
			return
		}
		for m := doc.Members(); m.Next(); {
			k := m.KeyString()
			w, ok := want[k]
			if !ok {
				t.Fatalf("key %q not decoded by encoding/json", k)
			}
			if diff := cmp.Diff(w, m.Value().Decode()); diff != "" {
				t.Fatalf("Decode %q (-json +scan):\n%s", k, diff)
			}
			switch x := w.(type) {
			case string:
				if s, _ := m.Value().String(); s != x {
					t.Fatalf("String %q = %q, encoding/json %q", k, s, x)
				}
			case float64:
				if f, mm := m.Value().Float64(64); mm != Match || f != x {
					t.Fatalf("Float64 %q = %v (%v), encoding/json %v", k, f, mm, x)
				}
			}
		}
	})
}

// TestStringsOutliveData: strings read from a Doc made by Parse
// share one copy of the text, unescaped ones included, whether they fit the
// room kept for them or not, and do not change when the text does.
func TestStringsOutliveData(t *testing.T) {
	text := "{\"a\":\"x\\ny\",\"b\":\"\xff\xff\xff\",\"c\":\"\\u00e9\\t\",\"d\":\"plain\",\"e\":[\"\\\"q\\\"\"]}"
	want := map[string]string{"a": "x\ny", "b": "\uFFFD\uFFFD\uFFFD", "c": "é\t", "d": "plain", "e": `"q"`}
	// read reads the strings in the order given: the first unescaped ones
	// take the room kept for them, the later ones may not fit.
	read := func(doc *Doc, order []string) map[string]string {
		vals := map[string]Value{}
		for m := doc.Members(); m.Next(); {
			v := m.Value()
			if v.Kind() == Array {
				it := v.Items()
				it.Next()
				v = it.Value()
			}
			vals[m.KeyString()] = v
		}
		got := map[string]string{}
		for _, k := range order {
			got[k], _ = vals[k].String()
		}
		return got
	}
	for _, order := range [][]string{{"a", "b", "c", "d", "e"}, {"b", "e", "d", "c", "a"}} {
		data := []byte(text)
		doc, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		got := read(&doc, order)
		for i := range data {
			data[i] = 'z'
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("read in the order %v: strings after the text changed (-want +got):\n%s", order, diff)
		}
	}
}

// TestManyDuplicates: a text repeating keys a hundred thousand times is
// refused as fast as any other, naming the first MaxDuplicates of them.
func TestManyDuplicates(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"o":{`)
	for i := range 100000 {
		b.WriteString(`"k` + string(rune('a'+i%26)) + `":1,`)
	}
	b.WriteString(`"end":1}}`)
	err := Validate([]byte(b.String()))
	var vs schema.Violations
	if !errors.As(err, &vs) || len(vs) == 0 || len(vs) > MaxDuplicates {
		t.Fatalf("Validate = %v; want 1 to %d duplicate keys", err, MaxDuplicates)
	}
	if vs[0].Param != "o.ka" {
		t.Errorf("first duplicate %q, want o.ka", vs[0].Param)
	}
	_, serr := ValidateSpans([]byte(b.String()), make([]Span, 4))
	if diff := cmp.Diff(err.Error(), serr.Error()); diff != "" {
		t.Errorf("ValidateSpans and Validate disagree (-Validate +ValidateSpans):\n%s", diff)
	}
}
