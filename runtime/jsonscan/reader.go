package jsonscan

import "errors"

// A Reader reads the members of a top-level JSON object in one pass,
// checking the text as it goes, as [Validate] checks it: a generated binder
// reads the argument bytes once instead of validating them and then
// reading them again.
//
//	r := jsonscan.NewReader(data)
//	for r.Next() {
//		switch string(r.Key()) {
//		case "path":
//			at[0] = r.Value(at[0])
//		}
//	}
//	if err := r.Err(); err != nil { ... }
//
// A member whose value the loop does not take with [Reader.Value] is still
// checked, and its key compared with the other untaken keys, when Next
// moves on. At the first fault the Reader stops, and [Reader.Err] returns
// what Validate returns for the whole text, so that a Reader and Validate
// never disagree about what text means: the same syntax error, the same
// limit, every duplicated key at its path. Values taken before a fault
// must not be used.
//
// A Reader is not safe for concurrent use; its Values point into it, so it
// must not be copied once reading has begun.
type Reader struct {
	doc      Doc
	s        scanner // checks nested objects and arrays, and strings with escapes
	pos      int     // where the next member (or the closing brace) is looked for
	keyStart int     // the current key's opening quote
	keyEnd   int     // its closing quote
	escaped  bool    // the current key needs unescaping
	rawKey   []byte  // the current key as written, between its quotes
	val      int     // where the current value starts
	pending  bool    // the current value has not been read yet
	members  int     // members read so far
	state    readState
	trusted  bool   // the text was validated before: read it without checking
	others   keySet // the keys of the members whose values were not taken
	key      []byte // the current key, unescaped, when it has escapes
}

type readState uint8

const (
	reading readState = iota
	done
	failed
)

// NewReader returns a Reader over data, which it checks as it reads.
func NewReader(data []byte) Reader {
	r := Reader{doc: Doc{data: data}}
	r.s.data = data
	if len(data) > MaxBytes {
		r.state = failed
		return r
	}
	i := skipSpace(data, 0)
	if i == len(data) || data[i] != '{' {
		r.state = failed
		return r
	}
	r.pos = i + 1
	return r
}

// Reader returns a Reader over d, which was validated when it was made and
// is not checked again.
func (d Doc) Reader() Reader {
	return Reader{doc: d, trusted: true, pos: skipSpace(d.data, 0) + 1}
}

// Doc returns the document being read. Once Err returns nil it is the whole
// validated object, for reading it again (its Keys, say).
func (r *Reader) Doc() *Doc { return &r.doc }

func (r *Reader) fail() bool {
	r.state = failed
	return false
}

// Next moves to the next member and reports whether there is one. It
// returns false at the end of the object and at the first fault; Err tells
// them apart.
func (r *Reader) Next() bool {
	if r.state != reading {
		return false
	}
	if r.pending && !r.skip() {
		return false
	}
	d := r.doc.data
	i := nonSpace(d, r.pos)
	if i >= len(d) {
		return r.fail()
	}
	switch {
	case d[i] == '}':
		return r.end(i + 1)
	case r.members > 0:
		if d[i] != ',' {
			return r.fail()
		}
		if i = nonSpace(d, i+1); i >= len(d) {
			return r.fail()
		}
	}
	if d[i] != '"' {
		return r.fail()
	}
	j := plainEnd(d, i+1)
	r.escaped = false
	if j >= len(d) || d[j] != '"' {
		end := 0
		if r.trusted {
			end = skipString(d, i)
		} else {
			var err error
			if end, err = r.s.str(i); err != nil {
				return r.fail()
			}
		}
		j = end - 1
		r.escaped = !simple(d[i+1 : j])
	}
	r.keyStart, r.keyEnd, r.rawKey = i, j, d[i+1:j]
	if i = nonSpace(d, j+1); i >= len(d) || d[i] != ':' {
		return r.fail()
	}
	r.val = nonSpace(d, i+1)
	r.pending = true
	r.members++
	return true
}

// nonSpace returns the index of the first byte at or after i that is not
// white space; arguments seldom have any, so the first byte is looked at
// before the loop.
func nonSpace(d []byte, i int) int {
	if i < len(d) && d[i] > ' ' {
		return i
	}
	return skipSpace(d, i)
}

// end closes the object at the brace before i.
func (r *Reader) end(i int) bool {
	if !r.trusted && skipSpace(r.doc.data, i) != len(r.doc.data) {
		return r.fail()
	}
	r.pos = i
	r.state = done
	return false
}

// Key returns the current member's key, unescaped. The bytes are valid
// until Next is called again: compare them (switch string(r.Key())) but do
// not keep them.
func (r *Reader) Key() []byte {
	if r.escaped {
		return r.unescapedKey()
	}
	return r.rawKey
}

func (r *Reader) unescapedKey() []byte {
	r.key = appendUnescaped(r.key[:0], r.rawKey)
	return r.key
}

// Value checks the current member's value and returns it. prev is what
// the caller holds for this key so far: a prev that is not absent means
// the key was given twice, a fault (as is a value that is not valid JSON).
// After a fault Value returns the zero Value.
func (r *Reader) Value(prev Value) Value {
	if !r.pending || r.state != reading {
		return Value{}
	}
	if prev.doc != nil {
		r.fail()
		return Value{}
	}
	end, ok := r.scan(r.val)
	if !ok {
		r.fail()
		return Value{}
	}
	r.pos, r.pending = end, false
	r.doc.spare = r.s.escaped
	return Value{doc: &r.doc, off: r.val, end: end}
}

// skip checks a value that was not taken, and its key against the other
// keys not taken.
func (r *Reader) skip() bool {
	if !r.trusted && r.others.add(r.doc.data, r.keyStart, r.keyEnd+1, r.escaped) {
		return r.fail()
	}
	end, ok := r.scan(r.val)
	if !ok {
		return r.fail()
	}
	r.pos, r.pending = end, false
	return true
}

// scan checks the value at i and returns the index after it.
func (r *Reader) scan(i int) (int, bool) {
	d := r.doc.data
	if r.trusted {
		return skipValue(d, i), true
	}
	if i >= len(d) {
		return 0, false
	}
	var end int
	var err error
	switch c := d[i]; {
	case c == '"':
		j := plainEnd(d, i+1)
		for j < len(d) && plain[d[j]] { // bytes from 0x80 are checked when read
			j = plainEnd(d, j+1)
		}
		if j < len(d) && d[j] == '"' {
			return j + 1, true
		}
		end, err = r.s.str(i)
	case c >= '1' && c <= '9':
		// A short integer needs no more than its digits (the next byte, which
		// Next checks, must end it).
		j := i + 1
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		if j-i <= 300 && (j == len(d) || (d[j] != '.' && d[j] != 'e' && d[j] != 'E')) {
			return j, true
		}
		end, err = r.s.number(i)
	case c == '-' || c == '0':
		end, err = r.s.number(i)
	case c == 't':
		return i + 4, len(d)-i >= 4 && string(d[i:i+4]) == "true"
	case c == 'f':
		return i + 5, len(d)-i >= 5 && string(d[i:i+5]) == "false"
	case c == 'n':
		return i + 4, len(d)-i >= 4 && string(d[i:i+4]) == "null"
	default:
		end, err = r.s.value(i, 1)
		if err == nil && len(r.s.dups) > 0 {
			return 0, false
		}
	}
	return end, err == nil
}

// errUnfinished is what Err returns when the loop stopped before the end.
var errUnfinished = errors.New("jsonscan: the object was not read to its end")

// Err returns nil when the whole object was read and is valid. Otherwise
// it returns what Validate returns for the text: a *SyntaxError, a
// *NotObjectError or schema.Violations of duplicated keys.
func (r *Reader) Err() error {
	switch r.state {
	case done:
		return nil
	case failed:
		if err := Validate(r.doc.data); err != nil {
			return err
		}
	}
	return errUnfinished
}
