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

// A Knob is a family of strategies indexed by a setting that the
// evaluation chooses on one half of the split and reports on the other.
type Knob struct {
	// Name names the knob.
	Name string
	// Candidates are the settings tried, each as a strategy.
	Candidates []catalog.Strategy
}

// Knobs returns the knobs the evaluation tunes: pseudo-relevance feedback
// (RM3) and term associations learned from the catalog, over small grids
// of round values.
func Knobs() []Knob {
	var prf, assoc Knob
	prf.Name = "feedback (RM3)"
	for _, docs := range []int{3, 5, 10} {
		for _, terms := range []int{5, 10, 20} {
			for _, w := range []float64{0.25, 0.5} {
				p := catalog.DefaultBM25Params
				p.Feedback = catalog.Feedback{Docs: docs, Terms: terms, Weight: w}
				prf.Candidates = append(prf.Candidates, catalog.BM25With(p))
			}
		}
	}
	assoc.Name = "term associations"
	for _, terms := range []int{1, 3, 5} {
		for _, w := range []float64{0.1, 0.25, 0.5} {
			for _, df := range []int{20, 100} {
				p := catalog.DefaultBM25Params
				p.Associations = catalog.Associations{Terms: terms, Weight: w, MaxDF: df}
				assoc.Candidates = append(assoc.Candidates, catalog.BM25With(p))
			}
		}
	}
	return []Knob{prf, assoc}
}

// objective is what tuning maximises: recall@5 plus MRR.
func objective(m Metrics) float64 { return m.Recall5 + m.MRR }

// Tuned is a knob's setting chosen on one half and measured on the other.
type Tuned struct {
	// Knob is the knob's name; TunedOn the half it was chosen on.
	Knob    string
	TunedOn int
	// Chosen is the chosen setting, measured on the other half; Default is
	// the default strategy on that half.
	Chosen, Default Metrics
}

// Holds reports whether the chosen setting beats the default on the half it
// was not chosen on, in recall@5 and in MRR.
func (t Tuned) Holds() bool {
	return t.Chosen.Recall5 > t.Default.Recall5 && t.Chosen.MRR > t.Default.MRR
}

// Options are the evaluation's switches.
type Options struct {
	// Variants adds the default's one-change variants.
	Variants bool
	// Tune chooses each of Knobs on one half and reports it on the other.
	Tune bool
	// Extra strategies are evaluated before the default (for example a
	// hybrid with an embedder).
	Extra []catalog.Strategy
}

// Run evaluates every strategy (and the variants, if asked) on the files
// and writes the table, then the default's summary line.
func Run(w io.Writer, toolsPath, queriesPath string, variants bool) error {
	return RunWith(w, toolsPath, queriesPath, Options{Variants: variants, Tune: true})
}

// RunWith is Run with options. It writes, for every strategy, its figures
// on each half of the fixed 2-fold split (see Half) and on the whole set;
// then, for each knob, the setting chosen on one half with its figures on
// the other, in both directions, beside the default's on the same half;
// and last the default's summary line.
func RunWith(w io.Writer, toolsPath, queriesPath string, o Options) error {
	tools, err := ReadTools(toolsPath)
	if err != nil {
		return err
	}
	queries, err := ReadQueries(queriesPath)
	if err != nil {
		return err
	}
	ss := Strategies()
	def := ss[len(ss)-1]
	ss = ss[: len(ss)-1 : len(ss)-1]
	if o.Variants {
		ss = append(ss, Variants()...)
	}
	ss = append(append(ss, o.Extra...), def)

	var rows []Metrics
	var defOuts []Outcome
	for _, s := range ss {
		outs, err := Outcomes(tools, queries, s)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name(), err)
		}
		if s == def {
			defOuts = outs
		}
		rows = append(rows, splitRows(s.Name(), queries, outs)...)
	}
	var sizes [2]int
	for _, q := range queries {
		if len(q.Gold) > 0 {
			sizes[Half(q)]++
		}
	}
	fmt.Fprintf(w, "%d tools (deferred), %d queries: half A %d, half B %d (FNV-1a of the query id)\n\n",
		len(tools), sizes[0]+sizes[1], sizes[0], sizes[1])
	WriteSplitTable(w, rows)

	var summary Metrics = Aggregate(def.Name(), defOuts, nil)
	if o.Tune {
		fmt.Fprintln(w)
		var tuned []Tuned
		for _, k := range Knobs() {
			ts, err := Tune(tools, queries, k, defOuts)
			if err != nil {
				return err
			}
			tuned = append(tuned, ts...)
		}
		WriteTuned(w, tuned)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, Summary(summary))
	return nil
}

// splitRows returns a strategy's metrics on half A, half B and the whole
// set.
func splitRows(name string, queries []Query, outs []Outcome) []Metrics {
	a := Aggregate(name+" [A]", outs, InHalf(queries, 0))
	b := Aggregate(name+" [B]", outs, InHalf(queries, 1))
	all := Aggregate(name+" [all]", outs, nil)
	return []Metrics{a, b, all}
}

// Tune chooses k's best candidate (by recall@5 + MRR, ties to the first) on
// each half and measures it on the other; defOuts are the default's
// outcomes on the same queries.
func Tune(tools []Tool, queries []Query, k Knob, defOuts []Outcome) ([]Tuned, error) {
	outs := make([][]Outcome, len(k.Candidates))
	for i, s := range k.Candidates {
		o, err := Outcomes(tools, queries, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name(), err)
		}
		outs[i] = o
	}
	var res []Tuned
	for h := range 2 {
		best, bestScore := -1, 0.0
		for i, s := range k.Candidates {
			if v := objective(Aggregate(s.Name(), outs[i], InHalf(queries, h))); best < 0 || v > bestScore {
				best, bestScore = i, v
			}
		}
		other := InHalf(queries, 1-h)
		res = append(res, Tuned{
			Knob:    k.Name,
			TunedOn: h,
			Chosen:  Aggregate(k.Candidates[best].Name(), outs[best], other),
			Default: Aggregate("default", defOuts, other),
		})
	}
	return res, nil
}

// WriteSplitTable writes per-half metrics as a markdown table.
func WriteSplitTable(w io.Writer, ms []Metrics) { WriteTable(w, ms) }

// WriteTuned writes the tuned knobs as a markdown table: each setting
// chosen on one half, measured on the other beside the default there.
func WriteTuned(w io.Writer, ts []Tuned) {
	fmt.Fprintln(w, "Knobs chosen on one half (by recall@5 + MRR), measured on the other:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| knob | tuned on | chosen | measured on | n | recall@5 | MRR | default recall@5 | default MRR | holds |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, t := range ts {
		holds := "no"
		if t.Holds() {
			holds = "yes"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %s |\n", t.Knob,
			Halves[t.TunedOn], t.Chosen.Strategy, Halves[1-t.TunedOn], t.Chosen.N,
			t.Chosen.Recall5, t.Chosen.MRR, t.Default.Recall5, t.Default.MRR, holds)
	}
}
