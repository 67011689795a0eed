// Package storetest holds the checks every store.Store must pass and the
// benchmark of its cost per tool call, for the implementations' tests.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/toolgen/toolgen/runtime/store"
)

// Check runs the behaviour every Store must have against s: fields set and
// deleted, conversations kept apart, an unknown one empty, Delete, and an
// empty key refused. Implementations' tests call it.
func Check(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	steps := []struct {
		conv string
		set  map[string]string
		del  []string
		want map[string]string
	}{
		{"a", map[string]string{"todos": "[]", "read:/x": "v1"}, nil, map[string]string{"todos": "[]", "read:/x": "v1"}},
		{"a", map[string]string{"read:/y": "v2"}, []string{"read:/x"}, map[string]string{"todos": "[]", "read:/y": "v2"}},
		{"b", map[string]string{"tool:Grep": "1"}, nil, map[string]string{"tool:Grep": "1"}},
		{"a", nil, []string{"absent"}, map[string]string{"todos": "[]", "read:/y": "v2"}},
	}
	for i, st := range steps {
		if err := s.Update(ctx, st.conv, st.set, st.del); err != nil {
			t.Fatalf("step %d: Update: %v", i, err)
		}
		got, err := s.Load(ctx, st.conv)
		if err != nil {
			t.Fatalf("step %d: Load: %v", i, err)
		}
		if !reflect.DeepEqual(got, st.want) {
			t.Errorf("step %d: Load(%s) = %v, want %v", i, st.conv, got, st.want)
		}
	}
	if got, err := s.Load(ctx, "unknown"); err != nil || len(got) != 0 {
		t.Errorf("Load(unknown) = %v, %v; want no fields", got, err)
	}
	if err := s.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Load(ctx, "a"); len(got) != 0 {
		t.Errorf("Load after Delete = %v", got)
	}
	if got, _ := s.Load(ctx, "b"); len(got) != 1 {
		t.Errorf("Delete(a) touched b: %v", got)
	}
	if _, err := s.Load(ctx, ""); !errors.Is(err, store.ErrNoConversation) {
		t.Errorf("Load(\"\") err = %v, want ErrNoConversation", err)
	}
	if err := s.Update(ctx, "", map[string]string{"x": "y"}, nil); !errors.Is(err, store.ErrNoConversation) {
		t.Errorf("Update(\"\") err = %v, want ErrNoConversation", err)
	}
}

// Bench measures what a tool call costs the store: one Load and one
// Update of a conversation holding a todo list and n files read.
func Bench(b *testing.B, s store.Store, n int) {
	ctx := context.Background()
	set := map[string]string{"todos": `[{"content":"Run the tests","status":"in_progress","activeForm":"Running the tests"}]`}
	for i := range n {
		set[fmt.Sprintf("read:/work/file%d.go", i)] = "1:2:3:4"
	}
	if err := s.Update(ctx, "bench", set, nil); err != nil {
		b.Fatal(err)
	}
	one := map[string]string{"read:/work/new.go": "5:6:7:8"}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Load(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		if err := s.Update(ctx, "bench", one, nil); err != nil {
			b.Fatal(err)
		}
	}
}
