package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Second))
	}
	t.Cleanup(cancel)
	return ctx
}

// fixtureClient serves the fixture server in memory to an SDK client
// that records the log and progress notifications it gets.
type fixtureClient struct {
	cs       *mcp.ClientSession
	mu       sync.Mutex
	logs     []string
	progress []float64
}

func connect(t *testing.T) *fixtureClient {
	t.Helper()
	ctx := testContext(t)
	srv, err := newServer(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	fc := &fixtureClient{}
	client := mcp.NewClient(&mcp.Implementation{Name: "fixture-test", Version: "v0"}, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			fc.mu.Lock()
			defer fc.mu.Unlock()
			fc.logs = append(fc.logs, string(r.Params.Level)+": "+toString(r.Params.Data))
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			fc.mu.Lock()
			defer fc.mu.Unlock()
			fc.progress = append(fc.progress, r.Params.Progress)
		},
	})
	// The suite's client speaks 2025-11-25. (Under 2026-07-28, where MCP
	// logging is deprecated, the SDK takes the log level from each request
	// rather than from logging/setLevel.)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	fc.cs = cs
	t.Cleanup(func() {
		cs.Close()
		<-served
		srv.Close()
	})
	return fc
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if m, ok := v.(map[string]any); ok {
		if s, ok := m["msg"].(string); ok {
			return s
		}
		if s, ok := m["message"].(string); ok {
			return s
		}
	}
	return "?"
}

// content is a content block reduced to what the suite checks.
type content struct {
	Type, Text, MIME, URI string
	Data                  bool
}

func reduce(cs []mcp.Content) []content {
	var out []content
	for _, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			out = append(out, content{Type: "text", Text: c.Text})
		case *mcp.ImageContent:
			out = append(out, content{Type: "image", MIME: c.MIMEType, Data: bytes.Equal(c.Data, pngBytes)})
		case *mcp.AudioContent:
			out = append(out, content{Type: "audio", MIME: c.MIMEType, Data: bytes.Equal(c.Data, wavBytes)})
		case *mcp.EmbeddedResource:
			out = append(out, content{Type: "resource", MIME: c.Resource.MIMEType, URI: c.Resource.URI, Text: c.Resource.Text})
		default:
			out = append(out, content{Type: "other"})
		}
	}
	return out
}

// TestFixtureTools calls every fixture tool as the suite does.
func TestFixtureTools(t *testing.T) {
	tests := []struct {
		tool    string
		want    []content
		isError bool
	}{
		{"test_simple_text", []content{{Type: "text", Text: "This is a simple text response for testing."}}, false},
		{"test_image_content", []content{{Type: "image", MIME: "image/png", Data: true}}, false},
		{"test_audio_content", []content{{Type: "audio", MIME: "audio/wav", Data: true}}, false},
		{"test_embedded_resource", []content{{Type: "resource", MIME: "text/plain", URI: "test://embedded-resource", Text: "This is an embedded resource content."}}, false},
		{"test_multiple_content_types", []content{
			{Type: "text", Text: "Multiple content types test:"},
			{Type: "image", MIME: "image/png", Data: true},
			{Type: "resource", MIME: "application/json", URI: "test://mixed-content-resource", Text: `{"test":"data","value":123}`},
		}, false},
	}
	fc := connect(t)
	ctx := testContext(t)
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			res, err := fc.cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if res.IsError != tt.isError {
				t.Errorf("isError = %v, want %v", res.IsError, tt.isError)
			}
			if diff := cmp.Diff(tt.want, reduce(res.Content)); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFixtureErrorLoggingProgress: the error tool fails with text, the
// logging tool's three records and the progress tool's three reports
// reach the client.
func TestFixtureErrorLoggingProgress(t *testing.T) {
	t.Parallel() // it waits on the fixture's timed logs, and TestFixtureReconnection on its 500 ms
	fc := connect(t)
	ctx := testContext(t)
	res, err := fc.cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_error_handling", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := reduce(res.Content); !res.IsError || len(got) != 1 || got[0].Text == "" {
		t.Errorf("test_error_handling = isError %v, %+v; want an error result with text", res.IsError, got)
	}

	if err := fc.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
		t.Fatal(err)
	}
	if _, err := fc.cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_tool_with_logging", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "test_tool_with_progress", Arguments: map[string]any{}}
	params.SetProgressToken("p-1")
	if _, err := fc.cs.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	// Notifications may trail the result they precede.
	for {
		fc.mu.Lock()
		n, m := len(fc.logs), len(fc.progress)
		fc.mu.Unlock()
		if n >= 3 && m >= 3 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("got %d log records and %d progress reports, want 3 of each", n, m)
		case <-time.After(10 * time.Millisecond):
		}
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if diff := cmp.Diff([]string{"info: Tool execution started", "info: Tool processing data", "info: Tool execution completed"}, fc.logs); diff != "" {
		t.Errorf("log records (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]float64{0, 50, 100}, fc.progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// TestFixtureResourcesPrompts reads the template resource, gets the
// prompt with arguments, completes its argument and subscribes to a
// resource (the SDK server's handlers set through mcpbridge.ServerOptions).
func TestFixtureResourcesPrompts(t *testing.T) {
	fc := connect(t)
	ctx := testContext(t)
	rr, err := fc.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"data":"Data for ID: 123","id":"123","templateTest":true}`, rr.Contents[0].Text); diff != "" {
		t.Errorf("template resource (-want +got):\n%s", diff)
	}
	gp, err := fc.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "hello", "arg2": "world"}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]content{{Type: "text", Text: "Prompt with arguments: arg1='hello', arg2='world'"}}, reduce([]mcp.Content{gp.Messages[0].Content})); diff != "" {
		t.Errorf("prompt (-want +got):\n%s", diff)
	}
	cr, err := fc.cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
		Argument: mcp.CompleteParamsArgument{Name: "arg1", Value: "par"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"paris", "park", "party"}, cr.Completion.Values); diff != "" {
		t.Errorf("completion (-want +got):\n%s", diff)
	}
	if err := fc.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Errorf("subscribe: %v", err)
	}
	if err := fc.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Errorf("unsubscribe: %v", err)
	}
}

// TestUsage: -http is required.
func TestUsage(t *testing.T) {
	var stderr bytes.Buffer
	if got := run(context.Background(), nil, &stderr); got != 2 {
		t.Errorf("run() = %d, want 2", got)
	}
	if want := "usage: conformance -http ADDR (for example -http 127.0.0.1:3001)\n"; stderr.String() != want {
		t.Errorf("stderr = %q, want %q", stderr.String(), want)
	}
}

// TestFixtureAsks: test_sampling and test_elicitation ask the client and
// word its answers.
func TestFixtureAsks(t *testing.T) {
	ctx := testContext(t)
	srv, err := newServer(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, st) }()
	var asked []string
	client := mcp.NewClient(&mcp.Implementation{Name: "asks-test", Version: "v0"}, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked = append(asked, "sample: "+r.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "an answer"}}, nil
		},
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, "elicit: "+r.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
		},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cs.Close()
		<-served
	}()
	var got []string
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"test_sampling", map[string]any{"prompt": "Test prompt"}},
		{"test_elicitation", map[string]any{"message": "Who are you?"}},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reduce(res.Content) {
			got = append(got, r.Text)
		}
	}
	want := []string{
		"LLM response: an answer",
		`User response: action=accept, content={"email":"ada@example.com","username":"ada"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"sample: Test prompt", "elicit: Who are you?"}, asked); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestFixtureReconnection: over streamable HTTP at 2025-11-25,
// test_reconnection closes its stream mid-call and the official Go SDK
// client resumes it (Last-Event-ID) and gets the answer the event store
// kept; over a transport without resumable streams the tool answers on the
// open stream and says why.
func TestFixtureReconnection(t *testing.T) {
	t.Parallel() // it waits 500 ms for the fixture to close the stream
	ctx := testContext(t)
	srv, err := newServer(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.HTTPHandler(nil))
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "fixture-test", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	tests := []struct {
		name string
		cs   *mcp.ClientSession
		want string
	}{
		{"http", cs, "Reconnection test completed successfully: the stream was closed and this answer waited in the event store for the client to resume it."},
		{"in-memory", connect(t).cs, "Reconnection test completed without a reconnection: this request's stream cannot be resumed (its protocol version is before 2025-11-25 or from 2026-07-28, or it is not an SSE stream), so it was kept open."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_reconnection", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]content{{Type: "text", Text: tt.want}}, reduce(res.Content)); diff != "" || res.IsError {
				t.Errorf("content (-want +got), isError %v:\n%s", res.IsError, diff)
			}
		})
	}
}

// TestFixtureSearchIssues: search_issues, whose function leaves slices and
// maps nil, sends them as [] and {} (what tsclient/check.mjs holds the
// TypeScript SDK's client to in make conformance).
func TestFixtureSearchIssues(t *testing.T) {
	fc := connect(t)
	ctx := testContext(t)
	for _, tt := range []struct{ query, want string }{
		{"no such words", `{"query":"no such words","issues":[],"label_counts":{}}`},
		{"output", `{"query":"output","issues":[{"number":2,"title":"Document the output directive","labels":[]}],"label_counts":{}}`},
		{"crash", `{"query":"crash","issues":[{"number":1,"title":"Crash on start","labels":["bug"]}],"label_counts":{"bug":1}}`},
	} {
		res, err := fc.cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_issues", Arguments: map[string]any{"query": tt.query}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || !jsonEqual(t, string(got), tt.want) {
			t.Errorf("%q: structured content %s (error %v), want %s", tt.query, got, res.IsError, tt.want)
		}
	}
}

// jsonEqual says whether two JSON texts are the same value.
func jsonEqual(t *testing.T, a, b string) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal([]byte(a), &va); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(b), &vb); err != nil {
		t.Fatal(err)
	}
	return cmp.Equal(va, vb)
}
