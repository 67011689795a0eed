// Command conformance serves the fixtures of the official MCP conformance
// suite (@modelcontextprotocol/conformance, its server scenarios) over
// streamable HTTP: the fixture tools are toolgen tools (the annotated
// structs in tools.go, generated into tools_toolgen.go) served through
// mcpbridge and the executor like any other; the resources and prompts are
// added through the SDK server mcpbridge hands out. One tool is not the
// suite's: search_issues (search.go), a typed-output tool make conformance
// calls from the official TypeScript SDK's client (tsclient/check.mjs).
//
//	go run ./examples/conformance -http 127.0.0.1:3001
//
// then point the suite at http://127.0.0.1:3001/ (make conformance does
// both, and runs the suite against toolmcp too).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve streamable HTTP on `addr` (host:port); required")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *addr == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: conformance -http ADDR (for example -http 127.0.0.1:3001)")
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := newServer(logger)
	if err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 1
	}
	defer srv.Close()
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "conformance: -http:", err)
		return 1
	}
	// The address actually used (port 0 picks one), for scripts to read.
	fmt.Fprintf(stderr, "conformance: serving the suite's fixtures url=http://%s/\n", ln.Addr())
	if err := srv.Serve(ctx, ln); err != nil {
		fmt.Fprintln(stderr, "conformance:", err)
		return 1
	}
	return 0
}

// newServer registers the fixture tools and adds the fixture resources
// and prompts.
func newServer(logger *slog.Logger) (*mcpbridge.Server, error) {
	reg := tool.NewRegistry()
	for _, t := range []tool.Tool{
		NewSimpleTextTool(simpleText),
		NewImageContentTool(imageContent),
		NewAudioContentTool(audioContent),
		NewEmbeddedResourceTool(embeddedResource),
		NewMultipleContentTypesTool(multipleContentTypes),
		NewToolWithLoggingTool(toolWithLogging),
		NewToolWithProgressTool(toolWithProgress),
		NewErrorHandlingTool(errorHandling),
		NewSamplingTool(sampling),
		NewElicitationTool(elicitation),
		NewElicitationDefaultsTool(elicitationDefaults),
		NewElicitationEnumsTool(elicitationEnums),
		jsonSchema202012Tool(),
		reconnectionTool(),
		NewSearchIssuesTool(searchIssues),
	} {
		if err := reg.Register(t); err != nil {
			return nil, err
		}
	}
	subs := &subscriptions{uris: map[string]int{}}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg, tool.WithLogger(logger)), &mcpbridge.ServerOptions{
		Name:        "toolgen-conformance",
		Logger:      logger,
		Completion:  complete,
		Subscribe:   subs.subscribe,
		Unsubscribe: subs.unsubscribe,
	})
	addResources(srv.MCPServer())
	addPrompts(srv.MCPServer())
	addInputTools(srv.MCPServer())
	addStatelessDiagnostics(srv.MCPServer())
	addListTriggers(srv.MCPServer())
	return srv, nil
}

// jsonSchema202012Tool is json_schema_2020_12_tool: a schema from outside
// (with $schema, $defs and $ref) served as it was written, as a
// hand-written tool is.
func jsonSchema202012Tool() tool.Tool {
	schema := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type":    "object",
		"$defs": map[string]any{
			"address": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"street": map[string]any{"type": "string"},
					"city":   map[string]any{"type": "string"},
				},
			},
		},
		"properties": map[string]any{
			"name":    map[string]any{"type": "string"},
			"address": map[string]any{"$ref": "#/$defs/address"},
		},
		"additionalProperties": false,
	}
	return tool.New(tool.Definition{
		Name:        "json_schema_2020_12_tool",
		Description: "Tool with JSON Schema 2020-12 features",
		InputSchema: schema,
		Concurrency: tool.Safe,
	}, func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
		return tool.Success(fmt.Sprintf("Received %d argument(s).", in.Len()))
	})
}
