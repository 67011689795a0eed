package main

import (
	"context"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// search_issues is not one of the suite's fixtures (no scenario lists or
// calls it): it is the typed-output tool make conformance calls from the
// official TypeScript SDK's client (tsclient/check.mjs), which validates a
// result's structured content against the tool's output schema and throws
// on a mismatch. Its run leaves slices and maps nil where nothing matched,
// as Go code does; the generated tool sends them as [] and {}.

// SearchIssuesInput is the input of search_issues.
//
//tool:name search_issues
//tool:description Searches the issues whose title contains the query.
//tool:concurrency safe
//tool:side-effect read-only
//tool:output SearchResult
type SearchIssuesInput struct {
	// Words to find in a title, case-insensitive.
	Query string `json:"query" tool:"required"`
}

// SearchResult is what search_issues returns.
type SearchResult struct {
	// The query searched for.
	Query string `json:"query" tool:"required"`
	// The issues found, lowest number first.
	Issues []IssueSummary `json:"issues" tool:"required"`
	// How many issues found carry each label.
	LabelCounts map[string]int `json:"label_counts" tool:"required"`
}

// IssueSummary is one issue found.
type IssueSummary struct {
	// The issue's number.
	Number int `json:"number" tool:"required"`
	// The title.
	Title string `json:"title" tool:"required"`
	// The labels.
	Labels []string `json:"labels" tool:"required"`
}

// issues are the fixture's issues; #2 has no labels (a nil slice).
var issues = []IssueSummary{
	{Number: 1, Title: "Crash on start", Labels: []string{"bug"}},
	{Number: 2, Title: "Document the output directive"},
}

// searchIssues returns nil slices and a nil map when nothing matches.
func searchIssues(_ context.Context, in SearchIssuesInput, _ tool.Context) (SearchResult, error) {
	res := SearchResult{Query: in.Query}
	q := strings.ToLower(in.Query)
	for _, is := range issues {
		if !strings.Contains(strings.ToLower(is.Title), q) {
			continue
		}
		res.Issues = append(res.Issues, is)
		for _, l := range is.Labels {
			if res.LabelCounts == nil {
				res.LabelCounts = map[string]int{}
			}
			res.LabelCounts[l]++
		}
	}
	return res, nil
}
