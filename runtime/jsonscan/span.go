package jsonscan

// A Span is where one member of the top-level object is in the text.
// [ValidateSpans] records them while it checks the text, so that a [Doc]
// made with [Indexed] reads its top-level members without scanning the
// text again: the top-level object is read once, when it is checked,
// however many fields a binder then reads.
//
// A Span is one offset, the key's opening quote, so that a table of them
// stays small (an Input keeps one beside its bytes): the rest of the
// member, where its key ends and where its value starts, is a few bytes
// from it.
type Span struct {
	key int32
}

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
	for _, sp := range d.spans {
		k, escaped, _, val := d.member(sp)
		if escaped {
			k = appendUnescaped(nil, k)
		}
		i := index(keys, k, next)
		next = i + 1
		switch {
		case i == len(keys):
			unknown = true
		case d.data[val] != 'n':
			at[i] = Pos{off: val}
		}
	}
	return unknown
}

// member returns the key of the member sp as written, whether it needs
// unescaping, where it ends (the closing quote) and where its value
// starts.
func (d *Doc) member(sp Span) (raw []byte, escaped bool, keyEnd, val int) {
	i := int(sp.key)
	j := plainEnd(d.data, i+1)
	if d.data[j] != '"' {
		j = skipString(d.data, i) - 1
		escaped = !simple(d.data[i+1 : j])
	}
	return d.data[i+1 : j], escaped, j, d.valueAfter(j)
}

// valueAfter returns where the value of the member whose key's closing
// quote is at keyEnd starts.
func (d *Doc) valueAfter(keyEnd int) int {
	colon := skipSpace(d.data, keyEnd+1)
	return skipSpace(d.data, colon+1)
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
