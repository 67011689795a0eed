package mcpbridge_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// pngPixel is a valid 1x1 PNG.
var pngPixel = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

type weather struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
}

var weatherOutput = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"city":   map[string]any{"type": "string"},
		"temp_c": map[string]any{"type": "number"},
	},
	"required":             []any{"city", "temp_c"},
	"additionalProperties": false,
}

func richRegistry(t *testing.T) *tool.Registry {
	t.Helper()
	reg := tool.NewRegistry()
	tools := []tool.Tool{
		tool.New(tool.Definition{
			Name: "Weather", Title: "Current weather", Description: "Says the weather.",
			InputSchema: objectSchema(map[string]any{}), OutputSchema: weatherOutput,
			SideEffect: tool.ReadOnly,
			OpenWorld:  true,
		}, func(context.Context, tool.Input, tool.Context) tool.Result {
			return tool.Success(`{"city":"Oslo","temp_c":-3.5}`).WithStructured(weather{City: "Oslo", TempC: -3.5})
		}),
		tool.New(tool.Definition{Name: "Media", Description: "Shows media.", InputSchema: objectSchema(map[string]any{}), SideEffect: tool.Mutating, Concurrency: tool.Safe},
			func(context.Context, tool.Input, tool.Context) tool.Result {
				return tool.SuccessParts(
					tool.Part{Kind: tool.TextPart, Text: "a pixel:"},
					tool.Part{Kind: tool.ImagePart, Data: pngPixel, MIMEType: "image/png"},
					tool.Part{Kind: tool.AudioPart, Data: []byte("RIFF"), MIMEType: "audio/wav"},
					tool.Part{Kind: tool.ResourcePart, URI: "file:///notes.txt", MIMEType: "text/plain", Text: "notes"},
					tool.Part{Kind: tool.ResourcePart, URI: "file:///blob.bin", MIMEType: "application/octet-stream", Data: []byte{0, 1}},
					tool.Part{Kind: tool.ResourceLinkPart, URI: "file:///big.log", Name: "big.log", MIMEType: "text/plain"},
				)
			}),
		tool.New(tool.Definition{Name: "Work", Description: "Works in steps.", InputSchema: objectSchema(map[string]any{}), SideEffect: tool.Destructive},
			func(ctx context.Context, _ tool.Input, tc tool.Context) tool.Result {
				for i := 1; i <= 3; i++ {
					tc.ReportProgress(ctx, tool.Progress{Done: float64(i), Total: 3, Message: "step"})
				}
				tc.ReportProgress(ctx, tool.Progress{Done: 2, Total: 3}) // goes back: dropped
				tc.Logger().Debug("below the client's level")
				tc.Logger().With("run", 7).WithGroup("step").Info("worked", "n", 3)
				tc.Logger().Error("failed once", "err", errString("disk full"))
				return tool.Success("done")
			}),
	}
	for _, tl := range tools {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

type errString string

func (e errString) Error() string { return string(e) }

// TestClientSeesMetadata is what an SDK client lists: titles, output
// schemas and annotations with every hint said.
func TestClientSeesMetadata(t *testing.T) {
	f := newFixture(t, richRegistry(t))
	res, err := f.cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		Title        string
		Annotations  *mcp.ToolAnnotations
		OutputSchema any
	}
	got := map[string]seen{}
	for _, tl := range res.Tools {
		got[tl.Name] = seen{tl.Title, tl.Annotations, tl.OutputSchema}
	}
	want := map[string]seen{
		"Weather": {"Current weather", &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(true), Title: "Current weather"}, jsonValue(t, weatherOutput)},
		"Media":   {"", &mcp.ToolAnnotations{DestructiveHint: new(false), OpenWorldHint: new(false)}, nil},
		"Work":    {"", &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(false)}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}
}

func jsonValue(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestClientSeesStructuredContent(t *testing.T) {
	f := newFixture(t, richRegistry(t))
	res, err := f.cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "Weather"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("error result: %s", contentText(res))
	}
	if diff := cmp.Diff(map[string]any{"city": "Oslo", "temp_c": -3.5}, res.StructuredContent); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	if got, want := contentText(res), `{"city":"Oslo","temp_c":-3.5}`; got != want {
		t.Errorf("text content = %q, want %q", got, want)
	}
}

func TestClientSeesParts(t *testing.T) {
	f := newFixture(t, richRegistry(t))
	res, err := f.cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "Media"})
	if err != nil {
		t.Fatal(err)
	}
	want := []mcp.Content{
		&mcp.TextContent{Text: "a pixel:"},
		&mcp.ImageContent{Data: pngPixel, MIMEType: "image/png"},
		&mcp.AudioContent{Data: []byte("RIFF"), MIMEType: "audio/wav"},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "notes"}},
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "file:///blob.bin", MIMEType: "application/octet-stream", Blob: []byte{0, 1}}},
		&mcp.ResourceLink{URI: "file:///big.log", Name: "big.log", MIMEType: "text/plain"},
	}
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

func TestClientSeesProgressAndLogs(t *testing.T) {
	var mu sync.Mutex
	var progress []mcp.ProgressNotificationParams
	var logs []mcp.LoggingMessageParams
	done := make(chan struct{}, 16)
	srv := mcpbridge.NewServer(tool.NewExecutor(richRegistry(t)), &mcpbridge.ServerOptions{Name: "test", Version: "v0", Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(func() { srv.Close() })
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, *r.Params)
			mu.Unlock()
			done <- struct{}{}
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, *r.Params)
			mu.Unlock()
			done <- struct{}{}
		},
	})
	ctx := testContext(t)
	if got := cs.InitializeResult().Capabilities.Logging; got == nil {
		t.Error("the server does not advertise logging")
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "Work"}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("CallTool: %v %v", err, res)
	}
	for range 5 { // three progress reports, two records at info or above
		select {
		case <-done:
		case <-ctx.Done():
			t.Fatal("notifications did not arrive")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	wantProgress := []mcp.ProgressNotificationParams{
		{ProgressToken: "tok-1", Progress: 1, Total: 3, Message: "step"},
		{ProgressToken: "tok-1", Progress: 2, Total: 3, Message: "step"},
		{ProgressToken: "tok-1", Progress: 3, Total: 3, Message: "step"},
	}
	if diff := cmp.Diff(wantProgress, progress); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	wantLogs := []mcp.LoggingMessageParams{
		{Level: "info", Logger: "Work", Data: map[string]any{"msg": "worked", "run": float64(7), "step": map[string]any{"n": float64(3)}}},
		{Level: "error", Logger: "Work", Data: map[string]any{"msg": "failed once", "err": "disk full"}},
	}
	if diff := cmp.Diff(wantLogs, logs); diff != "" {
		t.Errorf("logs (-want +got):\n%s", diff)
	}
}

// A call without a progress token sends no progress, and a client that
// set no level gets no logs.
func TestNoTokenNoProgress(t *testing.T) {
	got := make(chan string, 16)
	srv := mcpbridge.NewServer(tool.NewExecutor(richRegistry(t)), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
	t.Cleanup(func() { srv.Close() })
	cs := connect(t, srv.MCPServer(), &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { got <- "progress" },
		LoggingMessageHandler:       func(context.Context, *mcp.LoggingMessageRequest) { got <- "log" },
	})
	if text, isErr := callText(t, cs, "Work", nil); isErr || text != "done" {
		t.Fatalf("Work = %q, %v", text, isErr)
	}
	// A ping after the call: the connection delivers in order, so anything
	// the call sent has been handled by the time it is answered.
	if err := cs.Ping(testContext(t), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-got:
		t.Errorf("got a %s notification", n)
	default:
	}
}

// Our server's rich tools seen through our own client: the metadata, the
// parts and the structured content come back as they left.
func TestRemoteToolsKeepMetadataAndParts(t *testing.T) {
	f := newFixture(t, richRegistry(t))
	tools, err := mcpbridge.Tools(testContext(t), f.cs, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]tool.Tool{}
	for _, tl := range tools {
		byName[tl.Definition().Name] = tl
	}
	w := byName["Weather"].Definition()
	if w.Title != "Current weather" {
		t.Errorf("Title = %q", w.Title)
	}
	if diff := cmp.Diff(jsonValue(t, weatherOutput), jsonValue(t, w.OutputSchema)); diff != "" {
		t.Errorf("OutputSchema (-want +got):\n%s", diff)
	}
	wantHints := map[string]tool.Hints{
		"Weather": {ReadOnly: true, Idempotent: true, OpenWorld: true},
		"Media":   {},
		"Work":    {Destructive: true},
	}
	reg := tool.NewRegistry()
	for _, tl := range tools {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	hints := map[string]tool.Hints{}
	for _, d := range tool.NewExecutor(reg).Definitions() {
		hints[d.Name] = *d.Hints
	}
	for name, want := range wantHints {
		if diff := cmp.Diff(want, hints[name]); diff != "" {
			t.Errorf("%s hints (-want +got):\n%s", name, diff)
		}
	}
	ctx := testContext(t)
	res := byName["Weather"].Execute(ctx, tool.Input{}, tool.Context{})
	if diff := cmp.Diff(map[string]any{"city": "Oslo", "temp_c": -3.5}, res.Structured); diff != "" {
		t.Errorf("Structured (-want +got):\n%s", diff)
	}
	res = byName["Media"].Execute(ctx, tool.Input{}, tool.Context{})
	want := []tool.Part{
		tool.Part{Kind: tool.TextPart, Text: "a pixel:"},
		tool.Part{Kind: tool.ImagePart, Data: pngPixel, MIMEType: "image/png"},
		tool.Part{Kind: tool.AudioPart, Data: []byte("RIFF"), MIMEType: "audio/wav"},
		tool.Part{Kind: tool.ResourcePart, URI: "file:///notes.txt", MIMEType: "text/plain", Text: "notes"},
		tool.Part{Kind: tool.ResourcePart, URI: "file:///blob.bin", MIMEType: "application/octet-stream", Data: []byte{0, 1}},
		tool.Part{Kind: tool.ResourceLinkPart, URI: "file:///big.log", Name: "big.log", MIMEType: "text/plain"},
	}
	if diff := cmp.Diff(want, res.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}
