package annotations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func ptr[T any](v T) *T { return &v }

func TestParseTag(t *testing.T) {
	tests := []struct {
		tag  string
		want Options
		errs []TagError
	}{
		{"", Options{}, nil},
		{"required", Options{Required: true}, nil},
		{"default=1,min=1,max=100", Options{Default: ptr("1"), Min: ptr("1"), Max: ptr("100")}, nil},
		{"enum=a|b|c", Options{Enum: []string{"a", "b", "c"}}, nil},
		{"default='a,b',pattern='^[^,]*$'", Options{Default: ptr("a,b"), Pattern: ptr("^[^,]*$")}, nil},
		{"default='it''s'", Options{Default: ptr("it's")}, nil},
		{"minlen=1,maxlen=2,minitems=3,maxitems=4,clamp,format=uuid", Options{MinLen: ptr(1), MaxLen: ptr(2), MinItems: ptr(3), MaxItems: ptr(4), Clamp: true, Format: FormatUUID}, nil},
		{"requird", Options{}, []TagError{{0, `unknown option "requird"; did you mean "required"?`}}},
		{"bogus", Options{}, []TagError{{0, `unknown option "bogus"; want one of clamp, default, enum, format, max, maxitems, maxlen, min, minitems, minlen, pattern, required`}}},
		{"required,required", Options{Required: true}, []TagError{{9, "option required given more than once; keep one"}}},
		{"required=1", Options{}, []TagError{{0, "option required takes no value; write required"}}},
		{"min", Options{}, []TagError{{0, "option min needs a value, e.g. min=1"}}},
		{"default='a", Options{}, []TagError{{8, "option default: unterminated quoted value; end it with '"}}},
		{"enum=a,b,c,required", Options{Enum: []string{"a"}, Required: true}, []TagError{
			{7, `unknown option "b"; separate enum values with '|': enum=a|b`},
			{9, `unknown option "c"; separate enum values with '|': enum=a|b|c`},
		}},
		{"enum=a|b,bogus=1", Options{Enum: []string{"a", "b"}}, []TagError{{9, `unknown option "bogus"; want one of clamp, default, enum, format, max, maxitems, maxlen, min, minitems, minlen, pattern, required`}}},
		{"enum=a||b", Options{}, []TagError{{0, `option enum: empty value in "a||b"; separate values with single '|'`}}},
		{"enum=a|a", Options{}, []TagError{{0, `option enum: value "a" listed twice`}}},
		{"format=ipv4", Options{}, []TagError{{0, `option format: unknown format "ipv4"; want one of date-time, date, time, duration, email, uri, uuid`}}},
		{"minlen=-1", Options{}, []TagError{{0, `option minlen: "-1" is not a non-negative integer`}}},
		{"required,,min=1", Options{Required: true, Min: ptr("1")}, []TagError{{9, "empty option; remove the extra comma"}}},
	}
	for _, tt := range tests {
		got, errs := ParseTag(tt.tag)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseTag(%q) options (-want +got):\n%s", tt.tag, diff)
		}
		if diff := cmp.Diff(tt.errs, errs); diff != "" {
			t.Errorf("ParseTag(%q) errors (-want +got):\n%s", tt.tag, diff)
		}
	}
}

func lines(texts ...string) []Comment {
	out := make([]Comment, len(texts))
	for i, s := range texts {
		out[i] = Comment{Pos: Pos{File: "x.go", Line: i + 1, Col: 1}, Text: s}
	}
	return out
}

func TestParseDirectives(t *testing.T) {
	d, errs := ParseDirectives(lines(
		"// EchoInput is the input.",
		"//tool:name Echo",
		"//tool:description Repeats",
		"//tool:description a message.",
		"//tool:concurrency safe",
		"//tool:interrupt externally-terminated",
		"//tool:side-effect read-only",
		"//tool:loading deferred",
		"//tool:subject path file_path",
		"//tool:keywords taxi, cab ,, ride  sharing",
		"//tool:keywords Uber,taxi",
		"//tool:idempotent",
		"//tool:unexported",
	))
	want := Directives{
		Pos: Pos{File: "x.go", Line: 2, Col: 1}, Name: "Echo", Description: "Repeats a message.", HasDescription: true,
		Concurrency: ConcurrencySafe, Interrupt: InterruptExternallyTerminated, SideEffect: SideEffectReadOnly, Loading: LoadingDeferred,
		Subject: &Subject{Kind: SubjectPath, Param: "file_path"}, SubjectPos: Pos{File: "x.go", Line: 9, Col: 1},
		Keywords: []string{"taxi", "cab", "ride sharing", "Uber"}, Idempotent: true, Unexported: true,
	}
	if diff := cmp.Diff(want, d); diff != "" || errs != nil {
		t.Errorf("ParseDirectives (-want +got):\n%s\nerrors: %v", diff, errs)
	}

	bad := []string{
		"//tool:nam Echo",
		"//tool:name",
		"//tool:name 9lives",
		"//tool:concurrency maybe",
		"//tool:interrupt now",
		"//tool:side-effect some",
		"//tool:loading lazy",
		"//tool:subject url x",
		"//tool:subject path",
		"//tool:enum yes",
		"//tool:zzz",
		"//tool:keywords",
		"//tool:keywords , ,",
		"//tool:idempotent yes",
		"//tool:interrupt thread-interrupt",
		"//tool:unexported please",
	}
	var got []string
	for i, line := range bad {
		_, errs := ParseDirectives([]Comment{{Pos: Pos{File: "x.go", Line: i + 1, Col: 1}, Text: line}})
		for _, e := range errs {
			got = append(got, e.Error())
		}
	}
	_, errs = ParseDirectives(lines("//tool:loading eager", "//tool:loading eager"))
	for _, e := range errs {
		got = append(got, e.Error())
	}
	wantErrs := []string{
		"x.go:1:1: unknown directive //tool:nam; did you mean //tool:name?",
		"x.go:2:1: //tool:name needs the tool's name, e.g. //tool:name Echo",
		`x.go:3:1: //tool:name "9lives": a tool name is letters, digits, '_', '-' and '.', starting with a letter or '_'`,
		`x.go:4:1: //tool:concurrency "maybe": want safe or sequential`,
		`x.go:5:1: //tool:interrupt "now": want cooperative, non-interruptible or externally-terminated`,
		`x.go:6:1: //tool:side-effect "some": want read-only, mutating or destructive`,
		`x.go:7:1: //tool:loading "lazy": want eager or deferred`,
		`x.go:8:1: //tool:subject "url x": want command or path, then a field's wire name, e.g. //tool:subject path file_path`,
		"x.go:9:1: //tool:subject path needs one wire name of a string field, e.g. //tool:subject path file_path",
		"x.go:10:1: //tool:enum takes no argument; the values are the type's constants",
		"x.go:11:1: unknown directive //tool:zzz; want one of //tool:concurrency, //tool:description, //tool:enum, //tool:idempotent, //tool:input, //tool:interrupt, //tool:keywords, //tool:loading, //tool:name, //tool:open-world, //tool:output, //tool:param, //tool:side-effect, //tool:subject, //tool:timeout, //tool:title, //tool:unexported",
		"x.go:12:1: //tool:keywords needs words, separated by commas, e.g. //tool:keywords taxi, cab, ride",
		"x.go:13:1: //tool:keywords needs words, separated by commas, e.g. //tool:keywords taxi, cab, ride",
		"x.go:14:1: //tool:idempotent takes no argument; leave it out for a tool whose second call with the same arguments does more",
		"x.go:15:1: //tool:interrupt thread-interrupt: Go has no thread interrupt; a tool stopped from outside, on a worker of its own, says externally-terminated",
		"x.go:16:1: //tool:unexported takes no argument; it makes the generated constructor and binder unexported (newXTool, bindXInput)",
		"x.go:2:1: //tool:loading given more than once; keep one",
	}
	if diff := cmp.Diff(wantErrs, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestProse(t *testing.T) {
	got := Prose(lines("// First line", "// continues.", "//", "// Second.", "//tool:name X", "//go:generate x"))
	if want := "First line continues.\n\nSecond."; got != want {
		t.Errorf("Prose = %q, want %q", got, want)
	}
}

func TestGeneratedName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"echo.go", "echo_toolgen.go"},
		{"echo_test.go", "echo_toolgen_test.go"},
	}
	for _, tt := range tests {
		if got := GeneratedName(tt.in); got != tt.want || !IsGeneratedName(got) {
			t.Errorf("GeneratedName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if IsGeneratedName("echo.go") {
		t.Error("IsGeneratedName(echo.go)")
	}
}

func TestHostDirectives(t *testing.T) {
	tests := []struct {
		name    string
		lines   []string
		want    Directives
		wantErr []string
	}{
		{"title and open world", []string{"//tool:name Fetch", "//tool:title  Fetch   a URL ", "//tool:open-world"},
			Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}, Name: "Fetch", Title: "Fetch a URL", OpenWorld: true}, nil},
		{"title alone declares a tool", []string{"//tool:title Something"},
			Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}, Title: "Something"}, nil},
		{"empty title", []string{"//tool:title"}, Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}},
			[]string{"x.go:1:1: //tool:title needs a short human-readable name, e.g. //tool:title Read file"}},
		{"control character", []string{"//tool:title a\x07b"}, Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}},
			[]string{`x.go:1:1: //tool:title "a\ab": a title is one line of printable text`}},
		{"open world with an argument", []string{"//tool:open-world yes"}, Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}},
			[]string{"x.go:1:1: //tool:open-world takes no argument; leave it out for a tool that stays within its own domain"}},
		{"title twice", []string{"//tool:title A", "//tool:title B"}, Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}, Title: "A"},
			[]string{"x.go:2:1: //tool:title given more than once; keep one"}},
		{"misspelt", []string{"//tool:titel A"}, Directives{Pos: Pos{File: "x.go", Line: 1, Col: 1}},
			[]string{"x.go:1:1: unknown directive //tool:titel; did you mean //tool:title?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := ParseDirectives(lines(tt.lines...))
			if diff := cmp.Diff(tt.want, d); diff != "" {
				t.Errorf("directives (-want +got):\n%s", diff)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(tt.wantErr) == 0 && !d.IsTool() {
				t.Error("IsTool = false")
			}
		})
	}
}
