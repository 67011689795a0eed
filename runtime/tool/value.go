package tool

import (
	"encoding/json"

	"github.com/toolgen/toolgen/runtime/jsonscan"
)

// The functions below read a value of an Input's decoded map as the
// accessors ask for it, with jsonscan's coercions, so that the map and the
// document read every value alike.

// asString reads v as a string. Only strings are strings: a number is not
// converted.
func asString(v any) (string, bool) {
	s, ok := v.(string)
	return s, ok
}

// asBool reads v as a boolean. Only booleans are booleans: "true" is not
// converted.
func asBool(v any) (bool, bool) {
	b, ok := v.(bool)
	return b, ok
}

// asInt64 reads v as a signed integer of the given size in bits (8, 16, 32 or
// 64; anything else means 64). It accepts every Go integer and float kind,
// json.Number and a string holding a decimal number ("10"); an integral float
// such as 3.0 reads as 3, while 3.5 is a jsonscan.WrongType.
func asInt64(v any, bits int) (int64, jsonscan.Mismatch) {
	switch n := v.(type) {
	case int:
		return jsonscan.CheckInt(int64(n), bits)
	case int8:
		return jsonscan.CheckInt(int64(n), bits)
	case int16:
		return jsonscan.CheckInt(int64(n), bits)
	case int32:
		return jsonscan.CheckInt(int64(n), bits)
	case int64:
		return jsonscan.CheckInt(n, bits)
	case uint, uint8, uint16, uint32, uint64, uintptr:
		u, _ := asUint64(n, 64)
		if _, hi := jsonscan.IntRange(bits); u > uint64(hi) {
			return 0, jsonscan.OutOfRange
		}
		return int64(u), jsonscan.Match
	case float32:
		return jsonscan.IntFromFloat(float64(n), bits)
	case float64:
		return jsonscan.IntFromFloat(n, bits)
	case json.Number:
		return jsonscan.ParseInt(string(n), bits)
	case string:
		return jsonscan.ParseInt(n, bits)
	}
	return 0, jsonscan.WrongType
}

// asUint64 reads v as an unsigned integer of the given size in bits; it
// accepts what asInt64 accepts, and a negative value is jsonscan.OutOfRange.
func asUint64(v any, bits int) (uint64, jsonscan.Mismatch) {
	switch n := v.(type) {
	case uint:
		return jsonscan.CheckUint(uint64(n), bits)
	case uint8:
		return jsonscan.CheckUint(uint64(n), bits)
	case uint16:
		return jsonscan.CheckUint(uint64(n), bits)
	case uint32:
		return jsonscan.CheckUint(uint64(n), bits)
	case uint64:
		return jsonscan.CheckUint(n, bits)
	case uintptr:
		return jsonscan.CheckUint(uint64(n), bits)
	case int, int8, int16, int32, int64:
		i, _ := asInt64(n, 64)
		if i < 0 {
			return 0, jsonscan.OutOfRange
		}
		return jsonscan.CheckUint(uint64(i), bits)
	case float32:
		return jsonscan.UintFromFloat(float64(n), bits)
	case float64:
		return jsonscan.UintFromFloat(n, bits)
	case json.Number:
		return jsonscan.ParseUint(string(n), bits)
	case string:
		return jsonscan.ParseUint(n, bits)
	}
	return 0, jsonscan.WrongType
}

// asFloat64 reads v as a floating-point number of the given size in bits (32
// or 64; anything else means 64). It accepts every Go numeric kind,
// json.Number and a string holding a number; NaN and infinities are
// jsonscan.NotFinite, and a value beyond float32's range is jsonscan.OutOfRange when bits is 32.
func asFloat64(v any, bits int) (float64, jsonscan.Mismatch) {
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
		return jsonscan.ParseFloat(string(n), bits)
	case string:
		return jsonscan.ParseFloat(n, bits)
	default:
		return 0, jsonscan.WrongType
	}
	return jsonscan.CheckFloat(f, bits)
}
