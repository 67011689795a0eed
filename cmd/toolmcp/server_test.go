package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/schema"
)

// TestServerOwnsBackground builds the server in process, starts a
// background command through Bash, and checks that closing the server
// ends it.
func TestServerOwnsBackground(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a shell")
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	discard := slog.New(slog.DiscardHandler)
	srv, err := newServer(options{root: workspace(t), mode: schema.Enforce}, discard, discard)
	if err != nil {
		t.Fatal(err)
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.serveTransport(ctx, serverT) }()

	c := newClient(ctx, t, clientT)
	res := c.call("Bash", map[string]any{"command": "sleep 60", "run_in_background": true})
	if res.IsError || !strings.HasPrefix(res.Text, "Command running in the background") {
		t.Fatalf("Bash in the background: %+v", res)
	}
	if n := srv.bg.Running(); n != 1 {
		t.Fatalf("%d background commands running, want 1", n)
	}
	start := time.Now()
	if err := srv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if n := srv.bg.Running(); n != 0 {
		t.Errorf("%d background commands still running after Close", n)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Close took %v", d)
	}
	if err := <-served; err != nil {
		t.Errorf("serving: %v", err)
	}
	_ = c.session.Close()
}
