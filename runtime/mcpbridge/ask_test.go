package mcpbridge_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tool/ask"
)

// askRegistry holds a tool that asks the user for a name and the host's
// model for a greeting, and says what it got.
func askRegistry(t *testing.T) *tool.Registry {
	t.Helper()
	reg := tool.NewRegistry()
	err := reg.Register(tool.New(tool.Definition{Name: "Greet", Description: "Greets the user.", InputSchema: objectSchema(map[string]any{})},
		func(ctx context.Context, _ tool.Input, tc tool.Context) tool.Result {
			ans, err := ask.Elicit(ctx, tc, ask.ElicitRequest{Message: "Your name?", Schema: map[string]any{
				"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"},
			}})
			if errors.Is(err, ask.ErrNotSupported) {
				return tool.Success("no elicitation")
			}
			if err != nil {
				return tool.FailureFrom(err)
			}
			if ans.Action != "accept" {
				return tool.Success("the user said " + ans.Action)
			}
			name, _ := ans.Content["name"].(string)
			reply, err := ask.Sample(ctx, tc, ask.SampleRequest{SystemPrompt: "Be brief.", Messages: []ask.SampleMessage{{Role: "user", Text: "Greet " + name}}, MaxTokens: 50})
			if errors.Is(err, ask.ErrNotSupported) {
				return tool.Success("Hello, " + name + " (no sampling)")
			}
			if err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success(reply.Text + " [" + reply.Model + "]")
		}))
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestElicitAndSample(t *testing.T) {
	var sampled *mcp.CreateMessageParams
	tests := []struct {
		name string
		opts *mcp.ClientOptions
		want string
	}{
		{"neither", &mcp.ClientOptions{}, "no elicitation"},
		{"elicitation declined", &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "decline"}, nil
			},
		}, "the user said decline"},
		{"elicitation without sampling", &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				if r.Params.Message != "Your name?" {
					return nil, errors.New("unexpected message")
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
			},
		}, "Hello, Ada (no sampling)"},
		{"both", &mcp.ClientOptions{
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
			},
			CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				sampled = r.Params
				return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "Hi Ada!"}, Model: "host-model", Role: "assistant"}, nil
			},
		}, "Hi Ada! [host-model]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mcpbridge.NewServer(tool.NewExecutor(askRegistry(t)), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
			t.Cleanup(func() { srv.Close() })
			cs := connectVersion(t, srv.MCPServer(), tt.opts, "2025-11-25")
			if got, isErr := callText(t, cs, "Greet", nil); isErr || got != tt.want {
				t.Errorf("Greet = %q (error %v), want %q", got, isErr, tt.want)
			}
		})
	}
	if sampled == nil {
		t.Fatal("the sampling handler was not called")
	}
	// On the newest protocol the server may not ask during a call: the tool
	// is told its client cannot.
	srv := mcpbridge.NewServer(tool.NewExecutor(askRegistry(t)), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
	t.Cleanup(func() { srv.Close() })
	cs := connect(t, srv.MCPServer(), tests[3].opts)
	if got, isErr := callText(t, cs, "Greet", nil); isErr || got != "no elicitation" {
		t.Errorf("Greet on the newest protocol = %q (error %v), want %q", got, isErr, "no elicitation")
	}
	want := &mcp.CreateMessageParams{SystemPrompt: "Be brief.", MaxTokens: 50, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Greet Ada"}}}}
	if diff := cmp.Diff(want, sampled); diff != "" {
		t.Errorf("sampling request (-want +got):\n%s", diff)
	}
}

// connectVersion is connect with the client asking for protocol version.
func connectVersion(t *testing.T, s *mcp.Server, copts *mcp.ClientOptions, version string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatalf("server connect: %v", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, copts)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated protocol %s, want %s", got, version)
	}
	return cs
}

// TestAskNotSupportedSays: where a call cannot ask, Elicit and Sample
// return errors that are ask.ErrNotSupported and say why and what the
// model can do instead.
func TestAskNotSupportedSays(t *testing.T) {
	reg := tool.NewRegistry()
	err := reg.Register(tool.New(tool.Definition{Name: "Why", Description: "Says why it cannot ask.", InputSchema: objectSchema(map[string]any{})},
		func(ctx context.Context, _ tool.Input, tc tool.Context) tool.Result {
			_, eerr := ask.Elicit(ctx, tc, ask.ElicitRequest{Message: "Your name?"})
			_, serr := ask.Sample(ctx, tc, ask.SampleRequest{Messages: []ask.SampleMessage{{Role: "user", Text: "Hi"}}})
			if !errors.Is(eerr, ask.ErrNotSupported) || !errors.Is(serr, ask.ErrNotSupported) {
				return tool.Failure("not ErrNotSupported")
			}
			return tool.Success(eerr.Error() + "\n" + serr.Error())
		}))
	if err != nil {
		t.Fatal(err)
	}
	both := &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Content: &mcp.TextContent{Text: "x"}, Role: "assistant"}, nil
		},
	}
	tests := []struct {
		name, version string
		opts          *mcp.ClientOptions
		want          string
	}{
		{"no capability", "2025-11-25", &mcp.ClientOptions{},
			"the client of this call does not support it: the MCP client did not declare the elicitation capability, so the user cannot be asked during the call; ask in your reply instead, then call the tool again with the answer\n" +
				"the client of this call does not support it: the MCP client did not declare the sampling capability, so the host's model cannot be asked during the call; ask in your reply instead, then call the tool again with the answer"},
		{"multi round-trip protocol", "2026-07-28", both,
			"the client of this call does not support it: the MCP client speaks protocol 2026-07-28, in which a server asks only between rounds of a call (SEP-2322), and this server asks during a call; ask in your reply instead, then call the tool again with the answer\n" +
				"the client of this call does not support it: the MCP client speaks protocol 2026-07-28, in which a server asks only between rounds of a call (SEP-2322), and this server asks during a call; ask in your reply instead, then call the tool again with the answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mcpbridge.NewServer(tool.NewExecutor(reg), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
			t.Cleanup(func() { srv.Close() })
			cs := connectVersion(t, srv.MCPServer(), tt.opts, tt.version)
			got, isErr := callText(t, cs, "Why", nil)
			if diff := cmp.Diff(tt.want, got); diff != "" || isErr {
				t.Errorf("Why (error %v) (-want +got):\n%s", isErr, diff)
			}
		})
	}
}
