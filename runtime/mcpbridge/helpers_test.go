package mcpbridge_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func objectSchema(props map[string]any, required ...string) map[string]any {
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             req,
		"additionalProperties": false,
	}
}

func echoTool() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "Echo",
		Description: "Repeats a message back.",
		InputSchema: objectSchema(map[string]any{
			"message": map[string]any{"type": "string", "description": "The message to repeat."},
			"times":   map[string]any{"type": "integer"},
		}, "message"),
		Concurrency: tool.Safe,
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		msg, err := tool.Param[string](in, "message")
		if err != nil {
			return tool.FailureFrom(err)
		}
		n, err := tool.ParamOr[int](in, "times", 1)
		if err != nil {
			return tool.FailureFrom(err)
		}
		return tool.Success(strings.Repeat(msg, n))
	})
}

func namedTool(name, reply string) tool.Tool {
	return tool.New(tool.Definition{Name: name, Description: "Says " + reply + ".", InputSchema: objectSchema(map[string]any{})},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success(reply) })
}

// slowTool blocks until release is closed or its call is cancelled; started
// receives one value per call that began.
type slowTool struct {
	started chan struct{}
	release chan struct{}
}

func newSlowTool() *slowTool {
	return &slowTool{started: make(chan struct{}, 16), release: make(chan struct{})}
}

func (s *slowTool) tool() tool.Tool {
	return tool.New(tool.Definition{Name: "Slow", Description: "Waits.", InputSchema: objectSchema(map[string]any{}), Concurrency: tool.Safe},
		func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
			s.started <- struct{}{}
			select {
			case <-s.release:
				return tool.Success("done")
			case <-ctx.Done():
				return tool.FailureWith("Slow was cancelled.", ctx.Err())
			}
		})
}

// fixture is our server over a registry, connected in memory to an SDK
// client.
type fixture struct {
	reg     *tool.Registry
	srv     *mcpbridge.Server
	cs      *mcp.ClientSession
	changed chan struct{}
}

func newFixture(t *testing.T, reg *tool.Registry, opts ...tool.Option) *fixture {
	t.Helper()
	exec := tool.NewExecutor(reg, opts...)
	srv := mcpbridge.NewServer(exec, &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
	f := &fixture{reg: reg, srv: srv, changed: make(chan struct{}, 16)}
	f.cs = connect(t, srv.MCPServer(), &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case f.changed <- struct{}{}:
			default:
			}
		},
	})
	t.Cleanup(func() { srv.Close() })
	return f
}

// connect serves s over an in-memory transport and returns a connected SDK
// client session, closed at cleanup.
func connect(t *testing.T, s *mcp.Server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, copts)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	return contentText(res), res.IsError
}

func contentText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatalf("ListTools: %v", err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

func mustParse(t *testing.T, entries ...string) permission.List {
	t.Helper()
	l, err := permission.Parse(entries...)
	if err != nil {
		t.Fatalf("permission.Parse(%q): %v", entries, err)
	}
	return l
}

func enforce() tool.Option { return tool.WithSchemaMode(schema.Enforce) }

// waitBound is how long a test waits for what should happen soon: a tenth
// of the time the test has left (a loaded machine only makes things slower,
// so it cannot fail the test; a hang is still reported before go test's own
// timeout), or a minute where the test has no deadline.
func waitBound(t *testing.T) time.Duration {
	if d, ok := t.Deadline(); ok {
		return time.Until(d) / 10
	}
	return time.Minute
}

// waitFor polls cond for up to waitBound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitBound(t))
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// sessionful pins a go-sdk client to the last revision with sessions
// (2025-11-25): from 2026-07-28, its default, the client asks
// server/discover first and is served statelessly, with no session.
var sessionful = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
