package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
)

// Embedder turns texts into vectors, for example through an embeddings
// API (see examples/embedsearch for one wired to an OpenAI-compatible
// endpoint). Texts that mean the same should get vectors pointing the same
// way; only the direction matters, since the catalog compares vectors by
// cosine.
type Embedder interface {
	// Embed returns one vector per text, in the order given, all of one
	// length. It must be safe for concurrent use.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// HybridOptions configure Hybrid. The zero value gives the defaults.
type HybridOptions struct {
	// Name names the embedder in the strategy's name ("embedder" if
	// empty).
	Name string
	// K is the reciprocal-rank-fusion constant: a tool at rank r of a
	// ranking adds 1/(K + r) to its fused score. 60, the usual value, if 0.
	K float64
	// Depth is how many of each ranking's best are fused; 100 if 0.
	Depth int
	// Timeout bounds one call to the embedder; 30 s if 0.
	Timeout time.Duration
	// OnError is told of every failed embedding (the tool or query then
	// ranks by the lexical strategy alone); nil logs it with slog.Warn.
	OnError func(error)
}

// HybridStrategy ranks by reciprocal-rank fusion of a lexical strategy and
// an embedder's vectors. Make one with Hybrid.
type HybridStrategy struct {
	base Strategy
	e    Embedder
	o    HybridOptions

	mu    sync.Mutex
	cache map[string][]float32 // document text → unit vector, shared by every index
}

// Hybrid returns a strategy that fuses base (typically BM25) with dense
// retrieval by e: a tool's vector is computed once, when the tool is added
// (or beforehand, in batches, with Precompute), and cached by the tool's
// text; a query is embedded once per search. Each search takes the best
// Depth tools of the lexical ranking and the best Depth by cosine, and
// orders their union by Σ 1/(K + rank). When the embedder fails, a tool
// or a query falls back to the lexical ranking alone, and OnError is told.
//
// Dense retrieval is exact (every vector is compared), which costs about a
// millisecond per 10,000 tools of 1,536 dimensions; the embedder's call
// for the query usually costs more.
func Hybrid(base Strategy, e Embedder, o HybridOptions) *HybridStrategy {
	if o.K <= 0 {
		o.K = 60
	}
	if o.Depth <= 0 {
		o.Depth = 100
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Name == "" {
		o.Name = "embedder"
	}
	if base == nil {
		base = BM25()
	}
	return &HybridStrategy{base: base, e: e, o: o, cache: make(map[string][]float32)}
}

// Name is "hybrid(<base>+<embedder>,rrf k=<K>)".
func (h *HybridStrategy) Name() string {
	return fmt.Sprintf("hybrid(%s+%s,rrf k=%g)", h.base.Name(), h.o.Name, h.o.K)
}

// NewIndex returns an empty hybrid index.
func (h *HybridStrategy) NewIndex() Index {
	return &hybridIndex{h: h, base: h.base.NewIndex(), vecs: make(map[int][]float32)}
}

// EmbeddingText is the text of a document that Hybrid embeds: the name
// split into words, the description, the keywords and the parameters'
// names and descriptions, one per line.
func EmbeddingText(d Document) string {
	var b strings.Builder
	splitWords(d.Name, func(w []byte) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.Write(w)
	})
	b.WriteString("\n")
	b.WriteString(d.Description)
	if len(d.Keywords) > 0 {
		b.WriteString("\nKeywords: ")
		b.WriteString(strings.Join(d.Keywords, ", "))
	}
	for _, p := range d.Parameters {
		b.WriteString("\n")
		b.WriteString(p.Name)
		if p.Description != "" {
			b.WriteString(": ")
			b.WriteString(p.Description)
		}
	}
	return b.String()
}

// Precompute embeds the documents' texts in batches of batch (all at once
// if batch < 1) and caches the vectors, so that registering the tools
// afterwards costs no call to the embedder. Texts already cached are
// skipped.
func (h *HybridStrategy) Precompute(ctx context.Context, docs []Document, batch int) error {
	var texts []string
	seen := make(map[string]bool)
	h.mu.Lock()
	for _, d := range docs {
		t := EmbeddingText(d)
		if _, ok := h.cache[t]; !ok && !seen[t] {
			seen[t] = true
			texts = append(texts, t)
		}
	}
	h.mu.Unlock()
	if batch < 1 {
		batch = max(len(texts), 1)
	}
	for i := 0; i < len(texts); i += batch {
		part := texts[i:min(i+batch, len(texts))]
		vs, err := h.embed(ctx, part)
		if err != nil {
			return err
		}
		h.mu.Lock()
		for j, t := range part {
			h.cache[t] = vs[j]
		}
		h.mu.Unlock()
	}
	return nil
}

// embed calls the embedder within the timeout and checks its answer: one
// vector per text, all of one non-zero length, finite. The vectors are
// returned scaled to unit length.
func (h *HybridStrategy) embed(ctx context.Context, texts []string) (vs [][]float32, err error) {
	if h.e == nil {
		return nil, errors.New("catalog: hybrid: no embedder")
	}
	ctx, cancel := context.WithTimeout(ctx, h.o.Timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			vs, err = nil, fmt.Errorf("catalog: hybrid: embedder panicked: %v", p)
		}
	}()
	vs, err = h.e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("catalog: hybrid: embed %d texts: %w", len(texts), err)
	}
	if len(vs) != len(texts) {
		return nil, fmt.Errorf("catalog: hybrid: embedder returned %d vectors for %d texts", len(vs), len(texts))
	}
	for i, v := range vs {
		if len(v) == 0 || len(v) != len(vs[0]) {
			return nil, fmt.Errorf("catalog: hybrid: embedder returned vectors of lengths %d and %d", len(vs[0]), len(v))
		}
		u, ok := unit(v)
		if !ok {
			return nil, fmt.Errorf("catalog: hybrid: embedder returned a zero or non-finite vector for text %d", i)
		}
		vs[i] = u
	}
	return vs, nil
}

func (h *HybridStrategy) report(err error) {
	if h.o.OnError != nil {
		h.o.OnError(err)
		return
	}
	slog.Warn("tool search falls back to lexical ranking", "strategy", h.Name(), "err", err)
}

// unit returns a copy of v scaled to length 1.
func unit(v []float32) ([]float32, bool) {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return nil, false
	}
	inv := 1 / math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out, true
}

type hybridIndex struct {
	h    *HybridStrategy
	base Index
	vecs map[int][]float32 // by id, unit length
}

func (x *hybridIndex) Add(id int, doc Document) {
	x.base.Add(id, doc)
	t := EmbeddingText(doc)
	x.h.mu.Lock()
	v, ok := x.h.cache[t]
	x.h.mu.Unlock()
	if !ok {
		vs, err := x.h.embed(context.Background(), []string{t})
		if err != nil {
			x.h.report(fmt.Errorf("tool %q: %w", doc.Name, err))
			delete(x.vecs, id)
			return
		}
		v = vs[0]
		x.h.mu.Lock()
		x.h.cache[t] = v
		x.h.mu.Unlock()
	}
	x.vecs[id] = v
}

func (x *hybridIndex) Remove(id int) {
	x.base.Remove(id)
	delete(x.vecs, id)
}

func (x *hybridIndex) Score(query string) []Hit { return x.Top(query, math.MaxInt, nil, nil) }

func (x *hybridIndex) Top(query string, k int, keep func(int) bool, dst []Hit) []Hit {
	if k < 1 {
		return dst
	}
	depth := x.h.o.Depth
	var lex []Hit
	if ti, ok := x.base.(TopIndex); ok {
		lex = ti.Top(query, depth, keep, nil)
	} else {
		for _, hit := range x.base.Score(query) {
			if keep == nil || keep(hit.ID) {
				lex = pushTop(lex, depth, hit)
			}
		}
		sortHits(lex)
	}
	var dense []Hit
	if strings.TrimSpace(query) != "" && len(x.vecs) > 0 {
		vs, err := x.h.embed(context.Background(), []string{clip(query, MaxQueryBytes)})
		if err != nil {
			x.h.report(err)
		} else {
			dense = x.nearest(vs[0], depth, keep)
		}
	}
	fused := make(map[int]float64, len(lex)+len(dense))
	for r, hit := range lex {
		fused[hit.ID] += 1 / (x.h.o.K + float64(r+1))
	}
	for r, hit := range dense {
		fused[hit.ID] += 1 / (x.h.o.K + float64(r+1))
	}
	var h []Hit
	for id, s := range fused {
		h = pushTop(h, k, Hit{ID: id, Score: s})
	}
	sortHits(h)
	return append(dst, h...)
}

// nearest returns the depth kept documents whose vectors are closest to q
// (by cosine, positive only), best first.
func (x *hybridIndex) nearest(q []float32, depth int, keep func(int) bool) []Hit {
	var h []Hit
	for id, v := range x.vecs {
		if len(v) != len(q) || (keep != nil && !keep(id)) {
			continue
		}
		var dot float64
		for i := range v {
			dot += float64(v[i]) * float64(q[i])
		}
		if dot > 0 {
			h = pushTop(h, depth, Hit{ID: id, Score: dot})
		}
	}
	sortHits(h)
	return h
}
