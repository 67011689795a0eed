package eval

import (
	"fmt"
	"io"

	"github.com/toolgen/toolgen/runtime/catalog"
)

// Strategies returns the strategies the evaluation compares, the default
// (catalog.BM25) last.
func Strategies() []catalog.Strategy {
	return []catalog.Strategy{Anchor(), catalog.Keyword(), catalog.BM25()}
}

// Variants returns variants of the default strategy, each changing one
// thing, for an ablation table.
func Variants() []catalog.Strategy {
	p := catalog.DefaultBM25Params
	vary := func(f func(*catalog.BM25Params)) catalog.Strategy {
		q := p
		f(&q)
		return catalog.BM25With(q)
	}
	return []catalog.Strategy{
		vary(func(q *catalog.BM25Params) { q.StemWeight = 0 }),
		vary(func(q *catalog.BM25Params) { q.StemWeight = 0.25 }),
		vary(func(q *catalog.BM25Params) { q.StemWeight = 1 }),
		vary(func(q *catalog.BM25Params) { q.NameCoverage = 0 }),
		vary(func(q *catalog.BM25Params) { q.NameCoverage = 0.25 }),
		vary(func(q *catalog.BM25Params) { q.NameCoverage = 1 }),
		vary(func(q *catalog.BM25Params) { q.NameWeight, q.DescriptionWeight, q.ParamsWeight = 1, 1, 1 }),
		vary(func(q *catalog.BM25Params) { q.NameWeight = 2 }),
		vary(func(q *catalog.BM25Params) { q.ParamsWeight = 0.5 }),
		vary(func(q *catalog.BM25Params) { q.NameB = 0.75 }),
		vary(func(q *catalog.BM25Params) { q.K1 = 0.9 }),
		vary(func(q *catalog.BM25Params) { q.K1 = 2 }),
	}
}

// Run evaluates every strategy (and the variants, if asked) on the files
// and writes the table, then the default's summary line.
func Run(w io.Writer, toolsPath, queriesPath string, variants bool) error {
	tools, err := ReadTools(toolsPath)
	if err != nil {
		return err
	}
	queries, err := ReadQueries(queriesPath)
	if err != nil {
		return err
	}
	ss := Strategies()
	if variants {
		def := ss[len(ss)-1]
		ss = append(append(ss[:len(ss)-1:len(ss)-1], Variants()...), def)
	}
	var ms []Metrics
	for _, s := range ss {
		m, err := Evaluate(tools, queries, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name(), err)
		}
		ms = append(ms, m)
	}
	fmt.Fprintf(w, "%d tools (deferred), %d queries\n\n", len(tools), ms[0].N)
	WriteTable(w, ms)
	fmt.Fprintln(w)
	fmt.Fprintln(w, Summary(ms[len(ms)-1]))
	return nil
}
