package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type addArgs struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// TestToolsCall plays the tools_call scenario against an SDK server with
// the suite's add_numbers tool.
func TestToolsCall(t *testing.T) {
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Second))
		defer cancel()
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "add", Version: "v0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "add_numbers", Description: "Add two numbers together"},
		func(_ context.Context, _ *mcp.CallToolRequest, in addArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("The sum of %v and %v is %v", in.A, in.B, in.A+in.B)}}}, map[string]float64{"sum": in.A + in.B}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer ts.Close()
	var stdout, stderr bytes.Buffer
	if got := run(ctx, []string{ts.URL}, "tools_call", &stdout, &stderr); got != 0 {
		t.Fatalf("run = %d, stderr:\n%s", got, stderr.String())
	}
	if diff := cmp.Diff("add_numbers: error=false The sum of 2 and 3 is 5\n", stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}

func TestUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if got := run(context.Background(), nil, "", &stdout, &stderr); got != 2 {
		t.Errorf("run() = %d, want 2", got)
	}
	if want := "usage: client URL (MCP_CONFORMANCE_SCENARIO names the scenario)\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}
