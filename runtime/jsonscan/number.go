package jsonscan

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

// The numeric coercions below are the one implementation of how toolgen
// reads a number into a Go type, and so of what an integer is: a number
// with an integral value (3 and 3.0, not 3.5) within the type's range. The
// binders use them through Value for JSON bytes, and runtime/tool's Param
// through Int64Of, Uint64Of and Float64Of for decoded values, so that both
// paths accept and refuse exactly the same numbers; the schema gate's
// "integer" (package schema) is the same test of the value.

// IntRange returns the range of a signed integer of bits bits (8, 16, 32 or
// 64; anything else means 64).
func IntRange(bits int) (lo, hi int64) {
	switch bits {
	case 8:
		return math.MinInt8, math.MaxInt8
	case 16:
		return math.MinInt16, math.MaxInt16
	case 32:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// UintMax returns the largest unsigned integer of bits bits.
func UintMax(bits int) uint64 {
	switch bits {
	case 8:
		return math.MaxUint8
	case 16:
		return math.MaxUint16
	case 32:
		return math.MaxUint32
	}
	return math.MaxUint64
}

// CheckInt reports whether n fits a signed integer of bits bits.
func CheckInt(n int64, bits int) (int64, Mismatch) {
	if lo, hi := IntRange(bits); n < lo || n > hi {
		return 0, OutOfRange
	}
	return n, Match
}

// CheckUint reports whether n fits an unsigned integer of bits bits.
func CheckUint(n uint64, bits int) (uint64, Mismatch) {
	if n > UintMax(bits) {
		return 0, OutOfRange
	}
	return n, Match
}

// IntFromFloat reads f as a signed integer: 3.0 is 3, 3.5 is a WrongType.
func IntFromFloat(f float64, bits int) (int64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if !schema.Integral(f) {
		return 0, WrongType
	}
	lo, hi := IntRange(bits)
	// float64(math.MaxInt64) rounds up to 2^63, so the upper test is >=.
	if f < float64(lo) || f >= float64(hi)+1 {
		return 0, OutOfRange
	}
	return CheckInt(int64(f), bits)
}

// UintFromFloat reads f as an unsigned integer; a negative value is
// OutOfRange.
func UintFromFloat(f float64, bits int) (uint64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if !schema.Integral(f) {
		return 0, WrongType
	}
	if f < 0 || f >= float64(UintMax(bits))+1 {
		return 0, OutOfRange
	}
	return CheckUint(uint64(f), bits)
}

// CheckFloat reports whether f is finite and, for bits 32, within
// float32's range.
func CheckFloat(f float64, bits int) (float64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if bits == 32 && math.Abs(f) > math.MaxFloat32 {
		return 0, OutOfRange
	}
	return f, Match
}

// ParseInt reads a string holding a number written as JSON writes one
// ("10", "3.0", "3e2") as a signed integer: the coercion of numeric strings.
func ParseInt(s string, bits int) (int64, Mismatch) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return CheckInt(n, bits)
	} else if isRangeErr(err) {
		return 0, OutOfRange
	}
	if !isNumeral(s) {
		return 0, WrongType
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case isRangeErr(err):
		return 0, OutOfRange
	case err != nil:
		return 0, WrongType
	}
	return IntFromFloat(f, bits)
}

// ParseUint is ParseInt for an unsigned integer.
func ParseUint(s string, bits int) (uint64, Mismatch) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return CheckUint(n, bits)
	} else if isRangeErr(err) {
		return 0, OutOfRange
	}
	if !isNumeral(s) {
		return 0, WrongType
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, WrongType
	}
	return UintFromFloat(f, bits)
}

// ParseFloat reads a string holding a number as a float.
func ParseFloat(s string, bits int) (float64, Mismatch) {
	s = strings.TrimSpace(s)
	if !isNumeral(s) {
		return 0, WrongType
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, OutOfRange
	}
	return CheckFloat(f, bits)
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// isNumeral reports whether s is written as a JSON number would be: digits,
// sign, point and exponent only, so "NaN", "Inf" and "0x10" are refused.
func isNumeral(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return true
}

// Int64Of reads v, a Go value (as encoding/json decodes JSON, or any Go
// number), as a signed integer of the given size in bits (8, 16, 32 or
// 64; anything else means 64). It accepts every Go integer and float kind,
// json.Number and a string holding a decimal number ("10"); an integral float
// such as 3.0 reads as 3, while 3.5 is a WrongType.
func Int64Of(v any, bits int) (int64, Mismatch) {
	switch n := v.(type) {
	case int:
		return CheckInt(int64(n), bits)
	case int8:
		return CheckInt(int64(n), bits)
	case int16:
		return CheckInt(int64(n), bits)
	case int32:
		return CheckInt(int64(n), bits)
	case int64:
		return CheckInt(n, bits)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		u, _ := Uint64Of(n, 64)
		if _, hi := IntRange(bits); u > uint64(hi) {
			return 0, OutOfRange
		}
		return int64(u), Match
	case float32:
		return IntFromFloat(float64(n), bits)
	case float64:
		return IntFromFloat(n, bits)
	case json.Number:
		return ParseInt(string(n), bits)
	case string:
		return ParseInt(n, bits)
	}
	return 0, WrongType
}

// Uint64Of reads v as an unsigned integer of the given size in bits; it
// accepts what Int64Of accepts, and a negative value is OutOfRange.
func Uint64Of(v any, bits int) (uint64, Mismatch) {
	switch n := v.(type) {
	case uint:
		return CheckUint(uint64(n), bits)
	case uint8:
		return CheckUint(uint64(n), bits)
	case uint16:
		return CheckUint(uint64(n), bits)
	case uint32:
		return CheckUint(uint64(n), bits)
	case uint64:
		return CheckUint(n, bits)
	case uintptr:
		return CheckUint(uint64(n), bits)
	case int, int8, int16, int32, int64:
		i, _ := Int64Of(n, 64)
		if i < 0 {
			return 0, OutOfRange
		}
		return CheckUint(uint64(i), bits)
	case float32:
		return UintFromFloat(float64(n), bits)
	case float64:
		return UintFromFloat(n, bits)
	case json.Number:
		return ParseUint(string(n), bits)
	case string:
		return ParseUint(n, bits)
	}
	return 0, WrongType
}

// Float64Of reads v as a floating-point number of the given size in bits (32
// or 64; anything else means 64). It accepts every Go numeric kind,
// json.Number and a string holding a number; NaN and infinities are
// NotFinite, and a value beyond float32's range is OutOfRange when bits is 32.
func Float64Of(v any, bits int) (float64, Mismatch) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int8:
		f = float64(n)
	case int16:
		f = float64(n)
	case int32:
		f = float64(n)
	case int64:
		f = float64(n)
	case uint:
		f = float64(n)
	case uint8:
		f = float64(n)
	case uint16:
		f = float64(n)
	case uint32:
		f = float64(n)
	case uint64:
		f = float64(n)
	case uintptr:
		f = float64(n)
	case json.Number:
		return ParseFloat(string(n), bits)
	case string:
		return ParseFloat(n, bits)
	default:
		return 0, WrongType
	}
	return CheckFloat(f, bits)
}
