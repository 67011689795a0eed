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
	// NameWeight, DescriptionWeight, ParamsWeight and KeywordsWeight weight
	// a term's occurrences in the name, the description, the parameters
	// (names and descriptions) and the keywords (tool.Definition.Keywords)
	// before saturation.
	NameWeight, DescriptionWeight, ParamsWeight, KeywordsWeight float64
	// NameB, DescriptionB, ParamsB and KeywordsB are the length
	// normalisation of each field, from 0 (none) to 1 (full).
	NameB, DescriptionB, ParamsB, KeywordsB float64
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
	// Feedback is pseudo-relevance feedback; the zero value is off.
	Feedback Feedback
	// Associations is expansion by term associations; the zero value is
	// off.
	Associations Associations
}

// Feedback configures pseudo-relevance feedback in the manner of RM3: the
// query is run, the words of its best Docs tools are weighed by how much of
// each tool they make up and by the tool's score, and the Terms heaviest
// words the query lacks are added to it, sharing Weight times the weight of
// the query's own words between them; then the query is run again. It
// helps where a request's words find the right neighbourhood but not the
// tool's own words.
type Feedback struct {
	// Docs is how many top tools are read; 0 turns feedback off.
	Docs int
	// Terms is how many words are added.
	Terms int
	// Weight is the added words' total weight relative to the query's.
	Weight float64
}

// Associations configures query expansion by term associations learned
// from the catalog's own text: a word of the query that occurs in at most
// MaxDF tools is associated with the words those tools share with it,
// weighted by how many of them contain the word and by its rarity; its
// Terms strongest associates join the query, the strongest with Weight
// times the word's own weight and the others in proportion.
type Associations struct {
	// Terms is how many associates each query word brings; 0 turns
	// associations off.
	Terms int
	// Weight is the strongest associate's weight relative to its word.
	Weight float64
	// MaxDF bounds the words expanded to those in at most MaxDF tools
	// (general words have no useful associates and are costly to expand).
	MaxDF int
}

// DefaultBM25Params are the parameters of BM25. K1 and the b values are
// the textbook ones (1.2 and 0.75), except for the name and the keywords,
// which are too short for their length to mean much. The weights say that
// a word in the name, or one its author gave as a keyword, says more than
// one in the description, which says more than one in a parameter's text.
// Stem matches count half of exact ones, and covering a tool's whole name
// raises its score by half. These are round numbers chosen for those
// reasons, not fitted to the evaluation set: cmd/tooleval checks each knob
// on one half of it and reports the other. Feedback and associations are
// off: neither held up on the half they were not tuned on (see
// cmd/tooleval).
var DefaultBM25Params = BM25Params{
	K1:                1.2,
	NameWeight:        3,
	DescriptionWeight: 2,
	ParamsWeight:      1,
	KeywordsWeight:    3,
	NameB:             0.3,
	DescriptionB:      0.75,
	ParamsB:           0.75,
	KeywordsB:         0.3,
	StemWeight:        0.5,
	NameCoverage:      0.5,
}

// BM25 returns the default strategy, BM25F with DefaultBM25Params.
func BM25() Strategy { return BM25With(DefaultBM25Params) }

// BM25With returns a BM25F strategy with the given parameters.
//
// Each field (name, description, parameters, keywords) is tokenised alike:
// split into words at non-alphanumeric characters, at camelCase and acronym
// boundaries and between letters and digits, lower-cased, stopwords
// dropped, text without spaces (Chinese, Japanese, Korean) as character
// bigrams. Each word is indexed as itself and, separately, as its Porter2
// stem. For a query term t (a distinct query word, or a distinct stem of
// one) occurring tf_f times in field f of a tool,
//
//	tf'    = Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f)
//	s(t)   = idf(t) · tf' · (k1 + 1) / (k1 + tf')
//	idf(t) = ln(1 + (N − df_t + 0.5) / (df_t + 0.5))
//
// The tool's score is the sum of s(t) over the query's words plus
// StemWeight times the sum over its stems (plus the weighted sums over the
// words feedback and associations add, when on), multiplied by the
// name-coverage factor (see BM25Params). N, df and the average lengths are
// those of the tools indexed at the moment of the query, so the index is
// built one tool at a time and never rebuilt.
//
// The index selects the best hits itself (see TopIndex) with a bounded
// heap over reused buffers: a keyword search allocates a handful of times
// whatever the catalog's size (see BenchmarkSearch).
func BM25With(p BM25Params) Strategy { return bm25Strategy{p} }

type bm25Strategy struct{ p BM25Params }

func (s bm25Strategy) Name() string {
	if s.p == DefaultBM25Params {
		return "bm25f (default)"
	}
	p := s.p
	d := DefaultBM25Params
	d.Feedback, d.Associations = p.Feedback, p.Associations
	var b strings.Builder
	b.WriteString("bm25f")
	if p != d {
		fmt.Fprintf(&b, "(k1=%g,w=%g/%g/%g/%g,b=%g/%g/%g/%g,stem=%g,cover=%g)", p.K1,
			p.NameWeight, p.DescriptionWeight, p.ParamsWeight, p.KeywordsWeight,
			p.NameB, p.DescriptionB, p.ParamsB, p.KeywordsB, p.StemWeight, p.NameCoverage)
	}
	if f := p.Feedback; f.Docs > 0 {
		fmt.Fprintf(&b, "+prf(docs=%d,terms=%d,w=%g)", f.Docs, f.Terms, f.Weight)
	}
	if a := p.Associations; a.Terms > 0 {
		fmt.Fprintf(&b, "+assoc(terms=%d,w=%g,maxdf=%d)", a.Terms, a.Weight, a.MaxDF)
	}
	return b.String()
}

func (s bm25Strategy) NewIndex() Index {
	x := &bm25Index{p: s.p, words: make(map[string]int32), stems: make(map[string]int32)}
	x.w = [numFields]float64{s.p.NameWeight, s.p.DescriptionWeight, s.p.ParamsWeight, s.p.KeywordsWeight}
	x.b = [numFields]float64{s.p.NameB, s.p.DescriptionB, s.p.ParamsB, s.p.KeywordsB}
	return x
}

const (
	fieldName = iota
	fieldDescription
	fieldParams
	fieldKeywords
	numFields
)

type bm25Posting struct {
	id int32
	tf [numFields]uint16
}

// bm25Term is one indexed term: a word, or the stem of words.
type bm25Term struct {
	post []bm25Posting // sorted by id
	stem int32         // a word's stem's term, or -1
	word bool          // a word, not a stem
}

// bm25DocTerm is one term of a document and its occurrences in all fields.
type bm25DocTerm struct {
	term int32
	n    uint16
}

type bm25Doc struct {
	length    [numFields]uint32 // words per field
	total     uint32            // words in all fields
	nameTerms uint16            // distinct words of the name
	terms     []bm25DocTerm     // its terms, for Remove, feedback and associations
}

type bm25Index struct {
	p      BM25Params
	w, b   [numFields]float64
	words  map[string]int32 // word → term
	stems  map[string]int32 // stem → term
	terms  []bm25Term
	docs   []bm25Doc // by id
	sumLen [numFields]float64
	n      int       // indexed documents
	pool   sync.Pool // *bm25Scratch

	// stemCache holds the stems of query words the catalog does not
	// contain (those it contains have theirs in terms), so that a request
	// repeated costs no stemming; it is bounded by maxStemCache.
	stemMu    sync.Mutex
	stemCache map[string]string
}

// maxStemCache bounds the stems of unknown query words kept: past it, the
// cache starts afresh.
const maxStemCache = 4096

// words calls fn with each indexable word of text.
func words(text string, fn func(string)) {
	splitWords(text, func(w []byte) {
		if s := string(w); !stopwords[s] {
			fn(s)
		}
	})
}

func (x *bm25Index) wordTerm(w string) int32 {
	if t, ok := x.words[w]; ok {
		return t
	}
	t := int32(len(x.terms))
	x.terms = append(x.terms, bm25Term{stem: -1, word: true})
	x.words[w] = t
	if x.p.StemWeight != 0 {
		s := x.stemTerm(stem(w))
		x.terms[t].stem = s
	}
	return t
}

func (x *bm25Index) stemTerm(s string) int32 {
	if t, ok := x.stems[s]; ok {
		return t
	}
	t := int32(len(x.terms))
	x.terms = append(x.terms, bm25Term{stem: -1})
	x.stems[s] = t
	return t
}

func (x *bm25Index) Add(id int, doc Document) {
	if id < 0 || id > math.MaxInt32 {
		return
	}
	if id < len(x.docs) && x.docs[id].terms != nil {
		x.Remove(id)
	}
	type count struct {
		term int32
		tf   [numFields]uint16
	}
	var counts []count
	at := make(map[int32]int)
	var d bm25Doc
	bump := func(t int32, f int) {
		i, ok := at[t]
		if !ok {
			i = len(counts)
			at[t] = i
			counts = append(counts, count{term: t})
		}
		if counts[i].tf[f] < math.MaxUint16 {
			counts[i].tf[f]++
		}
	}
	field := func(f int) func(string) {
		return func(w string) {
			t := x.wordTerm(w)
			bump(t, f)
			if s := x.terms[t].stem; s >= 0 {
				bump(s, f)
			}
			d.length[f]++
		}
	}
	words(doc.Name, field(fieldName))
	words(doc.Description, field(fieldDescription))
	for _, p := range doc.Parameters {
		words(p.Name, field(fieldParams))
		words(p.Description, field(fieldParams))
	}
	for _, k := range doc.Keywords {
		words(k, field(fieldKeywords))
	}
	d.terms = make([]bm25DocTerm, 0, len(counts))
	for _, c := range counts {
		term := &x.terms[c.term]
		p := bm25Posting{id: int32(id), tf: c.tf}
		if n := len(term.post); n == 0 || term.post[n-1].id < p.id {
			term.post = append(term.post, p)
		} else {
			i, _ := slices.BinarySearchFunc(term.post, p.id, func(q bm25Posting, id int32) int { return cmp.Compare(q.id, id) })
			term.post = slices.Insert(term.post, i, p)
		}
		var n uint32
		for _, v := range c.tf {
			n += uint32(v)
		}
		d.terms = append(d.terms, bm25DocTerm{term: c.term, n: uint16(min(n, math.MaxUint16))})
		if c.tf[fieldName] > 0 && term.word {
			d.nameTerms++
		}
	}
	for f := range numFields {
		d.total += d.length[f]
		x.sumLen[f] += float64(d.length[f])
	}
	for id >= len(x.docs) {
		x.docs = append(x.docs, bm25Doc{})
	}
	x.docs[id] = d
	x.n++
}

func (x *bm25Index) Remove(id int) {
	if id < 0 || id >= len(x.docs) || x.docs[id].terms == nil {
		return
	}
	d := &x.docs[id]
	for _, dt := range d.terms {
		term := &x.terms[dt.term]
		i, found := slices.BinarySearchFunc(term.post, int32(id), func(p bm25Posting, id int32) int {
			return cmp.Compare(p.id, id)
		})
		if found {
			term.post = slices.Delete(term.post, i, i+1)
		}
	}
	for f := range numFields {
		x.sumLen[f] -= float64(d.length[f])
	}
	*d = bm25Doc{}
	x.n--
}

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
