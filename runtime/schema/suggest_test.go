package schema

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestSuggest(t *testing.T) {
	grep := []string{"-A", "-B", "-C", "-i", "-n", "glob", "head_limit", "multiline", "offset", "output_mode", "path", "pattern", "type"}
	tests := []struct {
		name       string
		in         string
		candidates []string
		want       string
		ok         bool
	}{
		{"transposition", "file_paht", []string{"content", "file_path"}, "file_path", true},
		{"missing letter", "patern", grep, "pattern", true},
		{"extra letter", "pathh", grep, "path", true},
		{"missing underscore", "outputmode", grep, "output_mode", true},
		{"dash for underscore", "head-limit", grep, "head_limit", true},
		{"case only", "Pattern", grep, "pattern", true},
		{"upper flag", "-a", grep, "-A", true},
		{"case beats other one-edit", "-c", grep, "-C", true},
		{"unrelated", "zzz", grep, "", false},
		{"unrelated long", "recursive", grep, "", false},
		{"empty name", "", grep, "", false},
		{"no candidates", "path", nil, "", false},
		{"single letter unrelated", "x", []string{"y"}, "", false},
		{"prefix too short", "p", []string{"path"}, "", false},
		{"tool name", "read", []string{"Bash", "Edit", "Glob", "Grep", "Read", "Write"}, "Read", true},
		{"tool typo", "Raed", []string{"Bash", "Edit", "Glob", "Grep", "Read", "Write"}, "Read", true},
		{"tie: lexically first", "-x", []string{"-n", "-i"}, "-i", true},
		{"case-insensitive distance first", "Ab", []string{"Ac", "ab"}, "ab", true},
		{"huge name", strings.Repeat("a", 10000), []string{strings.Repeat("a", 9999)}, "", false},
		{"empty candidate skipped", "a", []string{""}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Suggest(tt.in, tt.candidates)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Suggest(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSuggestOrderIndependent(t *testing.T) {
	// Two candidates at the same distance either way round.
	a := []string{"pathB", "pathA"}
	b := []string{"pathA", "pathB"}
	ga, _ := Suggest("pathC", a)
	gb, _ := Suggest("pathC", b)
	if ga != gb || ga != "pathA" {
		t.Errorf("Suggest depends on order: %q vs %q, want pathA", ga, gb)
	}
	// Same case-insensitive distance, different case-sensitive distance.
	g, _ := Suggest("PathX", []string{"pathY", "PathZ"})
	if g != "PathZ" {
		t.Errorf("Suggest(PathX) = %q, want PathZ (closer with case)", g)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"abc", "abc", 0},
		{"abc", "acb", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment, not full Damerau
		{"file_paht", "file_path", 1},
	}
	var w osaRows
	for _, tt := range tests {
		if got := w.distance([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestSuggestNoAllocations: a model's unknown keys are frequent, so a
// suggestion among short names allocates nothing.
func TestSuggestNoAllocations(t *testing.T) {
	names := []string{"pattern", "path", "glob", "type", "output_mode", "-i", "-n", "multiline", "-A", "-B", "-C", "head_limit", "offset"}
	var got string
	n := testing.AllocsPerRun(100, func() { got, _ = Suggest("Output_Mod", names) })
	if got != "output_mode" {
		t.Fatalf("Suggest = %q, want output_mode", got)
	}
	if n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

// TestDistanceWithin: the cut-off distance agrees with the full one
// whenever that is within the limit, and exceeds the limit otherwise.
func TestDistanceWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := []rune("abcab_")
	word := func() []rune {
		w := make([]rune, rng.IntN(9))
		for i := range w {
			w[i] = letters[rng.IntN(len(letters))]
		}
		return w
	}
	// osa is the textbook full-matrix optimal string alignment distance.
	osa := func(a, b []rune) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				cost := 1
				if a[i-1] == b[j-1] {
					cost = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
				if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
					d[i][j] = min(d[i][j], d[i-2][j-2]+1)
				}
			}
		}
		return d[len(a)][len(b)]
	}
	var rows osaRows
	for range 50000 {
		a, b, limit := word(), word(), rng.IntN(5)
		full := osa(a, b)
		if d := rows.distance(a, b); d != full {
			t.Fatalf("distance(%q, %q) = %d, want %d", string(a), string(b), d, full)
		}
		got := rows.distanceWithin(a, b, limit)
		if (full <= limit && got != full) || (full > limit && got <= limit) {
			t.Fatalf("distanceWithin(%q, %q, %d) = %d; distance = %d", string(a), string(b), limit, got, full)
		}
	}
}
