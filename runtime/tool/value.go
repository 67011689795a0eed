package tool

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Mismatch says why a value could not be read as the type asked for.
type Mismatch int

const (
	// Match means the value was read.
	Match Mismatch = iota
	// WrongType means the value is not of the JSON type asked for
	// (a fractional number where an integer is asked for is a WrongType).
	WrongType
	// OutOfRange means the value is of the right kind but does not fit the Go type.
	OutOfRange
	// NotFinite means the value is NaN or an infinity.
	NotFinite
)

// AsString reads v as a string. Only strings are strings: a number is not
// converted.
func AsString(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// AsBool reads v as a boolean. Only booleans are booleans: "true" is not
// converted.
func AsBool(v any) (bool, bool) {
	b, ok := v.(bool)
	return b, ok
}

// AsInt64 reads v as a signed integer of the given size in bits (8, 16, 32 or
// 64; anything else means 64). It accepts every Go integer and float kind,
// json.Number and a string holding a decimal number ("10"); an integral float
// such as 3.0 reads as 3, while 3.5 is a WrongType.
func AsInt64(v any, bits int) (int64, Mismatch) {
	lo, hi := intBounds(bits)
	switch n := v.(type) {
	case int:
		return checkInt(int64(n), lo, hi)
	case int8:
		return checkInt(int64(n), lo, hi)
	case int16:
		return checkInt(int64(n), lo, hi)
	case int32:
		return checkInt(int64(n), lo, hi)
	case int64:
		return checkInt(n, lo, hi)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		u, _ := AsUint64(n, 64)
		if u > uint64(hi) {
			return 0, OutOfRange
		}
		return int64(u), Match
	case float32:
		return floatToInt(float64(n), lo, hi)
	case float64:
		return floatToInt(n, lo, hi)
	case json.Number:
		return parseInt(string(n), lo, hi)
	case string:
		return parseInt(n, lo, hi)
	}
	return 0, WrongType
}

// AsUint64 reads v as an unsigned integer of the given size in bits; it
// accepts what AsInt64 accepts, and a negative value is OutOfRange.
func AsUint64(v any, bits int) (uint64, Mismatch) {
	hi := uintBound(bits)
	switch n := v.(type) {
	case uint:
		return checkUint(uint64(n), hi)
	case uint8:
		return checkUint(uint64(n), hi)
	case uint16:
		return checkUint(uint64(n), hi)
	case uint32:
		return checkUint(uint64(n), hi)
	case uint64:
		return checkUint(n, hi)
	case uintptr:
		return checkUint(uint64(n), hi)
	case int, int8, int16, int32, int64:
		i, _ := AsInt64(n, 64)
		if i < 0 {
			return 0, OutOfRange
		}
		return checkUint(uint64(i), hi)
	case float32:
		return floatToUint(float64(n), hi)
	case float64:
		return floatToUint(n, hi)
	case json.Number:
		return parseUint(string(n), hi)
	case string:
		return parseUint(n, hi)
	}
	return 0, WrongType
}

// AsFloat64 reads v as a floating-point number of the given size in bits (32
// or 64; anything else means 64). It accepts every Go numeric kind,
// json.Number and a string holding a number; NaN and infinities are
// NotFinite, and a value beyond float32's range is OutOfRange when bits is 32.
func AsFloat64(v any, bits int) (float64, Mismatch) {
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
		return parseFloat(string(n), bits)
	case string:
		return parseFloat(n, bits)
	default:
		return 0, WrongType
	}
	return checkFloat(f, bits)
}

func intBounds(bits int) (lo, hi int64) {
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

func uintBound(bits int) uint64 {
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

func checkInt(n, lo, hi int64) (int64, Mismatch) {
	if n < lo || n > hi {
		return 0, OutOfRange
	}
	return n, Match
}

func checkUint(n, hi uint64) (uint64, Mismatch) {
	if n > hi {
		return 0, OutOfRange
	}
	return n, Match
}

func floatToInt(f float64, lo, hi int64) (int64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if f != math.Trunc(f) {
		return 0, WrongType
	}
	// float64(math.MaxInt64) rounds up to 2^63, so the upper test is >=.
	if f < float64(lo) || f >= float64(hi)+1 {
		return 0, OutOfRange
	}
	return checkInt(int64(f), lo, hi)
}

func floatToUint(f float64, hi uint64) (uint64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if f != math.Trunc(f) {
		return 0, WrongType
	}
	if f < 0 || f >= float64(hi)+1 {
		return 0, OutOfRange
	}
	return checkUint(uint64(f), hi)
}

func checkFloat(f float64, bits int) (float64, Mismatch) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, NotFinite
	}
	if bits == 32 && math.Abs(f) > math.MaxFloat32 {
		return 0, OutOfRange
	}
	return f, Match
}

// parseInt reads a decimal integer, also in the forms "3.0" and "3e2" that a
// JSON number may take.
func parseInt(s string, lo, hi int64) (int64, Mismatch) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return checkInt(n, lo, hi)
	} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return 0, OutOfRange
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, OutOfRange
		}
		return 0, WrongType
	}
	if !isNumeral(s) {
		return 0, WrongType
	}
	return floatToInt(f, lo, hi)
}

func parseUint(s string, hi uint64) (uint64, Mismatch) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseUint(s, 10, 64); err == nil {
		return checkUint(n, hi)
	} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return 0, OutOfRange
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !isNumeral(s) {
		return 0, WrongType
	}
	return floatToUint(f, hi)
}

func parseFloat(s string, bits int) (float64, Mismatch) {
	s = strings.TrimSpace(s)
	if !isNumeral(s) {
		return 0, WrongType
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, OutOfRange
	}
	return checkFloat(f, bits)
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
