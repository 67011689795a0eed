package eval

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolgen/toolgen/runtime/catalog"
)

func TestRunFixture(t *testing.T) {
	var out bytes.Buffer
	if err := Run(&out, "testdata/tools.jsonl", "testdata/queries.jsonl", true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^default recall@5=\d\.\d{3} mrr=\d\.\d{3}$`).MatchString(last) {
		t.Errorf("last line %q is not the summary", last)
	}
	for _, s := range append(Strategies(), Variants()...) {
		for _, half := range []string{"[A]", "[B]", "[all]"} {
			if !strings.Contains(out.String(), "| "+s.Name()+" "+half+" |") {
				t.Errorf("no row for %s %s in\n%s", s.Name(), half, out.String())
			}
		}
	}
	for _, k := range Knobs() {
		for _, on := range []string{"| A |", "| B |"} {
			if !strings.Contains(out.String(), "| "+k.Name+" "+on) {
				t.Errorf("no row for %s tuned on %s in\n%s", k.Name, on, out.String())
			}
		}
	}
}

// TestSplit checks the 2-fold split: fixed by the query alone, every query
// in exactly one half, and the halves' figures averaging to the whole's.
func TestSplit(t *testing.T) {
	tools, err := ReadTools("testdata/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	queries, err := ReadQueries("testdata/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		q    Query
		want int
	}{
		{Query{ID: "simple_python_0"}, Half(Query{ID: "simple_python_0", Query: "other text"})},
		{Query{Query: "no id"}, Half(Query{Query: "no id"})},
	}
	for _, tt := range tests {
		if got := Half(tt.q); got != tt.want || got < 0 || got > 1 {
			t.Errorf("Half(%+v) = %d, want %d", tt.q, got, tt.want)
		}
	}
	outs, err := Outcomes(tools, queries, catalog.BM25())
	if err != nil {
		t.Fatal(err)
	}
	a := Aggregate("a", outs, InHalf(queries, 0))
	b := Aggregate("b", outs, InHalf(queries, 1))
	all := Aggregate("all", outs, nil)
	if a.N+b.N != all.N || a.N == 0 || b.N == 0 {
		t.Fatalf("halves of %d and %d queries, whole %d", a.N, b.N, all.N)
	}
	mean := (a.MRR*float64(a.N) + b.MRR*float64(b.N)) / float64(all.N)
	if diff := cmp.Diff(all.MRR, mean, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("halves' MRR does not average to the whole's (-whole +halves):\n%s", diff)
	}
}

func TestEvaluateFixture(t *testing.T) {
	tools, err := ReadTools("testdata/tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	queries, err := ReadQueries("testdata/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Evaluate(tools, queries, catalog.BM25())
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's requests are plain: the default finds every gold tool
	// in its top five.
	want := Metrics{Strategy: catalog.BM25().Name(), N: len(queries), Recall5: 1, Recall10: 1}
	if diff := cmp.Diff(want, m, cmp.FilterPath(func(p cmp.Path) bool {
		s := p.Last().String()
		return s == ".Recall1" || s == ".MRR"
	}, cmp.Ignore())); diff != "" {
		t.Errorf("Evaluate (-want +got):\n%s", diff)
	}
	if m.MRR < 0.9 {
		t.Errorf("MRR = %.3f, want at least 0.9", m.MRR)
	}
	bad := append(queries[:1:1], Query{ID: "x", Query: "q", Gold: []string{"missing"}})
	if _, err := Evaluate(tools, bad, catalog.BM25()); err == nil {
		t.Error("a gold tool missing from the catalog is not an error")
	}
}

func TestDecodeErrors(t *testing.T) {
	if _, err := decodeLines[Tool](strings.NewReader("{\"name\": \"a\"}\n\nnot json\n"), "f"); err == nil ||
		!strings.Contains(err.Error(), "f:3:") {
		t.Errorf("err = %v, want one at f:3", err)
	}
	if _, err := ReadTools("testdata/missing.jsonl"); err == nil {
		t.Error("missing file read")
	}
}

// TestAnchorMatchesPublished checks the harness against the shared set's
// published plain-BM25 numbers, when the set is there.
func TestAnchorMatchesPublished(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: ranks the whole shared set with three strategies (about 5 s); make test runs it")
	}
	const dir = "../../../shared/data/toolret/"
	if _, err := os.Stat(dir + "tools.jsonl"); err != nil {
		t.Skip("shared toolret set not present")
	}
	tools, err := ReadTools(dir + "tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	queries, err := ReadQueries(dir + "queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	anchor, err := Evaluate(tools, queries, Anchor())
	if err != nil {
		t.Fatal(err)
	}
	round := func(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
	if round(anchor.Recall5) != 0.891 || round(anchor.MRR) != 0.833 {
		t.Errorf("anchor recall@5 %.3f MRR %.3f, want 0.891 and 0.833", anchor.Recall5, anchor.MRR)
	}
	def, err := Evaluate(tools, queries, catalog.BM25())
	if err != nil {
		t.Fatal(err)
	}
	kw, err := Evaluate(tools, queries, catalog.Keyword())
	if err != nil {
		t.Fatal(err)
	}
	for _, other := range []Metrics{anchor, kw} {
		if def.Recall5 <= other.Recall5 || def.MRR <= other.MRR {
			t.Errorf("default (%.3f, %.3f) does not beat %s (%.3f, %.3f)",
				def.Recall5, def.MRR, other.Strategy, other.Recall5, other.MRR)
		}
	}
}
