package mcpbridge_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

func TestOriginPolicy(t *testing.T) {
	tests := []struct {
		name    string
		allowed []string
		origins map[string]bool
	}{
		{"default: loopback only", nil, map[string]bool{
			"":                       true,
			"http://localhost":       true,
			"http://localhost:6274":  true,
			"https://LOCALHOST:8443": true,
			"http://127.0.0.1:3000":  true,
			"http://127.8.9.1":       true,
			"http://[::1]:80":        true,
			"http://app.localhost":   true,
			"https://evil.example":   false,
			"http://localhost.evil":  false,
			"http://10.0.0.1":        false,
			"null":                   false,
			"file://":                false,
			"ws://localhost":         false,
			"http://localhost/path":  false,
		}},
		{"listed", []string{"https://app.example.com", "http://localhost:6274"}, map[string]bool{
			"https://app.example.com":     true,
			"https://APP.example.com:443": true,
			"http://localhost:6274":       true,
			"http://localhost:6275":       false,
			"http://app.example.com":      false,
			"":                            true,
		}},
		{"everything", []string{"*"}, map[string]bool{"https://evil.example": true, "null": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := mcpbridge.NewOriginPolicy(tt.allowed...)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for o := range tt.origins {
				got[o] = p.Allows(o)
			}
			if diff := cmp.Diff(tt.origins, got); diff != "" {
				t.Errorf("Allows (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOriginPolicyRefusesBadOrigins(t *testing.T) {
	for _, o := range []string{"localhost:6274", "app.example.com", "https://app.example.com/path", "https://u@host", "", "https://h?q=1"} {
		_, err := mcpbridge.NewOriginPolicy(o)
		want := `origin "` + o + `": want scheme://host[:port], such as https://app.example.com or http://localhost:6274`
		if err == nil || err.Error() != want {
			t.Errorf("NewOriginPolicy(%q) = %v, want %s", o, err, want)
		}
	}
}

// post sends one JSON-RPC initialize to url with the headers given and
// returns the status and body.
func post(ctx context.Context, t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(b))
}

// TestHTTPGuards: both HTTP handlers refuse a foreign origin with 403 and
// a body over the limit with 413, and serve the rest.
func TestHTTPGuards(t *testing.T) {
	ctx := testContext(t)
	listed, err := mcpbridge.NewOriginPolicy("https://app.example.com")
	if err != nil {
		t.Fatal(err)
	}
	handlers := map[string]func(mcpbridge.ServerOptions) http.Handler{
		"SessionServer": func(o mcpbridge.ServerOptions) http.Handler {
			p := mcpbridge.NewSessionServer(newRuns().newSession, &o)
			t.Cleanup(func() { p.Close() })
			return p.HTTPHandler(nil)
		},
		"Server": func(o mcpbridge.ServerOptions) http.Handler {
			s := mcpbridge.NewServer(tool.NewExecutor(tool.NewRegistry()), &o)
			t.Cleanup(func() { s.Close() })
			return s.HTTPHandler(nil)
		},
	}
	type want struct {
		Status int
		Body   string
	}
	tests := []struct {
		name   string
		opts   mcpbridge.ServerOptions
		header map[string]string
		body   string
		want   want
	}{
		{"foreign origin", mcpbridge.ServerOptions{}, map[string]string{"Origin": "https://evil.example"}, initLine,
			want{403, `Forbidden: origin "https://evil.example" may not use this MCP server (it accepts loopback origins only)`}},
		{"unlisted origin", mcpbridge.ServerOptions{Origins: listed}, map[string]string{"Origin": "http://localhost:3000"}, initLine,
			want{403, `Forbidden: origin "http://localhost:3000" may not use this MCP server (it accepts https://app.example.com)`}},
		{"loopback origin", mcpbridge.ServerOptions{}, map[string]string{"Origin": "http://localhost:6274"}, initLine, want{200, ""}},
		{"listed origin", mcpbridge.ServerOptions{Origins: listed}, map[string]string{"Origin": "https://app.example.com"}, initLine, want{200, ""}},
		{"no origin", mcpbridge.ServerOptions{}, nil, initLine, want{200, ""}},
		{"body over the limit", mcpbridge.ServerOptions{MaxBodyBytes: 200},
			nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`, want{413, ""}},
	}
	for hname, mk := range handlers {
		for _, tt := range tests {
			t.Run(hname+"/"+tt.name, func(t *testing.T) {
				ts := httptest.NewServer(mk(tt.opts))
				defer ts.Close()
				status, body := post(ctx, t, ts.URL, tt.body, tt.header)
				got := want{status, body}
				if tt.want.Body == "" {
					got.Body = "" // the SDK's answer
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestSessionServerDeleteCancels: a client that ends its session (DELETE)
// while a call runs does not wait for the call: it is cancelled and the
// session's run released.
func TestSessionServerDeleteCancels(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := serveSessions(t, p, nil)
	c := connectHTTP(ctx, t, ts.URL)

	errc := make(chan error, 1)
	go func() {
		_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "Slow", Arguments: map[string]any{}})
		errc <- err
	}()
	<-r.slow.started
	// The SDK client's Close waits for its calls in flight before it
	// deletes the session; a host that gives up on a session does not.
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, ts.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Mcp-Session-Id", c.cs.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("DELETE: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE answered %s, want 204", resp.Status)
	}
	select {
	case <-r.releasedc:
	case <-ctx.Done():
		t.Fatal("the session's run was not released after DELETE: its call still runs")
	}
	select {
	case <-errc:
	case <-ctx.Done():
		t.Fatal("the client's call hangs after DELETE")
	}
}

// FuzzOriginPolicy: any origin is judged without a panic; an origin a
// policy was built from is allowed by it; loopback-only never allows an
// origin whose host is not loopback.
func FuzzOriginPolicy(f *testing.F) {
	for _, s := range []string{"http://localhost:6274", "https://app.example.com", "null", "", "http://[::1]:80", "https://EXAMPLE.com:443/", "http://127.0.0.1.evil.example", "ws://x", "http://%zz"} {
		f.Add(s)
	}
	loopbackOnly, err := mcpbridge.NewOriginPolicy()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, origin string) {
		if loopbackOnly.Allows(origin) && origin != "" {
			u, err := url.Parse(strings.TrimSpace(origin))
			if err != nil {
				t.Fatalf("loopback-only allowed %q, which does not parse", origin)
			}
			h := strings.ToLower(u.Hostname()) // host names are case-insensitive: loCAlHost is localhost
			if ip := net.ParseIP(h); h != "localhost" && !strings.HasSuffix(h, ".localhost") && (ip == nil || !ip.IsLoopback()) {
				t.Fatalf("loopback-only allowed %q (host %q)", origin, h)
			}
		}
		p, err := mcpbridge.NewOriginPolicy(origin)
		if err != nil {
			return
		}
		if !p.Allows(origin) {
			t.Fatalf("a policy built from %q refuses it", origin)
		}
	})
}
