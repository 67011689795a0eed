package jsonscan

import (
	"errors"
	"strconv"
)

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

func (s *scanner) tooDeep(i int) error {
	return &SyntaxError{Offset: i, limit: true, Detail: "the text is nested more than " + strconv.Itoa(MaxDepth) + " levels deep"}
}
func cut(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
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
