package provider

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

func TestGeminiTools(t *testing.T) {
	defs := []tool.Definition{{Name: "Echo", Description: "Repeats.", InputSchema: map[string]any{"type": "object",
		"properties": map[string]any{"m": map[string]any{"type": "string"}}, "required": []string{"m"}}}}
	got, err := json.Marshal(GeminiTools(defs))
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"functionDeclarations":[{"name":"Echo","description":"Repeats.","parametersJsonSchema":{"properties":{"m":{"type":"string"}},"required":["m"],"type":"object"}}]}]`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("GeminiTools (-want +got):\n%s", diff)
	}
}

func TestParseGeminiFunctionCalls(t *testing.T) {
	resp := `{"candidates":[{"content":{"role":"model","parts":[
		{"text":"Let me look."},
		{"functionCall":{"id":"fc1","name":"Echo","args":{"m":"hi"}}},
		{"functionCall":{"name":"Echo"}},
		{"functionCall":{"args":{"m":"x"}}},
		{"functionCall":{"name":"Echo","args":[1]}}
	]}}]}`
	calls, err := ParseGeminiFunctionCalls(resp)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID, Name string
		Args     map[string]any
		Bad      bool
	}
	var got []row
	for _, c := range calls {
		got = append(got, row{c.Call.ID, c.Call.Name, c.Call.Input.Map(), c.Err != nil && errors.Is(c.Err, ErrMalformedCall)})
	}
	want := []row{
		{"fc1", "Echo", map[string]any{"m": "hi"}, false},
		{"gemini-call-1", "Echo", map[string]any{}, false},
		{"gemini-call-2", "", map[string]any{}, true},
		{"gemini-call-3", "Echo", map[string]any{}, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	// A Content and bare parts read the same.
	for _, v := range []string{`{"role":"model","parts":[{"functionCall":{"id":"a","name":"Echo","args":{}}}]}`, `[{"functionCall":{"id":"a","name":"Echo"}}]`} {
		calls, err := ParseGeminiFunctionCalls(v)
		if err != nil || len(calls) != 1 || calls[0].Call.ID != "a" {
			t.Errorf("%s: %+v, %v", v, calls, err)
		}
	}
	if _, err := ParseGeminiFunctionCalls(`42`); err == nil {
		t.Error("a number: no error")
	}
}

func TestNewGeminiContent(t *testing.T) {
	calls, _ := ParseGeminiFunctionCalls(`[{"functionCall":{"id":"fc1","name":"Shot"}},{"functionCall":{"name":"Echo"}}]`)
	results := []tool.Result{
		tool.SuccessParts(tool.Part{Kind: tool.TextPart, Text: "a pixel:"}, tool.Part{Kind: tool.ImagePart, Data: []byte{1, 2, 3}, MIMEType: "image/png"}),
		tool.Failure("Parameter 'm' is required (string). The tool was not executed."),
	}
	got, err := json.Marshal(NewGeminiContent(calls, results))
	if err != nil {
		t.Fatal(err)
	}
	content, _ := json.Marshal(results[0].Content)
	want := `{"role":"user","parts":[` +
		`{"functionResponse":{"id":"fc1","name":"Shot","response":{"output":` + string(content) + `},"parts":[{"inlineData":{"mimeType":"image/png","data":"AQID"}}]}},` +
		`{"functionResponse":{"name":"Echo","response":{"error":"Parameter 'm' is required (string). The tool was not executed."}}}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}

func TestGeminiToolsOpenAPI(t *testing.T) {
	defs := []tool.Definition{{Name: "Find", Description: "Finds.", InputSchema: map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"q"},
		"$defs": map[string]any{"Mode": map[string]any{"type": "string", "enum": []any{"fast", "slow"}}},
		"properties": map[string]any{
			"q":     map[string]any{"type": "string", "minLength": 1, "description": "The query"},
			"mode":  map[string]any{"$ref": "#/$defs/Mode"},
			"limit": map[string]any{"type": []any{"integer", "null"}, "multipleOf": 5},
			"tags":  map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
			"kind":  map[string]any{"const": "x"},
		}}}}
	tools, lossy := GeminiToolsOpenAPI(defs)
	got, err := json.Marshal(tools[0].FunctionDeclarations[0].Parameters)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"properties":{"kind":{"enum":["x"]},"limit":{"description":"Also: multipleOf 5.","nullable":true,"type":"INTEGER"},` +
		`"mode":{"enum":["fast","slow"],"type":"STRING"},"q":{"description":"The query","minLength":1,"type":"STRING"},` +
		`"tags":{"description":"Also: other properties as string.","type":"OBJECT"}},"propertyOrdering":["kind","limit","mode","q","tags"],"required":["q"],"type":"OBJECT"}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	if err := lossy["Find"]; err == nil || err.Error() != "provider: gemini parameters cannot say multipleOf, additionalProperties; said in the description instead" {
		t.Errorf("lossy: %v", lossy)
	}
}
