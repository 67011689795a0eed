package jsonscan

import (
	"slices"
	"strconv"

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
