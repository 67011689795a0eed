package mcpbridge

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statelessFrom is the first protocol revision served statelessly: from
// 2026-07-28 (SEP-2575, SEP-2567) a request carries its own protocol
// version, client identity and capabilities, there is no initialize
// handshake and no Mcp-Session-Id, and the SDK's streamable handler speaks
// the revision only in its stateless mode.
const statelessFrom = "2026-07-28"

// methodDiscover is the request with which a 2026-07-28 client learns
// the server's versions and capabilities before its first call.
const methodDiscover = "server/discover"

// routesStateless reports whether r, a request without a session id,
// belongs to the stateless revision: its MCP-Protocol-Version header names
// 2026-07-28 or later, or one of its messages says so in
// _meta["io.modelcontextprotocol/protocolVersion"], or is server/discover.
// Everything else (an initialize request, a request of an older revision)
// goes to the stateful handler, where sessions live. limit bounds the body
// read (negative: no bound).
func routesStateless(r *http.Request, limit int64) bool {
	if v := r.Header.Get(protocolVersionHeader); v != "" {
		return v >= statelessFrom
	}
	if r.Method != http.MethodPost {
		return false
	}
	buf, ok := peekBody(r, limit)
	if !ok {
		return false
	}
	for _, m := range messagesOf(buf) {
		if m.Method == methodDiscover || metaString(m.Params.Meta, mcp.MetaKeyProtocolVersion) >= statelessFrom {
			return true
		}
	}
	return false
}

// peekedMessage is what routing reads of one JSON-RPC message.
type peekedMessage struct {
	Method string `json:"method"`
	Params struct {
		Meta map[string]any `json:"_meta"`
	} `json:"params"`
}

// metaString returns the string under key in meta, or "".
func metaString(meta map[string]any, key string) string {
	s, _ := meta[key].(string)
	return s
}

// messagesOf decodes body, one JSON-RPC message or a batch, as far as
// routing needs; what does not decode is left out.
func messagesOf(body []byte) []peekedMessage {
	body = bytes.TrimLeft(body, " \t\r\n")
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return nil
		}
	} else {
		raws = []json.RawMessage{body}
	}
	out := make([]peekedMessage, 0, len(raws))
	for _, r := range raws {
		var m peekedMessage
		if json.Unmarshal(r, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// statelessOptions returns the SDK options of the stateless handler that
// serves the 2026-07-28 revision beside a stateful one: no event store
// (the revision has no resumable streams) and no idle timeout (there are
// no sessions).
func statelessOptions(o mcp.StreamableHTTPOptions) *mcp.StreamableHTTPOptions {
	o.Stateless = true
	o.EventStore = nil
	o.SessionTimeout = 0
	return &o
}
