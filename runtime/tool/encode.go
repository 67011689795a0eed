package tool

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// encodeObject encodes the arguments NewInput holds (c, already in the
// shapes deepCopy makes) as one JSON object, its keys sorted, with the keys
// given as null written as null, as a model writes them. A value JSON
// cannot encode leaves the Input without bytes: the error is a
// schema.Violations naming each such parameter.
func encodeObject(c map[string]any, nulls []string) ([]byte, error) {
	var small [16]string // the keys of most calls, without an allocation
	keys := small[:0]
	for k := range c {
		keys = append(keys, k)
	}
	keys = append(keys, nulls...)
	slices.Sort(keys)
	var (
		e  encoder
		vs schema.Violations
	)
	e.b = make([]byte, 0, 64*len(keys))
	e.b = append(e.b, '{')
	e.depth = 1
	for i, k := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = appendString(e.b, k)
		e.b = append(e.b, ':')
		if err := e.value(c[k]); err != "" {
			vs = append(vs, schema.Invalid(k, err))
		}
	}
	e.b = append(e.b, '}')
	if len(vs) > 0 {
		return nil, vs
	}
	// The text is valid JSON by construction (escaped strings, checked
	// numbers, the unique keys of maps, nesting bounded in value), so that
	// Document may read it unchecked; only its length is left to check.
	if len(e.b) > jsonscan.MaxBytes {
		return nil, schema.Violations{schema.Arguments(fmt.Sprintf("they are %d bytes long as JSON; the limit is %d", len(e.b), jsonscan.MaxBytes))}
	}
	return e.b, nil
}

// encoder appends JSON text to b; depth is the nesting of the value being
// written (the top-level object is 1).
type encoder struct {
	b     []byte
	depth int
}

// value appends v; for a value JSON cannot encode it appends null and
// returns the detail of the violation (encodeObject then keeps no bytes).
func (e *encoder) value(v any) string {
	switch x := v.(type) {
	case nil:
		e.b = append(e.b, "null"...)
	case string:
		e.b = appendString(e.b, x)
	case bool:
		e.b = strconv.AppendBool(e.b, x)
	case float64:
		return e.float(x, 64)
	case float32:
		return e.float(float64(x), 32)
	case int:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int8:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int16:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int32:
		e.b = strconv.AppendInt(e.b, int64(x), 10)
	case int64:
		e.b = strconv.AppendInt(e.b, x, 10)
	case uint:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case uint8:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case uint16:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case uint32:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case uint64:
		e.b = strconv.AppendUint(e.b, x, 10)
	case uintptr:
		e.b = strconv.AppendUint(e.b, uint64(x), 10)
	case json.Number:
		if !schema.IsJSONNumber(string(x)) {
			e.b = append(e.b, "null"...)
			return fmt.Sprintf("%q is not a JSON number", string(x))
		}
		e.b = append(e.b, x...)
	case map[string]any:
		if e.depth >= jsonscan.MaxDepth {
			return e.tooDeep()
		}
		e.depth++
		defer func() { e.depth-- }()
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		e.b = append(e.b, '{')
		var bad string
		for i, k := range keys {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = appendString(e.b, k)
			e.b = append(e.b, ':')
			if err := e.value(x[k]); err != "" && bad == "" {
				bad = err
			}
		}
		e.b = append(e.b, '}')
		return bad
	case []any:
		if e.depth >= jsonscan.MaxDepth {
			return e.tooDeep()
		}
		e.depth++
		defer func() { e.depth-- }()
		e.b = append(e.b, '[')
		var bad string
		for i, v := range x {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			if err := e.value(v); err != "" && bad == "" {
				bad = err
			}
		}
		e.b = append(e.b, ']')
		return bad
	case tooDeep:
		return e.tooDeep()
	default:
		// deepCopy turned every value encoding/json can encode into the
		// shapes above; what is left it cannot (a func, a channel).
		e.b = append(e.b, "null"...)
		return fmt.Sprintf("a Go %T cannot be sent as JSON", v)
	}
	return ""
}

// tooDeep appends null for a value nested beyond jsonscan.MaxDepth and
// returns the detail of its violation.
func (e *encoder) tooDeep() string {
	e.b = append(e.b, "null"...)
	return fmt.Sprintf("it is nested deeper than %d levels", jsonscan.MaxDepth)
}

// float appends f as encoding/json would write it (in the shortest form
// that reads back as the same number).
func (e *encoder) float(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.b = append(e.b, "null"...)
		return "the number must be finite"
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	e.b = strconv.AppendFloat(e.b, f, format, -1, bits)
	if n := len(e.b); format == 'e' && n >= 4 && e.b[n-4] == 'e' && e.b[n-3] == '-' && e.b[n-2] == '0' {
		e.b[n-2] = e.b[n-1] // e-07 as e-7
		e.b = e.b[:n-1]
	}
	return ""
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string: quote, backslash and control
// characters escaped, invalid UTF-8 replaced by U+FFFD (as encoding/json
// does), everything else as it is.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
