package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

// TestGeminiLoop drives a Gemini-shaped exchange against a scripted
// generateContent: the request body carries the function declarations, the
// first answer calls a function, the Loop runs it and sends the
// functionResponse, and the second answer is text. (The HTTP between them
// is the caller's; docs/gemini.md's program makes it with the genai SDK.)
func TestGeminiLoop(t *testing.T) {
	var requests []map[string]any
	answers := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc1","name":"Echo","args":{"message":"hi"}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"It said hi."}]}}]}`,
	}
	generateContent := func(body []byte) []byte {
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("request body: %v", err)
		}
		requests = append(requests, req)
		return []byte(answers[min(len(requests), len(answers))-1])
	}

	reg := tool.NewRegistry()
	if err := reg.Register(tool.New(tool.Definition{Name: "Echo", Description: "Repeats.", InputSchema: map[string]any{"type": "object",
		"properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}}},
		func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
			m, _ := tool.Param[string](in, "message")
			return tool.Success(m)
		})); err != nil {
		t.Fatal(err)
	}
	loop := NewLoop(tool.NewExecutor(reg))
	contents := []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Echo hi."}}}}
	var final string
	for turn := 0; turn < 4; turn++ {
		body, _ := json.Marshal(map[string]any{"contents": contents, "tools": loop.GeminiTools()})
		raw := generateContent(body)
		answer, ok, err := loop.GeminiStep(context.Background(), raw)
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			Candidates []struct {
				Content json.RawMessage `json:"content"`
			} `json:"candidates"`
		}
		json.Unmarshal(raw, &r)
		contents = append(contents, r.Candidates[0].Content)
		if !ok {
			final = string(raw)
			break
		}
		contents = append(contents, answer)
	}
	if !strings.Contains(final, "It said hi.") || len(requests) != 2 {
		t.Fatalf("final %q after %d requests", final, len(requests))
	}
	decls := requests[0]["tools"].([]any)[0].(map[string]any)["functionDeclarations"].([]any)
	if decls[0].(map[string]any)["name"] != "Echo" {
		t.Errorf("declarations sent: %v", decls)
	}
	second, _ := json.Marshal(requests[1]["contents"])
	if !strings.Contains(string(second), `"functionResponse":{"id":"fc1","name":"Echo","response":{"output":"hi"}}`) {
		t.Errorf("the second request does not answer the call: %s", second)
	}
}
