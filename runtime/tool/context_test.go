package tool

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestContextIsImmutable(t *testing.T) {
	traceKey := NewKey[string]("trace")
	base := NewContext(WorkDirKey.Bind("/work"))
	derived := base.With(traceKey.Bind("t1"), WorkDirKey.Bind("/other"))
	if got := base.WorkDir(); got != "/work" {
		t.Errorf("base WorkDir = %q after With; want it unchanged", got)
	}
	if _, ok := traceKey.Get(base); ok {
		t.Error("With changed the base context")
	}
	if got := derived.WorkDir(); got != "/other" {
		t.Errorf("derived WorkDir = %q", got)
	}
	if v, ok := traceKey.Get(derived); !ok || v != "t1" {
		t.Errorf("trace = %q, %v", v, ok)
	}
	if base.ReadFiles() == nil || base.ReadFiles() != derived.ReadFiles() {
		t.Error("derived context must share the run's read-files set")
	}
}

func TestZeroContextIsUsable(t *testing.T) {
	var c Context
	if c.WorkDir() != "" || c.ReadFiles() != nil || c.CallID() != "" || len(c.Metadata()) != 0 {
		t.Error("zero Context is not empty")
	}
	k := NewKey[int]("n")
	if v, ok := k.Get(c); ok || v != 0 {
		t.Errorf("Get on zero context = %v, %v", v, ok)
	}
	if got := k.Value(c.With(k.Bind(3))); got != 3 {
		t.Errorf("Value = %d", got)
	}
	var zeroKey Key[int]
	if _, ok := zeroKey.Get(c.With(zeroKey.Bind(1))); ok {
		t.Error("the zero Key must never hold a value")
	}
}

func TestKeysAreDistinctByIdentity(t *testing.T) {
	a, b := NewKey[string]("same"), NewKey[string]("same")
	c := NewContext(a.Bind("a"))
	if _, ok := b.Get(c); ok {
		t.Error("two keys with the same name share a value")
	}
}

func TestNewContextFreshReadFiles(t *testing.T) {
	a, b := NewContext(), NewContext()
	a.ReadFiles().Add("/x")
	if b.ReadFiles().Has("/x") {
		t.Error("two runs share a read-files set")
	}
}

func TestNewContextBindings(t *testing.T) {
	c := NewContext(WorkDirKey.Bind("/w"))
	if c.WorkDir() != "/w" || c.ReadFiles() == nil {
		t.Errorf("WorkDir %q, ReadFiles %v", c.WorkDir(), c.ReadFiles())
	}
}

func TestReadFilesConcurrent(t *testing.T) {
	r := newReadFiles()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Add("/a/../b/" + string(rune('a'+i)))
			_ = r.Has("/b/a")
		}()
	}
	wg.Wait()
	if !r.Has("/b/a") || len(r.Paths()) != 8 {
		t.Errorf("paths = %v", r.Paths())
	}
}

func TestMetadataMerge(t *testing.T) {
	md := metadata{}.merge(map[string]string{"a": "1", "b": "1"}).merge(map[string]string{"b": "2", "c": "2"})
	got := map[string]string{}
	for _, k := range md.keys() {
		got[k], _ = md.get(k)
	}
	if diff := cmp.Diff(map[string]string{"a": "1", "b": "2", "c": "2"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestReadFilesVersions(t *testing.T) {
	r := newReadFiles()
	r.Mark("/a/./f", "v1")
	if v, ok := r.Version("/a/f"); !ok || v != "v1" {
		t.Errorf("Version = %q, %v", v, ok)
	}
	r.Mark("/a/f", "v2")
	if v, _ := r.Version("/a/f"); v != "v2" {
		t.Errorf("Version after re-read = %q", v)
	}
	r.Forget("/a/f")
	if r.Has("/a/f") {
		t.Error("Forget kept the path")
	}
	var zero ReadFiles
	zero.Add("/x")
	if !zero.Has("/x") {
		t.Error("zero ReadFiles is not usable")
	}
}
