// Package mcpbridge connects toolgen's runtime to the Model Context Protocol,
// on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// # Serving tools
//
// [NewServer] serves any tool.ToolSource through a *tool.Executor, so every
// call passes the one gate: permission, schema, execute. tools/list answers
// the definitions the executor offers (Executor.Definitions, re-read before
// every list and after every call), tools/call answers the result as text
// content with isError set for error results, and a change of the offered
// set (ToolSearch activating deferred tools, a registry growing) reaches the
// clients as notifications/tools/list_changed. Every tools/call goes through
// the executor, whatever its name, so an unknown tool or one the allow-list
// denies gets our sentence ("Tool 'X' is not allowed.") as an error result,
// not a protocol error. Arguments that are not an object, or larger than
// tool.MaxInputBytes, are answered the same way, and so are calls made while
// the server shuts down.
//
// A command serving tools needs only a few lines:
//
//	exec := tool.NewExecutor(src, tool.WithAllowList(list), tool.WithSchemaMode(mode))
//	srv := mcpbridge.NewServer(exec, &mcpbridge.ServerOptions{Name: "toolmcp", Context: tc})
//	defer srv.Close()
//	if addr != "" {
//		return srv.ListenAndServe(ctx, addr) // streamable HTTP
//	}
//	return srv.ServeStdio(ctx)
//
// # Using an MCP server's tools
//
// [Tools] and [Register] turn the tools of a connected *mcp.ClientSession
// into tool.Tools, with the server's schemas passed through unchanged (the
// gate checks what it understands and lets the rest through). [Source] is a
// tool.ToolSource that follows the server's list_changed notifications.
// Every call is bounded by its ctx (and by ClientOptions.CallTimeout when
// set); a server that disconnects fails the call with an error result at
// once.
package mcpbridge
