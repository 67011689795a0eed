package schema

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSentences(t *testing.T) {
	long := strings.Repeat("v", 150)
	tests := []struct {
		name string
		got  Violation
		want Violation
	}{
		// The four gate sentences: part of the product contract.
		{"required", Required("x", "string"),
			Violation{KindRequired, "x", "Parameter 'x' is required (string). The tool was not executed."}},
		{"wrong type integer", WrongType("x", "integer"),
			Violation{KindType, "x", "Parameter 'x' must be an integer. The tool was not executed."}},
		{"enum", NotInEnum("x", []string{"a", "b"}, "c"),
			Violation{KindEnum, "x", "Parameter 'x' must be one of [a, b], but was 'c'. The tool was not executed."}},
		{"unknown with suggestion", Unknown("file_paht", []string{"content", "file_path"}),
			Violation{KindUnknown, "file_paht", "Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed."}},
		{"unknown without suggestion", Unknown("zzz", []string{"content", "file_path"}),
			Violation{KindUnknown, "zzz", "Unknown parameter 'zzz'. The tool was not executed."}},
		{"unknown no candidates", Unknown("zzz", nil),
			Violation{KindUnknown, "zzz", "Unknown parameter 'zzz'. The tool was not executed."}},

		// Articles.
		{"wrong type string", WrongType("x", "string"),
			Violation{KindType, "x", "Parameter 'x' must be a string. The tool was not executed."}},
		{"wrong type number", WrongType("x", "number"),
			Violation{KindType, "x", "Parameter 'x' must be a number. The tool was not executed."}},
		{"wrong type boolean", WrongType("x", "boolean"),
			Violation{KindType, "x", "Parameter 'x' must be a boolean. The tool was not executed."}},
		{"wrong type array", WrongType("x", "array"),
			Violation{KindType, "x", "Parameter 'x' must be an array. The tool was not executed."}},
		{"wrong type object", WrongType("x", "object"),
			Violation{KindType, "x", "Parameter 'x' must be an object. The tool was not executed."}},
		{"wrong type null", WrongType("x", "null"),
			Violation{KindType, "x", "Parameter 'x' must be null. The tool was not executed."}},
		{"wrong type other vowel", WrongType("x", "uuid"),
			Violation{KindType, "x", "Parameter 'x' must be an uuid. The tool was not executed."}},
		{"wrong type other", WrongType("x", "duration"),
			Violation{KindType, "x", "Parameter 'x' must be a duration. The tool was not executed."}},
		{"wrong type empty", WrongType("x", ""),
			Violation{KindType, "x", "Parameter 'x' has the wrong type. The tool was not executed."}},

		// Type lists.
		{"type list with null", WrongTypeOf("x", []string{"string", "null"}),
			Violation{KindType, "x", "Parameter 'x' must be a string. The tool was not executed."}},
		{"type list two", WrongTypeOf("x", []string{"string", "integer"}),
			Violation{KindType, "x", "Parameter 'x' must be a string or an integer. The tool was not executed."}},
		{"type list three", WrongTypeOf("x", []string{"string", "integer", "null", "boolean"}),
			Violation{KindType, "x", "Parameter 'x' must be a string, an integer or a boolean. The tool was not executed."}},
		{"type list only null", WrongTypeOf("x", []string{"null"}),
			Violation{KindType, "x", "Parameter 'x' must be null. The tool was not executed."}},
		{"type list empty", WrongTypeOf("x", nil),
			Violation{KindType, "x", "Parameter 'x' has the wrong type. The tool was not executed."}},
		{"required list", RequiredOf("x", []string{"string", "null", "integer", "string"}),
			Violation{KindRequired, "x", "Parameter 'x' is required (string or integer). The tool was not executed."}},
		{"required no type", Required("x", ""),
			Violation{KindRequired, "x", "Parameter 'x' is required. The tool was not executed."}},
		{"required list empty", RequiredOf("x", nil),
			Violation{KindRequired, "x", "Parameter 'x' is required. The tool was not executed."}},

		// Enum rendering.
		{"enum numbers", NotInEnum("n", []string{"1", "2", "null"}, "3.5"),
			Violation{KindEnum, "n", "Parameter 'n' must be one of [1, 2, null], but was '3.5'. The tool was not executed."}},
		{"enum long value cut", NotInEnum("x", []string{"a"}, long),
			Violation{KindEnum, "x", "Parameter 'x' must be one of [a], but was '" + strings.Repeat("v", 100) + "...'. The tool was not executed."}},
		{"enum exactly the limit", NotInEnum("x", []string{"a"}, strings.Repeat("v", 100)),
			Violation{KindEnum, "x", "Parameter 'x' must be one of [a], but was '" + strings.Repeat("v", 100) + "'. The tool was not executed."}},
		{"enum multibyte cut", NotInEnum("x", []string{"a"}, strings.Repeat("é", 101)),
			Violation{KindEnum, "x", "Parameter 'x' must be one of [a], but was '" + strings.Repeat("é", 100) + "...'. The tool was not executed."}},
		{"enum newline escaped", NotInEnum("x", []string{"a"}, "b\nc\td\x01"),
			Violation{KindEnum, "x", `Parameter 'x' must be one of [a], but was 'b\nc\td\u0001'. The tool was not executed.`}},
		{"enum empty allowed", NotInEnum("x", nil, "c"),
			Violation{KindEnum, "x", "Parameter 'x' must be one of [], but was 'c'. The tool was not executed."}},
		{"unknown long name cut", Unknown(long, []string{"a"}),
			Violation{KindUnknown, long, "Unknown parameter '" + strings.Repeat("v", 100) + "...'. The tool was not executed."}},
		{"unknown newline name", Unknown("a\nb", nil),
			Violation{KindUnknown, "a\nb", `Unknown parameter 'a\nb'. The tool was not executed.`}},

		// The binder's sentences.
		{"minimum", BelowMinimum("x", 1),
			Violation{KindMinimum, "x", "Parameter 'x' must be at least 1. The tool was not executed."}},
		{"minimum fraction", BelowMinimum("x", 0.5),
			Violation{KindMinimum, "x", "Parameter 'x' must be at least 0.5. The tool was not executed."}},
		{"minimum negative", BelowMinimum("x", -3),
			Violation{KindMinimum, "x", "Parameter 'x' must be at least -3. The tool was not executed."}},
		{"maximum", AboveMaximum("x", 100),
			Violation{KindMaximum, "x", "Parameter 'x' must be at most 100. The tool was not executed."}},
		{"maximum huge", AboveMaximum("x", 1e21),
			Violation{KindMaximum, "x", "Parameter 'x' must be at most 1e+21. The tool was not executed."}},
		{"too short", TooShort("x", 3),
			Violation{KindMinLength, "x", "Parameter 'x' must be at least 3 characters long. The tool was not executed."}},
		{"too short one", TooShort("x", 1),
			Violation{KindMinLength, "x", "Parameter 'x' must be at least 1 character long. The tool was not executed."}},
		{"too long", TooLong("x", 80),
			Violation{KindMaxLength, "x", "Parameter 'x' must be at most 80 characters long. The tool was not executed."}},
		{"too few items", TooFewItems("x", 2),
			Violation{KindMinItems, "x", "Parameter 'x' must have at least 2 items. The tool was not executed."}},
		{"too many items", TooManyItems("x", 10),
			Violation{KindMaxItems, "x", "Parameter 'x' must have at most 10 items. The tool was not executed."}},
		{"too many items one", TooManyItems("x", 1),
			Violation{KindMaxItems, "x", "Parameter 'x' must have at most 1 item. The tool was not executed."}},
		{"pattern", PatternMismatch("x", "^a+$"),
			Violation{KindPattern, "x", "Parameter 'x' must match the pattern '^a+$'. The tool was not executed."}},
		{"format", BadFormat("x", "date-time"),
			Violation{KindFormat, "x", "Parameter 'x' must be a valid date-time, such as 2024-05-01T14:30:00Z. The tool was not executed."}},
		{"format date", BadFormat("x", "date"),
			Violation{KindFormat, "x", "Parameter 'x' must be a valid date, such as 2024-05-01. The tool was not executed."}},
		{"format with its own example", BadFormat("x", "Go duration such as 1m30s"),
			Violation{KindFormat, "x", "Parameter 'x' must be a valid Go duration such as 1m30s. The tool was not executed."}},
		{"format without an example", BadFormat("x", "idn-email"),
			Violation{KindFormat, "x", "Parameter 'x' must be a valid idn-email. The tool was not executed."}},
		{"duplicate", DuplicateKey("x"),
			Violation{KindDuplicate, "x", "Parameter 'x' is given more than once. The tool was not executed."}},
		{"invalid", Invalid("x", "the number is out of range"),
			Violation{KindInvalid, "x", "Parameter 'x' is invalid: the number is out of range. The tool was not executed."}},
		{"invalid trailing period", Invalid("x", "the number must be finite."),
			Violation{KindInvalid, "x", "Parameter 'x' is invalid: the number must be finite. The tool was not executed."}},
		{"invalid empty", Invalid("x", ""),
			Violation{KindInvalid, "x", "Parameter 'x' is invalid. The tool was not executed."}},
		{"path as param", Required("edits[2].old_string", "string"),
			Violation{KindRequired, "edits[2].old_string", "Parameter 'edits[2].old_string' is required (string). The tool was not executed."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if tt.got.Error() != tt.want.Message {
				t.Errorf("Error() = %q, want %q", tt.got.Error(), tt.want.Message)
			}
		})
	}
}

func TestViolationsError(t *testing.T) {
	a, b := Required("a", "string"), WrongType("b", "integer")
	tests := []struct {
		name    string
		vs      Violations
		wantErr bool
		text    string
	}{
		{"nil", nil, false, ""},
		{"empty", Violations{}, false, ""},
		{"one", Violations{a}, true, a.Message},
		// "The tool was not executed." once, at the end (issue 32).
		{"two", Violations{a, b}, true, "Parameter 'a' is required (string).\nParameter 'b' must be an integer. The tool was not executed."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.vs.Err()
			if (err != nil) != tt.wantErr {
				t.Fatalf("Err() = %v, want error: %v", err, tt.wantErr)
			}
			if got := tt.vs.Error(); got != tt.text {
				t.Errorf("Error() = %q, want %q", got, tt.text)
			}
			if err == nil {
				return
			}
			var vs Violations
			if !errors.As(err, &vs) || len(vs) != len(tt.vs) {
				t.Errorf("errors.As(Violations) = %v", vs)
			}
			var v Violation
			if !errors.As(err, &v) || v != tt.vs[0] {
				t.Errorf("errors.As(Violation) = %v, want %v", v, tt.vs[0])
			}
		})
	}
}

func TestKindString(t *testing.T) {
	got := []string{}
	for k := KindRequired; k <= KindInvalid; k++ {
		got = append(got, k.String())
	}
	want := []string{"required", "type", "enum", "unknown", "minimum", "maximum", "minLength",
		"maxLength", "minItems", "maxItems", "pattern", "format", "duplicate", "invalid"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if s := Kind(0).String(); s != "Kind(0)" {
		t.Errorf("Kind(0).String() = %q", s)
	}
	if s := Kind(99).String(); s != "Kind(99)" {
		t.Errorf("Kind(99).String() = %q", s)
	}
}

func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"", ""},
		{"é ü 日本", "é ü 日本"},
		{"a\nb", `a\nb`},
		{"a\r\n", `a\r\n`},
		{"\x00\x1f\x7f", `\u0000\u001f\u007f`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad\xffbyte", "bad\uFFFDbyte"},
	}
	for _, tt := range tests {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestManyViolationsAreCounted: past MaxListed, the rest are counted in one
// line, so that a flood of unknown keys gives a bounded message.
func TestManyViolationsAreCounted(t *testing.T) {
	var vs Violations
	for i := range MaxListed + 12 {
		vs = append(vs, Unknown("k"+strconv.Itoa(i), nil))
	}
	lines := strings.Split(vs.Error(), "\n")
	if len(lines) != MaxListed+1 {
		t.Fatalf("%d lines, want %d", len(lines), MaxListed+1)
	}
	if diff := cmp.Diff("Unknown parameter 'k49'.", lines[MaxListed-1]); diff != "" {
		t.Errorf("last listed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff("... and 12 more problems like these. The tool was not executed.", lines[MaxListed]); diff != "" {
		t.Errorf("count line (-want +got):\n%s", diff)
	}
	if got := Violations(vs[:MaxListed]).Error(); strings.Contains(got, "more problems") {
		t.Errorf("exactly MaxListed violations got a count line:\n%s", got)
	}
}

// TestEcho: the one helper every runtime package echoes a model's names
// with: cut by characters, never inside one; control and format characters
// escaped; text without them as it is.
func TestEcho(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Read", "Read"},
		{"empty", "", ""},
		{"single quote escaped", "x' is allowed. Tool 'y", `x\' is allowed. Tool \'y`},
		{"double quote kept", `a"b`, `a"b`},
		{"newline and tab", "a\nb\tc\r", `a\nb\tc\r`},
		{"nul and del", "a\x00b\x7f", `a\u0000b\u007f`},
		{"C1 control", "a\u0085b", `a\u0085b`},
		{"bidi override", "Read\u202eetirW", `Read\u202eetirW`},
		{"zero width space", "Re\u200bad", `Re\u200bad`},
		{"line separators", "a\u2028b\u2029", `a\u2028b\u2029`},
		{"format character beyond the BMP", "a\U000e0001", `a\U000e0001`},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"letters of any script", "查询-straße", "查询-straße"},
		{"cut at the limit", strings.Repeat("x", EchoLimit), strings.Repeat("x", EchoLimit)},
		{"cut beyond the limit", strings.Repeat("x", EchoLimit+1), strings.Repeat("x", EchoLimit) + "..."},
		{"cut by characters, not bytes", strings.Repeat("é", EchoLimit+5), strings.Repeat("é", EchoLimit) + "..."},
		{"cut before escaping", strings.Repeat("x", EchoLimit-1) + "\n\n", strings.Repeat("x", EchoLimit-1) + `\n...`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Echo(tt.in)); diff != "" {
				t.Errorf("Echo(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
