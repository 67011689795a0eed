package provider_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

func echoSchema() map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"message": map[string]any{"type": "string", "description": "The message to repeat."},
			"times":   map[string]any{"type": "integer", "default": 1, "minimum": 1, "maximum": 100},
			"sep":     map[string]any{"type": "string", "enum": []any{"space", "newline", "none"}},
		},
		"required":             []any{"message"},
		"additionalProperties": false,
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(t *testing.T, want, got string) {
	t.Helper()
	var w, g any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got is not JSON: %v\n%s", err, got)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}

func TestAnthropicTools(t *testing.T) {
	defs := []tool.Definition{
		{Name: "Echo", Description: "Repeats a message back.", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}}},
		{Name: "Now"},
	}
	jsonEqual(t, `[
		{"name":"Echo","description":"Repeats a message back.","input_schema":{"type":"object","properties":{"message":{"type":"string"}}}},
		{"name":"Now","input_schema":{"type":"object","properties":{}}}
	]`, mustJSON(t, provider.AnthropicTools(defs)))
}

func TestAnthropicToolsFlattenTopCombinators(t *testing.T) {
	// Schemas as MCP servers publish them: the API refuses allOf, anyOf and
	// oneOf at the top for the whole request.
	oneOf := map[string]any{
		"type":        "object",
		"description": "Fetch a page.",
		"properties":  map[string]any{"timeout": map[string]any{"type": "integer"}},
		"oneOf": []any{
			map[string]any{"properties": map[string]any{"url": map[string]any{"type": "string"}}, "required": []any{"url"}},
			map[string]any{"$ref": "#/$defs/byID"},
		},
		"$defs": map[string]any{"byID": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "integer"}}, "required": []any{"id"}}},
	}
	allOf := map[string]any{
		"allOf": []any{
			map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}, "required": []string{"a"}},
			map[string]any{"properties": map[string]any{"b": map[string]any{"type": "string"}}, "required": []any{"b"}},
		},
	}
	anyOf := map[string]any{
		"type": "object",
		"anyOf": []any{
			map[string]any{"properties": map[string]any{"q": map[string]any{"type": "string"}, "n": map[string]any{"type": "integer"}}, "required": []any{"q", "n"}},
			map[string]any{"properties": map[string]any{"q": map[string]any{"type": "string"}}, "required": []any{"q"}},
			true,
		},
	}
	defs := []tool.Definition{{Name: "Fetch", InputSchema: oneOf}, {Name: "Both", InputSchema: allOf}, {Name: "Search", InputSchema: anyOf}}
	before := mustJSON(t, defs)
	got := provider.AnthropicTools(defs)
	if mustJSON(t, defs) != before {
		t.Error("AnthropicTools changed the definitions")
	}
	jsonEqual(t, `[
		{"name":"Fetch","input_schema":{"type":"object",
			"description":"Fetch a page. Use exactly one of these forms: (url*) or (id*) (* marks a required parameter).",
			"properties":{"timeout":{"type":"integer"},"url":{"type":"string"},"id":{"type":"integer"}},
			"$defs":{"byID":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}},
		{"name":"Both","input_schema":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"]}},
		{"name":"Search","input_schema":{"type":"object",
			"description":"Use at least one of these forms: (n*, q*) or (q*) or (a form that cannot be shown here) (* marks a required parameter).",
			"properties":{"n":{"type":"integer"},"q":{"type":"string"}}}}
	]`, mustJSON(t, got))
	for _, at := range got {
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if _, ok := at.InputSchema[k]; ok {
				t.Errorf("%s: %s left at the top", at.Name, k)
			}
		}
	}
}

// decodeErr is the Err a call with these arguments gets: the runtime's own
// sentence behind the sentinel.
func decodeErr(args string) string {
	_, err := tool.DecodeInput([]byte(args))
	return "provider: malformed tool call: " + err.Error()
}

// parsed is a ToolCall reduced to what tests compare.
type parsed struct {
	ID, Name string
	Args     map[string]any
	Err      string
}

func reduce(tcs []provider.ToolCall) []parsed {
	var out []parsed
	for _, tc := range tcs {
		p := parsed{ID: tc.Call.ID, Name: tc.Call.Name}
		if tc.Err != nil {
			p.Err = tc.Err.Error()
			if !errors.Is(tc.Err, provider.ErrMalformedCall) {
				p.Err = "NOT WRAPPED: " + p.Err
			}
		} else {
			p.Args = tc.Call.Input.Map()
		}
		out = append(out, p)
	}
	return out
}

func TestParseAnthropicToolUses(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    []parsed
		wantErr bool
	}{
		{"text and two tool uses", `[
			{"type":"text","text":"Let me look."},
			{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a","limit":null}},
			{"type":"tool_use","id":"toolu_2","name":"Echo","input":{}}
		]`, []parsed{
			{ID: "toolu_1", Name: "Read", Args: map[string]any{"file_path": "/a"}},
			{ID: "toolu_2", Name: "Echo", Args: map[string]any{}},
		}, false},
		{"whole message", `{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"t","name":"Echo","input":{"message":"hi"}}],"stop_reason":"tool_use"}`,
			[]parsed{{ID: "t", Name: "Echo", Args: map[string]any{"message": "hi"}}}, false},
		{"no tool use", `[{"type":"text","text":"Done."}]`, nil, false},
		{"input not an object", `[{"type":"tool_use","id":"t","name":"Echo","input":[1]}]`,
			[]parsed{{ID: "t", Name: "Echo", Err: decodeErr(`[1]`)}}, false},
		{"input missing", `[{"type":"tool_use","id":"t","name":"Now"}]`, []parsed{{ID: "t", Name: "Now", Args: map[string]any{}}}, false},
		{"no name", `[{"type":"tool_use","id":"t","input":{}}]`,
			[]parsed{{ID: "t", Err: `provider: malformed tool call: tool_use block "t" has no name`}}, false},
		{"tool_use with a broken field", `[{"type":"tool_use","id":7,"name":"Echo","input":{}}]`,
			[]parsed{{Err: "provider: malformed tool call: content block 0 is not a valid tool_use block: json: cannot unmarshal number into Go struct field anthropicBlock.id of type string"}}, false},
		{"not content", `"hello"`, nil, true},
		{"not JSON", `[{`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := provider.ParseAnthropicToolUses(tt.content)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, reduce(got)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseOpenAIToolCalls(t *testing.T) {
	tests := []struct {
		name    string
		v       string
		want    []parsed
		wantErr bool
	}{
		{"tool_calls array", `[{"id":"call_1","type":"function","function":{"name":"Echo","arguments":"{\"message\":\"hi\",\"sep\":null}"}}]`,
			[]parsed{{ID: "call_1", Name: "Echo", Args: map[string]any{"message": "hi"}}}, false},
		{"assistant message", `{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"Now","arguments":""}}]}`,
			[]parsed{{ID: "c", Name: "Now", Args: map[string]any{}}}, false},
		{"completion", `{"id":"x","choices":[{"index":0,"message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"functions.Echo","arguments":"{}"}}]}}]}`,
			[]parsed{{ID: "c", Name: "functions.Echo", Args: map[string]any{}}}, false},
		{"completion without choices", `{"id":"x","choices":[]}`, nil, false},
		{"message without tool calls", `{"role":"assistant","content":"Done."}`, nil, false},
		{"invalid JSON in arguments", `[{"id":"c","type":"function","function":{"name":"Echo","arguments":"{\"message\": \"hi"}}]`,
			[]parsed{{ID: "c", Name: "Echo", Err: decodeErr(`{"message": "hi`)}}, false},
		{"arguments not an object", `[{"id":"c","type":"function","function":{"name":"Echo","arguments":"[\"hi\"]"}}]`,
			[]parsed{{ID: "c", Name: "Echo", Err: decodeErr(`["hi"]`)}}, false},
		{"arguments as an object, leniently", `[{"id":"c","type":"function","function":{"name":"Echo","arguments":{"message":"hi"}}}]`,
			[]parsed{{ID: "c", Name: "Echo", Args: map[string]any{"message": "hi"}}}, false},
		{"no name", `[{"id":"c","type":"function","function":{"arguments":"{}"}}]`,
			[]parsed{{ID: "c", Err: `provider: malformed tool call: tool call "c" has no function name`}}, false},
		{"not a function call", `[{"id":"c","type":"custom","custom":{"name":"x","input":"y"}}]`,
			[]parsed{{ID: "c", Err: `provider: malformed tool call: tool call "c" has type "custom"; only function calls are supported`}}, false},
		{"a call that is not an object", `[42]`,
			[]parsed{{Err: "provider: malformed tool call: tool call 0 is not a valid tool call object: json: cannot unmarshal number into Go value of type provider.openAIToolCall"}}, false},
		{"not an array", `"tool_calls"`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := provider.ParseOpenAIToolCalls([]byte(tt.v))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, reduce(got)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseOpenAIResponseCalls(t *testing.T) {
	resp := `{"id":"resp_1","output":[
		{"type":"reasoning","id":"rs_1","summary":[]},
		{"type":"function_call","id":"fc_1","call_id":"call_1","name":"Echo","arguments":"{\"message\":\"hi\"}"},
		{"type":"function_call","id":"fc_2","call_id":"call_2","name":"Echo","arguments":"{oops"}
	]}`
	got, err := provider.ParseOpenAIResponseCalls(resp)
	if err != nil {
		t.Fatal(err)
	}
	want := []parsed{
		{ID: "call_1", Name: "Echo", Args: map[string]any{"message": "hi"}},
		{ID: "call_2", Name: "Echo", Err: decodeErr(`{oops`)},
	}
	if diff := cmp.Diff(want, reduce(got)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestResultsBack(t *testing.T) {
	calls := []provider.ToolCall{{Call: tool.Call{ID: "a"}}, {Call: tool.Call{ID: "b"}}, {Call: tool.Call{ID: "c"}}, {Call: tool.Call{ID: "d"}}}
	results := []tool.Result{
		tool.Success("ok"),
		tool.Failure("File not found: /a"),
		tool.Failure("Error: already prefixed"),
		tool.Failure(""),
	}
	jsonEqual(t, `{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"ok"}]},
		{"type":"tool_result","tool_use_id":"b","content":[{"type":"text","text":"File not found: /a"}],"is_error":true},
		{"type":"tool_result","tool_use_id":"c","content":[{"type":"text","text":"Error: already prefixed"}],"is_error":true},
		{"type":"tool_result","tool_use_id":"d","is_error":true}
	]}`, mustJSON(t, provider.NewAnthropicMessage(calls, results)))
	jsonEqual(t, `[
		{"role":"tool","tool_call_id":"a","content":"ok"},
		{"role":"tool","tool_call_id":"b","content":"Error: File not found: /a"},
		{"role":"tool","tool_call_id":"c","content":"Error: already prefixed"},
		{"role":"tool","tool_call_id":"d","content":"Error: the tool failed without saying why."}
	]`, mustJSON(t, provider.NewOpenAIMessages(calls, results)))
	jsonEqual(t, `[
		{"type":"function_call_output","call_id":"a","output":"ok"},
		{"type":"function_call_output","call_id":"b","output":"Error: File not found: /a"},
		{"type":"function_call_output","call_id":"c","output":"Error: already prefixed"},
		{"type":"function_call_output","call_id":"d","output":"Error: the tool failed without saying why."}
	]`, mustJSON(t, provider.NewOpenAIFunctionCallOutputs(calls, results)))
	// A call with no result (a short results slice) is still answered.
	jsonEqual(t, `[{"role":"tool","tool_call_id":"a","content":"Error: The tool call got no result."}]`,
		mustJSON(t, provider.NewOpenAIMessages(calls[:1], nil)))
}

func TestMalformedResult(t *testing.T) {
	calls, err := provider.ParseOpenAIToolCalls(`[{"id":"c","type":"function","function":{"name":"Echo","arguments":"{\"a\":"}}]`)
	if err != nil {
		t.Fatal(err)
	}
	got := provider.MalformedResult(calls[0])
	_, decErr := tool.DecodeInput([]byte(`{"a":`))
	want := "Tool 'Echo' was not executed: " + decErr.Error() + `. Send the arguments as one JSON object, for example {"name": "value"}.`
	if got.Content != want || !got.IsError || !errors.Is(got.Err, provider.ErrMalformedCall) {
		t.Errorf("MalformedResult = %+v\nwant content %q", got, want)
	}
	// The runtime's sentences are not repeated or doubled: one period
	// before the advice (it was "...not executed.. Send ...").
	for _, tt := range []struct{ args, want string }{
		{`{\"a\":1,\"a\":2}`, "Tool 'Echo' was not executed: Parameter 'a' is given more than once. Send the arguments as one JSON object, for example {\"name\": \"value\"}."},
		{`{\"a\":1,\"a\":2,\"b\":1,\"b\":2}`, "Tool 'Echo' was not executed: Parameter 'a' is given more than once; Parameter 'b' is given more than once. Send the arguments as one JSON object, for example {\"name\": \"value\"}."},
	} {
		calls, err := provider.ParseOpenAIToolCalls(`[{"id":"c","type":"function","function":{"name":"Echo","arguments":"` + tt.args + `"}}]`)
		if err != nil {
			t.Fatal(err)
		}
		if got := provider.MalformedResult(calls[0]).Content; got != tt.want {
			t.Errorf("MalformedResult(%s) = %q\nwant %q", tt.args, got, tt.want)
		}
	}
	noName := provider.MalformedResult(provider.ToolCall{Err: errors.New("x")})
	if noName.Content != "The tool call was not executed: it has no tool name. Call a tool by one of the names you were given." {
		t.Errorf("no name: %q", noName.Content)
	}
}
