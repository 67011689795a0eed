package jsonscan

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

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

// unsafeString views b as a string for a read that does not keep it.
func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
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
