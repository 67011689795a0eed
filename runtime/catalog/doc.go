// Package catalog holds an agent's tools as eager or deferred and finds
// deferred tools by search, so that a model with hundreds of tools is shown
// a few and finds the rest.
//
// # Catalog and views
//
// A [Catalog] is shared by every run of an agent and is safe for concurrent
// use. [Catalog.Register] adds a tool with the loading it declares
// (tool.Definition.Loading: a generated tool's //tool:loading directive, eager
// otherwise); [Catalog.RegisterAs] overrides it. Eager tools are always
// offered; deferred tools are offered once a run has found them. Names are
// normalised as the registry normalises them (a leading "functions." is
// removed); a duplicate name is an error wrapping [ErrDuplicate].
//
// Each run gets a [View] from [Catalog.NewRun]: the catalog plus the run's
// own activation set. A view is a [tool.ToolSource] for [tool.NewExecutor]:
// [View.All] gives the eager tools and the tools this run activated, in
// registration order, and is meant to be read again on every iteration of
// the agent loop; [View.Find] reaches every tool. A view refuses
// Register, Unregister and Clear with [ErrReadOnly]. [View.Fork] gives a run
// started by this one (a sub-agent, a skill) a fresh view that inherits no
// activation. [InSession] with a [SessionStore] lets activations survive
// across the turns of one session; its documentation says when to use it.
//
//	cat := catalog.New()
//	_ = cat.Register(readTool)                    // eager
//	_ = cat.RegisterAs(slackTool, tool.Deferred)  // found by search
//	view := cat.NewRun(catalog.Restrict(allow.Offers))
//	exec := tool.NewExecutor(view, tool.WithAllowList(allow))
//	tc := tool.NewContext(catalog.ViewKey.Bind(view))
//
// Activation exposes a definition; it grants no permission. The allow-list
// still decides every call, and [Restrict] (or a [Filter] on one search)
// keeps a search from returning, and so activating, a tool the run may not
// call.
//
// # Queries
//
// [ParseQuery] reads three forms: keywords ("read file"); "select:A,B", the
// deferred tools of exactly those names, in that order, missing ones
// skipped; and "+word rest", the deferred tools whose name contains word,
// ranked by rest (by name when rest is empty). [Catalog.Search] and
// [View.Search] are pure; [View.SearchAndActivate] and [ToolSearch]
// activate what they return. Work per query is bounded: see
// [MaxQueryBytes], [MaxQueryTerms] and [MaxSelectNames].
//
// # Ranking
//
// Ranking is a [Strategy], which builds an [Index] the catalog feeds one
// tool at a time as tools are registered. [BM25], the default, is BM25F
// over the name, the description, the parameters' names and descriptions
// and the tool's search keywords ([tool.Definition.Keywords], from
// //tool:keywords), with camelCase, snake_case and digit splitting,
// stopwords, Porter2 (Snowball English) stem matches at half weight, text
// without spaces (Chinese, Japanese, Korean) as character bigrams, and a
// boost for tools whose whole name the query covers. Its index selects the
// best tools itself ([TopIndex]) with a bounded heap over pooled buffers:
// a keyword search allocates a few times whatever the catalog's size.
// [BM25With] also offers pseudo-relevance feedback ([Feedback]) and term
// associations learned from the catalog ([Associations]); both are off by
// default, because neither beat the default on the half of the evaluation
// set it was not tuned on. [Keyword] is the design's first strategy, kept
// as a baseline. [Hybrid] fuses a lexical strategy with an [Embedder]'s
// vectors by reciprocal-rank fusion, for programs that have an embedding
// model.
//
// On the project's tool-retrieval set (2,015 tools, 1,150 requests;
// cmd/tooleval, make eval) the default reaches recall@5 0.904 and 0.922 on
// the two halves of a fixed 2-fold split (0.913 on the whole, MRR 0.850),
// against 0.776 for Keyword and 0.891 for plain BM25. BenchmarkSearch
// gives its cost at 1,000, 10,000 and 100,000 tools.
//
// # The ToolSearch tool
//
// [ToolSearch] is the whole behaviour of the builtin ToolSearch tool, which
// wraps it: it finds the view under [ViewKey] in the tool context, searches,
// activates exactly what it returns and answers with the definitions as
// {"functions": [...]}; its failures are [ErrEmptyQuery] and [ErrNoView].
package catalog
