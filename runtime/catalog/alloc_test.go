//go:build !race

package catalog_test

import (
	"testing"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestSearchAllocs holds the default strategy's keyword search to its
// allocation bound: at most 10 allocations per query, whatever the
// catalog's size and the query's length, once the catalog has seen the
// query's words. (The race detector's sync.Pool drops items on purpose, so
// the bound is checked without it.)
func TestSearchAllocs(t *testing.T) {
	c := fixture(t)
	for _, d := range syntheticDefs(2000) {
		if err := c.RegisterAs(tool.New(d, nil), tool.Deferred); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range benchQueries {
		c.Search(q, catalog.DefaultMaxResults) // warm the pool and the stem cache
		if n := testing.AllocsPerRun(50, func() { c.Search(q, catalog.DefaultMaxResults) }); n > 10 {
			t.Errorf("Search(%q): %.1f allocations per query, want at most 10", q, n)
		}
	}
}
