package sdktest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

func defs() []tool.Definition {
	return []tool.Definition{
		{Name: "Echo", Description: "Repeats a message back.", InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"message": map[string]any{"type": "string", "description": "The message to repeat."},
				"times":   map[string]any{"type": "integer", "default": 1, "minimum": 1, "maximum": 100},
				"sep":     map[string]any{"type": "string", "enum": []any{"space", "newline", "none"}},
			},
			"required":             []any{"message"},
			"additionalProperties": false,
		}},
		{Name: "Env", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"vars": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		}}},
		{Name: "Now"},
	}
}

// asJSON decodes JSON into a generic value for comparison.
func asJSON(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, data)
	}
	return v
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// roundTrip decodes ours into the SDK's type, encodes that again, and
// requires the same JSON value: the SDK type holds everything we send.
func roundTrip[T any](t *testing.T, ours any) T {
	t.Helper()
	data := marshal(t, ours)
	var sdk T
	if err := json.Unmarshal(data, &sdk); err != nil {
		t.Fatalf("the SDK cannot read our %T: %v\n%s", ours, err, data)
	}
	if diff := cmp.Diff(asJSON(t, data), asJSON(t, marshal(t, sdk))); diff != "" {
		t.Errorf("%T does not survive the SDK's %T (-ours +sdk):\n%s", ours, sdk, diff)
	}
	return sdk
}

func TestAnthropicToolsRoundTrip(t *testing.T) {
	for _, at := range provider.AnthropicTools(defs()) {
		sdk := roundTrip[anthropic.ToolParam](t, at)
		if sdk.Name != at.Name {
			t.Errorf("name %q, want %q", sdk.Name, at.Name)
		}
	}
}

const anthropicResponse = `{
	"id": "msg_01",
	"type": "message",
	"role": "assistant",
	"model": "claude-sonnet-4-5",
	"content": [
		{"type": "text", "text": "Let me do both."},
		{"type": "tool_use", "id": "toolu_01", "name": "Echo", "input": {"message": "hi", "times": 2}},
		{"type": "tool_use", "id": "toolu_02", "name": "Now", "input": {}}
	],
	"stop_reason": "tool_use",
	"stop_sequence": null,
	"usage": {"input_tokens": 10, "output_tokens": 20}
}`

func TestAnthropicToolUsesFromSDK(t *testing.T) {
	var msg anthropic.Message
	if err := json.Unmarshal([]byte(anthropicResponse), &msg); err != nil {
		t.Fatal(err)
	}
	want := []call{
		{ID: "toolu_01", Name: "Echo", Args: map[string]any{"message": "hi", "times": 2.0}},
		{ID: "toolu_02", Name: "Now", Args: map[string]any{}},
	}
	for name, v := range map[string]any{"msg.Content": msg.Content, "msg": msg, "raw": msg.RawJSON()} {
		got, err := provider.ParseAnthropicToolUses(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, reduce(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestAnthropicToolResultsRoundTrip(t *testing.T) {
	calls := []provider.ToolCall{{Call: tool.Call{ID: "toolu_01"}}, {Call: tool.Call{ID: "toolu_02"}}}
	results := []tool.Result{tool.Success("hihi"), tool.Failure("Tool 'Now' is not allowed.")}
	ours := provider.NewAnthropicMessage(calls, results)
	sdk := roundTrip[anthropic.MessageParam](t, ours)
	if sdk.OfUser == nil || len(sdk.OfUser.Content) != 2 {
		t.Fatalf("not a user message with two blocks: %s", marshal(t, sdk))
	}
	// The blocks are what the SDK's own constructor builds.
	sdkMade := anthropic.NewUserMessage(
		anthropic.NewToolResultBlock("toolu_01", "hihi", false),
		anthropic.NewToolResultBlock("toolu_02", "Tool 'Now' is not allowed.", true),
	)
	// NewToolResultBlock writes is_error: false where we leave it out.
	made := asJSON(t, marshal(t, sdkMade)).(map[string]any)
	delete(made["content"].([]any)[0].(map[string]any), "is_error")
	if diff := cmp.Diff(made, asJSON(t, marshal(t, ours))); diff != "" {
		t.Errorf("ours vs the SDK's NewToolResultBlock (-sdk +ours):\n%s", diff)
	}
}

func TestOpenAIToolsRoundTrip(t *testing.T) {
	tools, notStrict := provider.OpenAITools(defs())
	if len(notStrict) != 1 || notStrict["Env"] == nil {
		t.Errorf("notStrict = %v, want Env only", notStrict)
	}
	for _, ot := range tools {
		sdk := roundTrip[openai.ChatCompletionToolUnionParam](t, ot)
		fn := sdk.GetFunction()
		if fn == nil || fn.Name != ot.Function.Name || fn.Strict.Value != ot.Function.Strict {
			t.Errorf("the SDK reads %s as %s", marshal(t, ot), marshal(t, sdk))
		}
	}
	rtools, _ := provider.OpenAIResponsesTools(defs())
	for _, rt := range rtools {
		sdk := roundTrip[responses.ToolUnionParam](t, rt)
		if sdk.OfFunction == nil || sdk.OfFunction.Name != rt.Name || sdk.OfFunction.Strict.Value != rt.Strict {
			t.Errorf("the SDK reads %s as %s", marshal(t, rt), marshal(t, sdk))
		}
	}
}

const openAICompletion = `{
	"id": "chatcmpl-1",
	"object": "chat.completion",
	"created": 1700000000,
	"model": "gpt-4.1",
	"choices": [{
		"index": 0,
		"finish_reason": "tool_calls",
		"logprobs": null,
		"message": {
			"role": "assistant",
			"content": null,
			"refusal": null,
			"tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "Echo", "arguments": "{\"message\":\"hi\",\"sep\":null}"}},
				{"id": "call_2", "type": "function", "function": {"name": "Echo", "arguments": "{\"message\": \"hi"}}
			]
		}
	}],
	"usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
}`

func TestOpenAIToolCallsFromSDK(t *testing.T) {
	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(openAICompletion), &c); err != nil {
		t.Fatal(err)
	}
	want := []call{
		{ID: "call_1", Name: "Echo", Args: map[string]any{"message": "hi"}},
		{ID: "call_2", Name: "Echo", Malformed: true},
	}
	for name, v := range map[string]any{
		"completion": c, "message": c.Choices[0].Message, "tool_calls": c.Choices[0].Message.ToolCalls,
	} {
		got, err := provider.ParseOpenAIToolCalls(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, reduce(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestOpenAIMessagesRoundTrip(t *testing.T) {
	calls := []provider.ToolCall{{Call: tool.Call{ID: "call_1"}}, {Call: tool.Call{ID: "call_2"}}}
	results := []tool.Result{tool.Success("hi"), tool.Failure("Parameter 'message' is required (string). The tool was not executed.")}
	ours := provider.NewOpenAIMessages(calls, results)
	for i, m := range ours {
		sdk := roundTrip[openai.ChatCompletionMessageParamUnion](t, m)
		if sdk.OfTool == nil || sdk.OfTool.ToolCallID != m.ToolCallID {
			t.Errorf("the SDK reads %s as %s", marshal(t, m), marshal(t, sdk))
		}
		made := openai.ToolMessage(m.Content, m.ToolCallID)
		if diff := cmp.Diff(asJSON(t, marshal(t, made)), asJSON(t, marshal(t, m))); diff != "" {
			t.Errorf("message %d vs the SDK's ToolMessage (-sdk +ours):\n%s", i, diff)
		}
	}
	if ours[1].Content != "Error: Parameter 'message' is required (string). The tool was not executed." {
		t.Errorf("error content: %q", ours[1].Content)
	}
}

const openAIResponse = `{
	"id": "resp_1",
	"object": "response",
	"created_at": 1700000000,
	"model": "gpt-4.1",
	"status": "completed",
	"output": [
		{"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "Echo", "arguments": "{\"message\":\"hi\"}", "status": "completed"}
	],
	"parallel_tool_calls": true,
	"tool_choice": "auto",
	"tools": []
}`

func TestOpenAIResponsesRoundTrip(t *testing.T) {
	var r responses.Response
	if err := json.Unmarshal([]byte(openAIResponse), &r); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{"response": r, "output": r.Output} {
		got, err := provider.ParseOpenAIResponseCalls(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff([]call{{ID: "call_1", Name: "Echo", Args: map[string]any{"message": "hi"}}}, reduce(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	out := provider.NewOpenAIFunctionCallOutput("call_1", tool.Failure("nope"))
	sdk := roundTrip[responses.ResponseInputItemUnionParam](t, out)
	if sdk.OfFunctionCallOutput == nil || sdk.OfFunctionCallOutput.CallID.Value != "call_1" || sdk.OfFunctionCallOutput.Output.OfString.Value != "Error: nope" {
		t.Errorf("the SDK reads %s as %s", marshal(t, out), marshal(t, sdk))
	}
}

// TestLoopWithSDKTypes runs one scripted turn of each provider through the
// Loop, passing the SDKs' own response values.
func TestLoopWithSDKTypes(t *testing.T) {
	reg := tool.NewRegistry()
	for _, tl := range []tool.Tool{
		tool.New(defs()[0], func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
			m, err := tool.Param[string](in, "message")
			if err != nil {
				return tool.FailureFrom(err)
			}
			return tool.Success(m)
		}),
		tool.New(defs()[2], func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("12:00") }),
	} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	loop := provider.NewLoop(tool.NewExecutor(reg))

	var msg anthropic.Message
	if err := json.Unmarshal([]byte(anthropicResponse), &msg); err != nil {
		t.Fatal(err)
	}
	reply, ok, err := loop.AnthropicStep(context.Background(), msg.Content)
	if err != nil || !ok {
		t.Fatalf("AnthropicStep: %v, %v", ok, err)
	}
	sdkReply := roundTrip[anthropic.MessageParam](t, reply)
	var texts []string
	for _, b := range sdkReply.OfUser.Content {
		texts = append(texts, b.OfToolResult.Content[0].OfText.Text)
	}
	if diff := cmp.Diff([]string{"hi", "12:00"}, texts); diff != "" {
		t.Errorf("anthropic results (-want +got):\n%s", diff)
	}

	var c openai.ChatCompletion
	if err := json.Unmarshal([]byte(openAICompletion), &c); err != nil {
		t.Fatal(err)
	}
	msgs, err := loop.OpenAIStep(context.Background(), c.Choices[0].Message)
	if err != nil {
		t.Fatal(err)
	}
	var contents []string
	for _, m := range msgs {
		sdk := roundTrip[openai.ChatCompletionMessageParamUnion](t, m)
		contents = append(contents, sdk.OfTool.Content.OfString.Value)
	}
	_, decErr := tool.DecodeInput([]byte(`{"message": "hi`))
	want := []string{"hi", "Error: Tool 'Echo' was not executed: " + decErr.Error() + `. Send the arguments as one JSON object, for example {"name": "value"}.`}
	if diff := cmp.Diff(want, contents); diff != "" {
		t.Errorf("openai results (-want +got):\n%s", diff)
	}
}

type call struct {
	ID, Name  string
	Args      map[string]any
	Malformed bool
}

func reduce(tcs []provider.ToolCall) []call {
	var out []call
	for _, tc := range tcs {
		c := call{ID: tc.Call.ID, Name: tc.Call.Name, Malformed: tc.Err != nil}
		if tc.Err == nil {
			c.Args = tc.Call.Input.Map()
		}
		out = append(out, c)
	}
	return out
}
