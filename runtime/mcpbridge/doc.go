// Package mcpbridge connects toolgen's runtime to the Model Context Protocol,
// on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// # Serving tools
//
// [NewServer] serves any tool.ToolSource through a *tool.Executor, so every
// call passes the one gate: permission, schema, execute. tools/list answers
// the definitions the executor offers (Executor.Definitions, re-read before
// every list and after every call), tools/call answers the result as MCP
// content with isError set for error results, and a change of the offered
// set (ToolSearch activating deferred tools, a registry growing) reaches the
// clients as notifications/tools/list_changed. Every tools/call goes through
// the executor, whatever its name; an unknown tool or one the allow-list
// denies is answered with the JSON-RPC error MCP names for it, -32602,
// whose message is the gate's sentence ("Unknown tool 'Raed'. Did you mean
// 'Read'?", "Tool 'X' is not allowed."). Arguments that are not an object,
// or larger than jsonscan.MaxBytes, are an error result with our
// sentence, and so are calls made while the server shuts down. No error
// goes out with JSON-RPC code 0, and prompts/* and resources/* are -32601
// on a server that has no prompts or resources (it declares neither;
// ServerOptions.Resources and Prompts add them).
// [ClientLogs] sends what the executor warns about a call to its client as
// notifications/message too.
//
// # Metadata, rich results, progress and logging
//
// tools/list carries each definition's Title, its OutputSchema, and its
// hints (tool.Hints: from the declared side effect, idempotence and
// open-world behaviour) as annotations with every hint said, so that a host
// does not fall back on MCP's defaults (destructive, open-world). A result's
// Parts become text, image, audio, embedded resource and resource link
// content, its Structured value structuredContent (beside the text form, as
// MCP asks). Every call's tool.Context gets a progress reporter, sending
// notifications/progress when the request has a progress token (a report
// that does not grow is dropped), and a logger whose records go out as
// notifications/message at or above the level the client set with
// logging/setLevel; the server declares the logging capability. Where the
// client declared elicitation or sampling and the protocol lets a server ask
// during a call (versions before 2026-07-28), ask.Elicit and ask.Sample
// (package runtime/tool/ask) reach it; elsewhere they return an error
// wrapping ask.ErrNotSupported that says why (the capability is missing; from
// 2026-07-28 a server asks only between rounds of a call, SEP-2322, and a
// tool asks in the middle of its code, which would have to be re-run or
// parked between the client's requests) and that the model may ask in its
// reply and call again. serverInfo's
// version defaults to the serving program's, from its build info.
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
// # Your own tools in one call
//
// [Serve] serves the tools of a catalog with everything the builtin server
// cmd/toolmcp has: a run per session (a catalog view of its own, bound
// under catalog.ViewKey so that ToolSearch finds it), one executor per
// session with the allow-list and the schema gate, session bounds,
// origins, resources and prompts, over stdio or streamable HTTP:
//
//	cat := catalog.New()
//	_ = cat.Register(NewGreetTool(greet))
//	_ = builtin.RegisterCatalog(cat, builtin.Options{Tools: []string{builtin.ToolSearchName}})
//	return mcpbridge.Serve(ctx, cat, &mcpbridge.ServeOptions{
//		Endpoint:  mcpbridge.Endpoint{Addr: "127.0.0.1:8080"}, // none: stdio
//		AllowList: list,
//	})
//
// [SessionServer.ServeEndpoint] is its second half, for a server that
// makes each session's run itself (cmd/toolmcp, whose builtin tools keep
// per-session state in a store).
//
// Resources and prompts are declared in Go ([Resource], [Prompt]) in
// ServerOptions and served by every server; the resources and prompts
// capabilities are declared only when there are some.
//
// # A run per session
//
// A [Server] serves every session from one executor and one tool context,
// which is right for stdio (one client) and for tools without state. When
// the tools keep state for their agent (the files it read, its todo list,
// its background commands, the tools ToolSearch activated for it), serve a
// [SessionServer]: its [SessionFunc] is called once per session and returns
// the session's executor, tool context and a release func, called once the
// session has ended (the client deleted it, its connection closed, or it
// was idle for ServerOptions.SessionTimeout) and its last call returned:
//
//	srv := mcpbridge.NewSessionServer(func(ctx context.Context) (mcpbridge.Session, error) {
//		view := cat.NewRun()
//		return mcpbridge.Session{
//			Executor: tool.NewExecutor(view, tool.WithAllowList(list)),
//			Context:  tool.NewContext(tool.WorkDirKey.Bind(root), catalog.ViewKey.Bind(view)),
//		}, nil
//	}, &mcpbridge.ServerOptions{Name: "toolmcp", SessionTimeout: 30 * time.Minute})
//	defer srv.Close() // ends every session and waits for the releases
//	return srv.ListenAndServe(ctx, addr)
//
// Over HTTP a session's run is made at its first tools/list or tools/call,
// not at initialize; sessions are capped (ServerOptions.MaxSessions, default
// 1,000: an initialize beyond it is answered 503), and a session whose
// client sends nothing after initialize is released after
// ServerOptions.InitTimeout (10 seconds).
//
// # Every revision on one listener, and replicas
//
// The HTTP handlers serve every revision the SDK speaks on one listener: a
// request of 2026-07-28 or later (its MCP-Protocol-Version header, the
// protocol version in its _meta, or server/discover) is served statelessly
// (the SDK's StreamableHTTPOptions.Stateless), the others on sessions. That
// revision has no sessions (SEP-2567); a SessionServer keeps a run per
// conversation the request names in _meta[MetaConversation], and
// [StateKey] gives a SessionFunc the key of its run's state: the session
// id, or the conversation. With ServerOptions.Store (runtime/store, Redis
// in runtime/store/redisstore) the replicas behind one endpoint share the
// sessions: each session is recorded there, and a request naming a session
// another replica opened is served here by a run whose Session.Load and
// Session.Call keep its state in the store.
//
// # Streamable HTTP
//
// Both servers' HTTP handlers (HTTPHandler, Serve, ListenAndServe) add to
// the SDK's what MCP asks of a server and the SDK leaves to its callers:
// a session idle for SessionTimeout (no POST in flight, no resumed stream
// open) is closed with its calls in flight cancelled first, as is a session
// its client deletes; the answer to a request the client cancelled
// (notifications/cancelled) is not sent, neither on its stream nor when the
// stream is resumed; and every stream is kept in an event store (in memory
// unless the options give one), so that a client whose stream broke
// resumes it with Last-Event-ID. A tool may close its call's stream itself
// with [CloseStream] (MCP's SSE polling, SEP-1699, protocol versions
// 2025-11-25 up to 2026-07-28): the call goes on, and its answer waits in
// the store for the client to reconnect. A request whose protocol version
// header is an older supported revision than its session's is served at
// the session's version; any other version is answered 400.
//
// # Using an MCP server's tools
//
// [Tools] and [Register] turn the tools of a connected *mcp.ClientSession
// into tool.Tools, with the server's schemas passed through unchanged (the
// gate checks what it understands and lets the rest through). [Source] is a
// tool.ToolSource that follows the server's list_changed notifications.
// Every call is bounded by its ctx (and by ClientOptions.CallTimeout when
// set); a server that disconnects fails the call with an error result at
// once. A client made with [Forwarding]'s options passes a remote call's
// progress (a token is sent when the caller listens) and log records on to
// the caller's tool.Context, and structured content that breaks the
// tool's output schema is a failure saying what is wrong.
package mcpbridge
