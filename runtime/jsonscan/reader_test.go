package jsonscan

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A readMember is what a Reader, or Members, says of one member.
type readMember struct {
	Key   string
	Off   int  // where the value starts; -1 for a value not taken
	Taken bool // the loop took the value (Reader.Value)
}

// readAll reads data with a Reader the way a generated binder does: the
// members whose key take selects are taken into one slot per key, the
// others left to the Reader. It returns what was read and Err's text.
func readAll(r Reader, take func(key string) bool) ([]readMember, string) {
	slots := map[string]Value{}
	var got []readMember
	for r.Next() {
		k := string(r.Key())
		m := readMember{Key: k, Off: -1}
		if take(k) {
			v := r.Value(slots[k])
			slots[k] = v
			m.Taken, m.Off = true, v.off
		}
		got = append(got, m)
	}
	msg := ""
	if err := r.Err(); err != nil {
		msg = err.Error()
	}
	return got, msg
}

// membersOf lists the top-level members of valid text, as Members reads
// them, with the values take selects.
func membersOf(data []byte, take func(key string) bool) []readMember {
	doc := Unchecked(data, false)
	var out []readMember
	for m := doc.Members(); m.Next(); {
		k := m.KeyString()
		rm := readMember{Key: k, Off: -1}
		if take(k) {
			rm.Taken, rm.Off = true, m.Value().off
		}
		out = append(out, rm)
	}
	return out
}

var takeSome = []struct {
	name string
	take func(string) bool
}{
	{"all", func(string) bool { return true }},
	{"none", func(string) bool { return false }},
	{"even keys", func(k string) bool { return len(k)%2 == 0 }},
}

// checkReader requires a checking Reader over data to agree with Validate
// (the same error, or none) and, for valid text, both Readers to read the
// members Members reads.
func checkReader(t *testing.T, data []byte) {
	t.Helper()
	want := ""
	if err := Validate(data); err != nil {
		want = err.Error()
	}
	for _, tk := range takeSome {
		got, msg := readAll(NewReader(data), tk.take)
		if msg != want {
			t.Fatalf("%s: Reader over %.80q: Err %q, Validate %q", tk.name, data, msg, want)
		}
		if want != "" {
			continue
		}
		members := membersOf(data, tk.take)
		if diff := cmp.Diff(members, got); diff != "" {
			t.Fatalf("%s: Reader over %.80q (-Members +Reader):\n%s", tk.name, data, diff)
		}
		trusted, msg := readAll(Unchecked(data, false).Reader(), tk.take)
		if msg != "" {
			t.Fatalf("%s: Reader over a validated Doc: %s", tk.name, msg)
		}
		if diff := cmp.Diff(members, trusted); diff != "" {
			t.Fatalf("%s: Reader over a validated Doc %.80q (-Members +Reader):\n%s", tk.name, data, diff)
		}
	}
}

func TestReaderAgreesWithValidate(t *testing.T) {
	extra := []validateCase{
		{name: "escaped key", data: `{"p\u0061th":"/x","b":"\\w"}`},
		{name: "escaped duplicate of a taken key", data: `{"path":1,"p\u0061th":2}`},
		{name: "non-ASCII key", data: `{"é":1,"\u00e9":2}`},
		{name: "spaces everywhere", data: " \t{ \"a\" :\n1 , \"b\" : [ 1 , { } ] } \r\n"},
		{name: "numbers", data: `{"a":0,"b":-0,"c":123456789012345678901234,"d":1.5e-3,"e":-12,"f":9e999}`},
		{name: "long number", data: `{"a":1` + strings.Repeat("0", 310) + `}`},
		{name: "long fraction", data: `{"a":1` + strings.Repeat("0", 310) + `.5}`},
		{name: "literals", data: `{"t":true,"f":false,"n":null}`},
		{name: "short literal at the end", data: `{"t":tr`},
		{name: "value missing", data: `{"a":}`},
		{name: "key only", data: `{"a"`},
		{name: "comma first", data: `{,"a":1}`},
		{name: "unknown duplicates", data: `{"x":1,"y":2,"x":3}`},
		{name: "two objects", data: `{}{}`},
		{name: "not an object, spaced", data: `  "x"  `},
		{name: "only spaces", data: "  "},
	}
	for _, tt := range append(validateCases, extra...) {
		t.Run(tt.name, func(t *testing.T) { checkReader(t, []byte(tt.data)) })
	}
}

// TestReaderDuplicateOfTakenKey: a key taken twice is a fault however it is
// spelled, and Err names it as Validate does.
func TestReaderDuplicateOfTakenKey(t *testing.T) {
	_, msg := readAll(NewReader([]byte(`{"path":"a","p\u0061th":"b"}`)), func(k string) bool { return k == "path" })
	want := "Parameter 'path' is given more than once. The tool was not executed."
	if msg != want {
		t.Errorf("Err = %q, want %q", msg, want)
	}
}

// TestReaderUnfinished: a loop that stops early gets an error, not a
// silent success.
func TestReaderUnfinished(t *testing.T) {
	r := NewReader([]byte(`{"a":1,"b":2}`))
	r.Next()
	if r.Err() == nil {
		t.Error("Err = nil for an object read halfway")
	}
}

func TestReaderNoAllocations(t *testing.T) {
	data := []byte(`{"pattern":"func w+","path":"/src","-A":2,"-i":true,"x":{"y":[1,2,{"z":null}]},"s":"é"}`)
	n := testing.AllocsPerRun(100, func() {
		var at [3]Value
		r := NewReader(data)
		for r.Next() {
			switch string(r.Key()) {
			case "pattern":
				at[0] = r.Value(at[0])
			case "-A":
				at[1] = r.Value(at[1])
			case "x":
				at[2] = r.Value(at[2])
			}
		}
		if r.Err() != nil || !at[2].Present() {
			t.Fatal("invalid")
		}
	})
	if n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// FuzzReader checks a Reader against Validate and Members on any bytes.
func FuzzReader(f *testing.F) {
	for _, tt := range validateCases {
		if len(tt.data) < 4096 {
			f.Add([]byte(tt.data))
		}
	}
	f.Add([]byte(`{"p\u0061th":"/x","path":2,"x":{"y":[1,{"z":1,"z":2}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkReader(t, data) })
}

var grepArgs = []byte(`{"pattern":"func \\w+","path":"/src","glob":"*.go","type":"go","output_mode":"content",
	"-i":true,"-n":true,"multiline":false,"-A":2,"-B":1,"-C":0,"head_limit":50,"offset":10}`)

// BenchmarkRead compares the two ways of getting at a call's members:
// validate, then read the validated text (what generated binders did
// before the Reader), against the Reader's one pass.
func BenchmarkRead(b *testing.B) {
	b.Run("validate+members", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			doc, err := Parse(grepArgs)
			if err != nil {
				b.Fatal(err)
			}
			for m := doc.Members(); m.Next(); {
				_ = m.Value()
			}
		}
	})
	b.Run("reader", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := NewReader(grepArgs)
			for r.Next() {
				_ = r.Value(Value{})
			}
			if err := r.Err(); err != nil {
				b.Fatal(err)
			}
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
