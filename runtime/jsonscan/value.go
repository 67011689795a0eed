package jsonscan

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// A Doc is a validated JSON object, read in place. Its zero value is not
// usable; make one with [Parse] or [Unchecked]. A Doc is read through a
// pointer (its Values point to it) and is not safe for concurrent use.
type Doc struct {
	data   []byte
	owned  bool // data never changes: strings may share its memory
	strict bool // numeric strings are not numbers
	// arena is a copy of data, made when the first string is read, that
	// the strings read share; unescaped strings are written after it, in
	// room reserved for them (spare bytes). Bytes once written in it never
	// change.
	arena []byte
	spare int
	// spans, when indexed, are the top-level object's members (Indexed).
	spans   []Span
	indexed bool
}

// Parse validates data (see [Validate]) and returns it as a Doc. Strings
// read from the Doc share one copy of data, made when the first string is
// read, so data may change after Parse returns without changing them; that
// copy lives as long as any of those strings.
func Parse(data []byte) (Doc, error) {
	var s scanner
	if err := s.validate(data); err != nil {
		return Doc{}, err
	}
	return Doc{data: data, spare: s.escaped}, nil
}

// Unchecked returns data as a Doc without validating it. data must have
// been accepted by Validate and must never change afterwards: strings read
// from the Doc share its memory. With strict set, a numeric string is not
// read as a number. It exists for runtime/tool, whose Input owns such bytes.
func Unchecked(data []byte, strict bool) Doc {
	return Doc{data: data, owned: true, strict: strict}
}

// Root returns the top-level object.
func (d *Doc) Root() Value { return Value{doc: d, off: skipSpace(d.data, 0)} }

// Members returns an iterator over the members of the top-level object.
func (d *Doc) Members() Members { return d.Root().Members() }

// Keys returns the keys of the top-level object whose values are not null,
// sorted, as tool.Input.Keys returns them.
func (d *Doc) Keys() []string {
	keys := make([]string, 0, 16)
	for m := d.Members(); m.Next(); {
		if !m.Value().IsNull() {
			keys = append(keys, m.KeyString())
		}
	}
	slices.Sort(keys)
	return keys
}

// StringField returns the value of the top-level member key when it is a
// string; false when it is absent, null or not a string.
func (d *Doc) StringField(key string) (string, bool) {
	for m := d.Members(); m.Next(); {
		if string(m.Key()) == key {
			return m.Value().String()
		}
	}
	return "", false
}

// sub returns data[a:b] as a string without copying it each time.
func (d *Doc) sub(a, b int) string {
	if a == b {
		return ""
	}
	if d.owned {
		return unsafe.String(&d.data[a], b-a)
	}
	d.makeArena()
	return unsafe.String(&d.arena[a], b-a)
}

func (d *Doc) makeArena() {
	if d.arena == nil {
		d.arena = make([]byte, len(d.data), len(d.data)+d.spare)
		copy(d.arena, d.data)
	}
}

// unescaped returns the unescaped text of raw, a string's contents, in the
// arena's spare room when it fits there.
func (d *Doc) unescaped(raw []byte) string {
	if d.owned || d.spare == 0 {
		// b is new and kept nowhere else, so the string may share it.
		b := appendUnescaped(make([]byte, 0, len(raw)), raw)
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	d.makeArena()
	tail := d.arena[len(d.arena):]
	b := appendUnescaped(tail, raw)
	if len(b) == 0 {
		return ""
	}
	if len(b) <= cap(tail) { // written in place: append never grew it
		d.arena = d.arena[:len(d.arena)+len(b)]
	}
	return unsafe.String(&b[0], len(b))
}

// A Value is the position of one value in a Doc. The zero Value is absent.
type Value struct {
	doc *Doc
	off int
	end int // the index after the value, when the reader that found it knows it; else 0
}

// A Pos is where a Value is in its Doc, without the Doc: a table of Pos
// kept beside the Doc (as a generated binder keeps one for its fields)
// holds no pointer, so the Doc can stay in its caller's frame. The zero
// Pos is the zero (absent) Value's.
type Pos struct {
	off, end int32 // text is at most MaxBytes long
}

// Pos returns where v is in its Doc.
func (v Value) Pos() Pos { return Pos{off: int32(v.off), end: int32(v.end)} }

// At returns the Value at p in d; the zero Value for the zero Pos.
func (d *Doc) At(p Pos) Value {
	if p == (Pos{}) {
		return Value{}
	}
	return Value{doc: d, off: int(p.off), end: int(p.end)}
}

// endOf returns the index after v.
func (v Value) endOf() int {
	if v.end > 0 {
		return v.end
	}
	return skipValue(v.doc.data, v.off)
}

// Kind is the JSON type of a Value.
type Kind int

// The kinds of values.
const (
	Absent Kind = iota
	Null
	Bool
	Number
	String
	Array
	Object
)

// Kind returns v's JSON type.
func (v Value) Kind() Kind {
	if v.doc == nil {
		return Absent
	}
	switch c := v.doc.data[v.off]; c {
	case 'n':
		return Null
	case 't', 'f':
		return Bool
	case '"':
		return String
	case '[':
		return Array
	case '{':
		return Object
	}
	return Number
}

// Present reports whether v exists and is not null: null counts as absent.
func (v Value) Present() bool { return v.doc != nil && v.doc.data[v.off] != 'n' }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.doc != nil && v.doc.data[v.off] == 'n' }

// Raw returns the text of v.
func (v Value) Raw() []byte {
	if v.doc == nil {
		return nil
	}
	return v.doc.data[v.off:v.endOf()]
}

// String returns v's text when v is a string.
func (v Value) String() (string, bool) {
	if v.doc == nil || v.doc.data[v.off] != '"' {
		return "", false
	}
	d := v.doc.data
	end := v.end
	if end == 0 {
		i := plainEnd(d, v.off+1)
		if d[i] == '"' {
			return v.doc.sub(v.off+1, i), true
		}
		end = skipString(d, v.off)
	}
	raw := d[v.off+1 : end-1]
	if simple(raw) {
		return v.doc.sub(v.off+1, end-1), true
	}
	return v.doc.unescaped(raw), true
}

// Bool returns v's value when v is a boolean.
func (v Value) Bool() (bool, bool) {
	if v.doc == nil {
		return false, false
	}
	switch v.doc.data[v.off] {
	case 't':
		return true, true
	case 'f':
		return false, true
	}
	return false, false
}

// Mismatch says why a value could not be read as the number asked for.
type Mismatch int

const (
	// Match means the value was read.
	Match Mismatch = iota
	// WrongType means the value is not a number (or a fraction where an
	// integer is asked for).
	WrongType
	// OutOfRange means the value is a number that does not fit.
	OutOfRange
	// NotFinite means the value is NaN or an infinity: never a JSON
	// number, but a Go float handed to runtime/tool can be one.
	NotFinite
)

// number returns v's text when v is a number, or the unescaped text of a
// string when numeric strings count; ok is false otherwise.
func (v Value) number() (text string, isString, ok bool) {
	if v.doc == nil {
		return "", false, false
	}
	d := v.doc.data
	switch c := d[v.off]; {
	case c == '-' || (c >= '0' && c <= '9'):
		end := v.end
		if end == 0 {
			end = skipNumber(d, v.off)
		}
		return unsafeString(d[v.off:end]), false, true
	case c == '"' && !v.doc.strict:
		s, _ := v.String()
		return s, true, true
	}
	return "", false, false
}

// Int64 reads v as a signed integer of bits bits (8, 16, 32 or 64; anything
// else means 64), as tool.AsInt64 reads the decoded value: 3.0 is 3, 3.5 a
// WrongType, "10" is 10 unless the Doc is strict.
func (v Value) Int64(bits int) (int64, Mismatch) {
	if n, ok := v.SmallUint(); ok {
		if _, hi := IntRange(bits); n > uint64(hi) {
			return 0, OutOfRange
		}
		return int64(n), Match
	}
	text, isString, ok := v.number()
	if !ok {
		return 0, WrongType
	}
	lo, hi := IntRange(bits)
	if isString {
		return ParseInt(text, bits)
	}
	if n, neg, ok := smallInt(text); ok {
		if neg {
			if n > uint64(-lo) {
				return 0, OutOfRange
			}
			return -int64(n), Match
		}
		if n > uint64(hi) {
			return 0, OutOfRange
		}
		return int64(n), Match
	}
	if integral(text) {
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return 0, OutOfRange
		}
		return CheckInt(n, bits)
	}
	f, _ := strconv.ParseFloat(text, 64)
	return IntFromFloat(f, bits)
}

// Uint64 reads v as an unsigned integer of bits bits; a negative value is
// OutOfRange.
func (v Value) Uint64(bits int) (uint64, Mismatch) {
	if n, ok := v.SmallUint(); ok {
		if n > UintMax(bits) {
			return 0, OutOfRange
		}
		return n, Match
	}
	text, isString, ok := v.number()
	if !ok {
		return 0, WrongType
	}
	hi := UintMax(bits)
	if isString {
		return ParseUint(text, bits)
	}
	if n, neg, ok := smallInt(text); ok {
		if neg && n != 0 {
			return 0, OutOfRange
		}
		if n > hi {
			return 0, OutOfRange
		}
		return n, Match
	}
	if integral(text) {
		if text[0] == '-' {
			return 0, OutOfRange
		}
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return 0, OutOfRange
		}
		return CheckUint(n, bits)
	}
	f, _ := strconv.ParseFloat(text, 64)
	return UintFromFloat(f, bits)
}

// Float64 reads v as a float of bits bits (32 or 64); beyond float32's
// range is OutOfRange for 32.
func (v Value) Float64(bits int) (float64, Mismatch) {
	text, isString, ok := v.number()
	if !ok {
		return 0, WrongType
	}
	if isString {
		return ParseFloat(text, bits)
	}
	if n, neg, ok := smallInt(text); ok && n < 1<<53 {
		f := float64(n)
		if neg {
			f = -f
		}
		return f, Match
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return 0, OutOfRange
	}
	return CheckFloat(f, bits)
}

// Decode returns v as encoding/json decodes it into an any (nil when
// absent).
func (v Value) Decode() any {
	if v.doc == nil {
		return nil
	}
	var x any
	_ = json.Unmarshal(v.Raw(), &x) // validated: it cannot fail
	return x
}

// Len returns the number of elements of an array or members of an object.
func (v Value) Len() int {
	n := 0
	switch v.Kind() {
	case Array:
		for it := v.Items(); it.Next(); {
			n++
		}
	case Object:
		for m := v.Members(); m.Next(); {
			n++
		}
	}
	return n
}

// Keys returns the keys of an object, null-valued ones included, sorted.
func (v Value) Keys() []string {
	var keys []string
	for m := v.Members(); m.Next(); {
		keys = append(keys, m.KeyString())
	}
	slices.Sort(keys)
	return keys
}

// A Member is a key and its value.
type Member struct {
	Key   string
	Value Value
}

// SortedMembers returns the members of an object sorted by key.
func (v Value) SortedMembers() []Member {
	var out []Member
	for m := v.Members(); m.Next(); {
		out = append(out, Member{Key: m.KeyString(), Value: m.Value()})
	}
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// Members iterates over the members of an object:
//
//	for m := v.Members(); m.Next(); {
//		switch string(m.Key()) { ... }   // no allocation
//	}
type Members struct {
	doc      *Doc
	spans    []Span // the members still to come, for an indexed Doc's top-level object
	indexed  bool
	pos      int
	keyStart int  // the key's opening quote
	keyEnd   int  // its closing quote
	escaped  bool // the key has escapes
	val      int
}

// Members returns an iterator over v's members; none when v is not an
// object.
func (v Value) Members() Members {
	if v.doc == nil || v.doc.data[v.off] != '{' {
		return Members{}
	}
	if d := v.doc; d.indexed && v.off == skipSpace(d.data, 0) {
		return Members{doc: d, spans: d.spans, indexed: true}
	}
	return Members{doc: v.doc, pos: v.off + 1}
}

// Next moves to the next member and reports whether there is one.
func (m *Members) Next() bool {
	if m.indexed {
		return m.nextSpan()
	}
	return m.next()
}

// nextSpan moves to the next member of an indexed Doc's top-level object.
func (m *Members) nextSpan() bool {
	if len(m.spans) == 0 {
		return false
	}
	sp := m.spans[0]
	m.spans = m.spans[1:]
	m.keyStart = sp.start()
	_, m.escaped, m.keyEnd = m.doc.key(sp)
	m.val = m.doc.valueStart(sp, m.keyEnd)
	next := -1
	if len(m.spans) > 0 {
		next = m.spans[0].start()
	}
	m.pos = m.doc.valueEnd(next)
	return true
}

// next moves to the next member, scanning the text.
func (m *Members) next() bool {
	if m.doc == nil {
		return false
	}
	d := m.doc.data
	i := skipSpace(d, m.pos)
	if d[i] == ',' {
		i = skipSpace(d, i+1)
	}
	if d[i] == '}' {
		m.pos = i
		return false
	}
	m.keyStart = i
	j := plainEnd(d, i+1)
	if d[j] != '"' {
		j = skipString(d, i) - 1
		m.escaped = !simple(d[i+1 : j])
	} else {
		m.escaped = false
	}
	m.keyEnd = j
	i = skipSpace(d, j+1)
	i = skipSpace(d, i+1) // the colon
	m.val = i
	m.pos = skipValue(d, i)
	return true
}

// Key returns the current member's key, unescaped. The bytes may share the
// Doc's memory: compare them (switch string(m.Key())) but do not keep them.
func (m *Members) Key() []byte {
	raw := m.doc.data[m.keyStart+1 : m.keyEnd]
	if m.escaped {
		return appendUnescaped(nil, raw)
	}
	return raw
}

// KeyString returns the current key as a string that may be kept: it
// shares the Doc's copy of the text, as strings read from values do.
func (m *Members) KeyString() string {
	if m.escaped {
		return string(m.Key())
	}
	return m.doc.sub(m.keyStart+1, m.keyEnd)
}

// Value returns the current member's value.
func (m *Members) Value() Value { return Value{doc: m.doc, off: m.val, end: m.pos} }

// Items iterates over the elements of an array.
type Items struct {
	doc *Doc
	pos int
	val int
}

// Items returns an iterator over v's elements; none when v is not an
// array.
func (v Value) Items() Items {
	if v.doc == nil || v.doc.data[v.off] != '[' {
		return Items{}
	}
	return Items{doc: v.doc, pos: v.off + 1}
}

// Next moves to the next element and reports whether there is one.
func (it *Items) Next() bool {
	if it.doc == nil {
		return false
	}
	d := it.doc.data
	i := skipSpace(d, it.pos)
	if d[i] == ',' {
		i = skipSpace(d, i+1)
	}
	if d[i] == ']' {
		it.pos = i
		return false
	}
	it.val = i
	it.pos = skipValue(d, i)
	return true
}

// Value returns the current element.
func (it *Items) Value() Value { return Value{doc: it.doc, off: it.val, end: it.pos} }

// Skipping over valid text.

func skipSpace(d []byte, i int) int {
	for i < len(d) && space[d[i]] {
		i++
	}
	return i
}

func skipString(d []byte, i int) int {
	i++
	for {
		i = plainEnd(d, i)
		switch d[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default:
			i++
		}
	}
}

func skipNumber(d []byte, i int) int {
	for i < len(d) {
		switch c := d[i]; {
		case c >= '0' && c <= '9', c == '-', c == '+', c == '.', c == 'e', c == 'E':
			i++
		default:
			return i
		}
	}
	return i
}

func skipValue(d []byte, i int) int {
	switch d[i] {
	case '"':
		return skipString(d, i)
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	case '{', '[':
		depth := 0
		for {
			switch d[i] {
			case '"':
				i = skipString(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
	}
	return skipNumber(d, i)
}

// Numbers, read as runtime/tool reads decoded values.

// SmallUint reads v in one pass over its digits when it is what a model
// mostly sends for an integer: at most 18 digits, without sign, fraction
// or exponent. ok is false for any other value, which Int64 and Uint64
// read.
func (v Value) SmallUint() (n uint64, ok bool) {
	if v.doc == nil {
		return 0, false
	}
	d, start := v.doc.data, v.off
	i := start
	for i < len(d) {
		c := d[i] - '0'
		if c > 9 {
			if d[i] == '.' || d[i]|0x20 == 'e' {
				return 0, false
			}
			break
		}
		n = n*10 + uint64(c)
		i++
	}
	if i == start || i-start > 18 {
		return 0, false
	}
	return n, true
}

// smallInt parses an integer of at most 18 digits written without fraction
// or exponent.
func smallInt(s string) (n uint64, neg, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	if i == len(s) || len(s)-i > 18 {
		return 0, false, false
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false, false
		}
		n = n*10 + uint64(c-'0')
	}
	return n, neg, true
}

func integral(s string) bool { return !strings.ContainsAny(s, ".eE") }
