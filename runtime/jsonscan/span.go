package jsonscan

// A Span is where one member of the top-level object is in the text.
// [ValidateSpans] records them while it checks the text, so that a [Doc]
// made with [Indexed] reads its top-level members without scanning the
// text again: the top-level object is read once, when it is checked,
// however many fields a binder then reads.
//
// A Span is four bytes, so that a table of them stays small (an Input
// keeps one beside its bytes): the offset of the key's opening quote and,
// for a key written as plain ASCII without escapes (most are), its length
// and whether the value starts right after the colon, so that reading the
// member needs no scan of the key or of the space around the colon.
type Span struct {
	// at is the quote's offset in the low spanOffsetBits, then the
	// compact bit, then a plain key's length plus one (0 for a key that
	// is not plain or is longer than maxSpanKey).
	at uint32
}

const (
	spanOffsetBits = 23
	spanOffsetMask = 1<<spanOffsetBits - 1
	spanCompact    = 1 << spanOffsetBits // the value follows the key's colon at once
	spanLenShift   = spanOffsetBits + 1
	// maxSpanKey is the longest plain key a Span records the length of.
	maxSpanKey = 1<<(32-spanLenShift) - 2
)

// Every offset in text of at most MaxBytes fits a Span.
var _ [1<<spanOffsetBits - MaxBytes]struct{}

// newSpan returns the Span of the key whose opening quote is at start;
// plainLen is the length of its text when the key is plain ASCII without
// escapes, and -1 otherwise; compact says that the value starts right
// after the colon that follows the key's closing quote.
func newSpan(start, plainLen int, compact bool) Span {
	if plainLen < 0 || plainLen > maxSpanKey {
		return Span{at: uint32(start)}
	}
	sp := Span{at: uint32(start) | uint32(plainLen+1)<<spanLenShift}
	if compact {
		sp.at |= spanCompact
	}
	return sp
}

// start returns the offset of the key's opening quote.
func (s Span) start() int { return int(s.at & spanOffsetMask) }

// plainLen returns the length of a plain key's text; -1 when the key has
// escapes, bytes beyond ASCII or more than maxSpanKey bytes.
func (s Span) plainLen() int { return int(s.at>>spanLenShift) - 1 }

// compact reports, for a plain key, that its value starts two bytes after
// its closing quote.
func (s Span) compact() bool { return s.at&spanCompact != 0 }

// ValidateSpans is [Validate], writing to spans, in document order, a Span
// for each member of the top-level object of valid text. It returns how
// many it wrote, or -1 when the object has more members than spans has
// room for (then the spans written mean nothing). It does not allocate for
// valid text.
func ValidateSpans(data []byte, spans []Span) (int, error) {
	s := scanner{spans: spans[:0:len(spans)], indexing: true}
	if err := s.validate(data); err != nil {
		return 0, err
	}
	if s.overflow {
		return -1, nil
	}
	return len(s.spans), nil
}

// Indexed returns data as a Doc, like [Unchecked], whose top-level members
// are those spans says: data and spans must come from one call of
// [ValidateSpans] that returned no error, spans being the Spans it wrote,
// and data must never change.
func Indexed(data []byte, spans []Span, strict bool) Doc {
	d := Unchecked(data, strict)
	d.spans, d.indexed = spans, true
	return d
}

// Locate finds the members of the object v named by keys: at[i] is set to
// where the value of keys[i] is, or to the zero Pos when it is absent or
// null (len(at) must be at least len(keys)). It reports whether v has a
// member of another name. A key given twice cannot be there: Validate
// refuses the text. Over an indexed Doc's top-level object it reads the
// Spans, not the text.
func (v Value) Locate(keys []string, at []Pos) (unknown bool) {
	at = at[:len(keys)]
	clear(at)
	if v.doc == nil || v.doc.data[v.off] != '{' {
		return false
	}
	d := v.doc
	if !d.indexed || v.off != skipSpace(d.data, 0) {
		return v.locateScan(keys, at)
	}
	next := 0
	for si, sp := range d.spans {
		// The key, read as key reads it (written here, where it is hot).
		var k []byte
		start, keyEnd := sp.start(), 0
		if n := sp.plainLen(); n >= 0 {
			keyEnd = start + 1 + n
			k = d.data[start+1 : keyEnd]
		} else {
			var escaped bool
			if k, escaped, keyEnd = d.writtenKey(start); escaped {
				k = appendUnescaped(nil, k)
			}
		}
		val := d.valueStart(sp, keyEnd)
		i := index(keys, k, next)
		next = i + 1
		switch {
		case i == len(keys):
			unknown = true
		case d.data[val] != 'n':
			at[i] = Pos{off: int32(val)}
			// A long value's end saves its reader a scan of it (a string
			// with escapes, unescaped, would be read twice); a short one
			// is found faster than read back.
			if after := d.nextKey(si); after-val > longValue || after < 0 && len(d.data)-val > longValue {
				at[i].end = int32(d.valueEnd(after))
			}
		}
	}
	return unknown
}

// key returns the key of the member sp as written, whether it needs
// unescaping, and where it ends (the closing quote).
func (d *Doc) key(sp Span) (raw []byte, escaped bool, keyEnd int) {
	i := sp.start()
	if n := sp.plainLen(); n >= 0 {
		return d.data[i+1 : i+1+n], false, i + 1 + n
	}
	return d.writtenKey(i)
}

// writtenKey is key for a key that is not plain, starting at i.
func (d *Doc) writtenKey(i int) (raw []byte, escaped bool, keyEnd int) {
	j := skipString(d.data, i) - 1
	return d.data[i+1 : j], !simple(d.data[i+1 : j]), j
}

// longValue is the length beyond which Locate gives a value's end.
const longValue = 64

// nextKey returns where the key of the top-level member after span si
// starts, or -1 when si is the last member.
func (d *Doc) nextKey(si int) int {
	if si+1 < len(d.spans) {
		return d.spans[si+1].start()
	}
	return -1
}

// valueEnd returns the index after the value of a top-level member of an
// indexed Doc, found from what follows it: next is the opening quote of
// the next member's key, or -1 for the last member. Between a value and
// what follows it there is only space and, before a next member, its
// comma; before the end, the object's closing brace. So the value's end
// costs a few bytes read back, not a scan of the value.
func (d *Doc) valueEnd(next int) int {
	data := d.data
	i := next - 1
	if next < 0 {
		i = len(data) - 1
	}
	for space[data[i]] {
		i--
	}
	i-- // the comma before the next key, or the closing brace
	for space[data[i]] {
		i--
	}
	return i + 1
}

// valueStart returns where the value of the member sp, whose key's
// closing quote is at keyEnd, starts: two bytes on when the Span says the
// value follows the colon at once.
func (d *Doc) valueStart(sp Span, keyEnd int) int {
	if sp.compact() { // set only for a plain key
		return keyEnd + 2
	}
	return d.valueAfter(keyEnd)
}

// valueAfter returns where the value of the member whose key's closing
// quote is at keyEnd starts: mostly right after the colon. It is kept
// out of line so that valueStart, whose compact case is the common one,
// inlines.
//
//go:noinline
func (d *Doc) valueAfter(keyEnd int) int {
	i := keyEnd + 1
	if d.data[i] != ':' {
		i = skipSpace(d.data, i)
	}
	i++
	if space[d.data[i]] {
		i = skipSpace(d.data, i)
	}
	return i
}

// locateScan is Locate over the text.
func (v Value) locateScan(keys []string, at []Pos) (unknown bool) {
	next := 0
	for m := v.Members(); m.Next(); {
		i := index(keys, m.Key(), next)
		next = i + 1
		switch val := m.Value(); {
		case i == len(keys):
			unknown = true
		case !val.IsNull():
			at[i] = val.Pos()
		}
	}
	return unknown
}

// index returns the index of k in keys, or len(keys) when it is not there.
// Models mostly send the keys in declaration order, so keys[next] is tried
// first.
func index(keys []string, k []byte, next int) int {
	if next < len(keys) && string(k) == keys[next] {
		return next
	}
	for i, key := range keys {
		if string(k) == key {
			return i
		}
	}
	return len(keys)
}
