package catalog

import (
	"math"
	"strings"
	"sync"
	"unicode"
)

// Keyword returns the design's first strategy, kept as a baseline: a
// weighted count of the query's words found in each field.
//
// Text is lower-cased and split into words at every character that is not
// a letter or a digit ('_' and '-' included, as the design's "as spaces"
// asks); there is no camelCase splitting, no stemming and no stopword list.
// With Q the set of distinct query words and W(f) the set of words of field
// f, a tool scores
//
//	0.50·|Q∩W(name)|/|Q| + 0.35·|Q∩W(description)|/|Q| + 0.15·|Q∩W(parameters)|/|Q|
//
// where the parameters field is every parameter's name and description.
// Each term is thus the fraction of the query's words the field contains,
// and a tool that contains every query word in every field scores 1. Tools
// scoring 0 are not returned.
func Keyword() Strategy { return keywordStrategy{} }

type keywordStrategy struct{}

func (keywordStrategy) Name() string { return "keyword" }
func (keywordStrategy) NewIndex() Index {
	return &keywordIndex{post: make(map[string][]keywordPosting)}
}

// Field weights of the keyword strategy.
const (
	keywordNameWeight   = 0.5
	keywordDescWeight   = 0.35
	keywordParamsWeight = 0.15
)

type keywordPosting struct {
	id     int32
	fields uint8 // bit 0 name, 1 description, 2 parameters
}

type keywordIndex struct {
	post  map[string][]keywordPosting
	words map[int][]string // the words each document was indexed under
	pool  sync.Pool        // *accumulator
}

// keywordWords calls fn with each lower-cased word of s.
func keywordWords(s string, fn func(string)) {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		fn(w)
	}
}

func (x *keywordIndex) Add(id int, doc Document) {
	fields := make(map[string]uint8)
	keywordWords(doc.Name, func(w string) { fields[w] |= 1 })
	keywordWords(doc.Description, func(w string) { fields[w] |= 2 })
	for _, p := range doc.Parameters {
		keywordWords(p.Name, func(w string) { fields[w] |= 4 })
		keywordWords(p.Description, func(w string) { fields[w] |= 4 })
	}
	if x.words == nil {
		x.words = make(map[int][]string)
	}
	ws := make([]string, 0, len(fields))
	for w, f := range fields {
		x.post[w] = append(x.post[w], keywordPosting{id: int32(id), fields: f})
		ws = append(ws, w)
	}
	x.words[id] = ws
}

func (x *keywordIndex) Remove(id int) {
	for _, w := range x.words[id] {
		ps := x.post[w]
		for i, p := range ps {
			if int(p.id) == id {
				ps = append(ps[:i:i], ps[i+1:]...)
				break
			}
		}
		if len(ps) == 0 {
			delete(x.post, w)
		} else {
			x.post[w] = ps
		}
	}
	delete(x.words, id)
}

func (x *keywordIndex) Score(query string) []Hit {
	q := queryTerms(query, keywordWords)
	if len(q) == 0 {
		return nil
	}
	acc := getAccumulator(&x.pool)
	defer x.pool.Put(acc)
	for _, w := range q {
		for _, p := range x.post[w] {
			var s float64
			if p.fields&1 != 0 {
				s += keywordNameWeight
			}
			if p.fields&2 != 0 {
				s += keywordDescWeight
			}
			if p.fields&4 != 0 {
				s += keywordParamsWeight
			}
			acc.add(int(p.id), s)
		}
	}
	n := float64(len(q))
	hs := acc.hits(func(s float64) float64 { return s / n })
	acc.reset()
	return hs
}

// accumulator sums scores per document id: dense slices indexed by id and
// the list of ids touched, so that a query costs what its postings cost,
// not what the catalog's size costs. count and stamp serve BM25's name
// coverage: count[id] is how many query words matched the name, stamp[id]
// the last word counted (plus one).
type accumulator struct {
	seen    []bool
	score   []float64
	count   []uint16
	stamp   []int32
	touched []int32
}

func getAccumulator(pool *sync.Pool) *accumulator {
	if a, ok := pool.Get().(*accumulator); ok {
		return a
	}
	return &accumulator{}
}

func (a *accumulator) grow(id int) {
	n := max(2*len(a.score), id+1, 64)
	a.seen = append(a.seen, make([]bool, n-len(a.seen))...)
	a.score = append(a.score, make([]float64, n-len(a.score))...)
	a.count = append(a.count, make([]uint16, n-len(a.count))...)
	a.stamp = append(a.stamp, make([]int32, n-len(a.stamp))...)
}

func (a *accumulator) add(id int, s float64) {
	if id >= len(a.score) {
		a.grow(id)
	}
	if !a.seen[id] {
		a.seen[id] = true
		a.touched = append(a.touched, int32(id))
	}
	a.score[id] += s
}

// countOnce counts query word i for id unless it was counted already; it
// must follow an add for id.
func (a *accumulator) countOnce(id, i int) {
	if a.stamp[id] != int32(i+1) {
		a.stamp[id] = int32(i + 1)
		if a.count[id] < math.MaxUint16 {
			a.count[id]++
		}
	}
}

// hits returns the positive sums, transformed by f. It leaves the sums in
// place: call reset before reusing a.
func (a *accumulator) hits(f func(float64) float64) []Hit {
	out := make([]Hit, 0, len(a.touched))
	for _, id := range a.touched {
		s := a.score[id]
		if f != nil {
			s = f(s)
		}
		if s > 0 {
			out = append(out, Hit{ID: int(id), Score: s})
		}
	}
	return out
}

// reset zeroes what the last query touched.
func (a *accumulator) reset() {
	for _, id := range a.touched {
		a.seen[id], a.score[id], a.count[id], a.stamp[id] = false, 0, 0, 0
	}
	a.touched = a.touched[:0]
}
