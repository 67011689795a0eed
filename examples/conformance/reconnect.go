package main

import (
	"context"
	"time"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// reconnectAfter is how long test_reconnection asks its client to wait
// before it reconnects (the SSE retry field).
const reconnectAfter = 500 * time.Millisecond

// reconnectionTool is test_reconnection, the suite's SEP-1699 fixture: it
// closes the SSE stream its call is answered on (mcpbridge.CloseStream),
// then answers. The answer is kept in the server's event store until the
// client reconnects and resumes the stream from the last event id it
// received (Last-Event-ID). It is hand-written, as a tool whose behaviour
// is the transport's is: it takes no arguments.
func reconnectionTool() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "test_reconnection",
		Description: "Closes its SSE stream mid-call, so that the client reconnects and resumes it (SEP-1699), then answers.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, reconnection)
}

func reconnection(_ context.Context, _ tool.Input, tc tool.Context) tool.Result {
	if !mcpbridge.CloseStream(tc, reconnectAfter) {
		// A stream the client could not resume: the answer goes on it.
		return tool.Success("Reconnection test completed without a reconnection: this request's stream cannot be resumed (its protocol version is before 2025-11-25 or from 2026-07-28, or it is not an SSE stream), so it was kept open.")
	}
	return tool.Success("Reconnection test completed successfully: the stream was closed and this answer waited in the event store for the client to resume it.")
}
