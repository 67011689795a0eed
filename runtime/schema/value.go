package schema

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// jsonKind is the JSON type a Go value stands for.
type jsonKind uint8

const (
	jUnknown jsonKind = iota // no JSON type the gate can tell: let through
	jNull
	jString
	jInteger // a number with an integral value
	jNumber  // any other number
	jBoolean
	jArray
	jObject
)

// maxDepth bounds recursion into nested values (equality and rendering).
const maxDepth = 512

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// classify maps a Go value to its JSON type. The common types (those
// encoding/json decodes into, Go numeric kinds, json.Number) take a type
// switch that does not allocate; the rest go through reflect. Nil slices,
// maps and pointers are null, as encoding/json encodes them; []byte is an
// array, like every other slice, except json.RawMessage, which is its JSON
// text. Values whose JSON form depends on their own code (json.Marshaler,
// encoding.TextMarshaler), structs, and kinds JSON cannot encode are
// jUnknown.
func classify(v any) jsonKind {
	switch x := v.(type) {
	case nil:
		return jNull
	case string:
		return jString
	case bool:
		return jBoolean
	case float64:
		return floatKind(x)
	case float32:
		return floatKind(float64(x))
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr:
		return jInteger
	case json.Number:
		return numberTextKind(string(x))
	case map[string]any:
		if x == nil {
			return jNull
		}
		return jObject
	case []any:
		if x == nil {
			return jNull
		}
		return jArray
	case json.RawMessage:
		return rawKind(x)
	case []string:
		if x == nil {
			return jNull
		}
		return jArray
	case map[string]string:
		if x == nil {
			return jNull
		}
		return jObject
	}
	return reflectKind(reflect.ValueOf(v), 0)
}

func reflectKind(rv reflect.Value, depth int) jsonKind {
	if !rv.IsValid() {
		return jNull
	}
	t := rv.Type()
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType)) {
		return jUnknown
	}
	switch t.Kind() {
	case reflect.String:
		return jString
	case reflect.Bool:
		return jBoolean
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return jInteger
	case reflect.Float32, reflect.Float64:
		return floatKind(rv.Float())
	case reflect.Slice:
		if rv.IsNil() {
			return jNull
		}
		return jArray
	case reflect.Array:
		return jArray
	case reflect.Map:
		if rv.IsNil() {
			return jNull
		}
		return jObject
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return jNull
		}
		if depth >= 8 || (t.Kind() == reflect.Pointer && (t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType))) {
			return jUnknown
		}
		return reflectKind(rv.Elem(), depth+1)
	}
	return jUnknown
}

func floatKind(f float64) jsonKind {
	if Integral(f) {
		return jInteger
	}
	return jNumber
}

// Integral reports whether f is an integer as JSON Schema's "integer"
// means it: finite, with no fractional part (3 and 3.0 are; 3.5, NaN and
// the infinities are not). It is the one test of what an integer is: the
// gate's type check asks it, and so does package jsonscan when it reads a
// number into a Go integer (which adds the Go type's range).
func Integral(f float64) bool {
	return !math.IsInf(f, 0) && f == math.Trunc(f) // NaN != NaN
}

// numberTextKind classifies the text of a JSON number ("3", "3.0", "1e3").
func numberTextKind(s string) jsonKind {
	if !IsJSONNumber(s) {
		return jUnknown
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				if math.IsInf(f, 0) {
					return jInteger // too large for float64: integral
				}
				return jNumber // too small: not integral
			}
			return floatKind(f)
		}
	}
	return jInteger
}

// IsJSONNumber reports whether s follows the JSON number grammar (RFC 8259,
// section 6): the check for a json.Number's text, shared by the gate and
// package tool's encoder.
func IsJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// rawKind classifies JSON text by its first significant byte.
func rawKind(b []byte) jsonKind {
	b = trimSpace(b)
	if len(b) == 0 {
		return jNull // encoding/json encodes an empty RawMessage as null
	}
	switch c := b[0]; {
	case c == '"':
		return jString
	case c == '{':
		return jObject
	case c == '[':
		return jArray
	case c == 't' || c == 'f':
		return jBoolean
	case c == 'n':
		return jNull
	case c == '-' || (c >= '0' && c <= '9'):
		return numberTextKind(string(b))
	}
	return jUnknown
}

func trimSpace(b []byte) []byte {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

// typeName is the JSON type of v in words, for compile errors.
func typeName(v any) string {
	switch classify(v) {
	case jNull:
		return "null"
	case jString:
		return "string"
	case jInteger, jNumber:
		return "number"
	case jBoolean:
		return "boolean"
	case jArray:
		return "array"
	case jObject:
		return "object"
	}
	return reflect.TypeOf(v).String()
}

// number is a JSON number, exact when it is an integer that fits int64.
type number struct {
	i     int64
	f     float64
	exact bool // i holds the value
}

func (a number) equal(b number) bool {
	if a.exact && b.exact {
		return a.i == b.i
	}
	return a.f == b.f
}

func fromFloat(f float64) number {
	if Integral(f) && f >= -(1<<63) && f < 1<<63 {
		return number{i: int64(f), f: f, exact: true}
	}
	return number{f: f}
}

func fromUint(u uint64) number {
	if u <= math.MaxInt64 {
		return number{i: int64(u), f: float64(u), exact: true}
	}
	return number{f: float64(u)}
}

// toNumber returns v's value when v is a number.
func toNumber(v any) (number, bool) {
	switch x := v.(type) {
	case float64:
		return fromFloat(x), true
	case float32:
		return fromFloat(float64(x)), true
	case int:
		return number{i: int64(x), f: float64(x), exact: true}, true
	case int64:
		return number{i: x, f: float64(x), exact: true}, true
	case int32:
		return number{i: int64(x), f: float64(x), exact: true}, true
	case json.Number:
		return numberText(string(x))
	case json.RawMessage:
		return numberText(string(trimSpace(x)))
	}
	rv := reflect.ValueOf(v)
	for i := 0; i < 8 && rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface); i++ {
		if rv.IsNil() {
			return number{}, false
		}
		rv = rv.Elem()
	}
	if !rv.IsValid() {
		return number{}, false
	}
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i := rv.Int()
		return number{i: i, f: float64(i), exact: true}, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fromUint(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return fromFloat(rv.Float()), true
	}
	return number{}, false
}

func numberText(s string) (number, bool) {
	if !IsJSONNumber(s) {
		return number{}, false
	}
	integer := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '.' || c == 'e' || c == 'E' {
			integer = false
			break
		}
	}
	if integer && len(s) <= 20 {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return number{i: i, f: float64(i), exact: true}, true
		}
	}
	f, _ := strconv.ParseFloat(s, 64) // out of range: ±Inf or 0, still comparable
	return fromFloat(f), true
}

// toString returns v's value when v is a string.
func toString(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.RawMessage:
		var s string
		if json.Unmarshal(x, &s) != nil {
			return "", false
		}
		return s, true
	}
	rv := reflect.ValueOf(v)
	for i := 0; i < 8 && rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface); i++ {
		if rv.IsNil() {
			return "", false
		}
		rv = rv.Elem()
	}
	if rv.IsValid() && rv.Kind() == reflect.String {
		return rv.String(), true
	}
	return "", false
}

// toBool returns v's value when v is a boolean.
func toBool(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case json.RawMessage:
		var b bool
		if json.Unmarshal(x, &b) != nil {
			return false, false
		}
		return b, true
	}
	rv := reflect.ValueOf(v)
	for i := 0; i < 8 && rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface); i++ {
		if rv.IsNil() {
			return false, false
		}
		rv = rv.Elem()
	}
	if rv.IsValid() && rv.Kind() == reflect.Bool {
		return rv.Bool(), true
	}
	return false, false
}

// decodeRaw turns JSON text into the values encoding/json decodes into; nil
// when it is not valid JSON.
func decodeRaw(b json.RawMessage) any {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	return v
}

// elements returns the items of an array value.
func elements(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out, true
	case json.RawMessage:
		a, ok := decodeRaw(x).([]any)
		return a, ok
	}
	rv := derefValue(reflect.ValueOf(v))
	if !rv.IsValid() || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// members returns the members of an object value; keys of maps whose keys
// are not strings are written as encoding/json writes them.
func members(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case json.RawMessage:
		m, ok := decodeRaw(x).(map[string]any)
		return m, ok
	}
	rv := derefValue(reflect.ValueOf(v))
	if !rv.IsValid() || rv.Kind() != reflect.Map {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		k := it.Key()
		var ks string
		switch k.Kind() {
		case reflect.String:
			ks = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			ks = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			ks = strconv.FormatUint(k.Uint(), 10)
		default:
			return nil, false
		}
		out[ks] = it.Value().Interface()
	}
	return out, true
}

func derefValue(rv reflect.Value) reflect.Value {
	for i := 0; i < 8 && rv.IsValid() && (rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface); i++ {
		if rv.IsNil() {
			return reflect.Value{}
		}
		rv = rv.Elem()
	}
	return rv
}

// equalBudget bounds the values one jsonEqual call visits, so that even a
// Go value that contains itself costs little.
const equalBudget = 1 << 16

// jsonEqual reports whether a and b encode to equal JSON values: 1 equals
// 1.0, object members compare regardless of order. Values the gate cannot
// read, values nested deeper than maxDepth, and values too large to compare
// within equalBudget steps are never equal.
func jsonEqual(a, b any) bool {
	budget := equalBudget
	return equalValues(a, b, 0, &budget)
}

func equalValues(a, b any, depth int, budget *int) bool {
	*budget--
	if depth > maxDepth || *budget < 0 {
		return false
	}
	ka, kb := classify(a), classify(b)
	if ka == jInteger || ka == jNumber {
		if kb != jInteger && kb != jNumber {
			return false
		}
		na, oka := toNumber(a)
		nb, okb := toNumber(b)
		return oka && okb && na.equal(nb)
	}
	if ka != kb {
		return false
	}
	switch ka {
	case jNull:
		return true
	case jString:
		sa, oka := toString(a)
		sb, okb := toString(b)
		return oka && okb && sa == sb
	case jBoolean:
		ba, oka := toBool(a)
		bb, okb := toBool(b)
		return oka && okb && ba == bb
	case jArray:
		ea, oka := elements(a)
		eb, okb := elements(b)
		if !oka || !okb || len(ea) != len(eb) {
			return false
		}
		for i := range ea {
			if !equalValues(ea[i], eb[i], depth+1, budget) {
				return false
			}
		}
		return true
	case jObject:
		ma, oka := members(a)
		mb, okb := members(b)
		if !oka || !okb || len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !equalValues(va, vb, depth+1, budget) {
				return false
			}
		}
		return true
	}
	return false
}

// render writes v for a message: a string as it is, anything else as compact
// JSON (object members sorted by key). It stops soon after limit bytes, so
// that a huge value costs little; the caller cuts.
func render(v any, limit int) string {
	if s, ok := v.(string); ok {
		return s
	}
	if classify(v) == jString {
		if s, ok := toString(v); ok {
			return s
		}
	}
	r := renderer{limit: limit}
	r.value(v, 0)
	return string(r.buf)
}

type renderer struct {
	buf   []byte
	limit int
}

func (r *renderer) full() bool { return len(r.buf) > r.limit }

func (r *renderer) value(v any, depth int) {
	if r.full() {
		return
	}
	if depth > maxDepth {
		r.buf = append(r.buf, "..."...)
		return
	}
	switch x := v.(type) {
	case json.RawMessage:
		if len(x) <= 4*r.limit {
			if d := decodeRaw(x); d != nil || rawKind(x) == jNull {
				r.value(d, depth)
				return
			}
		}
		r.buf = append(r.buf, trimSpace(x)...)
		return
	case json.Number:
		r.buf = append(r.buf, x...)
		return
	}
	switch classify(v) {
	case jNull:
		r.buf = append(r.buf, "null"...)
	case jString:
		s, _ := toString(v)
		r.quote(s)
	case jInteger, jNumber:
		n, _ := toNumber(v)
		switch {
		case n.exact:
			r.buf = strconv.AppendInt(r.buf, n.i, 10)
		case math.IsNaN(n.f) || math.IsInf(n.f, 0):
			r.buf = strconv.AppendFloat(r.buf, n.f, 'g', -1, 64)
		default:
			r.buf = appendFloat(r.buf, n.f)
		}
	case jBoolean:
		b, _ := toBool(v)
		r.buf = strconv.AppendBool(r.buf, b)
	case jArray:
		items, _ := elements(v)
		r.buf = append(r.buf, '[')
		for i, it := range items {
			if r.full() {
				return
			}
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.value(it, depth+1)
		}
		r.buf = append(r.buf, ']')
	case jObject:
		m, _ := members(v)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		r.buf = append(r.buf, '{')
		for i, k := range keys {
			if r.full() {
				return
			}
			if i > 0 {
				r.buf = append(r.buf, ',')
			}
			r.quote(k)
			r.buf = append(r.buf, ':')
			r.value(m[k], depth+1)
		}
		r.buf = append(r.buf, '}')
	default:
		r.buf = append(r.buf, '?')
	}
}

// quote writes s as a JSON string, stopping once the limit is passed.
func (r *renderer) quote(s string) {
	if len(s) > 4*r.limit {
		s = s[:4*r.limit]
	}
	r.buf = appendQuoted(r.buf, s)
}

// appendQuoted writes s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 as U+FFFD.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, c := range s { // invalid bytes come out as utf8.RuneError
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', byte(c))
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20 || c == '\u2028' || c == '\u2029':
			b = append(b, '\\', 'u', hex[c>>12&0xf], hex[c>>8&0xf], hex[c>>4&0xf], hex[c&0xf])
		default:
			b = utf8.AppendRune(b, c)
		}
	}
	return append(b, '"')
}

// appendFloat writes a finite f as encoding/json does.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
