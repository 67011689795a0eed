package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// ServeOptions say how Serve serves a catalog's tools. The zero value
// serves every tool of the catalog over stdio, with the executor's
// defaults.
type ServeOptions struct {
	// Endpoint is where: streamable HTTP on its Listener or Addr, else
	// its Transport, else standard input and output.
	Endpoint
	// Root, when set, is every call's working directory (tool.WorkDirKey):
	// relative paths are resolved, and the allow-list's typed paths
	// judged, against it.
	Root string
	// AllowList, when it restricts anything, is the list every call
	// passes; ToolSearch never activates, and so never reveals, a tool it
	// leaves out.
	AllowList permission.List
	// SchemaMode is the schema gate's mode (schema.Enforce, Warn, Off);
	// zero leaves the executor's default.
	SchemaMode schema.Mode
	// Executor are more executor options: middleware, hooks, timeouts,
	// result bounds.
	Executor []tool.Option
	// Bind are more bindings of every session's tool context.
	Bind []tool.Binding
	// Server are the server's options: name, version, logger, origins,
	// session bounds and timeouts, a store shared by replicas, resources
	// and prompts. Its Context is not used: each session's is made here.
	Server ServerOptions
}

// Serve serves the tools of cat over MCP until ctx is done (or, over
// stdio, the client leaves): over streamable HTTP when opts.Addr is set,
// else over standard input and output. It is what cmd/toolmcp does for the
// builtin tools, for a program's own:
//
//   - every session gets a view of its own of cat (catalog.NewRun), so the
//     deferred tools ToolSearch activates are the session's, and the
//     view is bound in the session's tool context (catalog.ViewKey), which
//     ToolSearch needs;
//   - every call goes through one executor per session: the allow-list,
//     the schema gate, the never-panic contract, result bounds, and the
//     options in opts.Executor;
//   - sessions are bounded and timed out, origins checked, and the
//     resources and prompts of opts.Server served beside the tools, as
//     NewSessionServer and ServerOptions document.
//
// Register the tools first (the generated constructors, catalog.Register
// or RegisterDeferred, and builtin.ToolSearch when some are deferred).
// Serve returns nil after a clean end, and an error naming what is wrong
// with the options, or why serving failed.
func Serve(ctx context.Context, cat *catalog.Catalog, opts *ServeOptions) error {
	if cat == nil {
		return errors.New("mcpbridge.Serve: no catalog: register the tools in a catalog.New() and pass it")
	}
	var o ServeOptions
	if opts != nil {
		o = *opts
	}
	if err := ValidateDeclarations(o.Server.Resources, o.Server.Prompts); err != nil {
		return fmt.Errorf("mcpbridge.Serve: %w", err)
	}
	var runOpts []catalog.RunOption
	execOpts := append([]tool.Option(nil), o.Executor...)
	if o.AllowList.Restricted() || o.AllowList.Ceiling() != permission.Unknown {
		runOpts = append(runOpts, catalog.Restrict(o.AllowList.Offers))
		execOpts = append(execOpts, tool.WithAllowList(o.AllowList))
	}
	if o.SchemaMode != 0 {
		execOpts = append(execOpts, tool.WithSchemaMode(o.SchemaMode))
	}
	logger := o.Server.Logger
	if logger == nil {
		logger = slog.Default()
	}
	execOpts = append(execOpts, tool.WithLogger(slog.New(ClientLogs(logger.Handler()))))
	newSession := func(context.Context) (Session, error) {
		view := cat.NewRun(runOpts...)
		binds := append([]tool.Binding{catalog.ViewKey.Bind(view)}, o.Bind...)
		if o.Root != "" {
			binds = append(binds, tool.WorkDirKey.Bind(o.Root))
		}
		return Session{Executor: tool.NewExecutor(view, execOpts...), Context: tool.NewContext(binds...)}, nil
	}
	srv := NewSessionServer(newSession, &o.Server)
	defer srv.Close()
	return srv.ServeEndpoint(ctx, o.Endpoint)
}

// Endpoint says where a server is served: over streamable HTTP on Listener,
// or on Addr when Listener is nil; else over Transport; else over standard
// input and output, one client.
type Endpoint struct {
	// Addr is the address streamable HTTP listens on ("127.0.0.1:8080").
	Addr string
	// Listener is a socket the caller opened (systemd's, or a test's on
	// port 0) to serve streamable HTTP on instead of Addr; it is closed
	// when serving ends.
	Listener net.Listener
	// Transport serves one session over a transport of the caller's (one
	// end of mcp.NewInMemoryTransports in a test).
	Transport mcp.Transport
}

// ServeEndpoint serves p at e until ctx is done or, over a transport or
// stdio, until the client leaves: both are clean ends, and it returns nil;
// an error is what kept it from serving. It logs where it serves (INFO),
// and warns when an HTTP endpoint is reachable from other machines: it has
// no authentication. Over HTTP, once ctx is done, calls in flight get a few
// seconds to finish (see ListenAndServe); over a transport, the session is
// closed from the server's side. It does not close p.
func (p *SessionServer) ServeEndpoint(ctx context.Context, e Endpoint) error {
	ln := e.Listener
	if ln == nil && e.Addr != "" {
		var err error
		if ln, err = listen(ctx, e.Addr); err != nil {
			return err
		}
	}
	if ln != nil {
		addr := ln.Addr().String()
		p.log().Info("serving MCP", "transport", "streamable-http", "addr", addr, "url", "http://"+addr+"/")
		if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
			p.log().Warn("the HTTP endpoint has no authentication and is reachable from other machines; bind it to 127.0.0.1 unless that is meant", "addr", addr)
		}
		return p.Serve(ctx, ln)
	}
	t, name := e.Transport, "custom"
	if t == nil {
		t, name = &StdioTransport{}, "stdio"
	}
	p.log().Info("serving MCP", "transport", name)
	// When ctx ends, close the session from the server's side rather than
	// cancel the SDK's Run, which would report a clean end as an error.
	stop := context.AfterFunc(ctx, func() { _ = p.Close() })
	defer stop()
	err := p.Run(context.WithoutCancel(ctx), t)
	if err == nil || ctx.Err() != nil || p.isClosed() || errors.Is(err, io.EOF) {
		return nil // the client left, or we closed the session
	}
	return err
}
