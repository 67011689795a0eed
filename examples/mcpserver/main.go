// Command mcpserver serves two generated tools, AddNote and FindNotes (from
// the annotated structs in notes.go), over MCP on stdio, through toolgen's
// executor: every call passes the schema gate and the generated binder
// before the notebook sees it.
//
// Register it in an MCP host with the command "go" and the arguments
// "run", "github.com/toolgen/toolgen/examples/mcpserver"; or try it with
// the test, which talks to it in memory: go test ./examples/mcpserver.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Logs go to stderr: stdout is the MCP channel.
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := newServer(logger)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(1)
	}
	defer srv.Close()
	if err := srv.ServeStdio(ctx); err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(os.Stderr, "mcpserver:", err)
		os.Exit(1)
	}
}

// newServer registers the generated tools over one notebook and returns
// the MCP server for them.
func newServer(logger *slog.Logger) (*mcpbridge.Server, error) {
	nb := newNotebook()
	reg := tool.NewRegistry()
	// The generated constructors take the tools' functions; method values
	// bring the notebook along.
	for _, t := range []tool.Tool{NewAddNoteTool(nb.Add), NewFindNotesTool(nb.Find)} {
		if err := reg.Register(t); err != nil {
			return nil, err
		}
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(logger))
	return mcpbridge.NewServer(exec, &mcpbridge.ServerOptions{
		Name:         "notes",
		Version:      "v0.1.0",
		Instructions: "A notebook: save notes with AddNote, list them with FindNotes.",
		Logger:       logger,
	}), nil
}
