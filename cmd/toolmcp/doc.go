// Toolmcp serves toolgen's builtin tools (Read, Write, Edit, Glob, Grep,
// Bash, BashOutput, KillShell, TodoWrite, and ToolSearch when some tools
// are deferred) over the Model Context Protocol, confined to one directory.
// Every call passes the executor's gate: the allow-list, the schema gate,
// then the tool.
//
// Usage:
//
//	toolmcp -root DIR [-allow ENTRY]... [-schema-mode off|warn|enforce] [-defer NAME]... [-http ADDR]
//
// By default toolmcp speaks MCP over standard input and output, the way an
// MCP host (Claude Desktop, an IDE) starts a local server:
//
//	go run github.com/toolgen/toolgen/cmd/toolmcp -root "$HOME/project" -allow Read -allow "Grep($HOME/project/**)"
//
// Logs go to standard error, never to standard output, which is the MCP
// channel.
//
// The flags are:
//
//	-root DIR
//		Required. The directory the file tools are confined to (through an
//		os.Root: neither ".." nor a symbolic link leaves it) and the
//		working directory of every call, Bash's included. A relative DIR is
//		made absolute first; permission patterns are matched against that
//		absolute path.
//	-allow ENTRY
//		An allow-list entry, Name or Name(pattern), as package
//		github.com/toolgen/toolgen/runtime/permission reads it; repeat the
//		flag for more entries (one entry per flag: patterns may contain
//		commas). Tools not on the list are not offered, and a call to one
//		is answered "not allowed". Without the flag every builtin tool is
//		allowed.
//	-schema-mode off|warn|enforce
//		What the schema gate does with arguments that break a tool's
//		schema: skip the check, log and run anyway (warn, the default), or
//		refuse the call with the violations as its error result.
//	-defer NAME
//		Register the builtin tool NAME as deferred: it is left out of
//		tools/list until a ToolSearch call finds it, which then sends
//		notifications/tools/list_changed. Repeatable. Deferring any tool
//		adds the ToolSearch tool; ToolSearch itself cannot be deferred.
//	-http ADDR
//		Serve streamable HTTP on ADDR (host:port; port 0 picks a free one)
//		instead of stdio. The address actually used is logged. The
//		endpoint has no authentication: bind it to a loopback address
//		(127.0.0.1:8080); toolmcp warns when it is not.
//
// # State
//
// One toolmcp process serves one agent: every call starts from the same tool
// context, so the tools share one run's state — the catalog view whose
// activations ToolSearch records, the set of files read (Write and Edit
// refuse to change a file that was not read first), TodoWrite's list and
// the background commands BashOutput reads. That is right for stdio, which
// has exactly one client. Over HTTP, every session shares that state too: a
// tool activated by one session is offered to all of them (each gets
// notifications/tools/list_changed), and a file read in one session may be
// edited from another. Run one process per agent when that matters.
//
// # Exit status
//
// toolmcp exits 0 when the client closes the connection or on SIGINT or
// SIGTERM (calls in flight are cancelled and background commands killed),
// 2 on a usage error (a missing -root, a flag value it cannot read, an
// allow-list entry it cannot parse, an unknown tool to defer) and 1 when
// serving fails.
package main
