package catalog

import (
	"fmt"
	"strings"
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
