// Package ask lets a tool ask during its call: the user, through the
// host (MCP's elicitation), or the host's model (MCP's sampling). The
// caller that runs the tool binds the ways to ask in the call's
// tool.Context (ElicitKey, SampleKey); an MCP server does for every call
// whose client declared the capability. Elsewhere Elicit and Sample return
// ErrNotSupported, so a tool can fall back on asking in its answer.
package ask
