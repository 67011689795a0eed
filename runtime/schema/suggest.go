package schema

import "unicode"

// suggestMaxRunes bounds the names Suggest compares: a longer name (a model can
// send anything as a key) is never matched, which keeps the cost bounded.
const suggestMaxRunes = 256

// Suggest returns the candidate closest to name, for a "Did you mean" hint,
// and whether one is close enough.
//
// Names are compared case-insensitively by optimal-string-alignment distance
// (Levenshtein plus the swap of two neighbouring characters, so "file_paht" is
// one edit from "file_path"). A candidate is close enough when its distance d
// satisfies d <= max(1, n/3), where n is the length in characters of the
// longer of the two names, and d is smaller than the length of the shorter
// one (so "x" never suggests "y"). Among close candidates the smallest
// distance wins, then the smallest case-sensitive distance, then the
// lexically first candidate, so the answer does not depend on the order of
// candidates. Empty names and names longer than 256 characters match nothing.
func Suggest(name string, candidates []string) (string, bool) {
	// Names of up to smallRunes characters fit these arrays, so that a
	// suggestion among them does not allocate (a model's unknown keys are
	// frequent).
	var buf [4][smallRunes]rune
	var rowBuf [3][smallRunes + 1]int
	rows := osaRows{rowBuf[0][:0], rowBuf[1][:0], rowBuf[2][:0]}
	a, ok := foldRunes(buf[0][:0], name, false)
	if !ok || len(a) == 0 {
		return "", false
	}
	var (
		exactName []rune
		best      string
		found     bool
		bestD     int
		bestExact int
	)
	for _, c := range candidates {
		b, ok := foldRunes(buf[1][:0], c, false)
		if !ok || len(b) == 0 {
			continue
		}
		long, short := max(len(a), len(b)), min(len(a), len(b))
		limit := max(1, long/3)
		if long-short > limit {
			continue
		}
		d := rows.distanceWithin(a, b, limit)
		if d > limit || d >= short {
			continue
		}
		if found && d > bestD {
			continue
		}
		if exactName == nil {
			exactName, _ = foldRunes(buf[2][:0], name, true)
		}
		exactCand, _ := foldRunes(buf[3][:0], c, true)
		exact := rows.distance(exactName, exactCand)
		if found && d == bestD && (exact > bestExact || (exact == bestExact && c >= best)) {
			continue
		}
		best, found, bestD, bestExact = c, true, d, exact
	}
	return best, found
}

// smallRunes is the length of name that Suggest compares without
// allocating.
const smallRunes = 40

// foldRunes appends s as runes to dst, lower-cased unless keepCase; false
// when s is longer than suggestMaxRunes.
func foldRunes(dst []rune, s string, keepCase bool) ([]rune, bool) {
	if len(s) > 4*suggestMaxRunes {
		return dst, false
	}
	for _, c := range s {
		if len(dst) == suggestMaxRunes {
			return dst, false
		}
		if !keepCase {
			c = unicode.ToLower(c)
		}
		dst = append(dst, c)
	}
	return dst, true
}

// osaRows holds the three rows the distance computation reuses.
type osaRows struct{ prev2, prev, cur []int }

// distance is the optimal-string-alignment distance between a and b.
func (w *osaRows) distance(a, b []rune) int { return w.distanceWithin(a, b, len(a)+len(b)) }

// distanceWithin is distance when it is at most limit, and something
// larger otherwise: it stops once a whole row exceeds limit (a row's
// least value never decreases further down), which is most rows' fate
// when a model's key is nothing like the declared names.
func (w *osaRows) distanceWithin(a, b []rune, limit int) int {
	n := len(b) + 1
	if cap(w.cur) < n {
		w.prev2, w.prev, w.cur = make([]int, n), make([]int, n), make([]int, n)
	}
	// The rows turn over in locals only: storing them back in w would make
	// the caller's arrays escape.
	prev2, prev, cur := w.prev2[:n], w.prev[:n], w.cur[:n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j < n; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
			rowMin = min(rowMin, d)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[n-1]
}
