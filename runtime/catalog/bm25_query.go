package catalog

import (
	"math"
	"slices"
)

// bm25Scratch is the reusable state of one query.
type bm25Scratch struct {
	acc   accumulator
	buf   []byte      // the word being split
	q     []bm25Query // the query's terms
	seen  []uint32    // by term: the query generation that took it
	gen   uint32
	heap  []Hit
	exp   []float64 // by term: expansion weight
	expT  []int32   // the terms with an expansion weight
	words int32     // distinct words of the query
}

// bm25Query is one term of a query: its weight and the query word it
// stands for (for name coverage; -1 for added words).
type bm25Query struct {
	term   int32
	weight float64
	word   int32
}

func (x *bm25Index) scratch() *bm25Scratch {
	s, _ := x.pool.Get().(*bm25Scratch)
	if s == nil {
		s = &bm25Scratch{}
	}
	if len(s.seen) < len(x.terms) {
		n := len(x.terms) + len(x.terms)/4
		s.seen = make([]uint32, n)
		s.exp = make([]float64, n)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 {
		clear(s.seen)
		s.gen = 1
	}
	return s
}

func (x *bm25Index) release(s *bm25Scratch) {
	s.acc.reset()
	s.q = s.q[:0]
	s.heap = s.heap[:0]
	x.pool.Put(s)
}

// take adds term t to the query unless it is there already.
func (s *bm25Scratch) take(t int32, weight float64, word int32) bool {
	if t < 0 || s.seen[t] == s.gen {
		return false
	}
	s.seen[t] = s.gen
	s.q = append(s.q, bm25Query{term: t, weight: weight, word: word})
	return true
}

// parse reads the query's distinct words (at most MaxQueryTerms of those
// the catalog knows, by word or by stem) into s.q.
func (x *bm25Index) parse(s *bm25Scratch, query string) {
	s.words = 0
	s.buf = splitWordsBuf(s.buf, clip(query, MaxQueryBytes), func(b []byte) {
		if s.words >= MaxQueryTerms || stopwords[string(b)] {
			return
		}
		st := int32(-1)
		t, known := x.words[string(b)]
		if known {
			st = x.terms[t].stem
		} else {
			t = -1
			if x.p.StemWeight != 0 {
				st = x.unknownStem(b)
			}
		}
		took := s.take(t, 1, s.words)
		if x.p.StemWeight != 0 && s.take(st, x.p.StemWeight, s.words) {
			took = true
		}
		if took {
			s.words++
		}
	})
}

// unknownStem returns the term of the stem of a word the catalog does not
// contain, or -1.
func (x *bm25Index) unknownStem(b []byte) int32 {
	if len(b) <= 2 || !isASCIILower(string(b)) {
		return -1 // its own stem, which no indexed word has
	}
	x.stemMu.Lock()
	st, ok := x.stemCache[string(b)]
	x.stemMu.Unlock()
	if !ok {
		w := string(b)
		st = stem(w)
		x.stemMu.Lock()
		if x.stemCache == nil || len(x.stemCache) >= maxStemCache {
			x.stemCache = make(map[string]string)
		}
		x.stemCache[w] = st
		x.stemMu.Unlock()
	}
	if t, ok := x.stems[st]; ok {
		return t
	}
	return -1
}

// run scores the query in s (parsed), expanding it when asked.
func (x *bm25Index) run(s *bm25Scratch) {
	var inv [numFields]float64 // 1 / average length
	for f := range numFields {
		if x.sumLen[f] > 0 {
			inv[f] = float64(x.n) / x.sumLen[f]
		}
	}
	for _, q := range s.q {
		x.scoreTerm(&s.acc, q, inv)
	}
	if a := x.p.Associations; a.Terms > 0 && a.Weight > 0 {
		x.associate(s, inv)
	}
	if f := x.p.Feedback; f.Docs > 0 && f.Terms > 0 && f.Weight > 0 {
		x.feedback(s, inv)
	}
}

// scoreTerm adds the BM25F score of one query term's postings. A query
// word counts once towards a tool's name coverage, whether it matched the
// name exactly or by its stem.
func (x *bm25Index) scoreTerm(acc *accumulator, q bm25Query, inv [numFields]float64) {
	ps := x.terms[q.term].post
	if len(ps) == 0 {
		return
	}
	n, df, k1 := float64(x.n), float64(len(ps)), x.p.K1
	idf := q.weight * math.Log(1+(n-df+0.5)/(df+0.5))
	cover := x.p.NameCoverage != 0 && q.word >= 0
	for _, p := range ps {
		l := &x.docs[p.id].length
		var tfw float64
		for f := range numFields {
			if p.tf[f] != 0 {
				tfw += x.w[f] * float64(p.tf[f]) / (1 - x.b[f] + x.b[f]*float64(l[f])*inv[f])
			}
		}
		acc.add(int(p.id), idf*tfw*(k1+1)/(k1+tfw))
		if cover && p.tf[fieldName] != 0 {
			acc.countOnce(int(p.id), int(q.word))
		}
	}
}

// final is a touched document's score with its name coverage.
func (x *bm25Index) final(acc *accumulator, id int32) float64 {
	s := acc.score[id]
	if x.p.NameCoverage != 0 {
		if nt := x.docs[id].nameTerms; nt > 0 {
			c := min(1, float64(acc.count[id])/float64(nt))
			s *= 1 + x.p.NameCoverage*c
		}
	}
	return s
}

// pushTop keeps in h (a min-heap by better, its root the worst) the k best
// hits seen.
func pushTop(h []Hit, k int, x Hit) []Hit {
	if k <= 0 {
		return h
	}
	if len(h) < k {
		h = append(h, x)
		// Sift up.
		for i := len(h) - 1; i > 0; {
			p := (i - 1) / 2
			if !better(h[p], h[i]) {
				break
			}
			h[p], h[i] = h[i], h[p]
			i = p
		}
		return h
	}
	if !better(x, h[0]) {
		return h
	}
	h[0] = x
	// Sift down.
	for i := 0; ; {
		l, r, worst := 2*i+1, 2*i+2, i
		if l < len(h) && better(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && better(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			break
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
	return h
}

// sortHits orders hits best first.
func sortHits(h []Hit) {
	slices.SortFunc(h, func(a, b Hit) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
}

func (x *bm25Index) Score(query string) []Hit {
	if x.n == 0 {
		return nil
	}
	s := x.scratch()
	defer x.release(s)
	x.parse(s, query)
	if len(s.q) == 0 {
		return nil
	}
	x.run(s)
	out := make([]Hit, 0, len(s.acc.touched))
	for _, id := range s.acc.touched {
		if sc := x.final(&s.acc, id); sc > 0 {
			out = append(out, Hit{ID: int(id), Score: sc})
		}
	}
	return out
}

func (x *bm25Index) Top(query string, k int, keep func(id int) bool, dst []Hit) []Hit {
	if x.n == 0 || k < 1 {
		return dst
	}
	s := x.scratch()
	defer x.release(s)
	x.parse(s, query)
	if len(s.q) == 0 {
		return dst
	}
	x.run(s)
	h := s.heap[:0]
	for _, id := range s.acc.touched {
		sc := x.final(&s.acc, id)
		if sc <= 0 || (len(h) == k && !better(Hit{ID: int(id), Score: sc}, h[0])) {
			continue
		}
		if keep != nil && !keep(int(id)) {
			continue
		}
		h = pushTop(h, k, Hit{ID: int(id), Score: sc})
	}
	sortHits(h)
	dst = append(dst, h...)
	s.heap = h[:0]
	return dst
}
