package annotations

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Pos is a position in a source file. Columns count bytes from 1.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return "-"
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Shift returns p moved n bytes to the right on its line.
func (p Pos) Shift(n int) Pos {
	if p.Col > 0 {
		p.Col += n
	}
	return p
}

// An Error is a mistake in the annotations, at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// An ErrorList collects every mistake of one run.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Sort orders the list by file, line and column, and drops exact duplicates
// (a file loaded in a package and in its test variant reports twice).
func (l *ErrorList) Sort() {
	slices.SortStableFunc(*l, func(a, b *Error) int {
		return cmp.Or(
			cmp.Compare(a.Pos.File, b.Pos.File),
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			cmp.Compare(a.Msg, b.Msg))
	})
	*l = slices.CompactFunc(*l, func(a, b *Error) bool { return *a == *b })
}

func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Err returns nil for an empty list and the list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// closest returns the candidate nearest to s by edit distance, when it is
// near enough to be a likely typo.
func closest(s string, candidates []string) (string, bool) {
	best, bestD := "", -1
	for _, c := range candidates {
		d := distance(s, c)
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > max(2, len(s)/3) {
		return "", false
	}
	return best, true
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
