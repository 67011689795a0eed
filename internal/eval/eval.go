// Package eval measures the catalog's search on a tool-retrieval set: a
// file of tool definitions and a file of requests with their gold tools,
// in the JSON-lines format of the project's shared toolret set.
package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Tool is one line of a tools file.
type Tool struct {
	// Name is the tool's name.
	Name string `json:"name"`
	// Description is the tool's description.
	Description string `json:"description"`
	// Parameters is the tool's JSON schema.
	Parameters map[string]any `json:"parameters"`
}

// Query is one line of a queries file.
type Query struct {
	// ID and Category identify the request in its source; unused here.
	ID       string `json:"id"`
	Category string `json:"category"`
	// Query is the request's text.
	Query string `json:"query"`
	// Gold are the names of the tools the request is for.
	Gold []string `json:"gold"`
}

// ReadTools reads a tools file.
func ReadTools(path string) ([]Tool, error) { return readLines[Tool](path) }

// ReadQueries reads a queries file.
func ReadQueries(path string) ([]Query, error) { return readLines[Query](path) }

func readLines[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeLines[T](f, path)
}

func decodeLines[T any](r io.Reader, name string) ([]T, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	var out []T
	for line := 1; sc.Scan(); line++ {
		b := sc.Bytes()
		if len(strings.TrimSpace(string(b))) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return out, nil
}

// Definition returns t as a tool definition.
func (t Tool) Definition() tool.Definition {
	return tool.Definition{Name: t.Name, Description: t.Description, InputSchema: t.Parameters}
}

// NewCatalog returns a catalog ranking with s that holds every tool as a
// deferred tool (hand-written tools whose Execute does nothing).
func NewCatalog(tools []Tool, s catalog.Strategy) (*catalog.Catalog, error) {
	c := catalog.New(catalog.WithStrategy(s))
	for _, t := range tools {
		tt := tool.New(t.Definition(), func(_ context.Context, _ tool.Input, _ tool.Context) tool.Result {
			return tool.Success("")
		})
		if err := c.RegisterAs(tt, tool.Deferred); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Metrics are the averages over the queries evaluated. Recall@k is
// |gold ∩ top k| / |gold|; MRR is the mean reciprocal rank of the first
// gold tool within the top Depth (0 when none is there).
type Metrics struct {
	// Strategy is the strategy's name.
	Strategy string
	// N is the number of queries with gold tools.
	N int
	// Recall1, Recall5 and Recall10 are the mean recall at 1, 5 and 10.
	Recall1, Recall5, Recall10 float64
	// MRR is the mean reciprocal rank.
	MRR float64
}

// Depth is how many results each query asks for: the ranks MRR looks at.
const Depth = 100

// Evaluate loads tools into a catalog ranking with s and runs every query
// through a fresh view's Search, the path the ToolSearch tool takes. Gold
// names that are not in the catalog are an error.
func Evaluate(tools []Tool, queries []Query, s catalog.Strategy) (Metrics, error) {
	outs, err := Outcomes(tools, queries, s)
	if err != nil {
		return Metrics{}, err
	}
	return Aggregate(s.Name(), outs, nil), nil
}

// Outcome is how one query fared.
type Outcome struct {
	// Query is the query's index in the queries evaluated.
	Query int
	// Recall1, Recall5 and Recall10 are |gold ∩ top k| / |gold|.
	Recall1, Recall5, Recall10 float64
	// RR is the reciprocal rank of the first gold tool in the top Depth, or
	// 0.
	RR float64
}

// Outcomes runs every query with gold tools, as Evaluate does, and returns
// how each fared, in order.
func Outcomes(tools []Tool, queries []Query, s catalog.Strategy) ([]Outcome, error) {
	c, err := NewCatalog(tools, s)
	if err != nil {
		return nil, err
	}
	var out []Outcome
	for qi, q := range queries {
		if len(q.Gold) == 0 {
			continue
		}
		gold := make(map[string]bool, len(q.Gold))
		for _, g := range q.Gold {
			if _, ok := c.Find(g); !ok {
				return nil, fmt.Errorf("query %s: gold tool %q is not in the catalog", q.ID, g)
			}
			gold[g] = true
		}
		ms := c.NewRun().Search(q.Query, Depth)
		var hit1, hit5, hit10 int
		rr := 0.0
		for i, x := range ms {
			if !gold[x.Name] {
				continue
			}
			if rr == 0 {
				rr = 1 / float64(i+1)
			}
			if i < 1 {
				hit1++
			}
			if i < 5 {
				hit5++
			}
			if i < 10 {
				hit10++
			}
		}
		n := float64(len(gold))
		out = append(out, Outcome{Query: qi, Recall1: float64(hit1) / n, Recall5: float64(hit5) / n,
			Recall10: float64(hit10) / n, RR: rr})
	}
	return out, nil
}

// Aggregate averages the outcomes whose query keep accepts (keep nil
// accepts all).
func Aggregate(strategy string, outs []Outcome, keep func(query int) bool) Metrics {
	m := Metrics{Strategy: strategy}
	for _, o := range outs {
		if keep != nil && !keep(o.Query) {
			continue
		}
		m.N++
		m.Recall1 += o.Recall1
		m.Recall5 += o.Recall5
		m.Recall10 += o.Recall10
		m.MRR += o.RR
	}
	if m.N > 0 {
		n := float64(m.N)
		m.Recall1 /= n
		m.Recall5 /= n
		m.Recall10 /= n
		m.MRR /= n
	}
	return m
}

// WriteTable writes the metrics as a markdown table.
func WriteTable(w io.Writer, ms []Metrics) {
	fmt.Fprintln(w, "| strategy | n | recall@1 | recall@5 | recall@10 | MRR |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, m := range ms {
		fmt.Fprintf(w, "| %s | %d | %.3f | %.3f | %.3f | %.3f |\n", m.Strategy, m.N, m.Recall1, m.Recall5, m.Recall10, m.MRR)
	}
}

// Summary is the evaluation's last line for the default strategy.
func Summary(m Metrics) string {
	return fmt.Sprintf("default recall@5=%.3f mrr=%.3f", m.Recall5, m.MRR)
}
