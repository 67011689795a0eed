package mcpbridge_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestServe drives Serve over streamable HTTP with the SDK's client: the
// allow-list's tools are listed, a deferred one is found by ToolSearch and
// then called, a tool the list leaves out is never revealed, and the
// resources and prompts declared in Go are listed, read and rendered.
func TestServe(t *testing.T) {
	cat := catalog.New()
	for _, reg := range []struct {
		t       tool.Tool
		loading tool.Loading
	}{
		{echoTool(), tool.Eager},
		{namedTool("Weather", "sunny"), tool.Deferred},
		{namedTool("WeatherSecret", "hidden"), tool.Deferred},
	} {
		if err := cat.RegisterAs(reg.t, reg.loading); err != nil {
			t.Fatal(err)
		}
	}
	if err := builtin.RegisterCatalog(cat, builtin.Options{Tools: []string{builtin.ToolSearchName}}); err != nil {
		t.Fatal(err)
	}
	notes := map[string]string{"todo": "buy milk"}
	opts := &mcpbridge.ServeOptions{
		Endpoint:   mcpbridge.Endpoint{Listener: listen(t)},
		AllowList:  mustParse(t, "Echo", "Weather", "ToolSearch"),
		SchemaMode: schema.Enforce,
		Server: mcpbridge.ServerOptions{
			Name: "mine",
			Resources: []mcpbridge.Resource{
				{URI: "notes://index", Name: "index", MIMEType: "text/plain", Read: func(context.Context, string) (mcpbridge.ResourceContents, error) {
					return mcpbridge.ResourceContents{Text: "todo"}, nil
				}},
				{URITemplate: "notes://note/{name}", Name: "note", MIMEType: "text/plain", Read: func(_ context.Context, uri string) (mcpbridge.ResourceContents, error) {
					n, ok := notes[strings.TrimPrefix(uri, "notes://note/")]
					if !ok {
						return mcpbridge.ResourceContents{}, mcpbridge.ErrResourceNotFound
					}
					return mcpbridge.ResourceContents{Text: n}, nil
				}},
			},
			Prompts: []mcpbridge.Prompt{{
				Name: "summarise", Description: "Summarise a note.",
				Arguments: []mcpbridge.PromptArgument{{Name: "name", Required: true}},
				Render: func(_ context.Context, args map[string]string) ([]mcpbridge.PromptMessage, error) {
					return []mcpbridge.PromptMessage{{Role: "user", Text: "Summarise the note " + args["name"] + "."}}, nil
				},
			}},
		},
	}
	url := "http://" + opts.Listener.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcpbridge.Serve(ctx, cat, opts) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil)
	// A session (2025-11-25): the tools ToolSearch activates stay active
	// for the session's later requests. From 2026-07-28 there are no
	// sessions; a client keeps a run by naming its conversation in _meta
	// (see the package doc).
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := toolNames(t, cs), []string{"Echo", "ToolSearch"}; !slices.Equal(got, want) {
		t.Errorf("tools %v, want %v", got, want)
	}
	if text, isErr := callText(t, cs, "Echo", map[string]any{"message": "hi", "times": 2}); isErr || text != "hihi" {
		t.Errorf("Echo: %q (error %v)", text, isErr)
	}
	if text, _ := callText(t, cs, "Echo", map[string]any{}); !strings.Contains(text, "Parameter 'message' is required") {
		t.Errorf("Echo without its parameter, through the gate: %q", text)
	}
	found, isErr := callText(t, cs, "ToolSearch", map[string]any{"query": "weather"})
	if isErr || !strings.Contains(found, `"Weather"`) || strings.Contains(found, "WeatherSecret") {
		t.Errorf("ToolSearch: %q (error %v); want Weather found and WeatherSecret never revealed", found, isErr)
	}
	if got, want := toolNames(t, cs), []string{"Echo", "ToolSearch", "Weather"}; !slices.Equal(got, want) {
		t.Errorf("tools after the search %v, want %v", got, want)
	}
	if text, isErr := callText(t, cs, "Weather", map[string]any{}); isErr || text != "sunny" {
		t.Errorf("Weather: %q (error %v)", text, isErr)
	}

	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != "notes://index" {
		t.Errorf("resources/list: %+v, %v", res, err)
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "notes://note/{name}" {
		t.Errorf("resources/templates/list: %+v, %v", tmpl, err)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://note/todo"})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "buy milk" || read.Contents[0].MIMEType != "text/plain" {
		t.Errorf("resources/read: %+v, %v", read, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "notes://note/none"}); err == nil {
		t.Error("resources/read of a note that does not exist: no error")
	}
	prompt, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarise", Arguments: map[string]string{"name": "todo"}})
	if err != nil || len(prompt.Messages) != 1 || prompt.Messages[0].Content.(*mcp.TextContent).Text != "Summarise the note todo." {
		t.Errorf("prompts/get: %+v, %v", prompt, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarise"}); err == nil || !strings.Contains(err.Error(), `needs the argument "name"`) {
		t.Errorf("prompts/get without its argument: %v", err)
	}
	cs.Close()
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve after ctx ended: %v", err)
	}
}

// TestServeOptionErrors: what Serve cannot serve is an error naming it.
func TestServeOptionErrors(t *testing.T) {
	ctx := context.Background()
	if err := mcpbridge.Serve(ctx, nil, nil); err == nil || !strings.Contains(err.Error(), "no catalog") {
		t.Errorf("nil catalog: %v", err)
	}
	err := mcpbridge.Serve(ctx, catalog.New(), &mcpbridge.ServeOptions{Server: mcpbridge.ServerOptions{
		Resources: []mcpbridge.Resource{{Name: "x"}},
		Prompts:   []mcpbridge.Prompt{{Name: "p"}, {Name: "p"}},
	}})
	for _, want := range []string{"set exactly one of URI and URITemplate", `prompt "p": no Render function`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad declarations: %v; want %q", err, want)
		}
	}
}
