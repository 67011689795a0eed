package provider_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

// checkCalls holds for every parse: no panic, a malformed call is marked
// with ErrMalformedCall, and the loop answers every call.
func checkCalls(t *testing.T, calls []provider.ToolCall) {
	t.Helper()
	for _, c := range calls {
		if c.Err != nil && !errors.Is(c.Err, provider.ErrMalformedCall) {
			t.Fatalf("malformed call error does not wrap ErrMalformedCall: %v", c.Err)
		}
		if c.Err != nil && c.Call.Input.Len() != 0 {
			t.Fatalf("malformed call carries input: %+v", c)
		}
	}
	reg := tool.NewRegistry()
	loop := provider.NewLoop(tool.NewExecutor(reg))
	results := loop.Run(context.Background(), calls)
	if len(results) != len(calls) {
		t.Fatalf("%d results for %d calls", len(results), len(calls))
	}
	for i, r := range results {
		if !r.IsError || r.Content == "" {
			t.Fatalf("call %d against an empty registry: %+v", i, r)
		}
	}
	msgs := provider.NewOpenAIMessages(calls, results)
	if _, err := json.Marshal(msgs); err != nil {
		t.Fatal(err)
	}
}

func FuzzParseOpenAIToolCalls(f *testing.F) {
	for _, seed := range []string{
		`[{"id":"call_1","type":"function","function":{"name":"Echo","arguments":"{\"message\":\"hi\"}"}}]`,
		`[{"id":"c","type":"function","function":{"name":"Echo","arguments":"{\"message\": \"hi"}}]`,
		`[{"id":"c","type":"function","function":{"name":"Echo","arguments":"[1]"}}]`,
		`[{"id":"c","type":"function","function":{"name":"Echo","arguments":{"a":1}}}]`,
		`[{"id":"c","type":"function","function":{"name":"","arguments":"null"}}]`,
		`{"choices":[{"message":{"tool_calls":[{"id":"c","function":{"name":"x","arguments":"\"\\u0000\""}}]}}]}`,
		`{"tool_calls":null}`,
		`[42, null, "x", {"type":"custom"}]`,
		`"not json`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, err := provider.ParseOpenAIToolCalls(data)
		if err != nil {
			return
		}
		checkCalls(t, calls)
	})
}

func FuzzParseAnthropicToolUses(f *testing.F) {
	for _, seed := range []string{
		`[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"Echo","input":{"message":"hi"}}]`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Echo","input":[1]}]}`,
		`[{"type":"tool_use","id":1,"name":"Echo"}]`,
		`[{"type":"tool_use","name":"Echo","input":null}]`,
		`{"content":"text"}`,
		`[[], {}, null]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, err := provider.ParseAnthropicToolUses(data)
		if err != nil {
			return
		}
		checkCalls(t, calls)
		msg := provider.NewAnthropicMessage(calls, make([]tool.Result, len(calls)))
		if len(msg.Content) != len(calls) {
			t.Fatalf("%d results for %d calls", len(msg.Content), len(calls))
		}
	})
}

func FuzzStrictSchema(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"array","items":{"type":"object","properties":{"c":{"type":"integer"}}}}},"required":["a"]}`,
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`,
		`{"type":"object","properties":{"r":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":"string","enum":["a",null]}}}`,
		`{"type":"object","properties":{"k":{"anyOf":[{"type":"string"},{"type":"null"}]}}}`,
		`{"properties":{"t":{"type":["string","integer"]}}}`,
		`{"type":"object","required":"a"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s map[string]any
		if json.Unmarshal(data, &s) != nil {
			return
		}
		out, err := provider.StrictSchema(s)
		if err != nil {
			if !errors.Is(err, provider.ErrNotStrict) {
				t.Fatalf("error does not wrap ErrNotStrict: %v", err)
			}
			return
		}
		// Strict output is stable: converting it again changes nothing.
		again, err := provider.StrictSchema(out)
		if err != nil {
			t.Fatalf("strict output is not strict: %v\n%s", err, mustJSON(t, out))
		}
		if a, b := mustJSON(t, out), mustJSON(t, again); a != b {
			t.Fatalf("not idempotent:\n%s\n%s", a, b)
		}
	})
}

// FuzzParseGeminiFunctionCalls: any input is parsed without a panic, every
// call that can run has a name and an id, and the OpenAPI conversion of any
// schema the input decodes to never panics.
func FuzzParseGeminiFunctionCalls(f *testing.F) {
	f.Add(`{"candidates":[{"content":{"parts":[{"functionCall":{"id":"a","name":"Echo","args":{"m":"hi"}}}]}}]}`)
	f.Add(`[{"functionCall":{"name":"Echo","args":[1]}},{"text":"x"},{"functionCall":{}}]`)
	f.Add(`{"parts":[{"functionCall":{"name":"E","args":{"a":{"b":[1,2,{"c":null}]}}}}]}`)
	f.Add(`{"type":"object","properties":{"a":{"$ref":"#/$defs/x"}},"$defs":{"x":{"type":["string","null"],"const":1}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		calls, err := provider.ParseGeminiFunctionCalls(s)
		if err != nil {
			return
		}
		for _, c := range calls {
			if c.Err == nil && (c.Call.Name == "" || c.Call.ID == "") {
				t.Errorf("%q: a runnable call without a name or id: %+v", s, c)
			}
		}
		var schema map[string]any
		if json.Unmarshal([]byte(s), &schema) == nil {
			provider.GeminiToolsOpenAPI([]tool.Definition{{Name: "X", InputSchema: schema}})
		}
	})
}
