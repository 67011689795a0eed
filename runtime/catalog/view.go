package catalog

import (
	"cmp"
	"errors"
	"slices"
	"sync"

	"github.com/toolgen/toolgen/runtime/tool"
)

// ErrReadOnly is returned by a View's Register, Unregister and Clear: a run
// cannot change the catalog it shares with every other run.
var ErrReadOnly = errors.New("catalog view is read-only: register tools on the catalog")

// View is one run's window on a catalog: the catalog's tools plus the run's
// own activation set. It is a tool.ToolSource for the executor.
//
// All is what the model is offered: the eager tools and the deferred tools
// this view has activated, in registration order. It reflects activations
// and catalog changes at once, so an agent loop should call it (or the
// executor's Definitions) again on every iteration. Find reaches every
// tool of the catalog, activated or not: a model that calls a deferred tool
// by name without searching is answered by the tool, and permission is the
// allow-list's business, not activation's.
//
// A View is safe for concurrent use.
type View struct {
	c    *Catalog
	act  *activations
	keep []func(string) bool
}

// RunOption configures a View.
type RunOption func(*View)

// Restrict keeps the view from returning or activating a deferred tool for
// which keep(name) is false: pass the run's allow-list (its Offers method)
// so that searching never reveals a tool the run may not call. Several
// restrictions must all pass; a fork keeps its parent's.
func Restrict(keep func(name string) bool) RunOption {
	return func(v *View) {
		if keep != nil {
			v.keep = append(v.keep, keep)
		}
	}
}

// InSession makes the view use the activation set that store keeps for
// session instead of a fresh one, so tools found in one turn stay offered in
// the next turns of that session. See SessionStore for when to use it.
func InSession(store *SessionStore, session string) RunOption {
	return func(v *View) {
		if store != nil {
			v.act = store.activations(session)
		}
	}
}

// NewRun returns a view for one run (one turn of an agent, a fork, a
// sub-agent) with a fresh, empty activation set, unless InSession says
// otherwise.
func (c *Catalog) NewRun(opts ...RunOption) *View {
	v := &View{c: c}
	for _, o := range opts {
		if o != nil {
			o(v)
		}
	}
	if v.act == nil {
		v.act = newActivations()
	}
	return v
}

// Fork returns a view for a run started by this one: it inherits no
// activation (not even a session's, unless opts bring InSession again) and
// keeps this view's restrictions, to which opts may add more.
func (v *View) Fork(opts ...RunOption) *View {
	f := &View{c: v.c, keep: slices.Clone(v.keep)}
	for _, o := range opts {
		if o != nil {
			o(f)
		}
	}
	if f.act == nil {
		f.act = newActivations()
	}
	return f
}

// Catalog returns the catalog the view looks at.
func (v *View) Catalog() *Catalog { return v.c }

// Find returns the tool registered under name (normalised), whether it is
// eager, activated or neither.
func (v *View) Find(name string) (tool.Tool, bool) { return v.c.Find(name) }

// All returns the tools to offer: the eager ones and the activated deferred
// ones, in registration order.
func (v *View) All() []tool.Tool {
	names := v.act.names()
	v.c.mu.RLock()
	defer v.c.mu.RUnlock()
	var active []*entry
	for _, n := range names {
		if e, ok := v.c.byName[n]; ok && e.loading == tool.Deferred {
			active = append(active, e)
		}
	}
	slices.SortFunc(active, func(a, b *entry) int { return cmp.Compare(a.id, b.id) })
	out := make([]tool.Tool, 0, len(v.c.eager)+len(active))
	i, j := 0, 0
	for i < len(v.c.eager) || j < len(active) {
		if j == len(active) || i < len(v.c.eager) && v.c.eager[i].id < active[j].id {
			out = append(out, v.c.eager[i].tool)
			i++
		} else {
			out = append(out, active[j].tool)
			j++
		}
	}
	return out
}

// Register refuses: a view cannot change the catalog. It returns ErrReadOnly.
func (v *View) Register(tool.Tool) error { return ErrReadOnly }

// Unregister refuses: a view cannot change the catalog. It returns
// ErrReadOnly.
func (v *View) Unregister(string) error { return ErrReadOnly }

// Clear refuses: a view cannot change the catalog. It returns ErrReadOnly.
func (v *View) Clear() error { return ErrReadOnly }

// Search is Catalog.Search under the view's restrictions. It is pure: it
// activates nothing (SearchAndActivate does).
func (v *View) Search(query string, max int, opts ...SearchOption) []Match {
	return v.c.Search(query, max, v.options(opts)...)
}

// SearchAndActivate searches like Search and activates exactly what it
// returns: searching is loading.
func (v *View) SearchAndActivate(query string, max int, opts ...SearchOption) []Match {
	ms := v.Search(query, max, opts...)
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	v.act.add(names)
	return ms
}

func (v *View) options(opts []SearchOption) []SearchOption {
	if len(v.keep) == 0 {
		return opts
	}
	out := make([]SearchOption, 0, len(v.keep)+len(opts))
	for _, k := range v.keep {
		out = append(out, Filter(k))
	}
	return append(out, opts...)
}

// Activate activates the named deferred tools (normalised) and returns the
// names it activated, in the order given; names not registered, eager, or
// excluded by the view's restrictions are skipped. Activating a tool twice
// is harmless.
func (v *View) Activate(names ...string) []string {
	var cfg searchConfig
	for _, k := range v.keep {
		Filter(k)(&cfg)
	}
	ms := v.c.selectNames(names, len(names), &cfg)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	v.act.add(out)
	return out
}

// IsActive reports whether the view has activated the tool registered under
// name (normalised).
func (v *View) IsActive(name string) bool { return v.act.has(normalizeName(name)) }

// Activated returns the names this view has activated, sorted, including
// any no longer registered.
func (v *View) Activated() []string {
	ns := v.act.names()
	slices.Sort(ns)
	return ns
}

// activations is a set of activated tool names, safe for concurrent use.
type activations struct {
	mu  sync.RWMutex
	set map[string]struct{}
}

func newActivations() *activations { return &activations{set: make(map[string]struct{})} }

func (a *activations) add(names []string) {
	if len(names) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, n := range names {
		a.set[n] = struct{}{}
	}
}

func (a *activations) has(name string) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	_, ok := a.set[name]
	return ok
}

func (a *activations) names() []string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	out := make([]string, 0, len(a.set))
	for n := range a.set {
		out = append(out, n)
	}
	return out
}

// SessionStore keeps one activation set per session, for views that should
// remember across turns what earlier turns found.
//
// When to use which: by default (NewRun without InSession) each run starts
// with nothing activated, as the design asks. That keeps every turn's
// context small and makes a run's offered tools depend only on that run,
// which is what forks, sub-agents, skills and one-shot requests want. Use a
// SessionStore for a chat with one user over many turns, where the model
// would otherwise search again each turn for the tools it found before:
// give every turn's view InSession(store, sessionID). The activation set
// then only grows during the session, so call Forget when the session ends
// (the store holds each session until then). Forks of a session view start
// fresh again.
//
// A SessionStore is safe for concurrent use; one store can serve several
// catalogs, since it holds names only.
type SessionStore struct {
	mu       sync.Mutex
	sessions map[string]*activations
}

// NewSessionStore returns an empty store.
func NewSessionStore() *SessionStore { return &SessionStore{sessions: make(map[string]*activations)} }

func (s *SessionStore) activations(session string) *activations {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sessions == nil {
		s.sessions = make(map[string]*activations)
	}
	a, ok := s.sessions[session]
	if !ok {
		a = newActivations()
		s.sessions[session] = a
	}
	return a
}

// Activated returns the names activated in session, sorted.
func (s *SessionStore) Activated(session string) []string {
	s.mu.Lock()
	a, ok := s.sessions[session]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	ns := a.names()
	slices.Sort(ns)
	return ns
}

// Forget drops session's activation set. Views already using it keep it;
// the next InSession view of that session starts fresh.
func (s *SessionStore) Forget(session string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, session)
}

// Len returns the number of sessions held.
func (s *SessionStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// ViewKey is the tool.Context key of the run's view; the ToolSearch tool
// finds the view there. Bind it when building a run's context:
//
//	tc := tool.NewContext(catalog.ViewKey.Bind(view))
var ViewKey = tool.NewKey[*View]("catalog-view")

// FromContext returns the view bound to ViewKey in tc, if any (a nil view
// counts as none).
func FromContext(tc tool.Context) (*View, bool) {
	v, ok := ViewKey.Get(tc)
	return v, ok && v != nil
}
