package provider_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func echo() tool.Tool {
	return tool.New(tool.Definition{Name: "Echo", Description: "Repeats.", InputSchema: echoSchema(), Concurrency: tool.Safe},
		func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
			msg, err := tool.Param[string](in, "message")
			if err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success(msg)
		})
}

// readFile fails until the file "exists".
func readFile(exists *atomic.Bool) tool.Tool {
	return tool.New(tool.Definition{Name: "Read", InputSchema: map[string]any{
		"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []any{"path"},
	}}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		p, _ := tool.Param[string](in, "path")
		if !exists.Load() {
			return tool.Failure("File not found: " + p)
		}
		return tool.Success("contents of " + p)
	})
}

func TestLoopAnthropic(t *testing.T) {
	var exists atomic.Bool
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{echo(), readFile(&exists)} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	allow, err := permission.Parse("Echo", "Read", "Late")
	if err != nil {
		t.Fatal(err)
	}
	loop := provider.NewLoop(tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithAllowList(allow)))

	names := func() []string {
		var out []string
		for _, at := range loop.AnthropicTools() {
			out = append(out, at.Name)
		}
		return out
	}
	if diff := cmp.Diff([]string{"Echo", "Read"}, names()); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	// One response with a good call, a schema violation and a malformed
	// call: all three are answered, in order.
	content := `[
		{"type":"text","text":"Working."},
		{"type":"tool_use","id":"a","name":"Echo","input":{"message":"hi"}},
		{"type":"tool_use","id":"b","name":"Echo","input":{"times":2}},
		{"type":"tool_use","id":"c","name":"Echo","input":"not an object"}
	]`
	msg, ok, err := loop.AnthropicStep(context.Background(), content)
	if err != nil || !ok {
		t.Fatalf("AnthropicStep: ok %v, err %v", ok, err)
	}
	_, decErr := tool.DecodeInput([]byte(`"not an object"`))
	notObject := "Tool 'Echo' was not executed: " + decErr.Error() + `. Send the arguments as one JSON object, for example {"name": "value"}.`
	jsonEqual(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"hi"}]},
		{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"Parameter 'message' is required (string). The tool was not executed."}],"is_error":true},
		{"type":"tool_result","tool_use_id":"c","content":[{"type":"text","text":`+mustJSON(t, notObject)+`}],"is_error":true}
	]}`, mustJSON(t, msg))

	// No tool calls: the model is done.
	if _, ok, err := loop.AnthropicStep(context.Background(), `[{"type":"text","text":"Done."}]`); ok || err != nil {
		t.Errorf("final message: ok %v, err %v", ok, err)
	}

	// Definitions are re-read every iteration.
	if err := reg.Register(tool.New(tool.Definition{Name: "Late"}, func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("") })); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Echo", "Read", "Late"}, names()); diff != "" {
		t.Errorf("tools after a registration (-want +got):\n%s", diff)
	}

	// The repeat guard: the third identical failure says so; arguments in
	// another key order are the same call.
	read := func(args string) string {
		t.Helper()
		msg, _, err := loop.AnthropicStep(context.Background(), `[{"type":"tool_use","id":"r","name":"Read","input":`+args+`}]`)
		if err != nil {
			t.Fatal(err)
		}
		return msg.Content[0].Text()
	}
	first := read(`{"path":"/a"}`)
	if first != "File not found: /a" {
		t.Fatalf("first failure: %q", first)
	}
	read(`{"path":"/a"}`)
	third := read(`{"path":"/a"}`)
	want := "File not found: /a\n\nThis exact call (same tool, same arguments) has now failed 3 times with the same error; repeating it will not help. Change the arguments the error points at, try a different tool, or ask the user for help."
	if third != want {
		t.Errorf("third failure:\n%q\nwant\n%q", third, want)
	}
	// Other arguments are another call.
	if got := read(`{"path":"/b"}`); got != "File not found: /b" {
		t.Errorf("other arguments: %q", got)
	}
	// A success clears the count.
	exists.Store(true)
	if got := read(`{"path":"/a"}`); got != "contents of /a" {
		t.Errorf("success: %q", got)
	}
	exists.Store(false)
	if got := read(`{"path":"/a"}`); got != "File not found: /a" {
		t.Errorf("after a success the count starts again: %q", got)
	}
}

func TestLoopRepeatSuggestions(t *testing.T) {
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{echo(), tool.New(tool.Definition{Name: "Secret"}, func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("") })} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	allow, err := permission.Parse("Echo")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, calls, wantSuffix string
	}{
		{"denied", `[{"id":"1","type":"function","function":{"name":"Secret","arguments":"{}"}}]`,
			"This tool is not allowed in this run: do not call it again; do the task another way or tell the user what you need."},
		{"schema", `[{"id":"1","type":"function","function":{"name":"Echo","arguments":"{\"times\":1}"}}]`,
			"Fix the parameters the error names (their names and types are in the tool's schema) before calling again."},
		{"malformed", `[{"id":"1","type":"function","function":{"name":"Echo","arguments":"{\"message\":"}}]`,
			"Send the arguments as one valid JSON object that matches the tool's schema."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loop := provider.NewLoop(tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithAllowList(allow)), provider.WithRepeatLimit(2))
			var msgs []provider.OpenAIMessage
			for range 2 {
				msgs, err = loop.OpenAIStep(context.Background(), tt.calls)
				if err != nil {
					t.Fatal(err)
				}
			}
			got := msgs[0].Content
			if !strings.HasPrefix(got, provider.ErrorPrefix) || strings.HasPrefix(got, provider.ErrorPrefix+provider.ErrorPrefix) {
				t.Errorf("prefix: %q", got)
			}
			if !strings.HasSuffix(got, "has now failed 2 times with the same error; repeating it will not help. "+tt.wantSuffix) {
				t.Errorf("content: %q\nwant suffix %q", got, tt.wantSuffix)
			}
		})
	}
}

func TestLoopParallelBatchKeepsOrder(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(echo()); err != nil {
		t.Fatal(err)
	}
	loop := provider.NewLoop(tool.NewExecutor(reg, tool.WithConcurrency(4, 4)))
	var calls []string
	for _, m := range []string{"a", "b", "c", "d", "e"} {
		calls = append(calls, `{"id":"`+m+`","type":"function","function":{"name":"Echo","arguments":"{\"message\":\"`+m+`\"}"}}`)
	}
	msgs, err := loop.OpenAIStep(context.Background(), `[`+strings.Join(calls, ",")+`]`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range msgs {
		got = append(got, m.ToolCallID+"="+m.Content)
	}
	if diff := cmp.Diff([]string{"a=a", "b=b", "c=c", "d=d", "e=e"}, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestLoopCancelled(t *testing.T) {
	reg := tool.NewRegistry()
	if err := reg.Register(echo()); err != nil {
		t.Fatal(err)
	}
	loop := provider.NewLoop(tool.NewExecutor(reg))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	msgs, err := loop.OpenAIStep(ctx, `[{"id":"1","type":"function","function":{"name":"Echo","arguments":"{\"message\":\"x\"}"}}]`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Error: Tool 'Echo' was not executed: the call was cancelled."; msgs[0].Content != want {
		t.Errorf("got %q, want %q", msgs[0].Content, want)
	}
}
