package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// errNotObject is wrapped by the error DecodeInput returns when the bytes are
// valid JSON but not an object.
var errNotObject = errors.New("tool arguments must be a JSON object")

// Input holds the arguments of one tool call. It is immutable: every
// constructor copies what it is given, and no method changes it. The zero
// Input is empty.
//
// Every Input carries its arguments as JSON bytes, checked once: DecodeInput
// keeps a copy of the bytes it was given, and NewInput encodes its map once.
// Generated binders read those bytes through Document in one pass and never
// need a map.
//
// Every way of making an Input drops top-level JSON null values, so a key
// sent as null behaves exactly like a key not sent, in every accessor.
//
// Values are what encoding/json decodes (string, float64, bool, []any,
// map[string]any); an Input made with NewInput may also hold any Go integer
// or float kind and json.Number. Values returned by Get must not be modified.
//
// An Input made by DecodeInput decodes its bytes into a map only when a map
// accessor (Get, Keys, Len, Map, MarshalJSON, and Param and its kin) is
// first called. The decoded map is shared by every copy of the Input, safely
// for concurrent use.
type Input struct {
	m      map[string]any
	raw    []byte
	err    error    // NewInput: a value JSON cannot encode (see Err)
	lazy   *decoded // set for an Input made by DecodeInput
	strict bool     // numeric strings are not numbers (the executor under schema.Enforce)
	nulls  []string // keys given as null (NewInput), for the schema gate
}

// decoded is what an Input made by DecodeInput shares with its copies:
// its map, decoded on first use, and where its top-level members are,
// recorded when the bytes were checked. The spans follow the decoded in
// its allocation, room of them (see newDecoded); nspans of them hold the
// members, or nspans is -1 when the object had more members than that and
// the members are found by scanning.
type decoded struct {
	args   atomic.Pointer[argMap]
	nspans int32
	room   int32
}

// argMap is the decoded map of an Input made from bytes.
type argMap struct {
	m     map[string]any
	nulls []string // keys given as null, for the schema gate
}

// maxSpans bounds the spans an Input keeps: enough for most tools' inputs.
const maxSpans = 16

const (
	decodedSize = unsafe.Sizeof(decoded{})
	spanSize    = unsafe.Sizeof(jsonscan.Span{})
)

// spans returns the room for spans that follows d in its allocation.
func (d *decoded) spans() []jsonscan.Span {
	return unsafe.Slice((*jsonscan.Span)(unsafe.Add(unsafe.Pointer(d), decodedSize)), d.room)
}

// A decodedWith is a decoded followed by its spans and, for an input of
// at most 4 KiB, the bytes it describes, so that DecodeInput allocates
// once. B is a byte array whose length makes the whole one of the Go
// allocator's size classes, so that few bytes of the allocation go
// unused.
type decodedWith[B any] struct {
	decoded
	tail B // the spans, then the bytes
}

// withRoom returns a decoded with room for spans spans, and n bytes after
// them, in one allocation; spans*spanSize+n is at most len(B).
func withRoom[B any](spans, n int) (*decoded, []byte) {
	h := new(decodedWith[B])
	h.room = int32(spans)
	if n == 0 {
		return &h.decoded, nil
	}
	at := unsafe.Add(unsafe.Pointer(&h.tail), uintptr(spans)*spanSize)
	return &h.decoded, unsafe.Slice((*byte)(at), n)
}

// rooms are the sizes newDecoded allocates a decoded, its spans and its
// bytes in: the Go allocator's size classes up to 512 bytes, where most
// arguments fall, then classes some 20% apart up to 4 KiB, so that
// little of an allocation goes unused.
var rooms = [...]struct {
	size  uintptr
	alloc func(spans, n int) (*decoded, []byte)
}{
	{48, withRoom[[48 - decodedSize]byte]},
	{64, withRoom[[64 - decodedSize]byte]},
	{80, withRoom[[80 - decodedSize]byte]},
	{96, withRoom[[96 - decodedSize]byte]},
	{112, withRoom[[112 - decodedSize]byte]},
	{128, withRoom[[128 - decodedSize]byte]},
	{144, withRoom[[144 - decodedSize]byte]},
	{160, withRoom[[160 - decodedSize]byte]},
	{176, withRoom[[176 - decodedSize]byte]},
	{192, withRoom[[192 - decodedSize]byte]},
	{208, withRoom[[208 - decodedSize]byte]},
	{224, withRoom[[224 - decodedSize]byte]},
	{240, withRoom[[240 - decodedSize]byte]},
	{256, withRoom[[256 - decodedSize]byte]},
	{288, withRoom[[288 - decodedSize]byte]},
	{320, withRoom[[320 - decodedSize]byte]},
	{352, withRoom[[352 - decodedSize]byte]},
	{384, withRoom[[384 - decodedSize]byte]},
	{416, withRoom[[416 - decodedSize]byte]},
	{448, withRoom[[448 - decodedSize]byte]},
	{480, withRoom[[480 - decodedSize]byte]},
	{512, withRoom[[512 - decodedSize]byte]},
	{640, withRoom[[640 - decodedSize]byte]},
	{768, withRoom[[768 - decodedSize]byte]},
	{1024, withRoom[[1024 - decodedSize]byte]},
	{1280, withRoom[[1280 - decodedSize]byte]},
	{1536, withRoom[[1536 - decodedSize]byte]},
	{2048, withRoom[[2048 - decodedSize]byte]},
	{2688, withRoom[[2688 - decodedSize]byte]},
	{3072, withRoom[[3072 - decodedSize]byte]},
	{4096, withRoom[[4096 - decodedSize]byte]},
}

// newDecoded returns a decoded with room for spans spans (at most
// maxSpans) and n bytes for its copy of the input, all in one allocation
// when n is small (arguments mostly are).
func newDecoded(spans, n int) (*decoded, []byte) {
	size := decodedSize + uintptr(spans)*spanSize + uintptr(n)
	for _, r := range rooms {
		if size <= r.size {
			return r.alloc(spans, n)
		}
	}
	d, _ := withRoom[[maxSpans * spanSize]byte](spans, 0)
	return d, make([]byte, n)
}

// spanRoom returns how many spans to make room for when DecodeInput keeps
// data: one per colon, which every member has, up to maxSpans, so that an
// input with few members does not carry room for many. Counting the
// caller's bytes, which are checked only once copied, is safe: too little
// room means only that the members are found by scanning.
func spanRoom(data []byte) int {
	if len(data) > 4096 {
		return maxSpans
	}
	return min(bytes.Count(data, colon), maxSpans)
}

var colon = []byte{':'}

// args returns the arguments as a map, decoding them on first use.
func (in Input) args() map[string]any {
	if in.lazy == nil {
		return in.m
	}
	return in.lazy.decode(in.raw).m
}

// decode returns the decoded map of raw, the bytes d describes, decoding
// it on first use. Calls at the same time may each decode it; all of them
// return the map stored first.
func (d *decoded) decode(raw []byte) *argMap {
	if a := d.args.Load(); a != nil {
		return a
	}
	a := new(argMap)
	// The bytes passed jsonscan.Validate: a JSON object within
	// encoding/json's limits, so this cannot fail.
	_ = json.Unmarshal(raw, &a.m)
	for k, e := range a.m {
		if e == nil {
			delete(a.m, k)
			a.nulls = append(a.nulls, k)
		}
	}
	if d.args.CompareAndSwap(nil, a) {
		return a
	}
	return d.args.Load()
}

// gateArgs returns the arguments as the schema gate reads them: with the
// keys given as null, as nil values, for the gate decides where null is a
// value (a schema that accepts null) and where it means absent. It copies
// the map only when there are such keys.
func (in Input) gateArgs() map[string]any {
	m, nulls := in.m, in.nulls
	if in.lazy != nil {
		a := in.lazy.decode(in.raw)
		m, nulls = a.m, a.nulls
	}
	if len(nulls) == 0 {
		return m
	}
	c := make(map[string]any, len(m)+len(nulls))
	for k, v := range m {
		c[k] = v
	}
	for _, k := range nulls {
		c[k] = nil
	}
	return c
}

// emptyObject is the document of an Input with no keys.
var emptyObject = []byte("{}")

// Document returns the Input's bytes as a validated jsonscan document, for
// generated binders. Strings read from it share the Input's own copy of the
// bytes. It is false only for an Input whose map NewInput could not encode;
// Err says why.
func (in Input) Document() (jsonscan.Doc, bool) {
	if in.err != nil {
		return jsonscan.Doc{}, false
	}
	if d := in.lazy; d != nil && d.nspans >= 0 {
		return jsonscan.Indexed(in.raw, d.spans()[:d.nspans], in.strict), true
	}
	return jsonscan.Unchecked(in.Raw(), in.strict), true
}

// Err returns why the Input has no Document: the violations naming each
// top-level parameter whose value NewInput could not encode as JSON (a
// func, a channel, NaN, a value nested deeper than jsonscan.MaxDepth),
// worded as the schema gate words its own (a schema.Violations). It is nil
// for every Input made by DecodeInput and for every Input whose values are
// JSON's. The map accessors still read every value. A generated binder
// reports each such parameter as a value of the wrong type, beside the
// other parameters' violations (see runtime/toolimpl's NewBinder), so
// that one call's answer names every problem.
func (in Input) Err() error { return in.err }

// strictly returns a copy of in that reads no numeric string as a number,
// in its document and in its accessors, as the schema gate under
// schema.Enforce refuses one.
func (in Input) strictly() Input {
	in.strict = true
	return in
}

// NewInput returns an Input holding a copy of m, without its null values,
// and the JSON encoding of that copy, made once (object keys sorted, so the
// bytes are the same for equal maps). Nested maps and slices are copied
// too, so changing m afterwards does not change the Input, and Go values of
// other types ([]string, a struct) are held in the form decoded JSON takes
// ([]any, map[string]any), so that binders read them as they read a
// model's arguments.
//
// A value JSON cannot encode (a func, a channel, NaN or an infinity, a map
// that contains itself) does not make NewInput fail: the Input keeps it for
// Get and the other map accessors, has no Document, and its Err names each
// such parameter, so that a binder answers the call with a sentence the
// model can act on.
func NewInput(m map[string]any) Input {
	if len(m) == 0 {
		return Input{}
	}
	c := make(map[string]any, len(m))
	var nulls []string
	for k, v := range m {
		if v = deepCopy(v, 0); v == nil { // a nil pointer or slice is null too
			nulls = append(nulls, k)
			continue
		}
		c[k] = v
	}
	raw, err := encodeObject(c, nulls)
	return Input{m: c, raw: raw, err: err, nulls: nulls}
}

// tooDeep stands for a part of a NewInput value nested deeper than
// jsonscan.MaxDepth (a map or slice that contains itself never ends).
type tooDeep struct{}

// deepCopy copies v into the shapes encoding/json decodes JSON into, as a
// model's arguments arrive: maps and slices are copied, and any other
// composite Go value (a []string, a map[string]int, a struct, a
// json.RawMessage) is turned into its JSON form's map[string]any, []any,
// string, float64 or bool, so that binders read it as they read decoded
// JSON and later changes to it do not reach the Input. A value JSON
// cannot encode (a channel, a func) is kept as it is, for encodeObject to
// report; a part deeper than jsonscan.MaxDepth becomes tooDeep.
func deepCopy(v any, depth int) any {
	if depth > jsonscan.MaxDepth {
		return tooDeep{}
	}
	switch x := v.(type) {
	case nil, string, bool, float64, float32, int, int8, int16, int32, int64,
		uint, uint8, uint16, uint32, uint64, uintptr, json.Number:
		return v
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = deepCopy(e, depth+1)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = deepCopy(e, depth+1)
		}
		return c
	case []string: // the common shapes of Go callers, without encoding/json
		if x == nil {
			return nil
		}
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = e
		}
		return c
	case map[string]string:
		if x == nil {
			return nil
		}
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = e
		}
		return c
	case json.RawMessage:
		var d any
		if json.Unmarshal(x, &d) != nil {
			return string(x)
		}
		return d
	}
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var d any
	if json.Unmarshal(b, &d) != nil {
		return v
	}
	return d
}

// DecodeInput reads the JSON arguments of a tool call. The bytes must hold
// one JSON object (at most jsonscan.MaxBytes long, nested at most
// jsonscan.MaxDepth levels, see package jsonscan); anything else is an
// error that says what was found instead. A key given twice in one object,
// at any depth, is refused with schema.Violations holding a
// schema.DuplicateKey for each, so that no reader of the Input can see
// another value than another.
//
// The Input keeps a copy of the bytes, available from Raw and Document, and
// decodes them into a map only when a map accessor is first called.
func DecodeInput(data []byte) (Input, error) {
	if len(data) > jsonscan.MaxBytes {
		return Input{}, fmt.Errorf("tool arguments are %d bytes long; the limit is %d", len(data), jsonscan.MaxBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Input{}, fmt.Errorf("%w, got no bytes", errNotObject)
	}
	d, raw := newDecoded(spanRoom(data), len(data))
	copy(raw, data)
	n, err := jsonscan.ValidateSpans(raw, d.spans())
	if err != nil {
		var no *jsonscan.NotObjectError
		if errors.As(err, &no) {
			return Input{}, fmt.Errorf("%w, got %s", errNotObject, no.Got)
		}
		return Input{}, err
	}
	d.nspans = int32(n)
	return Input{raw: raw, lazy: d}, nil
}

// Raw returns the Input's JSON bytes: those DecodeInput was given, or
// those NewInput encoded ("{}" for an empty Input); nil only when Err is
// not. The caller must not modify them.
func (in Input) Raw() []byte {
	if in.raw == nil && in.err == nil {
		return emptyObject
	}
	return in.raw
}

// Get returns the value of key and whether it is present.
func (in Input) Get(key string) (any, bool) {
	v, ok := in.args()[key]
	return v, ok
}

// Len returns the number of keys.
func (in Input) Len() int { return len(in.args()) }

// Keys returns the keys in sorted order.
func (in Input) Keys() []string {
	m := in.args()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Map returns a copy of the arguments as a map.
func (in Input) Map() map[string]any {
	m := in.args()
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = deepCopy(v, 0)
	}
	return c
}

// MarshalJSON encodes the arguments as a JSON object, without the keys
// given as null. For an Input whose map NewInput could not encode it
// returns Err.
func (in Input) MarshalJSON() ([]byte, error) {
	if in.err != nil {
		return nil, in.err
	}
	m := in.args()
	if m == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(m)
}

// mismatchError words a failed numeric read as the gate and the generated
// binders word it.
func mismatchError(key, typ string, mm jsonscan.Mismatch) error {
	switch mm {
	case jsonscan.OutOfRange:
		return schema.Invalid(key, "the number is out of range")
	case jsonscan.NotFinite:
		return schema.Invalid(key, "the number must be finite")
	}
	return schema.WrongType(key, typ)
}
