package jsonscan

import (
	"math"
	"strconv"
	"strings"
)

// The numeric coercions below are the one implementation of how toolgen
// reads a number into a Go type: the raw binders use them through Value,
// and runtime/tool's AsInt64, AsUint64 and AsFloat64 use them for decoded
// values, so both paths accept and refuse exactly the same numbers.

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
	if f != math.Trunc(f) {
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
	if f != math.Trunc(f) {
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
