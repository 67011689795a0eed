package tool

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// FuzzDecodeInput checks that DecodeInput never panics, that it accepts
// exactly the JSON objects encoding/json accepts, except those with a
// duplicate key or nested beyond jsonscan.MaxDepth, which it refuses on
// purpose, and that what it accepts holds no null value and survives a
// round trip.
func FuzzDecodeInput(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"a":1}`, `{"a":null}`, `null`, `[]`, `"x"`, `3`, ``, ` `, `{`, `{"a":{"b":[1,null,{}]}}`,
		`{"a":1,"a":2}`, `{"\ud83d\ude00":"\u0000"}`, `{"n":1e400}`, `{"x":-0}`, "\xef\xbb\xbf{}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := DecodeInput(data)
		var v any
		isObject := json.Unmarshal(data, &v) == nil // JSON whitespace only (RFC 8259), as DecodeInput
		if isObject {
			_, isObject = v.(map[string]any)
		}
		var vs schema.Violations
		if isObject && (errors.Is(err, jsonscan.ErrLimit) || (errors.As(err, &vs) && vs[0].Kind == schema.KindDuplicate)) {
			return
		}
		if (err == nil) != isObject {
			t.Fatalf("DecodeInput(%q) error = %v, but encoding/json says object=%v", data, err, isObject)
		}
		if err != nil {
			return
		}
		for _, k := range in.Keys() {
			if v, _ := in.Get(k); v == nil {
				t.Fatalf("key %q kept a null value", k)
			}
		}
		out, err := in.MarshalJSON()
		if err != nil {
			t.Fatalf("MarshalJSON: %v", err)
		}
		again, err := DecodeInput(out)
		if err != nil || again.Len() != in.Len() {
			t.Fatalf("round trip: %v, %d keys, want %d", err, again.Len(), in.Len())
		}
	})
}

// FuzzExecute checks that no argument bytes make the executor panic or
// stop serving, in every schema mode.
func FuzzExecute(f *testing.F) {
	for _, seed := range []string{`{"file_path":"/a"}`, `{"limit":"10"}`, `{"file_paht":1}`, `{"mode":[]}`, `{"file_path":{"a":1}}`} {
		f.Add([]byte(seed), uint8(0))
	}
	r := NewRegistry()
	if err := r.Register(readTool()); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		in, err := DecodeInput(data)
		if err != nil {
			return
		}
		e := NewExecutor(r, WithSchemaMode(schemaModes[int(mode)%len(schemaModes)]), WithLogger(discard))
		res := e.Execute(t.Context(), Call{Name: "Read", Input: in}, Context{})
		if res.IsError && res.Content == "" {
			t.Fatalf("error result without a sentence for %q", data)
		}
	})
}
