package main

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
)

// TestServe runs the example's server on a loopback port and talks to it
// with the MCP SDK's client over streamable HTTP.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, mcpbridge.Endpoint{Listener: ln}) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String(), MaxRetries: -1},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	names := func() []string {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	call := func(name string, args map[string]any) string {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err.Error()
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	if got := names(); !slices.Equal(got, []string{"Greet", "ToolSearch"}) {
		t.Errorf("tools at the start: %v", got)
	}
	if got := call("Greet", map[string]any{"name": "Ada"}); got != "Hello, Ada!" {
		t.Errorf("Greet: %q", got)
	}
	if got := call("Greet", map[string]any{"name": ""}); !strings.Contains(got, "Parameter 'name'") {
		t.Errorf("Greet with an empty name, through the gate: %q", got)
	}
	if got := call("ToolSearch", map[string]any{"query": "weather"}); !strings.Contains(got, `"Forecast"`) {
		t.Errorf("ToolSearch: %q", got)
	}
	if got := names(); !slices.Equal(got, []string{"Forecast", "Greet", "ToolSearch"}) {
		t.Errorf("tools after the search: %v", got)
	}
	if got := call("Forecast", map[string]any{"city": "Lisbon"}); got != "Tomorrow in Lisbon: sunny, 24°C." {
		t.Errorf("Forecast: %q", got)
	}
	if got := call("Reset", map[string]any{}); !strings.Contains(got, "not allowed") {
		t.Errorf("Reset, which the allow-list leaves out: %q", got)
	}
}
