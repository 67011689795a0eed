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
		{"查询天气", []string{"查", "询", "天", "气"}},
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
	// Related forms meet; unrelated short words are left alone.
	groups := [][]string{
		{"file", "files"},
		{"query", "queries"},
		{"create", "created", "creates", "creating"},
		{"run", "running"},
		{"box", "boxes"},
		{"match", "matches"},
		{"stop", "stopped"},
	}
	for _, g := range groups {
		for _, w := range g[1:] {
			if stem(w) != stem(g[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want equal", w, stem(w), g[0], stem(g[0]))
			}
		}
	}
	for _, w := range []string{"string", "status", "address", "analysis", "bus", "10", "gas"} {
		if got := stem(w); got != strings.TrimSuffix(w, "e") && got != w {
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
