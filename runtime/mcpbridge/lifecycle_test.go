package mcpbridge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// blockTool is Block: it runs until its call's ctx is done; started
// receives a value when a call begins, ended when the call has seen its
// ctx end.
type blockTool struct {
	started chan struct{}
	ended   chan struct{}
}

func newBlockTool() *blockTool {
	return &blockTool{started: make(chan struct{}, 4), ended: make(chan struct{}, 4)}
}

func (b *blockTool) tool() tool.Tool {
	return tool.New(tool.Definition{Name: "Block", Description: "Runs until cancelled.", InputSchema: objectSchema(map[string]any{}), Concurrency: tool.Safe},
		func(ctx context.Context, _ tool.Input, _ tool.Context) tool.Result {
			b.started <- struct{}{}
			<-ctx.Done()
			b.ended <- struct{}{}
			return tool.FailureWith("Block was cancelled.", ctx.Err())
		})
}

// registry returns a registry holding Block and Echo.
func (b *blockTool) registry(t *testing.T) *tool.Registry {
	t.Helper()
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{b.tool(), echoTool()} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// wait waits for c, bounded by ctx.
func wait(ctx context.Context, t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-ctx.Done():
		t.Fatalf("timed out waiting for %s", what)
	}
}

// servers are the two HTTP handlers of the package, over Block's
// registry, with opts.
var servers = []struct {
	name  string
	serve func(t *testing.T, b *blockTool, opts *mcp.StreamableHTTPOptions) *httptest.Server
}{
	{"Server", func(t *testing.T, b *blockTool, opts *mcp.StreamableHTTPOptions) *httptest.Server {
		srv := mcpbridge.NewServer(tool.NewExecutor(b.registry(t)), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
		ts := httptest.NewServer(srv.HTTPHandler(opts))
		t.Cleanup(func() {
			srv.Close()
			ts.Close()
		})
		return ts
	}},
	{"SessionServer", func(t *testing.T, b *blockTool, opts *mcp.StreamableHTTPOptions) *httptest.Server {
		p := mcpbridge.NewSessionServer(func(context.Context) (mcpbridge.Session, error) {
			return mcpbridge.Session{Executor: tool.NewExecutor(b.registry(t))}, nil
		}, &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
		return serveSessions(t, p, opts)
	}},
}

// TestSessionEndCancelsCalls: a session closed while a call runs, because
// it was idle for SessionTimeout (its client gave up on the call's
// stream) or because its client deleted it, cancels the call: the tool
// sees its ctx end, rather than the close waiting for the call. The tool's
// end is waited for without a bound of our own: the test's deadline bounds
// it.
func TestSessionEndCancelsCalls(t *testing.T) {
	for _, sv := range servers {
		for _, how := range []string{"idle", "delete"} {
			t.Run(sv.name+"/"+how, func(t *testing.T) {
				ctx := testContext(t)
				b := newBlockTool()
				var opts *mcp.StreamableHTTPOptions
				if how == "idle" {
					opts = &mcp.StreamableHTTPOptions{SessionTimeout: 20 * time.Millisecond}
				}
				ts := sv.serve(t, b, opts)
				s := openRaw(ctx, t, ts.URL, "2025-11-25")

				callCtx, giveUp := context.WithCancel(ctx)
				defer giveUp()
				cs := *s
				cs.ctx = callCtx
				go func() {
					if resp, err := http.DefaultClient.Do(cs.request(1, "Block")); err == nil {
						resp.Body.Close()
					}
				}()
				wait(ctx, t, b.started, "Block to start")
				switch how {
				case "idle":
					// The client drops the call's stream and sends nothing
					// more: the session idles.
					giveUp()
				case "delete":
					s.delete()
				}
				wait(ctx, t, b.ended, "Block to see its call cancelled")
				// The session is gone once its close, no longer held by the
				// call, has ended.
				waitFor(t, "the session to be gone (404)", func() bool {
					resp := s.post(`{"jsonrpc":"2.0","id":2,"method":"ping"}`, true)
					resp.Body.Close()
					return resp.StatusCode == http.StatusNotFound
				})
			})
		}
	}
}

// TestCancelledNotAnswered: over streamable HTTP, a call the client
// cancels (notifications/cancelled) is cancelled and gets no answer: not on
// its stream, not when the client resumes that stream; the session's other
// calls are answered.
func TestCancelledNotAnswered(t *testing.T) {
	for _, sv := range servers {
		for _, version := range []string{"2025-11-25", "2025-03-26"} {
			t.Run(sv.name+"/"+version, func(t *testing.T) {
				ctx := testContext(t)
				b := newBlockTool()
				ts := sv.serve(t, b, nil)
				s := openRaw(ctx, t, ts.URL, version)

				respc := make(chan *http.Response, 1)
				go func() {
					resp, err := http.DefaultClient.Do(s.request(5, "Block"))
					if err != nil {
						close(respc)
						return
					}
					respc <- resp
				}()
				wait(ctx, t, b.started, "Block to start")
				resp := s.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"the user stopped it"}}`, true)
				resp.Body.Close()
				if resp.StatusCode != http.StatusAccepted {
					t.Errorf("notifications/cancelled answered %s, want 202", resp.Status)
				}
				wait(ctx, t, b.ended, "Block to see its call cancelled")
				resp, ok := <-respc
				if !ok {
					t.Fatal("the call's POST failed")
				}
				events := readEvents(t, resp)
				if text, ok := resultText(events, 5); ok {
					t.Errorf("the cancelled call was answered on its stream: %q", text)
				}
				if len(events) > 0 && events[0].ID != "" {
					if text, ok := resultText(readEvents(t, s.resume(events[0].ID)), 5); ok {
						t.Errorf("the cancelled call was answered on its resumed stream: %q", text)
					}
				}
				resp = s.post(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"Echo","arguments":{"message":"still here"}}}`, true)
				if text, ok := resultText(readEvents(t, resp), 6); !ok || text != "still here" {
					t.Errorf("the next call was answered %q (answer %v), want %q", text, ok, "still here")
				}
			})
		}
	}
}
