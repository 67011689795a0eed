package catalog

import (
	"cmp"
	"math"
	"slices"
	"sync"
)

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
