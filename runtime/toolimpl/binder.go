package toolimpl

import (
	"encoding/json"
	"strconv"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Value is one JSON value of the arguments; the zero Value is absent.
type Value = jsonscan.Value

// A Binder binds the arguments of one call. Generated code declares one
// per call, locates the top-level fields with Locate, binds each field
// (read with [Binder.Field]) with a helper and ends with [Done]. A Binder
// must not be copied once Locate has been called: the Values it hands out
// point into it.
//
// A Binder holds no pointer into itself (its tables are arrays, with
// slices only for what does not fit), so that a binder whose helpers keep
// nothing stays in its caller's frame: binding allocates nothing but the
// values bound (and the violations).
type Binder struct {
	doc     jsonscan.Doc
	err     error // the arguments could not be read at all
	keys    []string
	unknown bool // the top-level object has a key not in keys
	vs      schema.Violations

	// The positions of the fields being bound: those of the top-level
	// object from 0, each nested object's after its parent's.
	pos      [16]jsonscan.Pos
	morePos  []jsonscan.Pos // positions from len(pos) on
	base     int            // the current object's first field
	top      int            // one past the last position in use
	path     [4]segment     // the position of the value being bound
	morePath []segment      // segments from len(path) on
	depth    int
}

// A segment is one step of a path: a key, or an index in a list.
type segment struct {
	key    string
	index  int
	isIdx  bool
	member bool // a map's member: its key is a step even when empty
	object bool // a nested object: base and top are its parent's
	base   int
	top    int
}

// NewBinder returns a Binder over in's argument bytes. An Input made from
// a map is encoded once; a top-level value JSON cannot encode (a NaN, a
// channel, a list holding one) is bound as an empty object, so that its
// field reports a value of the wrong type.
func NewBinder(in tool.Input) Binder {
	if doc, ok := in.Document(); ok {
		return Binder{doc: doc}
	}
	data, err := json.Marshal(in)
	if err != nil {
		data, err = encodeEach(in)
	}
	if err != nil {
		return Binder{err: err}
	}
	doc, err := jsonscan.Parse(data)
	if err != nil {
		return Binder{err: err}
	}
	return Binder{doc: doc}
}

// encodeEach encodes in's members one by one, each that cannot be encoded
// as {}.
func encodeEach(in tool.Input) ([]byte, error) {
	m := map[string]json.RawMessage{}
	for k, v := range in.Map() {
		data, err := json.Marshal(v)
		if err != nil {
			data = []byte("{}")
		}
		m[k] = data
	}
	return json.Marshal(m)
}

// Locate reads the top-level object once, noting where the value of
// each of keys is (read them with Field, by index in keys), and whether
// any other key is there; [Done] reports those.
func (b *Binder) Locate(keys []string) {
	b.keys, b.base, b.top = keys, 0, len(keys)
	if b.err != nil {
		return
	}
	b.unknown = b.locate(b.doc.Root(), keys)
}

// locate notes the positions of the members of obj named by keys, from
// b.base, and reports whether obj has a member of another name. A null
// member is absent.
func (b *Binder) locate(obj Value, keys []string) (unknown bool) {
	if end := b.base + len(keys); end <= len(b.pos) {
		return obj.Locate(keys, b.pos[b.base:end])
	}
	at := make([]jsonscan.Pos, len(keys))
	unknown = obj.Locate(keys, at)
	for i, p := range at {
		b.setPos(b.base+i, p)
	}
	return unknown
}

func (b *Binder) setPos(i int, p jsonscan.Pos) {
	if i < len(b.pos) {
		b.pos[i] = p
		return
	}
	i -= len(b.pos)
	for len(b.morePos) <= i {
		b.morePos = append(b.morePos, jsonscan.Pos{})
	}
	b.morePos[i] = p
}

// Field returns the value of the current object's i'th field (its index
// in the keys given to Locate or Enter); the zero Value when it is absent.
func (b *Binder) Field(i int) Value {
	i += b.base
	if i < len(b.pos) {
		return b.doc.At(b.pos[i])
	}
	return b.doc.At(b.morePos[i-len(b.pos)])
}

// Done ends a binding: with the top-level unknown keys reported, it
// returns out, or the zero T and every violation (a schema.Violations), or
// the error that kept the arguments from being read.
func Done[T any](b *Binder, out T) (T, error) {
	var zero T
	if b.err != nil {
		return zero, b.err
	}
	if b.unknown {
		for _, k := range b.doc.Keys() {
			if !contains(b.keys, k) {
				b.vs = append(b.vs, schema.Unknown(k, b.keys))
			}
		}
	}
	if len(b.vs) > 0 {
		return zero, b.vs
	}
	return out, nil
}

// absent reports whether v is the zero Value: a field not given (or
// given as null, which Locate and Enter do not store). A null item of a
// list or member of a map is not absent: it is a value of the wrong type.
func absent(v Value) bool { return !v.Present() && !v.IsNull() }

func contains(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

// Required reports key as missing (a parameter of JSON type typ) when v is
// absent (a null counts as absent), and says whether v is present.
func (b *Binder) Required(v Value, key, typ string) bool {
	if !absent(v) {
		return true
	}
	b.report(schema.Required(b.at(key), typ))
	return false
}

// RequiredField returns the value of the current object's i'th field, as
// [Binder.Field] does, and reports it as missing (a parameter key of JSON
// type typ) when it is absent or null, as [Binder.Required] does. The
// helper it is passed to then binds nothing and reports nothing, so a
// required field takes one call: String(&b, b.RequiredField(0, "path",
// "string"), "path", nil).
func (b *Binder) RequiredField(i int, key, typ string) Value {
	v := b.Field(i)
	b.Required(v, key, typ)
	return v
}

// Enter begins binding the nested object v at key, a struct whose wire
// names are keys: it returns false for an absent v, and reports v when it
// is not an object and returns false; otherwise it notes where its fields
// are (read them with Field), reports the members of other names (sorted)
// and returns true. The helper then binds the fields and calls
// [Binder.Leave].
func (b *Binder) Enter(v Value, key string, keys []string) bool {
	if absent(v) {
		return false
	}
	if v.Kind() != jsonscan.Object {
		b.report(schema.WrongType(b.at(key), "object"))
		return false
	}
	b.push(segment{key: key, object: true, base: b.base, top: b.top})
	b.base, b.top = b.top, b.top+len(keys)
	if b.locate(v, keys) {
		prefix := b.at("")
		var names []string
		for _, k := range v.Keys() {
			if contains(keys, k) {
				continue
			}
			if names == nil {
				names = make([]string, len(keys))
				for i, n := range keys {
					names[i] = prefix + "." + n
				}
			}
			b.report(schema.Unknown(prefix+"."+k, names))
		}
	}
	return true
}

// Leave ends the nested object Enter began.
func (b *Binder) Leave() {
	s := b.pop()
	b.base, b.top = s.base, s.top
}

func (b *Binder) report(v schema.Violation) { b.vs = append(b.vs, v) }

func (b *Binder) push(s segment) {
	if b.depth < len(b.path) {
		b.path[b.depth] = s
	} else {
		b.morePath = append(b.morePath[:b.depth-len(b.path)], s)
	}
	b.depth++
}

func (b *Binder) pop() segment {
	b.depth--
	if b.depth < len(b.path) {
		return b.path[b.depth]
	}
	return b.morePath[b.depth-len(b.path)]
}

// setIndex sets the index of the innermost segment, a list's item.
func (b *Binder) setIndex(i int) {
	if d := b.depth - 1; d < len(b.path) {
		b.path[d].index = i
	} else {
		b.morePath[d-len(b.path)].index = i
	}
}

func (b *Binder) segment(d int) segment {
	if d < len(b.path) {
		return b.path[d]
	}
	return b.morePath[d-len(b.path)]
}

// at spells the path of key below the current position: edits[2].old_string.
// An empty key names the current position itself.
func (b *Binder) at(key string) string {
	if b.depth == 0 {
		return key
	}
	var s []byte
	for d := range b.depth {
		s = appendSegment(s, b.segment(d))
	}
	if key != "" {
		s = appendSegment(s, segment{key: key})
	}
	return string(s)
}

func appendSegment(s []byte, seg segment) []byte {
	switch {
	case seg.isIdx:
		s = append(s, '[')
		s = strconv.AppendInt(s, int64(seg.index), 10)
		return append(s, ']')
	case seg.key == "" && !seg.member:
		return s
	case len(s) > 0:
		s = append(s, '.')
	}
	return append(s, seg.key...)
}
