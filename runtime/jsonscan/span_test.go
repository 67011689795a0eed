package jsonscan

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A readMember is what Members says of one member.
type readMember struct {
	Key     string
	Escaped bool   // Key was unescaped
	Off     int    // where the value starts
	Raw     string // the value's text
}

// membersOf lists the top-level members of doc as Members reads them.
func membersOf(doc *Doc) []readMember {
	var out []readMember
	for m := doc.Members(); m.Next(); {
		v := m.Value()
		out = append(out, readMember{Key: m.KeyString(), Escaped: m.escaped, Off: v.off, Raw: string(v.Raw())})
	}
	return out
}

// checkSpans requires ValidateSpans over data to agree with Validate (the
// same error, or none) and, for valid text, a Doc indexed by its spans to
// read the members, and to locate the keys, as the text says.
func checkSpans(t *testing.T, data []byte) {
	t.Helper()
	want := ""
	if err := Validate(data); err != nil {
		want = err.Error()
	}
	room := make([]Span, len(data))
	n, err := ValidateSpans(data, room)
	got := ""
	if err != nil {
		got = err.Error()
	}
	if got != want {
		t.Fatalf("ValidateSpans over %.80q: %q, Validate %q", data, got, want)
	}
	if want != "" {
		return
	}
	if n < 0 {
		t.Fatalf("ValidateSpans over %.80q: no room in %d spans", data, len(room))
	}
	if small, err := ValidateSpans(data, room[:n/2]); n > 0 && (small != -1 || err != nil) {
		t.Fatalf("ValidateSpans over %.80q with room for %d of %d members: %d, %v; want -1", data, n/2, n, small, err)
	}
	scanned, indexed := Unchecked(data, false), Indexed(data, room[:n], false)
	members := membersOf(&scanned)
	if diff := cmp.Diff(members, membersOf(&indexed)); diff != "" {
		t.Fatalf("members of %.80q (-scanned +indexed):\n%s", data, diff)
	}
	// Locate every key there is, one that is not, and the first twice
	// over (a field list with more names than the object).
	keys := []string{"not there"}
	for _, m := range members {
		keys = append(keys, m.Key)
	}
	for _, ks := range [][]string{keys, keys[1:], {"not there"}, nil} {
		wantAt := make([]Pos, len(ks))
		wantUnknown := scanned.Root().Locate(ks, wantAt)
		gotAt := make([]Pos, len(ks))
		gotUnknown := indexed.Root().Locate(ks, gotAt)
		// The indexed Doc gives the ends of long values only; a zero end
		// means "not known".
		for i := range wantAt {
			if gotAt[i].end == 0 {
				wantAt[i].end = 0
			}
		}
		if gotUnknown != wantUnknown || !slices.Equal(gotAt, wantAt) {
			t.Fatalf("Locate(%q) over %.80q: indexed %v %v, scanned %v %v", ks, data, gotAt, gotUnknown, wantAt, wantUnknown)
		}
	}
}

func TestSpansAgreeWithValidate(t *testing.T) {
	extra := []validateCase{
		{name: "escaped key", data: `{"p\u0061th":"/x","b":"\\w"}`},
		{name: "escaped duplicate", data: `{"path":1,"p\u0061th":2}`},
		{name: "non-ASCII key", data: `{"é":1,"\u00e9":2}`},
		{name: "non-ASCII keys", data: `{"é":1,"ü":{"é":2}}`},
		{name: "spaces everywhere", data: " \t{ \"a\" :\n1 , \"b\" : [ 1 , { } ] } \r\n"},
		{name: "numbers", data: `{"a":0,"b":-0,"c":123456789012345678901234,"d":1.5e-3,"e":-12,"f":9e999}`},
		{name: "long number", data: `{"a":1` + strings.Repeat("0", 310) + `}`},
		{name: "literals", data: `{"t":true,"f":false,"n":null}`},
		{name: "nested objects", data: `{"a":{"b":{"c":1}},"d":[{"e":2}]}`},
		{name: "more than the room", data: `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18}`},
		{name: "short literal at the end", data: `{"t":tr`},
		{name: "value missing", data: `{"a":}`},
		{name: "unknown duplicates", data: `{"x":1,"y":2,"x":3}`},
		{name: "two objects", data: `{}{}`},
		{name: "not an object, spaced", data: `  "x"  `},
		{name: "empty", data: `{}`},
		{name: "empty key", data: `{"":1,"b":""}`},
		// A Span records a plain key's length up to maxSpanKey bytes; a
		// longer key is read from the text.
		{name: "longest recorded key", data: `{"` + strings.Repeat("k", maxSpanKey) + `":1,"a":2}`},
		{name: "key too long to record", data: `{"` + strings.Repeat("k", maxSpanKey+1) + `":1,"a":2}`},
		{name: "spaced colon", data: "{\"a\"\t:\r\n1,\"b\" :2}"},
		// Locate gives the ends of values longer than longValue, read back
		// from the next key or the closing brace.
		{name: "long values", data: `{"a":"` + strings.Repeat(`x\"`, 40) + `" , "b":[` + strings.Repeat("1,", 40) + `1]` +
			"\n,\"c\":{\"d\":\"" + strings.Repeat("y", 70) + "\"},\"e\":\"" + strings.Repeat("\\n", 40) + "\"\t}\r\n"},
	}
	for _, tt := range append(validateCases, extra...) {
		t.Run(tt.name, func(t *testing.T) { checkSpans(t, []byte(tt.data)) })
	}
}

// TestValidateSpansNoAllocations: with room for the members, recording
// them allocates nothing.
func TestValidateSpansNoAllocations(t *testing.T) {
	data := []byte(`{"pattern":"func w+","path":"/src","-A":2,"-i":true,"x":{"y":[1,2,{"z":null}]},"s":"é"}`)
	var room [8]Span
	n := testing.AllocsPerRun(100, func() {
		n, err := ValidateSpans(data, room[:])
		if err != nil || n != 6 {
			t.Fatal(n, err)
		}
	})
	if n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// FuzzSpans checks ValidateSpans against Validate, and an indexed Doc
// against the text, on any bytes.
func FuzzSpans(f *testing.F) {
	for _, tt := range validateCases {
		if len(tt.data) < 4096 {
			f.Add([]byte(tt.data))
		}
	}
	f.Add([]byte(`{"p\u0061th":"/x","path":2,"x":{"y":[1,{"z":1,"z":2}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkSpans(t, data) })
}

var grepArgs = []byte(`{"pattern":"func \\w+","path":"/src","glob":"*.go","type":"go","output_mode":"content",
	"-i":true,"-n":true,"multiline":false,"-A":2,"-B":1,"-C":0,"head_limit":50,"offset":10}`)

// BenchmarkLocate compares the two ways of finding a call's fields in
// checked text: scanning the top-level object again, and reading the
// spans ValidateSpans recorded while it checked the text.
func BenchmarkLocate(b *testing.B) {
	keys := []string{"pattern", "path", "glob", "type", "output_mode", "-i", "-n", "multiline", "-A", "-B", "-C", "head_limit", "offset"}
	var room [16]Span
	n, err := ValidateSpans(grepArgs, room[:])
	if err != nil {
		b.Fatal(err)
	}
	spans := room[:n]
	var at [13]Pos
	for _, c := range []struct {
		name string
		doc  Doc
	}{{"scan", Unchecked(grepArgs, false)}, {"spans", Indexed(grepArgs, spans, false)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.doc.Root().Locate(keys, at[:])
			}
		})
	}
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Validate(grepArgs)
		}
	})
	b.Run("validate+spans", func(b *testing.B) {
		b.ReportAllocs()
		var room [16]Span
		for b.Loop() {
			_, _ = ValidateSpans(grepArgs, room[:])
		}
	})
}

// TestPlainEnd checks the eight-at-a-time scan against a byte at a time,
// for every byte at every position of a word and around it.
func TestPlainEnd(t *testing.T) {
	slow := func(d []byte, j int) int {
		for j < len(d) && plainASCII[d[j]] {
			j++
		}
		return j
	}
	for c := 0; c < 256; c++ {
		for n := 0; n < 20; n++ {
			for at := 0; at <= n; at++ {
				d := []byte(strings.Repeat("a", n))
				if at < n {
					d[at] = byte(c)
				}
				for start := 0; start <= n; start++ {
					if got, want := plainEnd(d, start), slow(d, start); got != want {
						t.Fatalf("plainEnd(%q, %d) = %d, want %d", d, start, got, want)
					}
				}
			}
		}
	}
	// Several special bytes in one word, where a borrow could mislead.
	alphabet := []byte{'"', '\\', 0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff, 'a'}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		d := make([]byte, rng.IntN(24))
		for i := range d {
			d[i] = alphabet[rng.IntN(len(alphabet))]
		}
		start := rng.IntN(len(d) + 1)
		if got, want := plainEnd(d, start), slow(d, start); got != want {
			t.Fatalf("plainEnd(%q, %d) = %d, want %d", d, start, got, want)
		}
	}
}
