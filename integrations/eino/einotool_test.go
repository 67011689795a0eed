package einotool_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/integrations/eino"
	"github.com/toolgen/toolgen/runtime/permission"
	tgschema "github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func executor(t *testing.T, opts ...tool.Option) *tool.Executor {
	t.Helper()
	reg := tool.NewRegistry()
	echo := tool.New(tool.Definition{Name: "Echo", Description: "Repeats a message back.", InputSchema: map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"message"},
		"properties": map[string]any{"message": map[string]any{"type": "string", "description": "The message."}}}},
		func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
			m, err := tool.Param[string](in, "message")
			if err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success(m)
		})
	crash := tool.New(tool.Definition{Name: "Crash", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, tool.Input, tool.Context) tool.Result {
			var m map[string]int
			m["x"] = 1
			return tool.Success("")
		})
	secret := tool.New(tool.Definition{Name: "Secret", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("secret") })
	for _, tl := range []tool.Tool{echo, crash, secret} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	list, err := permission.Parse("Echo", "Crash")
	if err != nil {
		t.Fatal(err)
	}
	return tool.NewExecutor(reg, append([]tool.Option{tool.WithAllowList(list), tool.WithSchemaMode(tgschema.Enforce)}, opts...)...)
}

// TestInfo: Eino sees the offered tools with their schemas as JSON Schema.
func TestInfo(t *testing.T) {
	ctx := context.Background()
	tools, err := einotool.Tools(ctx, executor(t), tool.NewContext())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		info, err := tl.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, info.Name)
		if info.Name == "Echo" {
			js, err := info.ParamsOneOf.ToJSONSchema()
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(js)
			var got map[string]any
			json.Unmarshal(data, &got)
			want := map[string]any{"type": "object", "additionalProperties": false, "required": []any{"message"},
				"properties": map[string]any{"message": map[string]any{"type": "string", "description": "The message."}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Echo's parameters through Eino's jsonschema (-want +got):\n%s", diff)
			}
		}
	}
	if diff := cmp.Diff([]string{"Echo", "Crash"}, names); diff != "" {
		t.Errorf("tools (the allow-list leaves Secret out) (-want +got):\n%s", diff)
	}
}

// TestToolsNode: Eino's own ToolsNode calls the tools; every call passes the
// executor's gate and answers the model with a sentence, never a failed
// graph.
func TestToolsNode(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	ids := map[string]string{} // the call's id the executor saw, by its message
	exec := executor(t, tool.WithMiddleware(func(next tool.Handler) tool.Handler {
		return func(ctx context.Context, c tool.Call, tc tool.Context) tool.Result {
			mu.Lock()
			ids[c.ID] = c.Name
			mu.Unlock()
			return next(ctx, c, tc)
		}
	}))
	tools, err := einotool.Tools(ctx, exec, tool.NewContext())
	if err != nil {
		t.Fatal(err)
	}
	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	call := func(id, name, args string) schema.ToolCall {
		return schema.ToolCall{ID: id, Type: "function", Function: schema.FunctionCall{Name: name, Arguments: args}}
	}
	msgs, err := node.Invoke(ctx, &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{
		call("1", "Echo", `{"message":"hi"}`),
		call("2", "Echo", `{"mesage":"hi"}`),
		call("3", "Crash", `{}`),
		call("5", "Echo", `not json`),
	}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range msgs {
		got[m.ToolCallID] = m.Content
	}
	want := map[string]string{
		"1": "hi",
		"2": "Error: Parameter 'message' is required (string).\nUnknown parameter 'mesage'. Did you mean 'message'? The tool was not executed.",
		"3": "Error: Tool 'Crash' failed with an internal error: assignment to entry in nil map",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("call %s: %q, want %q", id, got[id], w)
		}
	}
	if !strings.HasPrefix(got["5"], "Error: Tool 'Echo' was not executed:") {
		t.Errorf("call 5 (arguments that are not JSON): %q", got["5"])
	}
	// The executor sees the model's id of each call it ran.
	if diff := cmp.Diff(map[string]string{"1": "Echo", "2": "Echo", "3": "Crash"}, ids); diff != "" {
		t.Errorf("the calls' ids the executor saw (-want +got):\n%s", diff)
	}
	// A tool the allow-list denies, wired in by hand: refused by the gate.
	if out, err := einotool.New(exec, "Secret", tool.NewContext()).InvokableRun(ctx, `{}`); err != nil || out != "Error: Tool 'Secret' is not allowed." {
		t.Errorf("Secret: %q, %v", out, err)
	}
}
