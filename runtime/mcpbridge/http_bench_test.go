package mcpbridge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
)

// BenchmarkDeleteCancels measures how long a DELETE of an HTTP session
// takes to end it while a call runs that would otherwise run until it is
// cancelled: from sending the DELETE to the session's run being released
// (the call cancelled and returned), reported as delete-ns/op. Run with
//
//	go test -run='^$' -bench=DeleteCancels -benchmem ./runtime/mcpbridge/
func BenchmarkDeleteCancels(b *testing.B) {
	ctx := context.Background()
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := httptest.NewServer(p.HTTPHandler(nil))
	defer func() {
		p.Close()
		ts.Close()
	}()
	var spent time.Duration
	for b.Loop() {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "v0"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, sessionful)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "Slow", Arguments: map[string]any{}})
			close(done)
		}()
		<-r.slow.started
		req, _ := http.NewRequestWithContext(ctx, http.MethodDelete, ts.URL, nil)
		req.Header.Set("Mcp-Session-Id", cs.ID())
		start := time.Now()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		<-r.releasedc
		spent += time.Since(start)
		<-done
		_ = cs.Close()
	}
	b.ReportMetric(float64(spent.Nanoseconds())/float64(b.N), "delete-ns/op")
}
