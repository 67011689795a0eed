package mcpbridge

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// The protocol versions between which a server may close a call's SSE
// stream mid-call and the client resumes it (SEP-1699): from 2025-11-25,
// which has the server open every stream with a priming event carrying an
// event id to resume from, until 2026-07-28, which removed resumable
// streams.
const (
	resumableFrom  = "2025-11-25"
	resumableUntil = "2026-07-28"
)

// protocolVersionHeader is the header in which a client names the
// protocol version of each HTTP request.
const protocolVersionHeader = "Mcp-Protocol-Version"

// closeStreamKey holds the function that closes the SSE stream of the
// call, where it can be resumed.
var closeStreamKey = tool.NewKey[func(retryAfter time.Duration)]("mcp_close_stream")

// CloseStream closes the SSE stream on which the call of tc will be
// answered, so that the client reconnects after retryAfter and resumes the
// stream from the last event it received (MCP's SSE polling, SEP-1699): a
// long call then holds no connection open while it runs, and what it sends
// meanwhile (progress, logs, its result) is kept for the client in the
// server's event store. The call goes on; its ctx is not cancelled.
//
// It reports whether it closed the stream. It does not where the client
// could not resume: a call not served over streamable HTTP by this
// package's handlers (stdio, a handler without an event store), a JSON
// answer instead of a stream, or a request of a protocol version without
// resumable streams (before 2025-11-25, whose streams carry no event id to
// resume from until the server sends an event, and 2026-07-28 and later).
func CloseStream(tc tool.Context, retryAfter time.Duration) bool {
	f, ok := closeStreamKey.Get(tc)
	if !ok || f == nil {
		return false
	}
	f(retryAfter)
	return true
}

// streamBinding returns the binding of CloseStream for a call, when its
// stream can be resumed.
func (s *Server) streamBinding(req *mcp.CallToolRequest) []tool.Binding {
	if !s.resumable.Load() || req.Extra == nil || req.Extra.CloseSSEStream == nil || req.Extra.Header == nil {
		return nil
	}
	v := req.Extra.Header.Get(protocolVersionHeader)
	if v < resumableFrom || v >= resumableUntil {
		return nil
	}
	closeSSE := req.Extra.CloseSSEStream
	return []tool.Binding{closeStreamKey.Bind(func(retryAfter time.Duration) {
		closeSSE(mcp.CloseSSEStreamArgs{RetryAfter: retryAfter})
	})}
}
