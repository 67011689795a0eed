package catalog_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// conceptEmbedder is a deterministic embedder for tests: each dimension is
// a concept, and a text's vector counts the words of each concept it
// holds, so that "taxi" and "cab" point the same way as a real model's
// vectors would. It counts its calls and texts.
type conceptEmbedder struct {
	mu           sync.Mutex
	calls, texts int
	fail         error
	bad          func(texts []string) [][]float32
}

var concepts = [][]string{
	{"taxi", "cab", "ride", "uber"},
	{"movie", "movies", "film", "cinema"},
	{"weather", "forecast", "rain"},
	{"stock", "share", "ticker"},
	{"email", "mail", "message"},
}

func (e *conceptEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls++
	e.texts += len(texts)
	fail, bad := e.fail, e.bad
	e.mu.Unlock()
	if fail != nil {
		return nil, fail
	}
	if bad != nil {
		return bad(texts), nil
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, len(concepts)+1)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return r < 'a' || r > 'z' }) {
			for c, ws := range concepts {
				for _, x := range ws {
					if w == x {
						v[c]++
					}
				}
			}
		}
		if !slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) {
			v[len(concepts)] = 1 // no concept: a direction of its own, never the zero vector
		}
		out[i] = v
	}
	return out, nil
}

func (e *conceptEmbedder) counts() (int, int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.calls, e.texts
}

var hybridDefs = []tool.Definition{
	{Name: "RideSharing_GetRide", Description: "Books a cab for a number of seats."},
	{Name: "Movies_FindMovies", Description: "Finds films playing at a theatre."},
	{Name: "get_weather", Description: "Returns the current weather for a city."},
	{Name: "stock_price", Description: "Returns the latest price of a ticker."},
	{Name: "send_email", Description: "Sends an email to a recipient."},
	{Name: "book_taxi_driver_course", Description: "Enrols in a course."},
}

func hybridCatalog(t *testing.T, s catalog.Strategy) *catalog.Catalog {
	t.Helper()
	c := catalog.New(catalog.WithStrategy(s))
	for _, d := range hybridDefs {
		if err := c.RegisterAs(tool.New(d, noop), tool.Deferred); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestHybridFusion(t *testing.T) {
	e := &conceptEmbedder{}
	h := catalog.Hybrid(catalog.BM25(), e, catalog.HybridOptions{Name: "concepts", Depth: 3})
	c := hybridCatalog(t, h)
	tests := []struct {
		query string
		want  []string
	}{
		// The lexical ranking finds only the course (it says "taxi"); the
		// vectors find the cab. RRF puts the tool first in both lists
		// first, then alternates.
		{"taxi", []string{"book_taxi_driver_course", "RideSharing_GetRide"}},
		{"cinema tonight", []string{"Movies_FindMovies"}},
		// Both rankings agree: the tool first in both is first.
		{"weather forecast for Paris", []string{"get_weather"}},
	}
	for _, tt := range tests {
		got := names(c.Search(tt.query, 2))
		if diff := gocmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
		}
	}
	if lex := names(hybridCatalog(t, catalog.BM25()).Search("cinema tonight", 2)); len(lex) != 0 {
		t.Errorf("lexical search found %v for a word no tool has", lex)
	}
	// Fused scores are Σ 1/(K + rank): first in both lists is 2/61.
	ms := c.Search("weather forecast", 1)
	if len(ms) != 1 || ms[0].Score != 2.0/61 {
		t.Errorf("Search(weather forecast) = %+v, want get_weather scoring 2/61", ms)
	}
	// Filters and eager tools apply to both rankings.
	got := names(c.Search("taxi", 5, catalog.Filter(func(n string) bool { return n != "RideSharing_GetRide" })))
	if diff := gocmp.Diff([]string{"book_taxi_driver_course"}, got); diff != "" {
		t.Errorf("filtered (-want +got):\n%s", diff)
	}
	if !strings.Contains(h.Name(), "concepts") || !strings.Contains(h.Name(), "bm25f") {
		t.Errorf("Name = %q", h.Name())
	}
}

func TestHybridEmbedsOnce(t *testing.T) {
	e := &conceptEmbedder{}
	h := catalog.Hybrid(nil, e, catalog.HybridOptions{})
	var docs []catalog.Document
	for _, d := range hybridDefs {
		docs = append(docs, catalog.DocumentOf(d))
	}
	if err := h.Precompute(context.Background(), docs, 4); err != nil {
		t.Fatal(err)
	}
	if calls, texts := e.counts(); calls != 2 || texts != len(hybridDefs) {
		t.Errorf("Precompute: %d calls for %d texts, want 2 for %d", calls, texts, len(hybridDefs))
	}
	c := hybridCatalog(t, h)
	hybridCatalog(t, h) // a second catalog shares the strategy's vectors
	if calls, _ := e.counts(); calls != 2 {
		t.Errorf("registering precomputed tools called the embedder %d more times", calls-2)
	}
	c.Search("taxi", 5)
	c.Search("+ride taxi", 5)
	if calls, _ := e.counts(); calls != 4 {
		t.Errorf("two searches: %d embedder calls, want 2", calls-2)
	}
	if err := c.RegisterAs(tool.New(tool.Definition{Name: "new_tool", Description: "Rents a film."}, noop), tool.Deferred); err != nil {
		t.Fatal(err)
	}
	if calls, texts := e.counts(); calls != 5 || texts != len(hybridDefs)+3 {
		t.Errorf("a new tool: %d calls, %d texts; want 5 and %d", calls, texts, len(hybridDefs)+3)
	}
}

func TestHybridFallsBack(t *testing.T) {
	lexical := names(hybridCatalog(t, catalog.BM25()).Search("weather in Paris", 5))
	bad := []struct {
		name string
		e    *conceptEmbedder
	}{
		{"error", &conceptEmbedder{fail: errors.New("service unavailable")}},
		{"too few vectors", &conceptEmbedder{bad: func([]string) [][]float32 { return nil }}},
		{"zero vector", &conceptEmbedder{bad: func(ts []string) [][]float32 { return make([][]float32, len(ts)) }}},
		{"panic", &conceptEmbedder{bad: func([]string) [][]float32 { panic("boom") }}},
	}
	for _, tt := range bad {
		var errs []error
		h := catalog.Hybrid(catalog.BM25(), tt.e, catalog.HybridOptions{OnError: func(err error) { errs = append(errs, err) }})
		c := hybridCatalog(t, h)
		got := names(c.Search("weather in Paris", 5))
		// Without vectors, the fused ranking is the lexical one.
		if diff := gocmp.Diff(lexical, got); diff != "" {
			t.Errorf("%s: Search (-lexical +got):\n%s", tt.name, diff)
		}
		if len(errs) == 0 {
			t.Errorf("%s: OnError not called", tt.name)
		}
		for _, err := range errs {
			if !strings.HasPrefix(err.Error(), "tool ") && !strings.HasPrefix(err.Error(), "catalog: hybrid: ") {
				t.Errorf("%s: error %q does not say where it came from", tt.name, err)
			}
		}
	}
	mixed := &conceptEmbedder{bad: func(ts []string) [][]float32 {
		out := make([][]float32, len(ts))
		for i := range out {
			out[i] = make([]float32, i+1)
			out[i][0] = 1
		}
		return out
	}}
	docs := []catalog.Document{{Name: "a"}, {Name: "b"}}
	err := catalog.Hybrid(nil, mixed, catalog.HybridOptions{}).Precompute(context.Background(), docs, 0)
	if err == nil || !strings.Contains(err.Error(), "vectors of lengths 1 and 2") {
		t.Errorf("Precompute with vectors of two lengths: %v", err)
	}
	var none *catalog.HybridStrategy = catalog.Hybrid(catalog.BM25(), nil, catalog.HybridOptions{OnError: func(error) {}})
	if got := names(hybridCatalog(t, none).Search("weather in Paris", 5)); !gocmp.Equal(lexical, got) {
		t.Errorf("nil embedder: %v, want %v", got, lexical)
	}
}
