package mcpbridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// FuzzRoutesStateless: any body and protocol version header is routed
// without a panic, the body is left whole for the SDK to read, a header
// of 2026-07-28 or later always routes statelessly, and a body that is
// not JSON never does without such a header.
func FuzzRoutesStateless(f *testing.F) {
	for _, seed := range []struct{ header, body string }{
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":7}}}`},
		{"", `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.toolgen/conversation":"c1"}}}]`},
		{"2026-07-28", `{}`},
		{"2025-06-18", `{"method":"server/discover"}`},
		{"", `not json`},
		{"", ``},
	} {
		f.Add(seed.header, seed.body)
	}
	f.Fuzz(func(t *testing.T, header, body string) {
		r, err := http.NewRequest(http.MethodPost, "http://x/", strings.NewReader(body))
		if err != nil {
			t.Skip()
		}
		if header != "" {
			r.Header.Set(protocolVersionHeader, header)
		}
		got := routesStateless(r, 1<<20)
		rest, _ := io.ReadAll(r.Body)
		if !bytes.Equal(rest, []byte(body)) {
			t.Fatalf("the body was not left whole: %q, want %q", rest, body)
		}
		if header != "" && got != (header >= statelessFrom) {
			t.Fatalf("header %q routed stateless = %v", header, got)
		}
		if header == "" && got && !json.Valid([]byte(body)) {
			t.Fatalf("a body that is not JSON routed stateless: %q", body)
		}
	})
}
