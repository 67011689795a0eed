package eval

import "hash/fnv"

// Halves names the two halves of the fixed 2-fold split.
var Halves = [2]string{"A", "B"}

// Half returns the half (0 for A, 1 for B) a query belongs to in the fixed
// 2-fold split: the low bit of the FNV-1a hash of its id (of its text when
// it has no id). The split depends on nothing but the query, so it is the
// same on every run and for every strategy, and a knob chosen on one half
// is measured on requests it never saw.
func Half(q Query) int {
	key := q.ID
	if key == "" {
		key = q.Query
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	return int(h.Sum32() & 1)
}

// InHalf returns a filter for Aggregate keeping the queries of half h.
func InHalf(queries []Query, h int) func(int) bool {
	return func(i int) bool { return Half(queries[i]) == h }
}
