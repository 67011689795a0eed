package mcpbridge_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// BenchmarkToolsCall measures tools/call round trips over the in-memory
// transport for a trivial tool (Echo) through our server: SDK client →
// JSON-RPC → middleware → Executor (gate under enforce) → tool → back.
// BenchmarkExecutorOnly is the same call without MCP, for the share of our
// side. Run with
//
//	go test -run='^$' -bench=. -benchmem -cpuprofile=cpu.out ./runtime/mcpbridge/
func BenchmarkToolsCall(b *testing.B) {
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		b.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce)), nil)
	defer srv.Close()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCPServer().Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		cs.Close()
		ss.Wait()
	}()
	params := &mcp.CallToolParams{Name: "Echo", Arguments: map[string]any{"message": "hi"}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatalf("call failed: %v %+v", err, res)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// BenchmarkExecutorOnly is the gate and executor path of one call, with the
// argument decoding the server does, and no MCP.
func BenchmarkExecutorOnly(b *testing.B) {
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		b.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce))
	ctx := context.Background()
	raw := []byte(`{"message":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		in, err := tool.DecodeInput(raw)
		if err != nil {
			b.Fatal(err)
		}
		if res := exec.Execute(ctx, tool.Call{Name: "Echo", Input: in}, tool.Context{}); res.IsError {
			b.Fatal(res.Content)
		}
		exec.Definitions() // the server's Sync re-reads them after every call
	}
}
