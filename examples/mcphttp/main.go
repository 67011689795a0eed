// Command mcphttp serves its own generated tools over streamable HTTP with
// one call, mcpbridge.Serve: an allow-list, a deferred tool that ToolSearch
// finds, a run per session. go run ./examples/mcphttp, then point an MCP
// client at http://127.0.0.1:8080/.
package main

import (
	"context"
	"log"
	"os/signal"
	"syscall"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := serve(ctx, mcpbridge.Endpoint{Addr: "127.0.0.1:8080"}); err != nil {
		log.Fatal(err)
	}
}

// serve registers the tools and serves them at e.
func serve(ctx context.Context, e mcpbridge.Endpoint) error {
	cat := catalog.New()
	for _, t := range []tool.Tool{NewGreetTool(greet), NewForecastTool(forecast), NewResetTool(reset)} {
		if err := cat.Register(t); err != nil { // Forecast is deferred by its //tool:loading
			return err
		}
	}
	if err := builtin.RegisterCatalog(cat, builtin.Options{Tools: []string{builtin.ToolSearchName}}); err != nil {
		return err
	}
	list, err := permission.Parse("Greet", "Forecast", "ToolSearch") // Reset is left out
	if err != nil {
		return err
	}
	return mcpbridge.Serve(ctx, cat, &mcpbridge.ServeOptions{Endpoint: e, AllowList: list, SchemaMode: schema.Enforce})
}
