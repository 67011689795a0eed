package tool

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/jsonscan"
)

// decoded reports whether the Input's map has been decoded.
func (in Input) decoded() bool { return in.lazy == nil || in.lazy.args.Load() != nil }

// TestLazyInput shows that an Input made from bytes is decoded only when a
// map accessor needs it, once, and shared by every copy, safely.
func TestLazyInput(t *testing.T) {
	in, err := DecodeInput([]byte(`{"path":"/src/a","n":2,"z":null}`))
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := StringSubject(in, "path", PathSubject); !ok || s.Value != "/src/a" {
		t.Fatalf("StringSubject = %v, %v", s, ok)
	}
	if _, ok := in.Document(); !ok || in.decoded() {
		t.Fatal("reading the subject or the document decoded the map")
	}
	copies := make([]Input, 8)
	for i := range copies {
		copies[i] = in
	}
	var wg sync.WaitGroup
	for _, c := range copies {
		wg.Go(func() {
			if diff := cmp.Diff([]string{"n", "path"}, c.Keys()); diff != "" {
				t.Errorf("Keys (-want +got):\n%s", diff)
			}
		})
	}
	wg.Wait()
	if !in.decoded() {
		t.Error("the copies did not share the decoded map")
	}
	if _, ok := NewInput(map[string]any{"a": 1}).Document(); !ok {
		t.Error("an Input made from a map has no document")
	}
}

func TestStrictDocument(t *testing.T) {
	in, _ := DecodeInput([]byte(`{"n":"10"}`))
	for _, tt := range []struct {
		in   Input
		want bool
	}{{in, true}, {in.strictly(), false}} {
		doc, _ := tt.in.Document()
		m := doc.Members()
		m.Next()
		_, mm := m.Value().Int64(64)
		if got := mm == jsonscan.Match; got != tt.want {
			t.Errorf("numeric string read: %v, want %v", got, tt.want)
		}
	}
}
