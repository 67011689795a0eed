package catalog

import (
	"cmp"
	"container/heap"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Match is one search result.
type Match struct {
	// Name is the tool's registered name.
	Name string
	// Tool is the tool.
	Tool tool.Tool
	// Score is the strategy's score; 0 for select queries and for a
	// required query's tools ranked by name. Only the order matters.
	Score float64
}

// SearchOption adjusts one search.
type SearchOption func(*searchConfig)

type searchConfig struct {
	keep []func(string) bool
}

// Filter keeps only the tools for which keep(name) is true: typically an
// allow-list's Offers, so that a deferred tool the run may not call is never
// returned (nor, through a view, activated). Several filters must all pass.
func Filter(keep func(name string) bool) SearchOption {
	return func(c *searchConfig) {
		if keep != nil {
			c.keep = append(c.keep, keep)
		}
	}
}

func (s *searchConfig) allows(name string) bool {
	for _, k := range s.keep {
		if !k(name) {
			return false
		}
	}
	return true
}

// Search runs a query (see ParseQuery) over the deferred tools and returns at
// most max matches, best first; eager tools are offered already and are
// never returned. Search is pure: it activates nothing.
//
//   - A keyword query returns the tools the strategy scores above zero,
//     by descending score; ties go to the tool registered first.
//   - A select query returns the named deferred tools in the order named;
//     names that are not registered, or are eager, are skipped.
//   - A required query keeps the tools whose name contains the required
//     word (case-insensitively). With a rest, those the strategy scores
//     above zero come first, by score, and the others follow by name; with
//     no rest they are all ordered by name (case-insensitively, then
//     exactly).
//
// An empty query, or max below 1, returns nothing.
func (c *Catalog) Search(query string, max int, opts ...SearchOption) []Match {
	return c.SearchQuery(ParseQuery(query), max, opts...)
}

// SearchQuery is Search for a parsed query.
func (c *Catalog) SearchQuery(q Query, max int, opts ...SearchOption) []Match {
	if max < 1 || q.IsEmpty() {
		return nil
	}
	var cfg searchConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	switch q.Kind {
	case SelectQuery:
		return c.selectNames(q.Names, max, &cfg)
	case RequiredQuery:
		return c.searchRequired(q.Required, q.Text, max, &cfg)
	}
	return c.searchKeywords(q.Text, max, &cfg)
}

// Select returns the deferred tools registered under the given names
// (normalised), in the order given, without duplicates; other names are
// skipped. It is pure.
func (c *Catalog) Select(names ...string) []Match {
	return c.selectNames(names, len(names), &searchConfig{})
}

func (c *Catalog) selectNames(names []string, max int, cfg *searchConfig) []Match {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var out []Match
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		n = normalizeName(n)
		e, ok := c.byName[n]
		if !ok || e.loading != tool.Deferred || seen[n] || !cfg.allows(n) {
			continue
		}
		seen[n] = true
		out = append(out, Match{Name: e.name, Tool: e.tool})
		if len(out) == max {
			break
		}
	}
	return out
}

func (c *Catalog) searchKeywords(text string, max int, cfg *searchConfig) []Match {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.rank(text, max, func(e *entry) bool { return cfg.allows(e.name) })
}

func (c *Catalog) searchRequired(word, rest string, max int, cfg *searchConfig) []Match {
	c.mu.RLock()
	defer c.mu.RUnlock()
	keep := func(e *entry) bool {
		return containsFold(e, word) && cfg.allows(e.name)
	}
	var out []Match
	scored := make(map[int]bool)
	if rest != "" {
		out = c.rank(rest, max, keep)
		for _, m := range out {
			scored[c.byName[m.Name].id] = true
		}
	}
	if len(out) == max {
		return out
	}
	var byName []*entry
	for _, e := range c.byID {
		if e != nil && e.loading == tool.Deferred && !scored[e.id] && keep(e) {
			byName = append(byName, e)
		}
	}
	slices.SortFunc(byName, func(a, b *entry) int {
		return cmp.Or(cmp.Compare(a.lower, b.lower), cmp.Compare(a.name, b.name))
	})
	for _, e := range byName[:min(len(byName), max-len(out))] {
		out = append(out, Match{Name: e.name, Tool: e.tool})
	}
	return out
}

func containsFold(e *entry, word string) bool { return strings.Contains(e.lower, word) }

// top returns the best max hits that are deferred and kept, by descending
// score, then by registration order. It selects with a bounded heap, so it
// costs O(hits · log max). The caller holds c.mu.
func (c *Catalog) top(hits []Hit, max int, keep func(*entry) bool) []Match {
	return c.matches(c.selectTop(hits, max, keep))
}

// rank returns the best max deferred, kept tools for text, by descending
// score, then by registration order: through the index's own Top when it
// has one, otherwise from all its hits. The caller holds c.mu.
func (c *Catalog) rank(text string, max int, keep func(*entry) bool) []Match {
	ti, ok := c.index.(TopIndex)
	if !ok {
		return c.top(c.index.Score(text), max, keep)
	}
	hits := ti.Top(text, max, func(id int) bool {
		if id < 0 || id >= len(c.byID) {
			return false
		}
		e := c.byID[id]
		return e != nil && e.loading == tool.Deferred && keep(e)
	}, nil)
	return c.matches(hits)
}

func (c *Catalog) matches(hits []Hit) []Match {
	if len(hits) == 0 {
		return nil
	}
	out := make([]Match, len(hits))
	for i, x := range hits {
		e := c.byID[x.ID]
		out[i] = Match{Name: e.name, Tool: e.tool, Score: x.Score}
	}
	return out
}

// selectTop is top's selection: the best max hits that are deferred and
// kept, best first.
func (c *Catalog) selectTop(hits []Hit, max int, keep func(*entry) bool) []Hit {
	h := make(hitHeap, 0, min(max, len(hits)))
	for _, x := range hits {
		if x.ID < 0 || x.ID >= len(c.byID) {
			continue
		}
		e := c.byID[x.ID]
		if e == nil || e.loading != tool.Deferred || !keep(e) {
			continue
		}
		if len(h) < max {
			heap.Push(&h, x)
		} else if better(x, h[0]) {
			h[0] = x
			heap.Fix(&h, 0)
		}
	}
	sortHits(h)
	return h
}

// better reports whether a ranks before b: a higher score, or the same
// score and registered earlier.
func better(a, b Hit) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// hitHeap is a min-heap of hits: its root is the worst kept so far.
type hitHeap []Hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(h[j], h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(Hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
