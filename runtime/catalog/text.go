package catalog

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Bounds on the work one query can cause. Text past MaxQueryBytes is
// ignored (cut at a rune boundary), and at most MaxQueryTerms distinct terms
// of what remains are scored, in order of first appearance; a select: query
// looks up at most MaxSelectNames names. With these bounds a query costs at
// most MaxQueryTerms posting-list walks, whatever the caller sends.
const (
	MaxQueryBytes  = 4096
	MaxQueryTerms  = 256
	MaxSelectNames = 64
)

// clip cuts s to at most n bytes without splitting a rune.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

// stopwords are words so common in requests and descriptions that they say
// nothing about which tool is meant. The list is the English function words
// of the evaluation's anchor plus a few request fillers; it is deliberately
// short: content words, even common ones, are left to IDF.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have in into is it its of on or
		that the this to was were will with can could would should please me my i you your we our us
		do does did what which who whom how when where why`) {
		stopwords[w] = true
	}
}

// splitWords splits text into lower-cased words: runs of letters and digits,
// broken also at case changes (camelCase gives camel, case; HTTPServer gives
// http, server) and at letter-digit boundaries (log10 gives log, 10). Every
// other character separates words, '_' and '-' included. Text in a script
// written without spaces (Han, Hiragana, Katakana, Hangul) is split into
// overlapping character bigrams, as CJK search engines index it: 查询天气
// gives 查询, 询天, 天气, so a Chinese request matches Chinese tool text by
// its two-character words; a lone such character is a word of its own.
// fn is called for each word; the slice is reused, so fn must copy what it
// keeps.
func splitWords(text string, fn func(word []byte)) { splitWordsBuf(nil, text, fn) }

// splitWordsBuf is splitWords building words in buf, which it returns for
// reuse, so that a query can be split without allocating.
func splitWordsBuf(buf []byte, text string, fn func(word []byte)) []byte {
	buf = buf[:0]
	const (
		other = iota
		lower
		upper
		digit
	)
	prev := other
	var pendingUpper rune // the last upper-case rune of a run, held back
	hasPending := false
	var cjk rune                // the last rune of a run of unspaced script
	inCJK, pair := false, false // in such a run; a bigram was emitted in it
	flush := func() {
		if len(buf) > 0 {
			fn(buf)
			buf = buf[:0]
		}
	}
	appendLower := func(r rune) { buf = utf8.AppendRune(buf, unicode.ToLower(r)) }
	endCJK := func() {
		if inCJK && !pair {
			appendLower(cjk)
			flush()
		}
		inCJK = false
	}
	for _, r := range text {
		var cls int
		switch {
		case isUnspaced(r):
			if hasPending {
				appendLower(pendingUpper)
				hasPending = false
			}
			flush()
			if inCJK {
				appendLower(cjk)
				appendLower(r)
				flush()
				pair = true
			} else {
				inCJK, pair = true, false
			}
			cjk = r
			prev = other
			continue
		case unicode.IsUpper(r) || unicode.IsTitle(r):
			cls = upper
		case unicode.IsLetter(r) || unicode.IsMark(r):
			cls = lower
		case unicode.IsDigit(r):
			cls = digit
		default:
			cls = other
		}
		endCJK()
		switch cls {
		case other:
			if hasPending {
				appendLower(pendingUpper)
				hasPending = false
			}
			flush()
		case upper:
			if hasPending {
				// Inside a run of capitals: the held-back one belongs to it.
				appendLower(pendingUpper)
			} else if prev != upper {
				flush()
			}
			pendingUpper, hasPending = r, true
		case lower:
			if hasPending {
				// A capital followed by lower case starts a new word:
				// "HTTPServer" breaks before the S.
				flush()
				appendLower(pendingUpper)
				hasPending = false
			} else if prev == digit {
				flush()
			}
			appendLower(r)
		case digit:
			if hasPending {
				appendLower(pendingUpper)
				hasPending = false
			}
			if prev != digit {
				flush()
			}
			buf = utf8.AppendRune(buf, r)
		}
		prev = cls
	}
	endCJK()
	if hasPending {
		appendLower(pendingUpper)
	}
	flush()
	return buf
}

func isUnspaced(r rune) bool {
	// Letters only: the scripts also hold symbols (circled katakana such
	// as ㋰, parenthesised ideographs), which separate words as any other
	// symbol does.
	return r >= 0x2E80 && unicode.IsLetter(r) && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

// stem reduces an English word to its Porter2 (Snowball English) stem, so
// that a word and its plural and inflected forms meet: movie and movies,
// files and file, queries and query, running and run, created, creates and
// create are each one term. Only words of ASCII letters are stemmed: digits,
// other scripts and mixed words are their own stem. The same function runs
// over the catalog and the query, so the stems only need to map related
// words together; they are not always words (movie gives movi).
func stem(w string) string {
	if len(w) <= 2 || !isASCIILower(w) {
		return w
	}
	return english.Stem(w, true)
}

// isASCIILower reports whether w is all lower-case ASCII letters.
func isASCIILower(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// queryTerms returns the distinct terms of a query, in order of first
// appearance, within the bounds above.
func queryTerms(text string, tokenise func(string, func(string))) []string {
	text = clip(text, MaxQueryBytes)
	var out []string
	seen := make(map[string]bool)
	tokenise(text, func(t string) {
		if len(out) >= MaxQueryTerms || seen[t] {
			return
		}
		seen[t] = true
		out = append(out, t)
	})
	return out
}
