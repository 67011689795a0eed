package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// ServeOptions say how Serve serves a catalog's tools. The zero value
// serves every tool of the catalog over stdio, with the executor's
// defaults.
type ServeOptions struct {
	// Addr, when set, is the address streamable HTTP listens on
	// ("127.0.0.1:8080"); empty serves one client over standard input and
	// output.
	Addr string
	// Listener, when set, is where streamable HTTP is served instead of
	// Addr (a socket the caller opened, systemd's, or a test's on port
	// 0). Serve closes it.
	Listener net.Listener
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
	switch {
	case o.Listener != nil:
		return srv.Serve(ctx, o.Listener)
	case o.Addr != "":
		return srv.ListenAndServe(ctx, o.Addr)
	}
	err := srv.ServeStdio(ctx)
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil // the client left, or ctx ended it: a clean end
	}
	return err
}
