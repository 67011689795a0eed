package catalog

import (
	"strings"
	"unicode"
)

// QueryKind is the form of a parsed query.
type QueryKind int

const (
	// KeywordQuery ranks every deferred tool by the query's words.
	KeywordQuery QueryKind = iota
	// SelectQuery names deferred tools exactly: "select:Read,Edit".
	SelectQuery
	// RequiredQuery keeps the deferred tools whose name contains a required
	// word and ranks them by the rest: "+slack send".
	RequiredQuery
)

// String returns "keywords", "select" or "required".
func (k QueryKind) String() string {
	switch k {
	case SelectQuery:
		return "select"
	case RequiredQuery:
		return "required"
	}
	return "keywords"
}

// selectPrefix introduces a select query; it is matched without regard to
// case.
const selectPrefix = "select:"

// Query is a parsed search query.
type Query struct {
	// Kind is the query's form.
	Kind QueryKind
	// Names are the tool names of a select query, normalised, without
	// duplicates, in the order given; at most MaxSelectNames.
	Names []string
	// Required is the word a required query's tool names must contain,
	// lower-cased.
	Required string
	// Text is what is ranked: the keywords of a keyword query, the rest of
	// a required query (possibly empty).
	Text string
}

// IsEmpty reports whether the query asks for nothing: no keywords, no
// names and no required word.
func (q Query) IsEmpty() bool {
	return q.Text == "" && len(q.Names) == 0 && q.Required == ""
}

// ParseQuery parses a search query. After surrounding whitespace is
// trimmed (and the text cut to MaxQueryBytes):
//
//   - "select:A,B" (the prefix in any case) is a SelectQuery: names are
//     separated by commas (or whitespace), trimmed and normalised like the
//     registry's ("functions.Read" is "Read"); empty segments and
//     repeated names are dropped; names keep their case, because tool names
//     are case-sensitive.
//   - "+word rest" is a RequiredQuery: word (up to the first whitespace,
//     lower-cased) must occur in a tool's name, matched without regard to
//     case; rest ranks the tools. A lone "+" or "+ rest" has no required
//     word and is a keyword query over rest.
//   - anything else is a KeywordQuery over the whole text.
//
// Runs of whitespace in the text count as one space. Case in keywords does
// not matter to any strategy.
func ParseQuery(s string) Query {
	s = strings.TrimSpace(clip(s, MaxQueryBytes))
	if len(s) >= len(selectPrefix) && strings.EqualFold(s[:len(selectPrefix)], selectPrefix) {
		return Query{Kind: SelectQuery, Names: parseNames(s[len(selectPrefix):])}
	}
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		i := strings.IndexFunc(rest, unicode.IsSpace)
		if i < 0 {
			i = len(rest)
		}
		word, rest := rest[:i], collapse(rest[i:])
		if word == "" {
			return Query{Kind: KeywordQuery, Text: rest}
		}
		return Query{Kind: RequiredQuery, Required: strings.ToLower(word), Text: rest}
	}
	return Query{Kind: KeywordQuery, Text: collapse(s)}
}

func parseNames(s string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, seg := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		name := normalizeName(seg)
		if name == "" || seen[name] {
			continue
		}
		if len(out) == MaxSelectNames {
			break
		}
		seen[name] = true
		out = append(out, name)
	}
	return out
}

// collapse trims s and turns each run of whitespace into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
