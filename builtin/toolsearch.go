package builtin

import (
	"context"
	"slices"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The ToolSearch tool joins the builtin set here (see register.go's makers).
// It is made only where it can find something: when some tools are
// deferred (RegisterCatalog with Options.Deferred), or when Options.Tools
// names it.
func init() {
	addTool(ToolSearchName, func(e *env) (tool.Tool, error) {
		if len(e.opts.Deferred) == 0 && !slices.Contains(e.opts.Tools, ToolSearchName) {
			return nil, nil
		}
		return newToolSearchTool(toolSearch), nil
	})
}

// ToolSearchInput is the input of the ToolSearch tool.
//
//tool:name ToolSearch
//tool:unexported
//tool:title Search tools
//tool:keywords find tools, discover tools, load tools, more tools, capabilities
//tool:description Searches the deferred tools and loads the ones it finds, so that they can be called from the next turn on. A query is keywords ("read file"), "select:Name1,Name2" for exact names, or "+word rest" for tools whose name contains word, ranked by the rest. Returns {"functions": [...]} with each match's name, description and parameters; no match is an empty list.
//tool:concurrency sequential
//tool:side-effect read-only
//tool:loading eager
type ToolSearchInput struct {
	// What to look for: keywords, "select:A,B" or "+word rest".
	Query string `json:"query" tool:"required"`
	// How many tools to return at most.
	MaxResults int `json:"max_results,omitempty" tool:"default=5,min=1,max=20,clamp"`
}

// toolSearch runs a search in the run's catalog view and activates what it
// returns. Deferred tools the run's allow-list excludes are never returned:
// the executor puts its offer filter in the context.
func toolSearch(_ context.Context, in ToolSearchInput, tc tool.Context) (string, error) {
	return catalog.ToolSearch(tc, in.Query, in.MaxResults, tc.OfferFilter())
}
