package jsonscan

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/schema"
)

// MaxBytes bounds the length of the text Validate accepts.
const MaxBytes = 8 << 20

// MaxDepth bounds the nesting of arrays and objects Validate accepts; the
// top-level object is level 1.
const MaxDepth = 512

// MaxDuplicates bounds the duplicated keys Validate names: the first ones
// in document order. Naming each means walking to it again, and text can
// repeat a key a million times.
const MaxDuplicates = 16

// ErrLimit is matched (errors.Is) by a [SyntaxError] for text that breaks
// [MaxBytes] or [MaxDepth] rather than the grammar.
var ErrLimit = errors.New("jsonscan: limit exceeded")

// A SyntaxError says why text is not valid JSON, or which limit it breaks,
// and where.
type SyntaxError struct {
	Offset int    // the byte at which the problem was found
	Detail string // what was found, in words
	limit  bool
}

func (e *SyntaxError) Error() string {
	return "tool arguments are not valid JSON: " + e.Detail + " (at byte " + strconv.Itoa(e.Offset) + ")"
}

// Unwrap returns ErrLimit for a broken limit.
func (e *SyntaxError) Unwrap() error {
	if e.limit {
		return ErrLimit
	}
	return nil
}

// A NotObjectError reports valid JSON that is not an object.
type NotObjectError struct {
	Got string // the JSON type found, with its article: "an array", "null"
}

func (e *NotObjectError) Error() string { return "tool arguments must be a JSON object, got " + e.Got }

// Validate checks that data is one JSON object within the limits and
// without duplicate keys (see the package doc). It returns a *SyntaxError, a
// *NotObjectError, or schema.Violations holding a schema.DuplicateKey for
// each duplicated key in document order (the first [MaxDuplicates] of
// them); nil for valid text.
func Validate(data []byte) error {
	var s scanner
	return s.validate(data)
}

// validate is Validate.
func (s *scanner) validate(data []byte) error {
	if len(data) > MaxBytes {
		return &SyntaxError{Offset: MaxBytes, limit: true,
			Detail: "the text is " + strconv.Itoa(len(data)) + " bytes long; the limit is " + strconv.Itoa(MaxBytes)}
	}
	s.data = data
	start := s.skipSpace(0)
	end, err := s.value(start, 0)
	if err != nil {
		return err
	}
	if end = s.skipSpace(end); end < len(data) {
		return s.unexpected(end, "after the top-level value")
	}
	if data[start] != '{' {
		return &NotObjectError{Got: kindPhrase(data[start])}
	}
	if len(s.dups) == 0 {
		return nil
	}
	// Name each duplicate by its path, found by walking to it again.
	var vs schema.Violations
	for _, at := range s.dups {
		p := pathTo(data, skipSpace(data, 0), at, nil)
		name := pathString(data, p)
		if !slices.ContainsFunc(vs, func(v schema.Violation) bool { return v.Param == name }) {
			vs = append(vs, schema.DuplicateKey(name))
		}
	}
	return vs
}

func kindPhrase(c byte) string {
	switch c {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// scanner validates, noting where duplicate keys are.
type scanner struct {
	data    []byte
	dups    []int // the offsets of the duplicated keys
	escaped int   // the length of the strings with escapes, quotes included

	indexing bool   // record where the top-level members are (ValidateSpans)
	spans    []Span // what was recorded, up to its capacity
	overflow bool   // there were more members than that
}

// A segment is one step of a path: a key (its quoted span) or an index.
type segment struct {
	start, end int // the key's span with its quotes; end < 0 means an index
	index      int
}

var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (s *scanner) skipSpace(i int) int {
	for i < len(s.data) && space[s.data[i]] {
		i++
	}
	return i
}

func (s *scanner) eof() error {
	return &SyntaxError{Offset: len(s.data), Detail: "unexpected end of the text"}
}

func (s *scanner) unexpected(i int, context string) error {
	if i >= len(s.data) {
		return s.eof()
	}
	return &SyntaxError{Offset: i, Detail: "invalid character " + quoteChar(s.data[i]) + " " + context}
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	if c < 0x20 || c >= 0x7f {
		return "byte 0x" + strconv.FormatUint(uint64(c), 16)
	}
	return "'" + string(rune(c)) + "'"
}

// value validates the value starting at i (no leading space) at the given
// depth and returns the index after it.
func (s *scanner) value(i, depth int) (int, error) {
	if i >= len(s.data) {
		return 0, s.eof()
	}
	switch c := s.data[i]; {
	case c == '{':
		return s.object(i, depth+1)
	case c == '[':
		return s.array(i, depth+1)
	case c == '"':
		return s.str(i)
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number(i)
	case c == 't':
		return s.literal(i, "true")
	case c == 'f':
		return s.literal(i, "false")
	case c == 'n':
		return s.literal(i, "null")
	}
	return 0, s.unexpected(i, "looking for the start of a value")
}

func (s *scanner) literal(i int, word string) (int, error) {
	if len(s.data)-i >= len(word) && string(s.data[i:i+len(word)]) == word {
		return i + len(word), nil
	}
	for j := 0; j < len(word); j++ {
		if i+j >= len(s.data) {
			return 0, s.eof()
		}
		if s.data[i+j] != word[j] {
			return 0, s.unexpected(i+j, "in literal "+word)
		}
	}
	return i + len(word), nil
}

func (s *scanner) tooDeep(i int) error {
	return &SyntaxError{Offset: i, limit: true, Detail: "the text is nested more than " + strconv.Itoa(MaxDepth) + " levels deep"}
}

func (s *scanner) object(i, depth int) (int, error) {
	if depth > MaxDepth {
		return 0, s.tooDeep(i)
	}
	d := s.data
	i = s.skipSpace(i + 1)
	if i < len(d) && d[i] == '}' {
		return i + 1, nil
	}
	var keys keySet
	for {
		if i >= len(d) {
			return 0, s.eof()
		}
		if d[i] != '"' {
			return 0, s.unexpected(i, "looking for the start of an object key")
		}
		// The key: mostly plain ASCII, its end found at once; a key with
		// escapes or bytes beyond ASCII is checked as any string is.
		keyStart, plainLen := i, -1
		end := plainEnd(d, i+1)
		if end < len(d) && d[end] == '"' {
			plainLen = end - i - 1
			end++
		} else {
			var err error
			if end, err = s.str(i); err != nil {
				return 0, err
			}
		}
		if keys.add(d, keyStart, end, plainLen < 0) && len(s.dups) < MaxDuplicates {
			s.dups = append(s.dups, keyStart)
		}
		if end < len(d) && d[end] == ':' { // as most writers put it
			i = end
		} else if i = s.skipSpace(end); i >= len(d) {
			return 0, s.eof()
		} else if d[i] != ':' {
			return 0, s.unexpected(i, "after an object key")
		}
		i = s.skipSpace(i + 1)
		compact := i == end+1
		// The value: a plain string is read here, anything else by value.
		var err error
		if j := i + 1; i < len(d) && d[i] == '"' {
			if j = plainEnd(d, j); j < len(d) && d[j] == '"' {
				i = j + 1
			} else if i, err = s.str(i); err != nil {
				return 0, err
			}
		} else if i, err = s.value(i, depth); err != nil {
			return 0, err
		}
		if depth == 1 && s.indexing {
			if len(s.spans) < cap(s.spans) {
				s.spans = append(s.spans, newSpan(keyStart, plainLen, compact))
			} else {
				s.overflow = true
			}
		}
		if i < len(d) && d[i] == ',' {
			i = s.skipSpace(i + 1)
			continue
		}
		if i = s.skipSpace(i); i >= len(d) {
			return 0, s.eof()
		}
		switch d[i] {
		case ',':
			i = s.skipSpace(i + 1)
		case '}':
			return i + 1, nil
		default:
			return 0, s.unexpected(i, "after an object member")
		}
	}
}

func (s *scanner) array(i, depth int) (int, error) {
	if depth > MaxDepth {
		return 0, s.tooDeep(i)
	}
	i = s.skipSpace(i + 1)
	if i < len(s.data) && s.data[i] == ']' {
		return i + 1, nil
	}
	for {
		var err error
		if i, err = s.value(i, depth); err != nil {
			return 0, err
		}
		i = s.skipSpace(i)
		if i >= len(s.data) {
			return 0, s.eof()
		}
		switch s.data[i] {
		case ',':
			i = s.skipSpace(i + 1)
		case ']':
			return i + 1, nil
		default:
			return 0, s.unexpected(i, "after an array element")
		}
	}
}

// plain marks the bytes a string may hold without a closer look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainASCII marks the plain bytes that are ASCII: a string of them reads
// as it is written.
var plainASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainEnd returns the index of the first byte at or after j that is not
// plain ASCII ('"', '\\', a control byte or a byte from 0x80): a string's
// common bytes, eight at a time.
func plainEnd(d []byte, j int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for j+8 <= len(d) {
		x := binary.LittleEndian.Uint64(d[j:])
		q, b := x^(ones*'"'), x^(ones*'\\')
		// A zero byte of q or b is a quote or a backslash; x-ones*0x20 with
		// ^x flags the bytes below 0x20, x itself those from 0x80. A flag
		// can be wrong only above a right one, so the lowest is exact.
		if m := ((q - ones) &^ q) | ((b - ones) &^ b) | ((x - ones*0x20) &^ x) | x; m&highs != 0 {
			return j + bits.TrailingZeros64(m&highs)/8
		}
		j += 8
	}
	for j < len(d) && plainASCII[d[j]] {
		j++
	}
	return j
}

// str validates the string starting at the quote at i.
func (s *scanner) str(i int) (int, error) {
	d := s.data
	start, escapes := i, false
	i = plainEnd(d, i+1)
	for {
		for i < len(d) && plain[d[i]] { // bytes from 0x80: checked when read
			i = plainEnd(d, i+1)
		}
		if i >= len(d) {
			return 0, s.eof()
		}
		switch d[i] {
		case '"':
			if escapes {
				s.escaped += i + 1 - start
			}
			return i + 1, nil
		case '\\':
			escapes = true
			if i+1 >= len(d) {
				return 0, s.eof()
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for j := i + 2; j < i+6; j++ {
					if j >= len(d) {
						return 0, s.eof()
					}
					if hexValue(d[j]) < 0 {
						return 0, s.unexpected(j, `in a \u escape`)
					}
				}
				i += 6
			default:
				return 0, s.unexpected(i+1, "in a string escape")
			}
		default:
			return 0, &SyntaxError{Offset: i, Detail: "control character " + quoteChar(d[i]) + " in a string (escape it)"}
		}
	}
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// number validates a number and checks that it fits a float64.
func (s *scanner) number(i int) (int, error) {
	d := s.data
	start := i
	if d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return 0, s.eof()
	case d[i] == '0':
		i++
	case d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return 0, s.unexpected(i, "in a number")
	}
	exp := false
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) {
			return 0, s.eof()
		}
		if d[i] < '0' || d[i] > '9' {
			return 0, s.unexpected(i, "after a decimal point")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		exp = true
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) {
			return 0, s.eof()
		}
		if d[i] < '0' || d[i] > '9' {
			return 0, s.unexpected(i, "in an exponent")
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	// Only an exponent or some 300 digits can leave float64's range.
	if exp || i-start > 300 {
		if _, err := strconv.ParseFloat(unsafeString(d[start:i]), 64); err != nil {
			return 0, &SyntaxError{Offset: start, Detail: "the number " + cut(string(d[start:i])) + " is out of range"}
		}
	}
	return i, nil
}

func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// unsafeString views b as a string for a read that does not keep it.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// pathTo returns the path from the value at i to the key starting at
// target, a key inside that value, appended to path. The text is valid.
func pathTo(data []byte, i, target int, path []segment) []segment {
	switch data[i] {
	case '{':
		for m := (Members{doc: &Doc{data: data}, pos: i + 1}); m.Next(); {
			key := segment{start: m.keyStart, end: m.keyEnd + 1}
			if m.keyStart == target {
				return append(path, key)
			}
			if m.val <= target && target < m.pos {
				return pathTo(data, m.val, target, append(path, key))
			}
		}
	case '[':
		n := 0
		for it := (Items{doc: &Doc{data: data}, pos: i + 1}); it.Next(); n++ {
			if it.val <= target && target < it.pos {
				return pathTo(data, it.val, target, append(path, segment{end: -1, index: n}))
			}
		}
	}
	return path
}

// pathString writes a path as the binders write it: a.b[2].c.
func pathString(data []byte, path []segment) string {
	var b []byte
	for i, seg := range path {
		if seg.end < 0 {
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(seg.index), 10)
			b = append(b, ']')
			continue
		}
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, unquote(data[seg.start:seg.end])...)
	}
	return string(b)
}

// keySet finds duplicate keys in one object: a 64-bit filter over a cheap
// hash, the spans of the first keys, and a map once there are many.
type keySet struct {
	filter  uint64
	escaped bool // a key with escapes was added: compare every key
	n       int
	spans   [16][2]int32
	hashes  [16]uint8 // each key's bit in filter
	many    map[string]struct{}
}

// add reports whether the key span (quotes included, with escapes or not)
// was already added. A plain key (no escapes, ASCII) whose hash is new is
// added at once: most keys are.
func (k *keySet) add(data []byte, start, end int, escaped bool) bool {
	if !escaped && !k.escaped && k.n < len(k.spans) {
		hash := plainHash(data, start, end)
		if k.filter&(1<<hash) == 0 {
			k.filter |= 1 << hash
			k.spans[k.n] = [2]int32{int32(start), int32(end)}
			k.hashes[k.n] = hash
			k.n++
			return false
		}
	}
	return k.addSlow(data, start, end, escaped)
}

// plainHash is the six-bit hash of the plain key span data[start:end]
// (quotes included): its length and its first and last bytes, mixed by a
// multiplicative hash whose top bits it keeps.
func plainHash(data []byte, start, end int) uint8 {
	h := uint64(end-start) | uint64(data[start+1])<<16 | uint64(data[end-2])<<24
	return uint8(h * 0x9e3779b97f4a7c15 >> 58)
}

// addSlow is add for a key with escapes, a key whose hash is taken, or
// one beyond the spans' room.
func (k *keySet) addSlow(data []byte, start, end int, escaped bool) bool {
	if k.many != nil {
		key := unquote(data[start:end])
		if _, ok := k.many[key]; ok {
			return true
		}
		k.many[key] = struct{}{}
		return false
	}
	var bit uint64
	var hash uint8
	if escaped {
		k.escaped = true // an escaped key is compared with every other
	} else {
		hash = plainHash(data, start, end)
		bit = 1 << hash
	}
	switch {
	case k.escaped:
		for _, sp := range k.spans[:k.n] {
			if sameKey(data[sp[0]:sp[1]], data[start:end]) {
				return true
			}
		}
	case k.filter&bit != 0:
		// Neither key has escapes or bytes beyond ASCII: the same text is
		// the same bytes.
		for i, sp := range k.spans[:k.n] {
			if k.hashes[i] == hash && string(data[sp[0]:sp[1]]) == string(data[start:end]) {
				return true
			}
		}
	}
	if k.n == len(k.spans) {
		k.many = make(map[string]struct{}, 2*len(k.spans))
		for _, sp := range k.spans {
			k.many[unquote(data[sp[0]:sp[1]])] = struct{}{}
		}
		k.many[unquote(data[start:end])] = struct{}{}
		return false
	}
	k.filter |= bit
	k.spans[k.n] = [2]int32{int32(start), int32(end)}
	k.hashes[k.n] = hash
	k.n++
	return false
}

// sameKey compares two quoted keys by their unescaped text.
func sameKey(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	for _, q := range [][]byte{a, b} {
		for _, c := range q {
			if c == '\\' || c >= utf8.RuneSelf {
				return unquote(a) == unquote(b)
			}
		}
	}
	return false
}

// unquote returns the text of a valid quoted string, unescaped as
// encoding/json unescapes it.
func unquote(q []byte) string {
	raw := q[1 : len(q)-1]
	if simple(raw) {
		return string(raw)
	}
	return string(appendUnescaped(make([]byte, 0, len(raw)), raw))
}

// simple reports whether raw needs no unescaping or repair: ASCII without
// backslashes, or valid UTF-8 without them.
func simple(raw []byte) bool {
	start := plainEnd(raw, 0)
	if start == len(raw) {
		return true
	}
	for i, c := range raw[start:] {
		i += start
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			for _, c := range raw[i:] {
				if c == '\\' {
					return false
				}
			}
			return utf8.Valid(raw[i:])
		}
	}
	return true
}

// appendUnescaped appends the unescaped text of raw (a valid string's
// contents) to b: escapes resolved, surrogate pairs joined, lone surrogates
// and invalid UTF-8 bytes replaced by U+FFFD.
func appendUnescaped(b, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			switch e := raw[i+1]; e {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(raw[i+2:])
				i += 6
				if r >= 0xd800 && r < 0xdc00 && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
					if r2 := hex4(raw[i+2:]); r2 >= 0xdc00 && r2 < 0xe000 {
						b = utf8.AppendRune(b, (r-0xd800)<<10+(r2-0xdc00)+0x10000)
						i += 6
						continue
					}
				}
				if r >= 0xd800 && r < 0xe000 {
					r = utf8.RuneError
				}
				b = utf8.AppendRune(b, r)
				continue
			default: // '"', '\\', '/'
				b = append(b, e)
			}
			i += 2
		case c < utf8.RuneSelf:
			// Copy the run of plain ASCII at once (raw, a string's
			// contents, holds no quote or control byte to stop it).
			j := plainEnd(raw, i+1)
			b = append(b, raw[i:j]...)
			i = j
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\uFFFD"...)
			} else {
				b = append(b, raw[i:i+size]...)
			}
			i += size
		}
	}
	return b
}

func hex4(b []byte) rune {
	return rune(hexValue(b[0])<<12 | hexValue(b[1])<<8 | hexValue(b[2])<<4 | hexValue(b[3]))
}
