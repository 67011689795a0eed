package mcpbridge_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

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

// BenchmarkSessionHTTP measures what a session costs over streamable HTTP
// on loopback: the client's connect (its server/discover probe, initialize,
// initialized), one tools/call, and the close (DELETE), which releases the
// session's run; the SessionFunc makes a registry of three tools each time.
// Compare with BenchmarkSessionHTTPShared, the same over one Server whose
// sessions share a run. Run with
//
//	go test -run='^$' -bench=SessionHTTP -benchmem ./runtime/mcpbridge/
func BenchmarkSessionHTTP(b *testing.B) {
	r := newRuns()
	r.releasedc = nil
	p := mcpbridge.NewSessionServer(func(ctx context.Context) (mcpbridge.Session, error) {
		s, err := r.newSession(ctx)
		s.Release = nil
		return s, err
	}, nil)
	ts := httptest.NewServer(p.HTTPHandler(nil))
	defer ts.Close()
	defer p.Close()
	benchSessions(b, ts.URL)
	b.StopTimer()
	for p.Sessions() > 0 {
		time.Sleep(time.Millisecond)
	}
}

func BenchmarkSessionHTTPShared(b *testing.B) {
	s, err := newRuns().newSession(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	srv := mcpbridge.NewServer(s.Executor, &mcpbridge.ServerOptions{Context: s.Context})
	ts := httptest.NewServer(srv.HTTPHandler(nil))
	defer ts.Close()
	defer srv.Close()
	benchSessions(b, ts.URL)
}

func benchSessions(b *testing.B, url string) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
	params := &mcp.CallToolParams{Name: "Count", Arguments: map[string]any{}}
	b.ReportAllocs()
	for b.Loop() {
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, sessionful)
		if err != nil {
			b.Fatal(err)
		}
		if res, err := cs.CallTool(ctx, params); err != nil || res.IsError {
			b.Fatalf("call failed: %v %+v", err, res)
		}
		if err := cs.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sessions/s")
}
