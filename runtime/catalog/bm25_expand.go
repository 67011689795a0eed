package catalog

import (
	"math"
)

// expand adds the k heaviest terms of s.exp to the query, sharing total
// weight in proportion (or, with top set, giving the heaviest top and the
// others in proportion to it), scores them and clears s.exp.
func (x *bm25Index) expand(s *bm25Scratch, k int, weight float64, byMax bool, inv [numFields]float64) {
	h := s.heap[:0]
	for _, t := range s.expT {
		c := Hit{ID: int(t), Score: s.exp[t]}
		if c.Score <= 0 || s.seen[t] == s.gen {
			continue
		}
		h = pushTop(h, k, c)
	}
	var sum, top float64
	for _, c := range h {
		sum += c.Score
		top = max(top, c.Score)
	}
	for _, c := range h {
		w := weight * c.Score / sum
		if byMax {
			w = weight * c.Score / top
		}
		q := bm25Query{term: int32(c.ID), weight: w, word: -1}
		if s.take(q.term, q.weight, -1) {
			x.scoreTerm(&s.acc, q, inv)
		}
	}
	for _, t := range s.expT {
		s.exp[t] = 0
	}
	s.expT = s.expT[:0]
	s.heap = h[:0]
}

func (s *bm25Scratch) addExp(t int32, w float64) {
	if s.exp[t] == 0 {
		s.expT = append(s.expT, t)
	}
	s.exp[t] += w
}

// feedback is RM3-style pseudo-relevance feedback (see Feedback).
func (x *bm25Index) feedback(s *bm25Scratch, inv [numFields]float64) {
	f := x.p.Feedback
	h := s.heap[:0]
	for _, id := range s.acc.touched {
		if sc := x.final(&s.acc, id); sc > 0 {
			h = pushTop(h, f.Docs, Hit{ID: int(id), Score: sc})
		}
	}
	var sum float64
	for _, d := range h {
		sum += d.Score
	}
	for _, d := range h {
		doc := &x.docs[d.ID]
		if doc.total == 0 {
			continue
		}
		w := d.Score / sum / float64(doc.total)
		for _, dt := range doc.terms {
			if x.terms[dt.term].word {
				s.addExp(dt.term, w*float64(dt.n))
			}
		}
	}
	s.heap = h[:0]
	x.expand(s, f.Terms, f.Weight*float64(max(s.words, 1)), false, inv)
}

// associate expands each rare enough query word by its associates (see
// Associations).
func (x *bm25Index) associate(s *bm25Scratch, inv [numFields]float64) {
	a := x.p.Associations
	n := float64(x.n)
	orig := len(s.q)
	for i := 0; i < orig; i++ {
		q := s.q[i]
		if q.word < 0 || !x.terms[q.term].word {
			continue
		}
		ps := x.terms[q.term].post
		if len(ps) == 0 || (a.MaxDF > 0 && len(ps) > a.MaxDF) {
			continue
		}
		share := 1 / float64(len(ps))
		for _, p := range ps {
			for _, dt := range x.docs[p.id].terms {
				if t := &x.terms[dt.term]; t.word && dt.term != q.term {
					df := float64(len(t.post))
					s.addExp(dt.term, share*math.Log(1+(n-df+0.5)/(df+0.5)))
				}
			}
		}
		x.expand(s, a.Terms, a.Weight*q.weight, true, inv)
	}
}
