package mcpbridge_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestEveryRevisionOnOneListener: one handler serves a 2026-07-28 client
// statelessly (server/discover, no session id) and a 2025-11-25 client on
// a session, for both servers of the package.
func TestEveryRevisionOnOneListener(t *testing.T) {
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			ctx := testContext(t)
			ts := sv.serve(t, newBlockTool(), nil)
			for _, tc := range []struct {
				version     string
				wantSession bool
			}{
				{"2026-07-28", false},
				{"2025-11-25", true},
				{"2025-06-18", true},
			} {
				client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil)
				cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: tc.version})
				if err != nil {
					t.Fatalf("%s: connect: %v", tc.version, err)
				}
				if got := cs.InitializeResult().ProtocolVersion; got != tc.version {
					t.Errorf("%s: negotiated %s", tc.version, got)
				}
				if got := cs.ID() != ""; got != tc.wantSession {
					t.Errorf("%s: session id %q, want one: %v", tc.version, cs.ID(), tc.wantSession)
				}
				res, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatalf("%s: tools/list: %v", tc.version, err)
				}
				if !slices.ContainsFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == "Block" }) {
					t.Errorf("%s: tools/list has no Block", tc.version)
				}
				cs.Close()
			}
		})
	}
}

// TestProtocolVersionBelowSession: a request whose MCP-Protocol-Version
// header names no version the server supports is answered 400, whether it
// sorts before the session's version or not (it was served at the
// session's version before); an older supported one is served.
func TestProtocolVersionBelowSession(t *testing.T) {
	for _, sv := range servers {
		t.Run(sv.name, func(t *testing.T) {
			ctx := testContext(t)
			ts := sv.serve(t, newBlockTool(), nil)
			s := openRaw(ctx, t, ts.URL, "2025-11-25")
			for _, tc := range []struct {
				header string
				want   int
			}{
				{"0", http.StatusBadRequest},
				{"1999-01-01", http.StatusBadRequest},
				{"2025-11-24", http.StatusBadRequest},
				{"2025-03-26", http.StatusOK},
				{"2025-11-25", http.StatusOK},
			} {
				req := s.newPost(`{"jsonrpc":"2.0","id":9,"method":"ping"}`, false)
				req.Header.Set("Mcp-Protocol-Version", tc.header)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body := readAll(resp)
				if resp.StatusCode != tc.want {
					t.Errorf("header %q: %s %q, want %d", tc.header, resp.Status, body, tc.want)
				}
				if tc.want == http.StatusBadRequest && !strings.Contains(body, "unsupported protocol version") && !strings.Contains(body, "Unsupported protocol version") {
					t.Errorf("header %q: 400 without a reason: %q", tc.header, body)
				}
			}
		})
	}
}

func readAll(resp *http.Response) string {
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}
