package catalog_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// sharedTools is the project's tool-retrieval set, read when it is there.
const sharedTools = "../../../shared/data/toolret/tools.jsonl"

// benchDefs returns n definitions: the shared set's tools, replicated with
// renamed copies past its size, or synthetic tools when it is absent.
func benchDefs(b *testing.B, n int) []tool.Definition {
	base := readShared(b)
	out := make([]tool.Definition, 0, n)
	for i := 0; len(out) < n; i++ {
		d := base[i%len(base)]
		if copyN := i / len(base); copyN > 0 {
			d.Name = fmt.Sprintf("%s_copy%d", d.Name, copyN)
		}
		out = append(out, d)
	}
	return out
}

func readShared(b *testing.B) []tool.Definition {
	f, err := os.Open(sharedTools)
	if err != nil {
		return syntheticDefs(500)
	}
	defer f.Close()
	var out []tool.Definition
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var t struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
		}
		if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
			b.Fatal(err)
		}
		out = append(out, tool.Definition{Name: t.Name, Description: t.Description, InputSchema: t.Parameters})
	}
	return out
}

// syntheticDefs makes tools from a small vocabulary, for when the shared set
// is absent.
func syntheticDefs(n int) []tool.Definition {
	verbs := strings.Fields("get list create update delete send search find calculate convert book cancel fetch")
	nouns := strings.Fields("file message weather stock flight hotel user order invoice email event image song recipe route")
	var out []tool.Definition
	for i := range n {
		v, o := verbs[i%len(verbs)], nouns[(i/len(verbs))%len(nouns)]
		out = append(out, tool.Definition{
			Name:        fmt.Sprintf("%s_%s_%d", v, o, i),
			Description: fmt.Sprintf("%s a %s by its id, with options for the %s service number %d.", v, o, o, i),
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{
				"id":    map[string]any{"type": "string", "description": "The " + o + " id."},
				"limit": map[string]any{"type": "integer", "description": "How many to return."},
			}},
		})
	}
	return out
}

func buildCatalog(b *testing.B, defs []tool.Definition, s catalog.Strategy) *catalog.Catalog {
	c := catalog.New(catalog.WithStrategy(s))
	for _, d := range defs {
		if err := c.RegisterAs(tool.New(d, nil), tool.Deferred); err != nil {
			b.Fatal(err)
		}
	}
	return c
}

var benchQueries = []string{
	"weather forecast",
	"send slack message",
	"Find the area of a triangle with a base of 10 units and height of 5 units.",
	"Book a flight from San Francisco to New York on the 5th of June and reserve a hotel near Central Park for three nights.",
	"+stock price",
}

// BenchmarkSearch measures one query (cycling through benchQueries, short
// and long) at several catalog sizes, with the default strategy and the
// keyword baseline.
func BenchmarkSearch(b *testing.B) {
	for _, s := range []catalog.Strategy{catalog.BM25(), catalog.Keyword()} {
		for _, n := range []int{100, 1000, 10000} {
			b.Run(fmt.Sprintf("%s/tools=%d", s.Name(), n), func(b *testing.B) {
				c := buildCatalog(b, benchDefs(b, n), s)
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					c.Search(benchQueries[i%len(benchQueries)], catalog.DefaultMaxResults)
					i++
				}
			})
		}
	}
}

// BenchmarkBuild measures indexing: the time per tool registered into an
// empty catalog, and the heap the built catalog holds per tool.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			defs := benchDefs(b, n)
			tools := make([]tool.Tool, len(defs))
			for i, d := range defs {
				tools[i] = tool.New(d, nil)
			}
			build := func() *catalog.Catalog {
				c := catalog.New()
				for _, t := range tools {
					if err := c.RegisterAs(t, tool.Deferred); err != nil {
						b.Fatal(err)
					}
				}
				return c
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			c := build()
			runtime.GC()
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(c)
			heap := float64(after.HeapAlloc-before.HeapAlloc) / float64(n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				build()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/tool")
			b.ReportMetric(heap, "heap-B/tool")
		})
	}
}
