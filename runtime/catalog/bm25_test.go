package catalog_test

import (
	"cmp"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestTopMatchesScore checks that the index's own top-k selection gives
// exactly the best k of all its scored hits, with and without a filter,
// for every variant of the strategy (feedback and associations included).
func TestTopMatchesScore(t *testing.T) {
	p := catalog.DefaultBM25Params
	prf, assoc := p, p
	prf.Feedback = catalog.Feedback{Docs: 3, Terms: 5, Weight: 0.5}
	assoc.Associations = catalog.Associations{Terms: 3, Weight: 0.3, MaxDF: 50}
	queries := append(slices.Clone(benchQueries), "get order", "delete the user's invoice 42", "zzz", "")
	for _, s := range []catalog.Strategy{catalog.BM25(), catalog.BM25With(prf), catalog.BM25With(assoc)} {
		x, ok := s.NewIndex().(catalog.TopIndex)
		if !ok {
			t.Fatalf("%s: index has no Top", s.Name())
		}
		for i, d := range syntheticDefs(300) {
			x.Add(i, catalog.DocumentOf(d))
		}
		x.Remove(7)
		even := func(id int) bool { return id%2 == 0 }
		for _, q := range queries {
			all := x.Score(q)
			slices.SortFunc(all, func(a, b catalog.Hit) int {
				return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
			})
			for _, k := range []int{1, 5, 1000} {
				want := all[:min(k, len(all))]
				if diff := gocmp.Diff(want, x.Top(q, k, nil, nil)); diff != "" {
					t.Errorf("%s: Top(%q, %d) (-Score's best +Top):\n%s", s.Name(), q, k, diff)
				}
				var kept []catalog.Hit
				for _, h := range all {
					if even(h.ID) && len(kept) < k {
						kept = append(kept, h)
					}
				}
				if diff := gocmp.Diff(kept, x.Top(q, k, even, nil)); diff != "" {
					t.Errorf("%s: filtered Top(%q, %d) (-want +got):\n%s", s.Name(), q, k, diff)
				}
			}
			for _, h := range all {
				if h.ID == 7 {
					t.Errorf("%s: removed document scored for %q", s.Name(), q)
				}
			}
		}
	}
}

// TestSearchHints checks the fields the issue added: keywords are indexed
// (a tool is found by a word only its keywords hold, and ranks above one
// that merely mentions it in a parameter), and Chinese text matches by
// character bigrams.
func TestSearchHints(t *testing.T) {
	c := catalog.New()
	defs := []tool.Definition{
		{Name: "RideSharing_GetRide", Description: "Books a cab for a given number of seats.", Keywords: []string{"taxi", "uber", "lyft"}},
		{Name: "TrainBook", Description: "Books a train ticket.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"taxi": map[string]any{"type": "boolean", "description": "Whether to add a transfer."},
		}}},
		{Name: "Movies_FindMovies", Description: "Finds movies by genre and actor."},
		{Name: "get_weather_cn", Description: "查询城市的天气预报"},
		{Name: "get_stock_cn", Description: "查询股票价格"},
	}
	for _, d := range defs {
		if err := c.RegisterAs(tool.New(d, noop), tool.Deferred); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"I need a taxi to the airport", []string{"RideSharing_GetRide", "TrainBook"}},
		{"Uber", []string{"RideSharing_GetRide"}},
		{"I want to watch a comedy movie", []string{"Movies_FindMovies"}},
		{"北京明天的天气怎么样", []string{"get_weather_cn"}},
		{"股票", []string{"get_stock_cn"}},
	}
	for _, tt := range tests {
		if diff := gocmp.Diff(tt.want, names(c.Search(tt.query, 5))); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
		}
	}
}
