// Command client is the MCP client the conformance suite's client
// scenarios drive: it connects to the URL it is given (the suite appends
// it to the command line and names the scenario in
// MCP_CONFORMANCE_SCENARIO) with the SDK's streamable HTTP client, turns
// the server's tools into toolgen tools with mcpbridge.Register, and calls
// them through a tool.Executor, as an agent would: add_numbers with
// a=2, b=3 in the tools_call scenario, every tool with no arguments in the
// others.
//
//	conformance client --command "go run ./examples/conformance/client" --scenario tools_call
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Stdout, os.Stderr))
}

// run connects to the URL, the last of args, and plays scenario; it
// returns the exit status.
func run(ctx context.Context, args []string, scenario string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: client URL (MCP_CONFORMANCE_SCENARIO names the scenario)")
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, 25*time.Second) // the suite allows 30 s
	defer cancel()
	url := args[len(args)-1]
	client := mcp.NewClient(&mcp.Implementation{Name: "toolgen-conformance-client", Version: "v0.1.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "client: connecting to %s: %v\n", url, err)
		return 1
	}
	defer cs.Close()
	reg := tool.NewRegistry()
	names, err := mcpbridge.Register(ctx, reg, cs, nil)
	if err != nil {
		fmt.Fprintf(stderr, "client: listing tools: %v\n", err)
		return 1
	}
	exec := tool.NewExecutor(reg)
	for _, name := range names {
		args := map[string]any{}
		if scenario == "tools_call" && name == "add_numbers" {
			args = map[string]any{"a": 2, "b": 3}
		}
		res := exec.Execute(ctx, tool.Call{ID: name, Name: name, Input: tool.NewInput(args)}, tool.NewContext())
		fmt.Fprintf(stdout, "%s: error=%v %s\n", name, res.IsError, res.Content)
	}
	return 0
}
