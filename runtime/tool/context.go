package tool

import (
	"path/filepath"
	"slices"
	"sync"
)

// Context carries the values the runtime and the caller give one tool call:
// the working directory, the run's read-files set, per-call metadata, and
// any typed value under a Key. It is immutable: With returns a new Context.
// Cancellation and deadlines travel in context.Context, not here.
//
// The zero Context is empty and usable.
type Context struct {
	vals map[*keyID]any
}

type keyID struct{ name string }

// Key is a typed key for a Context value. Keys are compared by identity:
// make each one once, with NewKey, in a package-level variable.
type Key[T any] struct{ id *keyID }

// NewKey returns a new key; name is for debugging only.
func NewKey[T any](name string) Key[T] { return Key[T]{id: &keyID{name: name}} }

// Name returns the name the key was made with.
func (k Key[T]) Name() string {
	if k.id == nil {
		return ""
	}
	return k.id.name
}

// Get returns the value bound to k in c.
func (k Key[T]) Get(c Context) (T, bool) {
	v, ok := c.vals[k.id]
	if !ok || k.id == nil {
		var zero T
		return zero, false
	}
	return v.(T), true
}

// Value returns the value bound to k in c, or T's zero value.
func (k Key[T]) Value(c Context) T {
	v, _ := k.Get(c)
	return v
}

// Bind pairs k with a value, for NewContext and Context.With.
func (k Key[T]) Bind(v T) Binding { return Binding{id: k.id, val: v} }

// Binding is a key and its value.
type Binding struct {
	id  *keyID
	val any
}

// The keys the runtime defines.
var (
	// WorkDirKey holds the working directory relative paths are resolved
	// against.
	WorkDirKey = NewKey[string]("workdir")
	// ReadFilesKey holds the set of files read in this run.
	ReadFilesKey = NewKey[*ReadFiles]("read-files")
	// MetadataKey holds the per-call metadata.
	MetadataKey = NewKey[Metadata]("metadata")
)

// NewContext returns the context for one run, with a fresh read-files set
// and the given bindings (which may replace it).
func NewContext(bindings ...Binding) Context {
	c := Context{vals: make(map[*keyID]any, len(bindings)+1)}
	c.vals[ReadFilesKey.id] = NewReadFiles()
	for _, b := range bindings {
		if b.id != nil {
			c.vals[b.id] = b.val
		}
	}
	return c
}

// With returns a copy of c with the bindings added, replacing values already
// bound to the same keys. c itself is unchanged.
func (c Context) With(bindings ...Binding) Context {
	if len(bindings) == 0 {
		return c
	}
	n := Context{vals: make(map[*keyID]any, len(c.vals)+len(bindings))}
	for k, v := range c.vals {
		n.vals[k] = v
	}
	for _, b := range bindings {
		if b.id != nil {
			n.vals[b.id] = b.val
		}
	}
	return n
}

// WorkDir returns the working directory, or "" when none is set.
func (c Context) WorkDir() string { return WorkDirKey.Value(c) }

// ReadFiles returns the run's read-files set, or nil when none is set (the
// executor supplies one to every call).
func (c Context) ReadFiles() *ReadFiles { return ReadFilesKey.Value(c) }

// Metadata returns the call's metadata.
func (c Context) Metadata() Metadata { return MetadataKey.Value(c) }

// CallID returns the call's id from its metadata, or "".
func (c Context) CallID() string {
	v, _ := c.Metadata().Get(MetaCallID)
	return v
}

// Builder assembles a Context step by step.
type Builder struct {
	bindings []Binding
	fresh    bool
}

// NewBuilder returns a builder for a run's context; Build gives it a fresh
// read-files set unless one is bound.
func NewBuilder() *Builder { return &Builder{fresh: true} }

// WorkDir sets the working directory.
func (b *Builder) WorkDir(dir string) *Builder { return b.With(WorkDirKey.Bind(dir)) }

// Metadata sets the metadata every call of the run starts from.
func (b *Builder) Metadata(m Metadata) *Builder { return b.With(MetadataKey.Bind(m)) }

// With adds bindings.
func (b *Builder) With(bindings ...Binding) *Builder {
	b.bindings = append(b.bindings, bindings...)
	return b
}

// Build returns the Context.
func (b *Builder) Build() Context { return NewContext(b.bindings...) }

// ReadFiles is the set of files a run has read, safe for concurrent use.
// File tools record a file when they read it, with a version (for example
// its size and modification time) so that a later write can tell whether
// the file changed since; they consult the set before they overwrite or
// edit a file. Paths are cleaned before they are stored.
type ReadFiles struct {
	mu    sync.Mutex
	files map[string]string
}

// NewReadFiles returns an empty set.
func NewReadFiles() *ReadFiles { return &ReadFiles{files: make(map[string]string)} }

// Add records path as read, with no version.
func (r *ReadFiles) Add(path string) { r.Mark(path, "") }

// Mark records path as read at the given version, replacing an earlier one.
func (r *ReadFiles) Mark(path, version string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.files == nil {
		r.files = make(map[string]string)
	}
	r.files[filepath.Clean(path)] = version
}

// Has reports whether path was read.
func (r *ReadFiles) Has(path string) bool {
	_, ok := r.Version(path)
	return ok
}

// Version returns the version path was read at, and whether it was read.
func (r *ReadFiles) Version(path string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.files[filepath.Clean(path)]
	return v, ok
}

// Forget removes path from the set (a file deleted or moved by the run).
func (r *ReadFiles) Forget(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.files, filepath.Clean(path))
}

// Paths returns the recorded paths, sorted.
func (r *ReadFiles) Paths() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.files))
	for p := range r.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Metadata keys the executor sets.
const (
	// MetaCallID is the key of the call's id.
	MetaCallID = "call_id"
)

// Metadata is an immutable set of string key-value pairs attached to a call:
// its id, a trace id, whatever executor options add. The zero Metadata is
// empty.
type Metadata struct {
	m map[string]string
}

// NewMetadata returns metadata holding a copy of m.
func NewMetadata(m map[string]string) Metadata {
	if len(m) == 0 {
		return Metadata{}
	}
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return Metadata{m: c}
}

// Get returns the value of key.
func (md Metadata) Get(key string) (string, bool) {
	v, ok := md.m[key]
	return v, ok
}

// Len returns the number of keys.
func (md Metadata) Len() int { return len(md.m) }

// Keys returns the keys, sorted.
func (md Metadata) Keys() []string {
	keys := make([]string, 0, len(md.m))
	for k := range md.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Merge returns md with the pairs of over added; over's values win.
func (md Metadata) Merge(over map[string]string) Metadata {
	if len(over) == 0 {
		return md
	}
	c := make(map[string]string, len(md.m)+len(over))
	for k, v := range md.m {
		c[k] = v
	}
	for k, v := range over {
		c[k] = v
	}
	return Metadata{m: c}
}
