package schema

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// notExecuted ends every sentence: the model must know that nothing ran.
const notExecuted = " The tool was not executed."

// EchoLimit is the number of characters of a caller-supplied text (the value in
// [NotInEnum], the name in [Unknown]) that a sentence echoes. Longer texts are
// cut to their first EchoLimit characters followed by "...".
const EchoLimit = 100

// Kind says which rule a [Violation] breaks.
//
// The gate reports only [KindRequired], [KindType], [KindEnum] and
// [KindUnknown]; the other kinds are worded here for generated binders, which
// check a tool's own constraints with the same sentences.
type Kind int

// The kinds of violations. The zero Kind is not a valid kind.
const (
	KindRequired   Kind = iota + 1 // a required parameter is missing
	KindType                       // a value has the wrong JSON type
	KindEnum                       // a value is not one of the allowed values
	KindUnknown                    // a parameter the schema does not declare
	KindMinimum                    // a number is below its minimum
	KindMaximum                    // a number is above its maximum
	KindMinLength                  // a string is too short
	KindMaxLength                  // a string is too long
	KindMinItems                   // an array has too few items
	KindMaxItems                   // an array has too many items
	KindPattern                    // a string does not match its pattern
	KindFormat                     // a string is not in its format
	KindDuplicate                  // a parameter is given more than once
	KindInvalid                    // any other problem, described in words
	KindMultipleOf                 // a number is not a multiple of its divisor
)

var kindNames = [...]string{
	KindRequired:   "required",
	KindType:       "type",
	KindEnum:       "enum",
	KindUnknown:    "unknown",
	KindMinimum:    "minimum",
	KindMaximum:    "maximum",
	KindMinLength:  "minLength",
	KindMaxLength:  "maxLength",
	KindMinItems:   "minItems",
	KindMaxItems:   "maxItems",
	KindPattern:    "pattern",
	KindFormat:     "format",
	KindDuplicate:  "duplicate",
	KindInvalid:    "invalid",
	KindMultipleOf: "multipleOf",
}

// String returns the kind's lower-case name, such as "required" or
// "minLength", or "Kind(N)" for a value that is not a kind.
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Violation is one broken rule of one parameter.
type Violation struct {
	Kind  Kind   // which rule
	Param string // the parameter's name or path, as given (not shortened)
	// Message is the whole sentence for the model, ending in
	// " The tool was not executed.".
	Message string
}

// Error returns the violation's message.
func (v Violation) Error() string { return v.Message }

// Violations is a list of violations. As an error its text is one problem
// per line, in the list's order, for the first MaxListed of them, and says
// once, at the end, that the tool was not executed.
type Violations []Violation

// MaxListed bounds the messages Violations.Error lists: arguments can carry
// a hundred thousand unknown keys, and neither the model nor a log needs
// every one. The rest are counted in a last line:
//
//	... and 12 more problems like these. The tool was not executed.
const MaxListed = 50

// Error returns one line per violation, the first MaxListed of them, and a
// line counting the others. A single violation is its Message; of several,
// each line is its sentence without " The tool was not executed.", which
// ends the last line once:
//
//	Parameter 'message' is required (string).
//	Unknown parameter 'mesage'. Did you mean 'message'? The tool was not executed.
func (vs Violations) Error() string {
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return vs[0].Message
	}
	listed := vs[:min(len(vs), MaxListed)]
	n := len(listed) - 1 + len(notExecuted)
	for _, v := range listed {
		n += len(v.Message)
	}
	var b strings.Builder
	b.Grow(n)
	for i, v := range listed {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimSuffix(v.Message, notExecuted))
	}
	if more := len(vs) - len(listed); more > 0 {
		b.WriteString("\n... and " + strconv.Itoa(more) + " more problems like these.")
	}
	b.WriteString(notExecuted)
	return b.String()
}

// Err returns nil when vs is empty and vs itself otherwise, so that a caller
// can write `return vs.Err()` without returning a non-nil error holding an
// empty list.
func (vs Violations) Err() error {
	if len(vs) == 0 {
		return nil
	}
	return vs
}

// Unwrap returns each violation as an error, so that [errors.As] finds a
// single [Violation] in a Violations error.
func (vs Violations) Unwrap() []error {
	errs := make([]error, len(vs))
	for i, v := range vs {
		errs[i] = v
	}
	return errs
}

func violation(k Kind, param, sentence string) Violation {
	return Violation{Kind: k, Param: param, Message: sentence + notExecuted}
}

func prefix(param string) string { return "Parameter '" + clean(param) + "'" }

// Required reports a missing parameter:
//
//	Parameter 'x' is required (string). The tool was not executed.
//
// typ is a JSON-schema type name (string, integer, number, boolean, array,
// object) or a short phrase such as "string or integer"; when it is empty the
// parenthesis is left out: "Parameter 'x' is required. The tool was not
// executed.".
func Required(param, typ string) Violation {
	if typ == "" {
		return violation(KindRequired, param, prefix(param)+" is required.")
	}
	return violation(KindRequired, param, prefix(param)+" is required ("+clean(typ)+").")
}

// RequiredOf is [Required] for a parameter whose schema lists several types:
// the names are joined with " or " ("string or integer"), and "null" is left
// out when other types are listed, because a null value counts as missing.
func RequiredOf(param string, types []string) Violation {
	return Required(param, strings.Join(typeList(types), " or "))
}

// WrongType reports a value of the wrong JSON type:
//
//	Parameter 'x' must be an integer. The tool was not executed.
//
// typ is a JSON-schema type name; it gets its article: a string, an integer, a
// number, a boolean, an array, an object (and "null" none). A name that is not
// a JSON-schema type gets "a" or "an" by its first letter. An empty typ gives
// "Parameter 'x' has the wrong type. The tool was not executed.".
func WrongType(param, typ string) Violation {
	if typ == "" {
		return violation(KindType, param, prefix(param)+" has the wrong type.")
	}
	return violation(KindType, param, prefix(param)+" must be "+typePhrase(typ)+".")
}

// WrongTypeOf is [WrongType] for a parameter whose schema lists several types.
// "null" is left out when other types are listed (a null value counts as
// missing, so it can never be the fix); two types are joined with " or " and
// more with commas and a final " or ":
//
//	Parameter 'x' must be a string or an integer. The tool was not executed.
//	Parameter 'x' must be a string, an integer or a boolean. The tool was not executed.
func WrongTypeOf(param string, types []string) Violation {
	names := typeList(types)
	switch len(names) {
	case 0:
		return WrongType(param, "")
	case 1:
		return WrongType(param, names[0])
	}
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(typePhrase(n))
	}
	return violation(KindType, param, prefix(param)+" must be "+b.String()+".")
}

// typeList drops empty names, duplicates and (when anything else is left)
// "null", keeping the order.
func typeList(types []string) []string {
	out := make([]string, 0, len(types))
	hasOther := false
	for _, t := range types {
		if t != "" && t != "null" {
			hasOther = true
		}
	}
	for _, t := range types {
		if t == "" || (t == "null" && hasOther) {
			continue
		}
		dup := false
		for _, o := range out {
			if o == t {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, t)
		}
	}
	return out
}

func typePhrase(typ string) string {
	switch typ {
	case "string", "number", "boolean":
		return "a " + typ
	case "integer", "array", "object":
		return "an " + typ
	case "null":
		return "null"
	}
	typ = clean(typ)
	switch typ[0] {
	case 'a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U':
		return "an " + typ
	}
	return "a " + typ
}

// NotInEnum reports a value outside the allowed values:
//
//	Parameter 'x' must be one of [a, b], but was 'c'. The tool was not executed.
//
// allowed and got are the values as text: strings as they are, other values
// as compact JSON. got is cut to [EchoLimit] characters; control characters
// (a newline, a tab) in either are written as JSON escapes so that a message
// stays on one line. This is the only sentence that echoes a value.
func NotInEnum(param string, allowed []string, got string) Violation {
	var b strings.Builder
	b.WriteString(prefix(param))
	b.WriteString(" must be one of [")
	for i, a := range allowed {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clean(a))
	}
	b.WriteString("], but was '")
	b.WriteString(echo(got))
	b.WriteString("'.")
	return violation(KindEnum, param, b.String())
}

// Unknown reports a parameter the schema does not declare, with the closest
// declared name when [Suggest] finds one:
//
//	Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed.
//	Unknown parameter 'zzz'. The tool was not executed.
//
// The name is cut to [EchoLimit] characters.
func Unknown(param string, declared []string) Violation {
	s := "Unknown parameter '" + echo(param) + "'."
	if m, ok := Suggest(param, declared); ok {
		s += " Did you mean '" + clean(m) + "'?"
	}
	return violation(KindUnknown, param, s)
}

// BelowMinimum reports a number below its minimum:
//
//	Parameter 'x' must be at least 1. The tool was not executed.
func BelowMinimum(param string, min float64) Violation {
	return atLeast(KindMinimum, param, "at least", formatNumber(min))
}

// BelowMinimumInt is [BelowMinimum] for an integer bound, written exactly
// (a float64 cannot hold every int64):
//
//	Parameter 'x' must be at least -9223372036854775808. The tool was not executed.
func BelowMinimumInt(param string, min int64) Violation {
	return atLeast(KindMinimum, param, "at least", strconv.FormatInt(min, 10))
}

// BelowMinimumUint is [BelowMinimum] for an unsigned integer bound, written
// exactly.
func BelowMinimumUint(param string, min uint64) Violation {
	return atLeast(KindMinimum, param, "at least", strconv.FormatUint(min, 10))
}

// AboveMaximumInt is [AboveMaximum] for an integer bound, written exactly.
func AboveMaximumInt(param string, max int64) Violation {
	return atLeast(KindMaximum, param, "at most", strconv.FormatInt(max, 10))
}

// AboveMaximumUint is [AboveMaximum] for an unsigned integer bound, written
// exactly:
//
//	Parameter 'x' must be at most 18446744073709551615. The tool was not executed.
func AboveMaximumUint(param string, max uint64) Violation {
	return atLeast(KindMaximum, param, "at most", strconv.FormatUint(max, 10))
}

// atLeast words a range sentence: "must be <relation> <bound>".
func atLeast(k Kind, param, relation, bound string) Violation {
	return violation(k, param, prefix(param)+" must be "+relation+" "+bound+".")
}

// NotGreater reports a number not above its exclusive minimum (JSON Schema's
// "exclusiveMinimum"):
//
//	Parameter 'x' must be greater than 0. The tool was not executed.
func NotGreater(param string, bound float64) Violation {
	return atLeast(KindMinimum, param, "greater than", formatNumber(bound))
}

// NotLess reports a number not below its exclusive maximum:
//
//	Parameter 'x' must be less than 10. The tool was not executed.
func NotLess(param string, bound float64) Violation {
	return atLeast(KindMaximum, param, "less than", formatNumber(bound))
}

// NotMultipleOf reports a number that is not a multiple of its divisor;
// divisor is the number as text:
//
//	Parameter 'x' must be a multiple of 0.5. The tool was not executed.
func NotMultipleOf(param, divisor string) Violation {
	return violation(KindMultipleOf, param, prefix(param)+" must be a multiple of "+clean(divisor)+".")
}

// NotConst reports a value other than the one value the schema allows
// ("const"); want and got are written as in [NotInEnum], got cut to
// [EchoLimit] characters:
//
//	Parameter 'x' must be exactly 'on', but was 'off'. The tool was not executed.
func NotConst(param, want, got string) Violation {
	return violation(KindEnum, param, prefix(param)+" must be exactly '"+clean(want)+"', but was '"+echo(got)+"'.")
}

// RequiredWith reports a parameter that another one needs ("dependentRequired"):
//
//	Parameter 'billing_address' is required when 'credit_card' is given. The tool was not executed.
func RequiredWith(param, given string) Violation {
	return violation(KindRequired, param, prefix(param)+" is required when '"+clean(given)+"' is given.")
}

// NotAllowed reports a parameter whose schema is false: no value is valid,
// it must be left out:
//
//	Parameter 'x' is not allowed. The tool was not executed.
func NotAllowed(param string) Violation {
	return violation(KindUnknown, param, prefix(param)+" is not allowed.")
}

// Arguments reports a problem of the arguments as a whole, not of one
// parameter (the schema's "minProperties", "not", "anyOf" at the top);
// detail is a short lower-case phrase, as for [Invalid]:
//
//	The arguments are invalid: they must have at least 2 members. The tool was not executed.
func Arguments(detail string) Violation {
	detail = strings.TrimRight(strings.TrimSpace(detail), ".")
	if detail == "" {
		return violation(KindInvalid, "", "The arguments are invalid.")
	}
	return violation(KindInvalid, "", "The arguments are invalid: "+clean(detail)+".")
}

// AboveMaximum reports a number above its maximum:
//
//	Parameter 'x' must be at most 100. The tool was not executed.
func AboveMaximum(param string, max float64) Violation {
	return atLeast(KindMaximum, param, "at most", formatNumber(max))
}

// TooShort reports a string shorter than n characters:
//
//	Parameter 'x' must be at least 3 characters long. The tool was not executed.
//
// (and "1 character" for n == 1).
func TooShort(param string, n int) Violation {
	return violation(KindMinLength, param, prefix(param)+" must be at least "+count(n, "character")+" long.")
}

// TooLong reports a string longer than n characters:
//
//	Parameter 'x' must be at most 80 characters long. The tool was not executed.
func TooLong(param string, n int) Violation {
	return violation(KindMaxLength, param, prefix(param)+" must be at most "+count(n, "character")+" long.")
}

// TooFewItems reports an array with fewer than n items:
//
//	Parameter 'x' must have at least 2 items. The tool was not executed.
func TooFewItems(param string, n int) Violation {
	return violation(KindMinItems, param, prefix(param)+" must have at least "+count(n, "item")+".")
}

// TooManyItems reports an array with more than n items:
//
//	Parameter 'x' must have at most 10 items. The tool was not executed.
func TooManyItems(param string, n int) Violation {
	return violation(KindMaxItems, param, prefix(param)+" must have at most "+count(n, "item")+".")
}

// PatternMismatch reports a string that does not match its pattern:
//
//	Parameter 'x' must match the pattern '^a+$'. The tool was not executed.
func PatternMismatch(param, pattern string) Violation {
	return violation(KindPattern, param, prefix(param)+" must match the pattern '"+clean(pattern)+"'.")
}

// BadFormat reports a string that is not in its format, with an example
// of the accepted form for the formats models most often get wrong:
//
//	Parameter 'x' must be a valid date-time, such as 2024-05-01T14:30:00Z. The tool was not executed.
//
// A format that names its own example ("Go duration such as 1m30s") or
// has none here is worded as given: "Parameter 'x' must be a valid
// idn-email. The tool was not executed."
func BadFormat(param, format string) Violation {
	text := prefix(param) + " must be a valid " + clean(format)
	if ex, ok := formatExamples[format]; ok {
		text += ", such as " + ex
	}
	return violation(KindFormat, param, text+".")
}

// formatExamples are the examples BadFormat gives: JSON Schema's formats
// (RFC 3339's date-time, full-date and full-time for date-time, date and
// time; ISO 8601's duration) and the binders' own.
var formatExamples = map[string]string{
	"date-time": "2024-05-01T14:30:00Z",
	"date":      "2024-05-01",
	"time":      "14:30:00Z",
	"duration":  "P1DT2H or PT30S",
	"email":     "ada@example.com",
	"uri":       "https://example.com/page",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"hostname":  "example.com",
}

// DuplicateKey reports a parameter given more than once:
//
//	Parameter 'x' is given more than once. The tool was not executed.
func DuplicateKey(param string) Violation {
	return violation(KindDuplicate, param, prefix(param)+" is given more than once.")
}

// Invalid reports any other problem; detail is a short lower-case phrase
// without a final period (one is added, and a trailing one dropped):
//
//	Parameter 'x' is invalid: the number is out of range. The tool was not executed.
//
// An empty detail gives "Parameter 'x' is invalid. The tool was not executed.".
func Invalid(param, detail string) Violation {
	detail = strings.TrimRight(strings.TrimSpace(detail), ".")
	if detail == "" {
		return violation(KindInvalid, param, prefix(param)+" is invalid.")
	}
	return violation(KindInvalid, param, prefix(param)+" is invalid: "+clean(detail)+".")
}

func count(n int, noun string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// formatNumber writes f as encoding/json would: 100, 0.5, 1e+21.
func formatNumber(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return string(appendFloat(nil, f))
}

// Echo makes a caller-supplied text (a tool or parameter name the model
// wrote, a value it sent) safe to quote in a sentence: it is cut to its
// first [EchoLimit] characters (runes, never inside one) followed by "...",
// and its control and format characters (U+0000-U+001F, U+007F-U+009F,
// Unicode's Cf such as U+200B and U+202E, U+2028, U+2029) are escaped
// (\n, \t, \u202e) so that the sentence stays on one line and reads as
// written; invalid UTF-8 becomes U+FFFD. A single quote is escaped (\')
// too: sentences quote names with it, and a name must not be able to end
// its quotation and write a sentence of its own. Every package of the runtime that
// echoes a name into a message the model reads calls this one helper.
func Echo(s string) string { return echo(s) }

// echo is Echo.
func echo(s string) string {
	if len(s) > EchoLimit {
		n := 0
		for i := range s {
			if n == EchoLimit {
				s = s[:i] + "..."
				break
			}
			n++
		}
	}
	return clean(s)
}

// escaped reports whether clean writes r escaped.
func escaped(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

// clean escapes control and format characters and the single quote (and
// replaces invalid UTF-8) so that a sentence stays on one line and reads as
// written. Text without them is returned as is.
func clean(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '\'' {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || escaped(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\'':
			b.WriteString(`\'`)
		case r > 0xffff && escaped(r):
			b.WriteString(`\U`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 8-len(h)))
			b.WriteString(h)
		case escaped(r):
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(h)
		default: // includes utf8.RuneError for invalid bytes
			b.WriteRune(r)
		}
	}
	return b.String()
}
