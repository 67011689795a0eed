package catalog

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/tool"
)

// ErrDuplicate is wrapped by the error Register returns for a name that is
// already registered. It is tool.ErrDuplicate, so errors.Is works with
// either package's name.
var ErrDuplicate = tool.ErrDuplicate

// Catalog holds tools as eager (always offered) or deferred (offered once a
// search finds them), and an index of them for search. One catalog is
// shared by every run of an agent; it is safe for concurrent use. A run
// sees the catalog through a View.
type Catalog struct {
	strategy Strategy

	mu     sync.RWMutex
	index  Index
	byName map[string]*entry
	byID   []*entry // by id; nil where a tool was removed
	eager  []*entry // in registration order
	nextID int
}

type entry struct {
	id      int
	name    string
	lower   string // the name lower-cased, for required queries
	tool    tool.Tool
	loading tool.Loading
}

// Option configures a Catalog.
type Option func(*Catalog)

// WithStrategy sets the ranking strategy; the default is BM25.
func WithStrategy(s Strategy) Option {
	return func(c *Catalog) {
		if s != nil {
			c.strategy = s
		}
	}
}

// New returns an empty catalog.
func New(opts ...Option) *Catalog {
	c := &Catalog{strategy: BM25(), byName: make(map[string]*entry)}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	c.index = c.strategy.NewIndex()
	return c
}

// Strategy returns the catalog's ranking strategy.
func (c *Catalog) Strategy() Strategy { return c.strategy }

// Register adds t with the loading it declares (Definition.Loading: a
// generated tool's //tool:loading directive, eager when it declares none).
func (c *Catalog) Register(t tool.Tool) error {
	if t == nil {
		return errors.New("catalog: register: tool is nil")
	}
	def, err := definitionOf(t)
	if err != nil {
		return fmt.Errorf("catalog: register: %w", err)
	}
	return c.RegisterAs(t, def.Loading)
}

// RegisterAs adds t with the given loading, whatever t declares. A nil
// tool, a definition tool.ValidateDefinition refuses (an invalid name,
// contradicting hints) or a name already registered is an error; the tool
// is indexed before RegisterAs returns.
func (c *Catalog) RegisterAs(t tool.Tool, l tool.Loading) error {
	if t == nil {
		return errors.New("catalog: register: tool is nil")
	}
	if l != tool.Eager && l != tool.Deferred {
		return fmt.Errorf("catalog: register: unknown loading %d", l)
	}
	def, err := definitionOf(t)
	if err != nil {
		return fmt.Errorf("catalog: register: %w", err)
	}
	if err := tool.ValidateDefinition(def); err != nil {
		return fmt.Errorf("catalog: register: %w", err)
	}
	doc := DocumentOf(def)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, dup := c.byName[def.Name]; dup {
		return fmt.Errorf("catalog: register %q: %w", def.Name, ErrDuplicate)
	}
	e := &entry{id: c.nextID, name: def.Name, lower: strings.ToLower(def.Name), tool: t, loading: l}
	c.nextID++
	c.byName[e.name] = e
	c.byID = append(c.byID, e)
	if l == tool.Eager {
		c.eager = append(c.eager, e)
	}
	c.index.Add(e.id, doc)
	return nil
}

// definitionOf asks t for its definition, turning a panic into an error.
func definitionOf(t tool.Tool) (d tool.Definition, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("definition of tool panicked: %v", p)
		}
	}()
	return t.Definition(), nil
}

// Unregister removes the tool registered under name (normalised) and
// reports whether there was one. Views that had activated it stop offering
// it; if a tool of that name is registered again, they offer it again.
func (c *Catalog) Unregister(name string) bool {
	name = normalizeName(name)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byName[name]
	if !ok {
		return false
	}
	c.remove(e)
	return true
}

func (c *Catalog) remove(e *entry) {
	delete(c.byName, e.name)
	c.byID[e.id] = nil
	if e.loading == tool.Eager {
		i := slices.Index(c.eager, e)
		c.eager = slices.Delete(c.eager, i, i+1)
	}
	c.index.Remove(e.id)
}

// Clear removes every tool. Ids are not reused, so the index's memory for
// removed tools is released only by a new catalog.
func (c *Catalog) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.byID {
		if e != nil {
			c.remove(e)
		}
	}
}

// normalizeName is tool.NormalizeName; every lookup goes through it.
func normalizeName(name string) string { return tool.NormalizeName(name) }

// Find returns the tool registered under name (normalised), eager or
// deferred.
func (c *Catalog) Find(name string) (tool.Tool, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.byName[normalizeName(name)]
	if !ok {
		return nil, false
	}
	return e.tool, true
}

// Loading returns how the tool registered under name (normalised) is
// loaded, and whether there is one.
func (c *Catalog) Loading(name string) (tool.Loading, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.byName[normalizeName(name)]
	if !ok {
		return 0, false
	}
	return e.loading, true
}

// Len returns the number of registered tools.
func (c *Catalog) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.byName)
}

// All returns every tool, eager and deferred, in registration order. (To
// offer tools to a model, use a View: its All leaves out the deferred tools
// the run has not found.)
func (c *Catalog) All() []tool.Tool { return c.list(func(*entry) bool { return true }) }

// Eager returns the eager tools in registration order.
func (c *Catalog) Eager() []tool.Tool {
	return c.list(func(e *entry) bool { return e.loading == tool.Eager })
}

// Deferred returns the deferred tools in registration order.
func (c *Catalog) Deferred() []tool.Tool {
	return c.list(func(e *entry) bool { return e.loading == tool.Deferred })
}

// Names returns every registered name in registration order.
func (c *Catalog) Names() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := make([]string, 0, len(c.byName))
	for _, e := range c.byID {
		if e != nil {
			out = append(out, e.name)
		}
	}
	return out
}

func (c *Catalog) list(keep func(*entry) bool) []tool.Tool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []tool.Tool
	for _, e := range c.byID {
		if e != nil && keep(e) {
			out = append(out, e.tool)
		}
	}
	return out
}
