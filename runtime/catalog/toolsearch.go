package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// The ToolSearch tool's limits on max_results: absent means
// DefaultMaxResults, and any value is clamped to [1, MaxResultsLimit].
const (
	DefaultMaxResults = 5
	MaxResultsLimit   = 20
)

// The ToolSearch tool's failures, worded as the design words them (models
// learn these sentences, so they break the lower-case rule on purpose).
var (
	// ErrEmptyQuery is the answer to a query that is empty or all blank.
	ErrEmptyQuery = errors.New("Query cannot be empty")
	// ErrNoView is the answer when the tool context carries no view
	// (nothing bound to ViewKey): a server set up without one. The
	// sentence tells the model that searching cannot work here and the
	// operator what to bind.
	ErrNoView = errors.New("ToolSearch is not set up on this server: the call's tool context has no catalog view (the operator binds catalog.ViewKey to the run's view, as mcpbridge.Serve does)")
)

// ClampMaxResults clamps n to [1, MaxResultsLimit]. Out-of-range values are
// corrected, not rejected: 0 and negatives give 1, large values give
// MaxResultsLimit.
func ClampMaxResults(n int) int { return min(max(n, 1), MaxResultsLimit) }

// Function is one tool in the ToolSearch tool's answer.
type Function struct {
	// Name is the tool's registered name.
	Name string `json:"name"`
	// Description is the tool's description.
	Description string `json:"description"`
	// Parameters is the tool's full input schema.
	Parameters map[string]any `json:"parameters"`
}

// SearchResponse is the ToolSearch tool's answer, {"functions": [...]}.
type SearchResponse struct {
	// Functions are the tools found, best first; never null in the JSON.
	Functions []Function `json:"functions"`
}

// ToolSearch does the work of the ToolSearch tool, which is a thin wrapper
// around it: it finds the run's view in tc (ViewKey), searches with query
// (see ParseQuery), at most ClampMaxResults(maxResults) results, activates
// exactly the tools it returns, and gives back their full definitions as
// {"functions": [{"name": ..., "description": ..., "parameters": {...}}]}.
//
// Deferred tools for which filter(name) is false (filter may be nil), or
// which the view's restrictions exclude, are never returned nor activated.
// No match is not an error: the answer is {"functions": []}. A query that is
// empty after trimming whitespace is ErrEmptyQuery (checked first); a
// context without a view is ErrNoView. A tool without a schema is shown
// with an empty object schema; a tool whose schema cannot be encoded as
// JSON is left out (and not activated).
//
// The wrapper declares max_results with a default of DefaultMaxResults, so
// an absent max_results arrives here as 5; the value passed here is only
// clamped.
func ToolSearch(tc tool.Context, query string, maxResults int, filter func(name string) bool) (string, error) {
	if strings.TrimSpace(query) == "" {
		return "", ErrEmptyQuery
	}
	v, ok := FromContext(tc)
	if !ok {
		return "", ErrNoView
	}
	ms := v.Search(query, ClampMaxResults(maxResults), Filter(filter))
	var buf bytes.Buffer
	buf.WriteString(`{"functions": [`)
	var names []string
	for _, m := range ms {
		item, err := encodeFunction(m.Name, m.Tool)
		if err != nil {
			continue
		}
		if len(names) > 0 {
			buf.WriteString(", ")
		}
		buf.Write(item)
		names = append(names, m.Name)
	}
	buf.WriteString("]}")
	v.act.add(names)
	return buf.String(), nil
}

func encodeFunction(name string, t tool.Tool) (b []byte, err error) {
	def, err := definitionOf(t)
	if err != nil {
		return nil, err
	}
	params := def.InputSchema
	if params == nil {
		params = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	defer func() {
		if p := recover(); p != nil {
			err = errors.New("encoding the schema panicked")
		}
	}()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Function{Name: name, Description: def.Description, Parameters: params}); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
