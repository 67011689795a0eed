package eval

import (
	"math"
	"regexp"
	"strings"

	"github.com/toolgen/toolgen/runtime/catalog"
)

// Anchor returns the shared set's reference ranking, ported from its
// bm25_eval.py so that the Go harness can be checked against the published
// numbers: Okapi BM25 (k1 1.2, b 0.75) over one bag of words per tool
// (name, description, parameter names and descriptions), camelCase split,
// lower-cased, split at every non-alphanumeric character, a 45-word
// stopword list, no stemming. It is a measuring stick, not a strategy for
// real catalogs: it rescans its postings on every query without any of the
// default's care.
func Anchor() catalog.Strategy { return anchorStrategy{} }

type anchorStrategy struct{}

func (anchorStrategy) Name() string { return "anchor (plain BM25, bm25_eval.py)" }
func (anchorStrategy) NewIndex() catalog.Index {
	return &anchorIndex{post: make(map[string][]anchorPosting), docs: make(map[int]anchorDoc)}
}

var (
	anchorCamel   = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	anchorAcronym = regexp.MustCompile(`([A-Z]+)([A-Z][a-z])`)
	anchorWord    = regexp.MustCompile(`[\p{L}\p{N}]+`)
	anchorStop    = map[string]bool{}
)

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in into is it its of on or
		that the this to was were will with can could would should please me my i you your we our us
		do does did what which who whom how when where why`) {
		anchorStop[w] = true
	}
}

func anchorTokens(text string) []string {
	text = anchorCamel.ReplaceAllString(text, "$1 $2")
	text = anchorAcronym.ReplaceAllString(text, "$1 $2")
	var out []string
	for _, t := range anchorWord.FindAllString(strings.ToLower(text), -1) {
		if !anchorStop[t] {
			out = append(out, t)
		}
	}
	return out
}

type anchorPosting struct{ id, tf int }

type anchorDoc struct {
	length int
	terms  []string
}

type anchorIndex struct {
	post   map[string][]anchorPosting
	docs   map[int]anchorDoc
	sumLen int
}

func (x *anchorIndex) Add(id int, d catalog.Document) {
	var toks []string
	toks = append(toks, anchorTokens(d.Name)...)
	toks = append(toks, anchorTokens(d.Description)...)
	for _, p := range d.Parameters {
		toks = append(toks, anchorTokens(p.Name)...)
		toks = append(toks, anchorTokens(p.Description)...)
	}
	tf := make(map[string]int)
	var order []string
	for _, t := range toks {
		if tf[t] == 0 {
			order = append(order, t)
		}
		tf[t]++
	}
	for _, t := range order {
		x.post[t] = append(x.post[t], anchorPosting{id, tf[t]})
	}
	x.docs[id] = anchorDoc{length: len(toks), terms: order}
	x.sumLen += len(toks)
}

func (x *anchorIndex) Remove(id int) {
	d, ok := x.docs[id]
	if !ok {
		return
	}
	for _, t := range d.terms {
		ps := x.post[t]
		for i, p := range ps {
			if p.id == id {
				x.post[t] = append(ps[:i:i], ps[i+1:]...)
				break
			}
		}
	}
	x.sumLen -= d.length
	delete(x.docs, id)
}

func (x *anchorIndex) Score(query string) []catalog.Hit {
	const k1, b = 1.2, 0.75
	n := float64(len(x.docs))
	if n == 0 {
		return nil
	}
	avg := float64(x.sumLen) / n
	acc := make(map[int]float64)
	seen := make(map[string]bool)
	for _, t := range anchorTokens(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		ps := x.post[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			acc[p.id] += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(x.docs[p.id].length)/avg))
		}
	}
	out := make([]catalog.Hit, 0, len(acc))
	for id, s := range acc {
		if s > 0 {
			out = append(out, catalog.Hit{ID: id, Score: s})
		}
	}
	return out
}
