package catalog_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// sharedTools is the project's tool-retrieval set, read when it is there.
const sharedTools = "../../../shared/data/toolret/tools.jsonl"

// benchDefs returns n definitions: the shared set's tools, then (past its
// size) tools mixed from them deterministically, each copy taking the name
// of one tool, the description of another and the parameters of a third,
// so that a large catalog keeps the set's vocabulary without repeating its
// documents. Without the shared set, the tools are synthetic.
func benchDefs(b *testing.B, n int) []tool.Definition {
	base := readShared(b)
	m := len(base)
	out := make([]tool.Definition, 0, n)
	for i := 0; len(out) < n; i++ {
		d := base[i%m]
		if k := i / m; k > 0 {
			d = tool.Definition{
				Name:        fmt.Sprintf("%s__copy%d", d.Name, k),
				Description: base[(i*7+k*13)%m].Description,
				InputSchema: base[(i*11+k*5)%m].InputSchema,
			}
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

// benchQueries are keyword queries, short and long, some of a model's
// kind and some a user's whole request.
var benchQueries = []string{
	"weather forecast",
	"send slack message",
	"Find the area of a triangle with a base of 10 units and height of 5 units.",
	"Book a flight from San Francisco to New York on the 5th of June and reserve a hotel near Central Park for three nights.",
	"I'm looking for a comedy movie to watch tonight, something with Jim Carrey if possible, and then book me a cab home.",
	"stock price",
	"查询北京的天气",
}

// BenchmarkSearch measures one keyword query (cycling through benchQueries)
// at 1,000, 10,000 and 100,000 deferred tools, with the default strategy
// and the keyword baseline. Beside the mean it reports the median and 99th
// percentile of the queries' wall-clock times (p50-ns, p99-ns) and, on
// Linux, of the CPU time the query's thread spent (p50-cpu-ns, p99-cpu-ns):
// on a busy machine the wall-clock tail is mostly time spent waiting for a
// CPU, the CPU tail what a query costs. The 100,000 case is skipped under
// -short.
func BenchmarkSearch(b *testing.B) {
	for _, s := range []catalog.Strategy{catalog.BM25(), catalog.Keyword()} {
		for _, n := range []int{1000, 10000, 100000} {
			b.Run(fmt.Sprintf("%s/tools=%d", s.Name(), n), func(b *testing.B) {
				if n > 10000 && testing.Short() {
					b.Skip("100,000 tools: skipped under -short")
				}
				c := buildCatalog(b, benchDefs(b, n), s)
				for _, q := range benchQueries { // warm the pools and caches
					c.Search(q, catalog.DefaultMaxResults)
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				wall := make([]int64, 0, 1<<16)
				cpu := make([]int64, 0, 1<<16)
				b.ReportAllocs()
				b.ResetTimer()
				i := 0
				for b.Loop() {
					c0, cpuOK := threadCPU()
					t0 := time.Now()
					c.Search(benchQueries[i%len(benchQueries)], catalog.DefaultMaxResults)
					if len(wall) < cap(wall) {
						wall = append(wall, int64(time.Since(t0)))
						if c1, ok := threadCPU(); cpuOK && ok {
							cpu = append(cpu, c1-c0)
						}
					}
					i++
				}
				b.StopTimer()
				reportPercentiles(b, wall, "")
				reportPercentiles(b, cpu, "-cpu")
			})
		}
	}
}

// reportPercentiles reports the median and 99th percentile of ns as
// p50<suffix>-ns and p99<suffix>-ns.
func reportPercentiles(b *testing.B, ns []int64, suffix string) {
	if len(ns) == 0 {
		return
	}
	slices.Sort(ns)
	b.ReportMetric(float64(ns[len(ns)/2]), "p50"+suffix+"-ns")
	b.ReportMetric(float64(ns[len(ns)*99/100]), "p99"+suffix+"-ns")
}

// BenchmarkSearchRequired measures a required query ("+stock price") at
// 10,000 tools.
func BenchmarkSearchRequired(b *testing.B) {
	c := buildCatalog(b, benchDefs(b, 10000), catalog.BM25())
	b.ReportAllocs()
	for b.Loop() {
		c.Search("+stock price", catalog.DefaultMaxResults)
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
