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
	if s, ok := stringSubject(in, "path", PathSubject); !ok || s.Value != "/src/a" {
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

// TestDecodedRooms: newDecoded gives room for the spans asked for and n
// bytes for every n, in one allocation up to 4 KiB, in rooms that grow in
// size; spans and bytes do not overlap.
func TestDecodedRooms(t *testing.T) {
	for i := 1; i < len(rooms); i++ {
		if rooms[i].size <= rooms[i-1].size || rooms[i-1].size <= decodedSize {
			t.Fatalf("rooms %d and %d: sizes %d, %d", i-1, i, rooms[i-1].size, rooms[i].size)
		}
	}
	one := int(4096 - decodedSize) // the most bytes one allocation holds, without spans
	for _, spans := range []int{0, 1, 13, maxSpans} {
		for _, n := range []int{0, 1, 31, 32, 33, 200, 1000, one - spans*int(spanSize), one - spans*int(spanSize) + 1, 10000} {
			d, b := newDecoded(spans, n)
			if d == nil || len(b) != n || len(d.spans()) != spans {
				t.Fatalf("newDecoded(%d, %d): %d bytes, %d spans", spans, n, len(b), len(d.spans()))
			}
			for i := range b {
				b[i] = 0xff
			}
			for i, sp := range d.spans() {
				if sp != (jsonscan.Span{}) {
					t.Fatalf("newDecoded(%d, %d): span %d overlaps the bytes", spans, n, i)
				}
			}
			want := 1.0
			if n > one-spans*int(spanSize) {
				want = 2
			}
			if got := testing.AllocsPerRun(10, func() { d, b = newDecoded(spans, n) }); got != want {
				t.Errorf("newDecoded(%d, %d): %v allocations, want %v", spans, n, got, want)
			}
		}
	}
}
