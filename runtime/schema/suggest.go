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
	return suggest(name, prepare(candidates))
}

// candidate is a name prepared for suggest.
type candidate struct {
	name          string
	folded, runes []rune
}

// prepare turns names into candidates, once per schema.
func prepare(names []string) []candidate {
	out := make([]candidate, 0, len(names))
	for _, n := range names {
		f := foldRunes(n, false)
		if len(f) == 0 || len(f) > suggestMaxRunes {
			continue
		}
		out = append(out, candidate{name: n, folded: f, runes: foldRunes(n, true)})
	}
	return out
}

func suggest(name string, candidates []candidate) (string, bool) {
	a := foldRunes(name, false)
	if len(a) == 0 || len(a) > suggestMaxRunes {
		return "", false
	}
	var (
		exactName []rune
		best      string
		found     bool
		bestD     int
		bestExact int
		rows      osaRows
	)
	for _, c := range candidates {
		b := c.folded
		long, short := max(len(a), len(b)), min(len(a), len(b))
		limit := max(1, long/3)
		if long-short > limit {
			continue
		}
		d := rows.distance(a, b)
		if d > limit || d >= short {
			continue
		}
		if found && d > bestD {
			continue
		}
		if exactName == nil {
			exactName = foldRunes(name, true)
		}
		exact := rows.distance(exactName, c.runes)
		if found && d == bestD && (exact > bestExact || (exact == bestExact && c.name >= best)) {
			continue
		}
		best, found, bestD, bestExact = c.name, true, d, exact
	}
	return best, found
}

// foldRunes returns s as runes, lower-cased unless keepCase.
func foldRunes(s string, keepCase bool) []rune {
	n := 0
	for range s {
		n++
		if n > suggestMaxRunes {
			return make([]rune, n) // only its length is looked at
		}
	}
	r := make([]rune, 0, n)
	for _, c := range s {
		if !keepCase {
			c = unicode.ToLower(c)
		}
		r = append(r, c)
	}
	return r
}

// osaRows holds the three rows the distance computation reuses.
type osaRows struct{ prev2, prev, cur []int }

// distance is the optimal-string-alignment distance between a and b.
func (w *osaRows) distance(a, b []rune) int {
	n := len(b) + 1
	if cap(w.cur) < n {
		w.prev2, w.prev, w.cur = make([]int, n), make([]int, n), make([]int, n)
	}
	prev2, prev, cur := w.prev2[:n], w.prev[:n], w.cur[:n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
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
		}
		prev2, prev, cur = prev, cur, prev2
	}
	w.prev2, w.prev, w.cur = prev2, prev, cur
	return prev[n-1]
}
