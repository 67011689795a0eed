package catalog

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"runJarAgent", []string{"run", "jar", "agent"}},
		{"HTTPServer", []string{"http", "server"}},
		{"get_current_weather", []string{"get", "current", "weather"}},
		{"kebab-case-name", []string{"kebab", "case", "name"}},
		{"log10 and sha256Sum", []string{"log", "10", "and", "sha", "256", "sum"}},
		{"parseJSON", []string{"parse", "json"}},
		{"IDs", []string{"i", "ds"}},
		{"ABC", []string{"abc"}},
		{"A", []string{"a"}},
		{"x.y/z  w", []string{"x", "y", "z", "w"}},
		{"查询天气", []string{"查询", "询天", "天气"}},
		{"天", []string{"天"}},
		{"a天b", []string{"a", "天", "b"}},
		{"北京weather上海 天气", []string{"北京", "weather", "上海", "天气"}},
		{"東京の天気", []string{"東京", "京の", "の天", "天気"}},
		{"Ünïcode Straße", []string{"ünïcode", "straße"}},
		{"", nil},
		{"  _-.  ", nil},
	}
	for _, tt := range tests {
		var got []string
		splitWords(tt.in, func(w []byte) { got = append(got, string(w)) })
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("splitWords(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestStem(t *testing.T) {
	// A word, its plural and its -ing and -ed forms share a stem (the
	// hand-written stemmer this replaced split movie from movies).
	groups := [][]string{
		{"movie", "movies"},
		{"file", "files"},
		{"query", "queries"},
		{"city", "cities"},
		{"create", "created", "creates", "creating"},
		{"run", "running", "runs"},
		{"book", "booked", "booking", "books"},
		{"stop", "stopped", "stopping", "stops"},
		{"box", "boxes"},
		{"match", "matches", "matched", "matching"},
		{"reserve", "reserved", "reserving", "reservation"},
		{"calculate", "calculated", "calculating", "calculates"},
	}
	for _, g := range groups {
		for _, w := range g[1:] {
			if stem(w) != stem(g[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want equal", w, stem(w), g[0], stem(g[0]))
			}
		}
	}
	// Unrelated words stay apart, and words that are not lower-case ASCII
	// letters are their own stem.
	for _, pair := range [][2]string{{"string", "stress"}, {"news", "new"}, {"us", "use"}, {"gas", "ga"}} {
		if stem(pair[0]) == stem(pair[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q; want different", pair[0], pair[1], stem(pair[0]))
		}
	}
	for _, w := range []string{"10", "256", "straße", "查询", "h2o", "a", "is"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q, want it unchanged", w, got)
		}
	}
}

func TestQueryTermsBounds(t *testing.T) {
	long := strings.Repeat("word ", MaxQueryBytes) // far past the byte bound
	// The text is cut at MaxQueryBytes, which here falls inside a word.
	if diff := cmp.Diff([]string{"word", "w"}, queryTerms(long, words)); diff != "" {
		t.Errorf("queryTerms (-want +got):\n%s", diff)
	}
	var b strings.Builder
	for i := range 2 * MaxQueryTerms {
		b.WriteString("w")
		b.WriteString(strings.Repeat("x", i%7+1))
		b.WriteString(string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + " ")
	}
	if got := len(queryTerms(b.String(), words)); got > MaxQueryTerms {
		t.Errorf("got %d terms, want at most %d", got, MaxQueryTerms)
	}
	if got := clip("héllo", 2); got != "h" {
		t.Errorf("clip cut a rune: %q", got)
	}
}
