package main

import (
	"context"
	"log/slog"
	"testing"

	"github.com/toolgen/toolgen/runtime/schema"
)

// BenchmarkNewRun is what toolmcp builds for every MCP session: the builtin
// tools in a catalog of their own, a background manager, an executor and a
// tool context, then the release that closes the manager. Run with
//
//	go test -run='^$' -bench=NewRun -benchmem ./cmd/toolmcp/
func BenchmarkNewRun(b *testing.B) {
	discard := slog.New(slog.DiscardHandler)
	srv, err := newServer(options{root: b.TempDir(), mode: schema.Enforce, sandbox: sandboxOff, deferred: []string{"Grep"}}, discard, discard)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := srv.newRun(ctx)
		if err != nil {
			b.Fatal(err)
		}
		s.Release()
	}
}
