package genkittool_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/toolgen/toolgen/integrations/genkit"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestGenerate: genkit.Generate, with a scripted model that asks for two
// tools (a good call, and a tool the allow-list denies) and then answers
// with what it was told, calls them through the executor; the model reads
// the result and the denial's sentence, and is shown the real schema.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	reg := tool.NewRegistry()
	if err := reg.Register(tool.New(tool.Definition{Name: "Echo", Description: "Repeats a message back.", InputSchema: map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"message"},
		"properties": map[string]any{"message": map[string]any{"type": "string"}}}},
		func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
			m, err := tool.Param[string](in, "message")
			if err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success(m + "!")
		})); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(tool.New(tool.Definition{Name: "Secret", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("the secret") })); err != nil {
		t.Fatal(err)
	}
	list, err := permission.Parse("Echo")
	if err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithAllowList(list), tool.WithSchemaMode(schema.Enforce))
	tools := genkittool.Tools(exec, tool.NewContext())
	if len(tools) != 1 || tools[0].Name() != "Echo" || tools[0].Definition().Description != "Repeats a message back." {
		t.Fatalf("tools: %v", tools)
	}
	// Secret, wired in by hand, is denied by the executor's list.
	tools = append(tools, genkittool.New(exec, tool.Definition{Name: "Secret", InputSchema: map[string]any{"type": "object"}}, tool.NewContext()))

	g := genkit.Init(ctx)
	var seen []string
	model := genkit.DefineModel(g, "test/scripted", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if len(req.Tools) != 2 || req.Tools[0].InputSchema["required"] == nil && req.Tools[1].InputSchema["required"] == nil {
				t.Errorf("the model is not shown Echo's schema: %+v", req.Tools)
			}
			last := req.Messages[len(req.Messages)-1]
			var responses []string
			for _, p := range last.Content {
				if p.ToolResponse != nil {
					responses = append(responses, toString(p.ToolResponse.Output))
				}
			}
			sort.Strings(responses) // the calls run concurrently
			seen = append(seen, responses...)
			switch len(seen) {
			case 0:
				return &ai.ModelResponse{Message: &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{
					ai.NewToolRequestPart(&ai.ToolRequest{Name: "Echo", Ref: "1", Input: map[string]any{"message": "hi"}}),
					ai.NewToolRequestPart(&ai.ToolRequest{Name: "Secret", Ref: "2", Input: map[string]any{}}),
				}}, FinishReason: ai.FinishReasonStop}, nil
			default:
				return &ai.ModelResponse{Message: ai.NewModelTextMessage("told: " + strings.Join(seen, " | ")), FinishReason: ai.FinishReasonStop}, nil
			}
		})
	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("Echo hi."), ai.WithTools(genkittool.Refs(tools)...))
	if err != nil {
		t.Fatal(err)
	}
	want := "told: Error: Tool 'Secret' is not allowed. | hi!"
	if got := resp.Text(); got != want {
		t.Errorf("the model's answer:\n got %q\nwant %q", got, want)
	}
}

func toString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}
