package tool

import (
	"path/filepath"
	"slices"
	"sync"

	"github.com/toolgen/toolgen/runtime/permission"
)

// Context carries the values the runtime and the caller give one tool call:
// the working directory, the run's read-files set, per-call metadata, and
// any typed value under a Key. It is immutable: With returns a new Context.
// Cancellation and deadlines travel in context.Context, not here.
//
// The zero Context is empty and usable.
type Context struct {
	// The runtime's own values have fields of their own, so that the
	// executor can give every call its context without allocating.
	workDir   string
	readFiles *ReadFiles
	meta      metadata
	offers    func(string) bool
	paths     permission.PathFilter
	// vals holds every other binding, newest first.
	vals *ctxNode
}

type ctxNode struct {
	id   *keyID
	val  any
	next *ctxNode
}

// keyID identifies a key; the runtime's keys read and write their Context
// field through get and set.
type keyID struct {
	name string
	get  func(Context) (any, bool)
	set  func(*Context, any)
}

// Key is a typed key for a Context value. Keys are compared by identity:
// make each one once, with NewKey, in a package-level variable.
type Key[T any] struct{ id *keyID }

// NewKey returns a new key; name is for debugging only.
func NewKey[T any](name string) Key[T] { return Key[T]{id: &keyID{name: name}} }

// fieldKey returns a key of the runtime whose value lives in a Context
// field.
func fieldKey[T any](name string, get func(Context) (T, bool), set func(*Context, T)) Key[T] {
	return Key[T]{id: &keyID{
		name: name,
		get: func(c Context) (any, bool) {
			v, ok := get(c)
			return v, ok
		},
		set: func(c *Context, v any) {
			t, _ := v.(T)
			set(c, t)
		},
	}}
}

// Name returns the name the key was made with.
func (k Key[T]) Name() string {
	if k.id == nil {
		return ""
	}
	return k.id.name
}

// Get returns the value bound to k in c.
func (k Key[T]) Get(c Context) (T, bool) {
	var zero T
	if k.id == nil {
		return zero, false
	}
	if k.id.get != nil {
		v, ok := k.id.get(c)
		if !ok {
			return zero, false
		}
		return v.(T), true
	}
	for n := c.vals; n != nil; n = n.next {
		if n.id == k.id {
			return n.val.(T), true
		}
	}
	return zero, false
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

// WorkDirKey holds the working directory relative paths are resolved
// against: the one runtime value a caller binds.
var (
	// WorkDirKey holds the working directory relative paths are resolved
	// against.
	WorkDirKey = fieldKey("workdir",
		func(c Context) (string, bool) { return c.workDir, c.workDir != "" },
		func(c *Context, v string) { c.workDir = v })
)

// The runtime's other values are set by the executor for every call, and
// read through Context's methods: ReadFiles, Metadata, PathFilter and
// OfferFilter. pathFilterKey binds a filter where no allow-list sets one.
var pathFilterKey = fieldKey("path-filter",
	func(c Context) (permission.PathFilter, bool) { return c.paths, c.paths.Restricts() },
	func(c *Context, v permission.PathFilter) { c.paths = v })

// NewContext returns the context for one run, with a fresh read-files set
// and the given bindings (which may replace it).
func NewContext(bindings ...Binding) Context {
	c := Context{readFiles: newReadFiles()}
	return c.With(bindings...)
}

// With returns a copy of c with the bindings added, replacing values already
// bound to the same keys. c itself is unchanged.
func (c Context) With(bindings ...Binding) Context {
	for _, b := range bindings {
		switch {
		case b.id == nil:
		case b.id.set != nil:
			b.id.set(&c, b.val)
		default:
			c.vals = &ctxNode{id: b.id, val: b.val, next: c.vals}
		}
	}
	return c
}

// WorkDir returns the working directory, or "" when none is set.
func (c Context) WorkDir() string { return c.workDir }

// ReadFiles returns the run's read-files set, or nil when none is set (the
// executor supplies one to every call).
func (c Context) ReadFiles() *ReadFiles { return c.readFiles }

// PathFilter returns the call's tool's own PATH patterns on the executor's
// allow-list, as a filter for every path the tool reaches beyond the one
// the call names: a tool that walks a tree or opens several files (Grep,
// Glob) skips what the filter does not allow, so that its patterns bound
// everything it reads or lists. It is the zero filter, which allows every
// path, when the tool has no patterns there or there is no allow-list.
func (c Context) PathFilter() permission.PathFilter { return c.paths }

// OfferFilter reports, for a call run by an executor with an allow-list,
// whether the list offers a tool by name; it is nil without one. A tool
// that lists or activates other tools, such as ToolSearch, uses it so that
// it never shows the model a tool the model may not call.
func (c Context) OfferFilter() func(name string) bool { return c.offers }

// Metadata returns a copy of the call's metadata: its id under "call_id",
// and the call's own pairs (Call.Metadata).
func (c Context) Metadata() map[string]string {
	m := make(map[string]string)
	for _, k := range c.meta.keys() {
		m[k], _ = c.meta.get(k)
	}
	return m
}

// CallID returns the call's id from its metadata, or "".
func (c Context) CallID() string {
	v, _ := c.meta.get(metaCallID)
	return v
}

// ReadFiles is the set of files a run has read, safe for concurrent use.
// File tools record a file when they read it, with a version (for example
// its size and modification time) so that a later write can tell whether
// the file changed since; they consult the set before they overwrite or
// edit a file. Paths are cleaned before they are stored.
type ReadFiles struct {
	mu    sync.Mutex
	files map[string]string
}

// newReadFiles returns an empty set.
func newReadFiles() *ReadFiles { return &ReadFiles{files: make(map[string]string)} }

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

// metaCallID is the metadata key of the call's id.
const metaCallID = "call_id"

// metadata is an immutable set of string key-value pairs attached to a call:
// its id (under "call_id") and the call's own (Call.Metadata). The zero
// metadata is empty.
//
// It is kept as layers read from the top, so that giving each call its
// metadata costs no allocation.
type metadata struct {
	layers [3]map[string]string // lowest first
	callID string
}

// get returns the value of key.
func (md metadata) get(key string) (string, bool) {
	if key == metaCallID && md.callID != "" {
		return md.callID, true
	}
	for i := len(md.layers) - 1; i >= 0; i-- {
		if v, ok := md.layers[i][key]; ok {
			return v, true
		}
	}
	return "", false
}

// keys returns the keys, sorted.
func (md metadata) keys() []string {
	var keys []string
	seen := make(map[string]bool)
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for _, l := range md.layers {
		for k := range l {
			add(k)
		}
	}
	if md.callID != "" {
		add(metaCallID)
	}
	slices.Sort(keys)
	return keys
}

// merge returns md with the pairs of over added; over's values win. over
// must not be modified afterwards.
func (md metadata) merge(over map[string]string) metadata {
	if len(over) == 0 {
		return md
	}
	for i := range md.layers {
		if md.layers[i] == nil {
			md.layers[i] = over
			return md
		}
	}
	// Every layer is used: flatten them into one map.
	flat := make(map[string]string)
	for _, l := range md.layers {
		for k, v := range l {
			flat[k] = v
		}
	}
	for k, v := range over {
		flat[k] = v
	}
	return metadata{layers: [3]map[string]string{flat}, callID: md.callID}
}

// withCallID returns md whose metaCallID is id.
func (md metadata) withCallID(id string) metadata {
	md.callID = id
	return md
}
