package sdktest

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestGeminiRoundTrip: the Gemini shapes against google.golang.org/genai's
// own types. Our declarations unmarshal into []*genai.Tool and marshal back
// to the same JSON; calls in a genai.GenerateContentResponse parse into
// tool calls; our function responses unmarshal into a genai.Content whose
// parts hold the response and the image bytes.
func TestGeminiRoundTrip(t *testing.T) {
	ours, err := json.Marshal(provider.GeminiTools(defs()))
	if err != nil {
		t.Fatal(err)
	}
	var theirs []*genai.Tool
	if err := json.Unmarshal(ours, &theirs); err != nil {
		t.Fatal(err)
	}
	if len(theirs) != 1 || len(theirs[0].FunctionDeclarations) != len(defs()) || theirs[0].FunctionDeclarations[0].Name != "Echo" {
		t.Fatalf("genai tools: %+v", theirs)
	}
	back, err := json.Marshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(asJSON(t, ours), asJSON(t, back)); diff != "" {
		t.Errorf("declarations through genai.Tool (-ours +theirs):\n%s", diff)
	}

	resp := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{Content: &genai.Content{Role: "model", Parts: []*genai.Part{
		{Text: "Calling."},
		{FunctionCall: &genai.FunctionCall{ID: "fc1", Name: "Echo", Args: map[string]any{"message": "hi", "times": 2}}},
		{FunctionCall: &genai.FunctionCall{Name: "Now"}},
	}}}}}
	calls, err := provider.ParseGeminiFunctionCalls(resp)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 || calls[0].Call.ID != "fc1" || calls[0].Call.Name != "Echo" || calls[1].Call.Name != "Now" || calls[0].Err != nil || calls[1].Err != nil {
		t.Fatalf("calls: %+v", calls)
	}
	if diff := cmp.Diff(map[string]any{"message": "hi", "times": float64(2)}, calls[0].Call.Input.Map()); diff != "" {
		t.Errorf("arguments (-want +got):\n%s", diff)
	}

	results := []tool.Result{
		tool.SuccessParts(tool.Part{Kind: tool.TextPart, Text: "hihi"}, tool.Part{Kind: tool.ImagePart, Data: []byte{0x89, 'P', 'N', 'G'}, MIMEType: "image/png"}),
		tool.Failure("The clock is broken."),
	}
	data, err := json.Marshal(provider.NewGeminiContent(calls, results))
	if err != nil {
		t.Fatal(err)
	}
	var content genai.Content
	if err := json.Unmarshal(data, &content); err != nil {
		t.Fatal(err)
	}
	if content.Role != "user" || len(content.Parts) != 2 {
		t.Fatalf("content: %+v", content)
	}
	first, second := content.Parts[0].FunctionResponse, content.Parts[1].FunctionResponse
	if first == nil || first.ID != "fc1" || first.Name != "Echo" || first.Response["output"] == nil ||
		len(first.Parts) != 1 || first.Parts[0].InlineData == nil || !bytes.Equal(first.Parts[0].InlineData.Data, []byte{0x89, 'P', 'N', 'G'}) ||
		first.Parts[0].InlineData.MIMEType != "image/png" {
		t.Errorf("first response: %+v", first)
	}
	if second == nil || second.ID != "" || second.Name != "Now" || second.Response["error"] != "The clock is broken." {
		t.Errorf("second response (no id: Gemini sent none): %+v", second)
	}
}

// TestGeminiOpenAPIParameters: the OpenAPI-subset parameters unmarshal into
// genai.Schema without loss (what genai reads marshals back to the same
// JSON), for every test definition.
func TestGeminiOpenAPIParameters(t *testing.T) {
	tools, _ := provider.GeminiToolsOpenAPI(defs())
	for _, d := range tools[0].FunctionDeclarations {
		ours, err := json.Marshal(d.Parameters)
		if err != nil {
			t.Fatal(err)
		}
		var s genai.Schema
		if err := json.Unmarshal(ours, &s); err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		back, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(asJSON(t, ours), asJSON(t, back)); diff != "" {
			t.Errorf("%s: parameters through genai.Schema (-ours +theirs):\n%s", d.Name, diff)
		}
	}
}
