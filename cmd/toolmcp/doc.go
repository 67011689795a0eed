// Toolmcp serves toolgen's builtin tools (Read, Write, Edit, Glob, Grep,
// Bash, BashOutput, KillShell, TodoWrite, and ToolSearch when some tools
// are deferred) over the Model Context Protocol, confined to one directory.
// Every call passes the executor's gate: the allow-list, the schema gate,
// then the tool.
//
// Usage:
//
//	toolmcp -root DIR [-allow ENTRY]... [-schema-mode off|warn|enforce] [-defer NAME]... [-sandbox auto|on|off] [-allow-socket PATH]... [-pass-env NAME]... [-http ADDR [-origin ORIGIN]... [-store URL] [-replica NAME] [-max-sessions N] [-idle-timeout D]]
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
//	-sandbox auto|on|off
//		Where Bash (and its background commands) run. on: in the
//		bubblewrap sandbox (package github.com/toolgen/toolgen/runtime/shell,
//		Sandbox): the host file system read-only except DIR, a private /tmp,
//		no network, credentials under $HOME hidden, resource limits; toolmcp
//		does not start (exit status 1) when this machine cannot run it
//		(bwrap missing, or not allowed to create namespaces). off: on the
//		local shell, with this user's rights. auto, the default: the
//		sandbox when this machine can run it, else the local shell, with one
//		warning in the log saying so. What was chosen is logged at start.
//	-allow-socket PATH
//		A host unix socket (a database the tests need, say) that sandboxed
//		commands may connect to though the network is off; it must exist.
//		Repeatable. The sandbox then shows the host through a narrower
//		view so that no other socket's path resolves (see
//		shell.SandboxOptions.AllowUnixSockets); not with -sandbox off,
//		where every socket is reachable anyway.
//	-pass-env NAME
//		An environment variable Bash's commands inherit from toolmcp's
//		environment, besides the minimal set they always get (PATH, HOME,
//		USER, LOGNAME, SHELL, TERM, TMPDIR, TZ, LANG, LANGUAGE, LC_*);
//		NAME* passes every variable with that prefix and a lone * the whole
//		environment. Repeatable. Without it, tokens and keys in toolmcp's
//		environment do not reach the commands.
//	-http ADDR
//		Serve streamable HTTP on ADDR (host:port; port 0 picks a free one)
//		instead of stdio. The address actually used is logged. The
//		endpoint has no authentication: bind it to a loopback address
//		(127.0.0.1:8080); toolmcp warns when it is not.
//	-origin ORIGIN
//		A browser origin (scheme://host[:port], such as
//		https://app.example.com) the HTTP endpoint serves; * serves every
//		origin. Repeatable; HTTP only. Without it only loopback origins
//		(http or https on localhost, 127.0.0.0/8, [::1], any port) are
//		served; once it is given, only the origins named. A request from
//		any other origin is answered 403, so that a web page cannot drive
//		the server; clients that send no Origin header (not browsers) are
//		always served. Request bodies are bounded at 4 MiB (413 beyond).
//	-store URL
//		Keep every session's state (todo list, files read, tools
//		ToolSearch activated, which replica runs each background command)
//		in Redis at URL (redis://host:port/db, rediss://…,
//		unix:///path/to/socket), shared by the replicas serving one
//		endpoint: any replica then serves any session. HTTP only; in
//		memory by default.
//	-replica NAME
//		This replica's name among those sharing -store (letters, digits,
//		'-', '.', '_'); the IDs of its background commands start with it
//		("web-2:bash_1"), and a BashOutput or KillShell that reaches
//		another replica is told where the command runs. Default: the host
//		name and process id.
//	-max-sessions N
//		The most HTTP sessions served at once (default 1000); an
//		initialize beyond it is answered 503. A session whose client sends
//		nothing after initialize is released after 10 seconds.
//	-idle-timeout D
//		Release an HTTP session that sent no request for D (default 10m).
//
// # Protocol revisions
//
// Over HTTP every revision the go-sdk speaks is served on one listener: a
// 2026-07-28 request (its MCP-Protocol-Version header or _meta, or
// server/discover) statelessly, as that revision asks, the older ones on
// sessions. A stateless request continues the state of the conversation it
// names in _meta["io.toolgen/conversation"]; one that names none gets a
// fresh run.
//
// # Protocol robustness
//
// Over stdio a line that is not JSON is answered with a -32700 error, and
// a batch or a line that is not a JSON-RPC message with -32600; the
// session goes on. At the end of stdin the requests already read are
// answered before toolmcp exits. A call the client cancels
// (notifications/cancelled) is stopped and not answered, over stdio and
// over HTTP. An unknown or denied tool is the JSON-RPC error -32602 with
// the gate's sentence; the executor's warnings about a call also reach the
// host as notifications/message. Over HTTP, a DELETE of a session, and the
// close of a session idle for -idle-timeout, cancel its calls in flight at once; a client whose
// stream of a call broke resumes it (Last-Event-ID) from the events kept in
// memory for the session.
//
// # State
//
// Every MCP session is served from a run of its own: the builtin tools
// are built anew for it, with their own todo list and background-command
// manager, in a catalog of their own, and every call of the session starts
// from the session's tool context. So one session's state is not another's
// — the set of files read (Write and Edit refuse to change a file that was
// not read first, in the same session), TodoWrite's list, the background
// commands BashOutput reads and KillShell stops, and the deferred tools
// ToolSearch activated (notifications/tools/list_changed goes to the
// session that searched, and its tools/list alone grows). Over stdio there
// is one session, so one run. Over HTTP a session ends when the client
// deletes it, or after -idle-timeout without a request; its background
// commands are then stopped and its state dropped. A client that comes back
// later is answered 404 and starts a new session.
//
// # Exit status
//
// toolmcp exits 0 when the client closes the connection or on SIGINT or
// SIGTERM (calls in flight are cancelled and background commands killed),
// 2 on a usage error (a missing -root, a flag value it cannot read, an
// allow-list entry it cannot parse, an unknown tool to defer, a -pass-env
// entry that is not a variable name, an -origin that is not an origin or
// is given without -http, a -store that is not a Redis URL) and 1 when
// -sandbox on finds no sandbox, the -store server does not answer, or
// serving fails.
package main
