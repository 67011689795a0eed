package catalog

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// BM25Params are the parameters of the BM25F strategy.
type BM25Params struct {
	// K1 is the term-frequency saturation: how quickly further occurrences
	// of a term stop adding to the score.
	K1 float64
	// NameWeight, DescriptionWeight and ParamsWeight weight a term's
	// occurrences in the name, the description and the parameters (names
	// and descriptions) before saturation.
	NameWeight, DescriptionWeight, ParamsWeight float64
	// NameB, DescriptionB and ParamsB are the length normalisation of each
	// field, from 0 (none) to 1 (full).
	NameB, DescriptionB, ParamsB float64
	// StemWeight is the weight of a match between stems (files and file,
	// created and creating) beside an exact match, which weighs 1; an exact
	// match is a stem match too, so it scores 1 + StemWeight. 0 turns
	// stemming off.
	StemWeight float64
	// NameCoverage rewards tools whose name the query covers: a tool's score
	// is multiplied by 1 + NameCoverage·c, where c is the fraction of the
	// distinct terms of its name that the query matches (exactly or by
	// stem). 0 turns it off.
	NameCoverage float64
}

// DefaultBM25Params are the parameters of BM25. K1 and the b values are
// the textbook ones (1.2 and 0.75), except for the name, which is too short
// for its length to mean much. The weights say that a word in the name
// says more than one in the description, which says more than one in a
// parameter's text. Stem matches count half of exact ones, and covering a
// tool's whole name raises its score by half. These are round numbers
// chosen for those reasons and checked on the evaluation set (see
// cmd/tooleval -variants), not fitted to it.
var DefaultBM25Params = BM25Params{
	K1:                1.2,
	NameWeight:        3,
	DescriptionWeight: 2,
	ParamsWeight:      1,
	NameB:             0.3,
	DescriptionB:      0.75,
	ParamsB:           0.75,
	StemWeight:        0.5,
	NameCoverage:      0.5,
}

// BM25 returns the default strategy, BM25F with DefaultBM25Params.
func BM25() Strategy { return BM25With(DefaultBM25Params) }

// BM25With returns a BM25F strategy with the given parameters.
//
// Each field (name, description, parameters) is tokenised alike: split into
// words at non-alphanumeric characters, at camelCase and acronym boundaries
// and between letters and digits, lower-cased, stopwords dropped. Each word
// is indexed as itself and, separately, as its stem. For a query term t
// (a distinct query word, or a distinct stem of one) occurring tf_f times
// in field f of a tool,
//
//	tf'    = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)
//	s(t)   = idf(t) · tf' · (k1 + 1) / (k1 + tf')
//	idf(t) = ln(1 + (N − df_t + 0.5) / (df_t + 0.5))
//
// The tool's score is the sum of s(t) over the query's words plus
// StemWeight times the sum over its stems, multiplied by the name-coverage
// factor (see BM25Params). N, df and the average lengths are those of the
// tools indexed at the moment of the query, so the index is built one tool
// at a time and never rebuilt.
func BM25With(p BM25Params) Strategy { return bm25Strategy{p} }

type bm25Strategy struct{ p BM25Params }

func (s bm25Strategy) Name() string {
	if s.p == DefaultBM25Params {
		return "bm25f (default)"
	}
	return fmt.Sprintf("bm25f(k1=%g,w=%g/%g/%g,b=%g/%g/%g,stem=%g,cover=%g)", s.p.K1,
		s.p.NameWeight, s.p.DescriptionWeight, s.p.ParamsWeight,
		s.p.NameB, s.p.DescriptionB, s.p.ParamsB, s.p.StemWeight, s.p.NameCoverage)
}

func (s bm25Strategy) NewIndex() Index {
	x := &bm25Index{p: s.p, post: make(map[string][]bm25Posting), terms: make(map[int][]string)}
	x.w = [numFields]float64{s.p.NameWeight, s.p.DescriptionWeight, s.p.ParamsWeight}
	x.b = [numFields]float64{s.p.NameB, s.p.DescriptionB, s.p.ParamsB}
	return x
}

const (
	fieldName = iota
	fieldDescription
	fieldParams
	numFields
)

// stemMark starts the key of a stem's postings, keeping them apart from
// words' (no word contains it: words are letters and digits).
const stemMark = "\x01"

type bm25Posting struct {
	id int32
	tf [numFields]uint16
}

type bm25Doc struct {
	length    [numFields]uint32 // words per field
	nameTerms uint16            // distinct words of the name
}

type bm25Index struct {
	p      BM25Params
	w, b   [numFields]float64
	post   map[string][]bm25Posting
	terms  map[int][]string // each document's posting keys, for Remove
	docs   []bm25Doc        // by id
	sumLen [numFields]float64
	n      int       // indexed documents
	pool   sync.Pool // *accumulator
}

// words calls fn with each indexable word of text.
func words(text string, fn func(string)) {
	splitWords(text, func(w []byte) {
		if s := string(w); !stopwords[s] {
			fn(s)
		}
	})
}

func (x *bm25Index) Add(id int, doc Document) {
	tf := make(map[string]*[numFields]uint16)
	var d bm25Doc
	bump := func(key string, f int) {
		c := tf[key]
		if c == nil {
			c = new([numFields]uint16)
			tf[key] = c
		}
		if c[f] < math.MaxUint16 {
			c[f]++
		}
	}
	count := func(f int) func(string) {
		return func(w string) {
			bump(w, f)
			if x.p.StemWeight != 0 {
				bump(stemMark+stem(w), f)
			}
			d.length[f]++
		}
	}
	words(doc.Name, count(fieldName))
	words(doc.Description, count(fieldDescription))
	for _, p := range doc.Parameters {
		words(p.Name, count(fieldParams))
		words(p.Description, count(fieldParams))
	}
	keys := make([]string, 0, len(tf))
	for k, c := range tf {
		x.post[k] = append(x.post[k], bm25Posting{id: int32(id), tf: *c})
		keys = append(keys, k)
		if c[fieldName] > 0 && !strings.HasPrefix(k, stemMark) {
			d.nameTerms++
		}
	}
	x.terms[id] = keys
	for id >= len(x.docs) {
		x.docs = append(x.docs, bm25Doc{})
	}
	x.docs[id] = d
	for f := range numFields {
		x.sumLen[f] += float64(d.length[f])
	}
	x.n++
}

func (x *bm25Index) Remove(id int) {
	keys, ok := x.terms[id]
	if !ok {
		return
	}
	for _, k := range keys {
		ps := x.post[k]
		// Postings are appended in id order, so they are sorted by id.
		i, found := slices.BinarySearchFunc(ps, int32(id), func(p bm25Posting, id int32) int {
			return cmp.Compare(p.id, id)
		})
		if !found {
			continue
		}
		ps = slices.Delete(ps, i, i+1)
		if len(ps) == 0 {
			delete(x.post, k)
		} else {
			x.post[k] = ps
		}
	}
	delete(x.terms, id)
	for f := range numFields {
		x.sumLen[f] -= float64(x.docs[id].length[f])
	}
	x.docs[id] = bm25Doc{}
	x.n--
}

func (x *bm25Index) Score(query string) []Hit {
	if x.n == 0 {
		return nil
	}
	q := queryTerms(query, words)
	if len(q) == 0 {
		return nil
	}
	var inv [numFields]float64 // 1 / average length
	for f := range numFields {
		if x.sumLen[f] > 0 {
			inv[f] = float64(x.n) / x.sumLen[f]
		}
	}
	acc := getAccumulator(&x.pool)
	defer x.pool.Put(acc)
	cover := x.p.NameCoverage != 0
	var stems map[string]bool
	if x.p.StemWeight != 0 {
		stems = make(map[string]bool, len(q))
	}
	for i, t := range q {
		x.scoreTerm(acc, t, 1, i, cover, inv)
		if stems != nil {
			s := stem(t)
			if !stems[s] {
				stems[s] = true
				x.scoreTerm(acc, stemMark+s, x.p.StemWeight, i, cover, inv)
			}
		}
	}
	hs := acc.hits(nil)
	if cover {
		for i := range hs {
			id := hs[i].ID
			if nt := x.docs[id].nameTerms; nt > 0 {
				c := min(1, float64(acc.count[id])/float64(nt))
				hs[i].Score *= 1 + x.p.NameCoverage*c
			}
		}
	}
	acc.reset()
	return hs
}

// scoreTerm adds weight times the BM25F score of the postings under key.
// The i-th query word counts once towards a tool's name coverage, whether
// it matched the name exactly or by its stem.
func (x *bm25Index) scoreTerm(acc *accumulator, key string, weight float64, i int, cover bool, inv [numFields]float64) {
	ps := x.post[key]
	if len(ps) == 0 {
		return
	}
	n, df, k1 := float64(x.n), float64(len(ps)), x.p.K1
	idf := weight * math.Log(1+(n-df+0.5)/(df+0.5))
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
			acc.countOnce(int(p.id), i)
		}
	}
}
