package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

// TestGeminiLoop drives a Gemini-shaped exchange against a scripted fake
// generateContent endpoint on loopback: the request carries the function
// declarations, the first answer calls a function, the Loop runs it and
// sends the functionResponse, and the second answer is text.
func TestGeminiLoop(t *testing.T) {
	var requests []map[string]any
	answers := []string{
		`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"fc1","name":"Echo","args":{"message":"hi"}}}]}}]}`,
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"It said hi."}]}}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		requests = append(requests, req)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answers[min(len(requests), len(answers))-1])
	}))
	defer srv.Close()

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
		resp, err := http.Post(srv.URL+"/v1beta/models/gemini:generateContent", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
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
