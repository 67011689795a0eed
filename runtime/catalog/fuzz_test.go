package catalog_test

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// FuzzParseQuery checks the parser's promises on any input, and that every
// parsed query runs through both strategies without panicking and within
// max results. The seeds run as normal tests.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"", " ", "read file", "select:Read,Edit", "SELECT: a,,b , a", "select:",
		"+slack send", "+", "+ x", "+SLACK\tsend", "select:functions.Read",
		"查询天气 weather", "HTTPServer runJarAgent log10", strings.Repeat("long query ", 500),
		"\x00\xff+select:", "+select:x", "select:+x",
	} {
		f.Add(s)
	}
	cats := []*catalog.Catalog{fixture(f), fixture(f, catalog.WithStrategy(catalog.Keyword()))}
	f.Fuzz(func(t *testing.T, s string) {
		q := catalog.ParseQuery(s)
		switch q.Kind {
		case catalog.SelectQuery:
			if len(q.Names) > catalog.MaxSelectNames {
				t.Errorf("%d names", len(q.Names))
			}
			seen := map[string]bool{}
			for _, n := range q.Names {
				if n == "" || seen[n] || strings.ContainsAny(n, ", \t\n") || tool.NormalizeName(n) != n {
					t.Errorf("bad name %q in %q", n, q.Names)
				}
				seen[n] = true
			}
			if q.Text != "" || q.Required != "" {
				t.Errorf("select query with text: %+v", q)
			}
		case catalog.RequiredQuery:
			if q.Required == "" || strings.IndexFunc(q.Required, unicode.IsSpace) >= 0 {
				t.Errorf("bad required word %q", q.Required)
			}
		}
		if q.Text != strings.Join(strings.Fields(q.Text), " ") {
			t.Errorf("text not collapsed: %q", q.Text)
		}
		if utf8.ValidString(s) && !utf8.ValidString(q.Text) {
			t.Errorf("valid input gave invalid text %q", q.Text)
		}
		if len(q.Text) > catalog.MaxQueryBytes {
			t.Errorf("text of %d bytes", len(q.Text))
		}
		for _, c := range cats {
			if got := c.Search(s, 3); len(got) > 3 {
				t.Errorf("%d results for max 3", len(got))
			}
		}
	})
}

// FuzzSplitWords checks the tokeniser's promises on any text: every word is
// non-empty, lower-cased, of letters, marks and digits only, and a word of
// a script written without spaces is one or two characters of it.
func FuzzSplitWords(f *testing.F) {
	for _, s := range []string{
		"runJarAgent HTTPServer log10", "查询天气", "北京weather上海 天气", "東京の天気", "天",
		"Ünïcode Straße", "\x00\xff", "ǅemal ῼ", "ABC123def", "  _-.  ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		catalog.SplitWordsForTest(s, func(w []byte) {
			word := string(w)
			if word == "" {
				t.Fatalf("empty word from %q", s)
			}
			n, unspaced := 0, 0
			for _, r := range word {
				n++
				if catalog.IsUnspacedForTest(r) {
					unspaced++
				}
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && r != utf8.RuneError {
					t.Fatalf("word %q from %q holds %q", word, s, r)
				}
			}
			if unspaced > 0 && (unspaced != n || n > 2) {
				t.Fatalf("word %q from %q mixes scripts or is longer than a bigram", word, s)
			}
		})
	})
}
