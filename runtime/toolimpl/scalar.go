package toolimpl

import (
	"encoding/json"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// Integer is the set of Go integer kinds a binder reads.
type Integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Floating is the set of Go float kinds a binder reads.
type Floating interface{ ~float32 | ~float64 }

// A StringRule is what a string field accepts beyond being a string, as
// its tag declares it. The zero StringRule accepts every string.
type StringRule struct {
	// Enum, when not nil, lists the only values accepted; the other
	// checks do not apply.
	Enum []string
	// MinLen and MaxLen bound the length in characters (runes); nil is no
	// bound.
	MinLen, MaxLen *int
	// Pattern is a regular expression the value must match.
	Pattern *regexp.Regexp
	// Format is a format the value must have: date-time, date, time,
	// duration, email, uri or uuid.
	Format string
}

// DurationFormat is how a value that is not a Go duration is worded:
// "must be a valid Go duration such as 1m30s or 250ms".
const DurationFormat = "Go duration such as 1m30s or 250ms"

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// String binds the string v at key. An absent v gives "" and no violation,
// as it does for every helper: the generated code decides what absence
// means (a default, or [Binder.Required]).
func String[T ~string](b *Binder, v Value, key string, r *StringRule) T {
	if r == nil { // a string with no rule: read it here, the common case
		if s, ok := v.String(); ok {
			return T(s)
		}
	}
	s, ok := b.str(v, key, r)
	if !ok {
		return ""
	}
	return T(s)
}

// str reads a string and checks it against r.
func (b *Binder) str(v Value, key string, r *StringRule) (string, bool) {
	if absent(v) {
		return "", false
	}
	s, ok := v.String()
	if !ok {
		b.report(schema.WrongType(b.at(key), "string"))
		return "", false
	}
	if r == nil {
		return s, true
	}
	if r.Enum != nil {
		if contains(r.Enum, s) {
			return s, true
		}
		b.report(schema.NotInEnum(b.at(key), r.Enum, s))
		return "", false
	}
	switch {
	case r.MinLen != nil && utf8.RuneCountInString(s) < *r.MinLen:
		b.report(schema.TooShort(b.at(key), *r.MinLen))
	case r.MaxLen != nil && utf8.RuneCountInString(s) > *r.MaxLen:
		b.report(schema.TooLong(b.at(key), *r.MaxLen))
	case r.Pattern != nil && !r.Pattern.MatchString(s):
		b.report(schema.PatternMismatch(b.at(key), r.Pattern.String()))
	case r.Format != "" && !HasFormat(s, r.Format):
		f := r.Format
		if f == "duration" {
			f = DurationFormat
		}
		b.report(schema.BadFormat(b.at(key), f))
	default:
		return s, true
	}
	return "", false
}

// HasFormat reports whether s has the format named (date-time, date,
// time, duration, email, uri or uuid), as the binders check a StringRule's
// Format; toolgen checks a tag's default value with it too.
func HasFormat(s, format string) bool {
	var err error
	switch format {
	case "date-time":
		_, err = time.Parse(time.RFC3339, s)
	case "date":
		_, err = time.Parse(time.DateOnly, s)
	case "time":
		return isTime(s)
	case "duration":
		_, err = time.ParseDuration(s)
	case "email":
		_, err = mail.ParseAddress(s)
	case "uri":
		var u *url.URL
		u, err = url.Parse(s)
		return err == nil && u.IsAbs()
	case "uuid":
		return uuidPattern.MatchString(s)
	}
	return err == nil
}

// isTime reports whether s is a time of day: RFC 3339's full-time
// (10:11:12Z, 10:11:12.5+02:00), which is what JSON Schema's "time" format
// names and so what a model reading the schema sends, or the same without
// the offset (10:11:12), as Go's time.TimeOnly writes it.
func isTime(s string) bool {
	clock, zone := s, ""
	if i := strings.IndexAny(s, "Zz+-"); i >= 0 {
		clock, zone = s[:i], s[i:]
	}
	if i := strings.IndexByte(clock, '.'); i >= 0 {
		frac := clock[i+1:]
		if frac == "" || strings.Trim(frac, "0123456789") != "" {
			return false
		}
		clock = clock[:i]
	}
	if len(clock) != len("15:04:05") {
		return false
	}
	if _, err := time.Parse(time.TimeOnly, clock); err != nil {
		return false
	}
	switch {
	case zone == "", zone == "Z", zone == "z":
		return true
	case len(zone) == len("+07:00"):
		_, err := time.Parse("-07:00", zone)
		return err == nil
	}
	return false
}

// Time binds v, an RFC 3339 date-time string, at key.
func Time(b *Binder, v Value, key string, r *StringRule) time.Time {
	s, ok := b.str(v, key, r)
	if !ok {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		b.report(schema.BadFormat(b.at(key), "date-time"))
	}
	return t
}

// Duration binds v, a Go duration string (1m30s), at key.
func Duration(b *Binder, v Value, key string, r *StringRule) time.Duration {
	s, ok := b.str(v, key, r)
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		b.report(schema.BadFormat(b.at(key), DurationFormat))
	}
	return d
}

// Bool binds the boolean v at key.
func Bool[T ~bool](b *Binder, v Value, key string) T {
	if absent(v) {
		return false
	}
	x, ok := v.Bool()
	if !ok {
		b.report(schema.WrongType(b.at(key), "boolean"))
	}
	return T(x)
}

// Raw binds v at key as its JSON encoding (a json.RawMessage), compact and
// with object keys sorted, as encoding/json writes a decoded value.
func Raw[T ~[]byte](b *Binder, v Value, key string) T {
	if absent(v) {
		return nil
	}
	data, err := json.Marshal(v.Decode())
	if err != nil {
		b.report(schema.Invalid(b.at(key), "cannot be encoded as JSON"))
		return nil
	}
	return T(data)
}

// Any binds v as encoding/json decodes it into an any.
func Any(v Value) any { return v.Decode() }

// signed reports whether T is a signed integer kind.
func signed[T Integer]() bool { return ^T(0) < 0 }

func bits[T Integer | Floating]() int { var x T; return int(unsafe.Sizeof(x)) * 8 }

// integer reads the integer v of T's kind: in is false when v is not an
// integer or is outside T's range, which is then reported.
func integer[T Integer](b *Binder, v Value, key string) (n T, below, above, in bool) {
	if u, ok := v.SmallUint(); ok {
		if _, hi := typeRange[T](); u <= uint64(hi) {
			return T(u), false, false, true
		}
	}
	var mm jsonscan.Mismatch
	if signed[T]() {
		var x int64
		x, mm = v.Int64(bits[T]())
		n = T(x)
	} else {
		var x uint64
		x, mm = v.Uint64(bits[T]())
		n = T(x)
	}
	switch mm {
	case jsonscan.Match:
		return n, false, false, true
	case jsonscan.OutOfRange:
		if f, _ := v.Float64(64); f < 0 {
			return 0, true, false, false
		}
		return 0, false, true, false
	}
	b.report(schema.WrongType(b.at(key), "integer"))
	return 0, false, false, false
}

// typeBound reports v, outside T's range, with T's own bound.
func typeBound[T Integer](b *Binder, key string, below bool) {
	switch {
	case below && signed[T]():
		lo, _ := jsonscan.IntRange(bits[T]())
		b.report(schema.BelowMinimumInt(b.at(key), lo))
	case below:
		b.report(schema.BelowMinimum(b.at(key), 0))
	case signed[T]():
		_, hi := jsonscan.IntRange(bits[T]())
		b.report(schema.AboveMaximumInt(b.at(key), hi))
	default:
		b.report(schema.AboveMaximumUint(b.at(key), jsonscan.UintMax(bits[T]())))
	}
}

// tagBound reports n outside [lo, hi], the bounds a tag declares.
func tagBound[T Integer](b *Binder, key string, bound T, below bool) {
	switch {
	case below && signed[T]():
		b.report(schema.BelowMinimumInt(b.at(key), int64(bound)))
	case below:
		b.report(schema.BelowMinimumUint(b.at(key), uint64(bound)))
	case signed[T]():
		b.report(schema.AboveMaximumInt(b.at(key), int64(bound)))
	default:
		b.report(schema.AboveMaximumUint(b.at(key), uint64(bound)))
	}
}

// Int binds the integer v at key, which must fit T.
func Int[T Integer](b *Binder, v Value, key string) T {
	if absent(v) {
		return 0
	}
	n, below, above, in := integer[T](b, v, key)
	if !in && (below || above) {
		typeBound[T](b, key, below)
	}
	return n
}

// IntIn binds the integer v at key, which must lie in [lo, hi]; a bound
// the tag does not declare is T's own. A value outside T's range is
// reported with T's bound, one inside it with the tag's.
func IntIn[T Integer](b *Binder, v Value, key string, lo, hi T) T {
	if absent(v) {
		return 0
	}
	n, below, above, in := integer[T](b, v, key)
	switch {
	case !in && (below || above):
		typeBound[T](b, key, below)
	case !in:
	case n < lo:
		tagBound(b, key, lo, true)
	case n > hi:
		tagBound(b, key, hi, false)
	}
	return n
}

// IntClamp binds the integer v at key, moved into [lo, hi]. A value
// beyond T's range is clamped too, to a bound the tag declares (one that
// is not T's own); beyond an undeclared side it is reported.
func IntClamp[T Integer](b *Binder, v Value, key string, lo, hi T) T {
	if absent(v) {
		return 0
	}
	n, below, above, in := integer[T](b, v, key)
	tlo, thi := typeRange[T]()
	switch {
	case in && n < lo, below && lo != tlo:
		return lo
	case in && n > hi, above && hi != thi:
		return hi
	case below || above:
		typeBound[T](b, key, below)
	}
	return n
}

// typeRange returns T's smallest and largest values.
func typeRange[T Integer]() (lo, hi T) {
	if signed[T]() {
		l, h := jsonscan.IntRange(bits[T]())
		return T(l), T(h)
	}
	return 0, T(jsonscan.UintMax(bits[T]()))
}

// float reads the number v of T's kind, reporting a non-number or one
// beyond float32's range.
func float[T Floating](b *Binder, v Value, key string) (float64, bool) {
	f, mm := v.Float64(bits[T]())
	switch mm {
	case jsonscan.Match:
		return f, true
	case jsonscan.OutOfRange:
		if g, _ := v.Float64(64); g < 0 {
			b.report(schema.BelowMinimum(b.at(key), -math.MaxFloat32))
		} else {
			b.report(schema.AboveMaximum(b.at(key), math.MaxFloat32))
		}
		return 0, false
	}
	b.report(schema.WrongType(b.at(key), "number"))
	return 0, false
}

// Float binds the number v at key.
func Float[T Floating](b *Binder, v Value, key string) T {
	if absent(v) {
		return 0
	}
	f, _ := float[T](b, v, key)
	return T(f)
}

// FloatIn binds the number v at key, which must lie in [lo, hi]
// (±math.MaxFloat64 for a side the tag leaves open).
func FloatIn[T Floating](b *Binder, v Value, key string, lo, hi float64) T {
	if absent(v) {
		return 0
	}
	f, ok := float[T](b, v, key)
	switch {
	case !ok:
	case f < lo:
		b.report(schema.BelowMinimum(b.at(key), lo))
	case f > hi:
		b.report(schema.AboveMaximum(b.at(key), hi))
	}
	return T(f)
}

// FloatClamp binds the number v at key, moved into [lo, hi].
func FloatClamp[T Floating](b *Binder, v Value, key string, lo, hi float64) T {
	if absent(v) {
		return 0
	}
	f, mm := v.Float64(bits[T]())
	switch mm {
	case jsonscan.Match:
		return T(min(max(f, lo), hi))
	case jsonscan.OutOfRange:
		if g, _ := v.Float64(64); g < 0 {
			if lo > -math.MaxFloat32 {
				return T(lo)
			}
			b.report(schema.BelowMinimum(b.at(key), -math.MaxFloat32))
		} else {
			if hi < math.MaxFloat32 {
				return T(hi)
			}
			b.report(schema.AboveMaximum(b.at(key), math.MaxFloat32))
		}
		return 0
	}
	b.report(schema.WrongType(b.at(key), "number"))
	return 0
}
