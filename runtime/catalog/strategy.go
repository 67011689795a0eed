package catalog

import (
	"slices"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Document is what a ranking strategy sees of a tool: its name, its
// description, the names and descriptions of its parameters and its search
// keywords.
type Document struct {
	// Name is the tool's registered name.
	Name string
	// Description is the tool's description.
	Description string
	// Parameters are the tool's parameters, nested ones included.
	Parameters []Parameter
	// Keywords are the tool's search hints (tool.Definition.Keywords).
	Keywords []string
}

// Parameter is one parameter of a Document: a property of the input schema,
// at any depth (nested objects' properties and array items' properties
// included, in sorted order at each level).
type Parameter struct {
	// Name is the property's name (its own, not a dotted path).
	Name string
	// Description is the property's description, if any.
	Description string
}

// DocumentOf returns the document of a definition. Keywords are copied.
// Parameters are read from
// the schema's "properties", recursively through nested "properties" and
// "items"; a property's name is listed even when it has no description.
// Schemas the catalog does not understand yield fewer parameters, never an
// error.
func DocumentOf(def tool.Definition) Document {
	d := Document{Name: def.Name, Description: def.Description, Keywords: slices.Clone(def.Keywords)}
	d.Parameters = appendParams(d.Parameters, def.InputSchema, 0)
	return d
}

// maxSchemaDepth bounds the recursion into a (possibly cyclic, hand-built)
// schema.
const maxSchemaDepth = 8

func appendParams(out []Parameter, schema map[string]any, depth int) []Parameter {
	if schema == nil || depth > maxSchemaDepth {
		return out
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			p := Parameter{Name: n}
			sub, _ := props[n].(map[string]any)
			if s, ok := sub["description"].(string); ok {
				p.Description = s
			}
			out = append(out, p)
			out = appendParams(out, sub, depth+1)
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		out = appendParams(out, items, depth+1)
	}
	return out
}

// Strategy is a way of ranking tools for a query. A catalog asks its
// strategy for one Index and feeds it every tool as it is registered.
type Strategy interface {
	// Name identifies the strategy in evaluations and logs.
	Name() string
	// NewIndex returns an empty index.
	NewIndex() Index
}

// Index holds the documents of one catalog for one strategy.
//
// The catalog serialises Add and Remove with its own lock and never runs
// them while a Score is in progress; Score may run concurrently with other
// Score calls and must not modify the index.
type Index interface {
	// Add indexes doc under id. Ids are small non-negative integers the
	// catalog hands out in registration order and never reuses while the
	// document is indexed.
	Add(id int, doc Document)
	// Remove drops the document indexed under id.
	Remove(id int)
	// Score returns, in any order, every indexed document whose score for
	// query is above zero. The query is the raw text; the index tokenises
	// it as it tokenises documents, within the bounds MaxQueryBytes and
	// MaxQueryTerms.
	Score(query string) []Hit
}

// TopIndex is an Index that selects the best hits itself, so that a query
// costs its postings and a bounded heap instead of a hit for every matching
// tool. The catalog calls Top instead of Score when its index has it; the
// BM25 strategy's does.
type TopIndex interface {
	Index
	// Top appends to dst the at most k best hits for query among the
	// documents for which keep(id) is true (keep nil keeps all), best first:
	// by descending score, ties to the lower id. Scores are those Score
	// gives. Like Score, it may run concurrently with other queries.
	Top(query string, k int, keep func(id int) bool, dst []Hit) []Hit
}

// Hit is one scored document.
type Hit struct {
	// ID is the id the document was added under.
	ID int
	// Score is its relevance; only the order of scores matters.
	Score float64
}
