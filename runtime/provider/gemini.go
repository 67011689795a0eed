package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// The Gemini API (generateContent, in the Gemini Developer API and Vertex
// AI) declares tools as function declarations, calls them with
// functionCall parts and takes their answers as functionResponse parts.
// These are the REST shapes, which google.golang.org/genai's types marshal
// to and from (runtime/provider/sdktest checks that).

// GeminiTool is one entry of a request's "tools": the function
// declarations.
type GeminiTool struct {
	FunctionDeclarations []GeminiFunctionDeclaration `json:"functionDeclarations"`
}

// GeminiFunctionDeclaration declares one tool: its name, description and
// parameters as JSON Schema (parametersJsonSchema), sent as the definition
// holds it.
type GeminiFunctionDeclaration struct {
	Name                 string         `json:"name"`
	Description          string         `json:"description,omitempty"`
	ParametersJSONSchema map[string]any `json:"parametersJsonSchema,omitempty"`
}

// GeminiTools declares defs as one Gemini tool holding a function
// declaration per definition, each with its input schema as JSON Schema
// (the top level flattened as for Anthropic: a $ref'd root resolved).
func GeminiTools(defs []tool.Definition) []GeminiTool {
	decls := make([]GeminiFunctionDeclaration, 0, len(defs))
	for _, d := range defs {
		decls = append(decls, GeminiFunctionDeclaration{Name: d.Name, Description: d.Description, ParametersJSONSchema: inputSchema(d.InputSchema)})
	}
	return []GeminiTool{{FunctionDeclarations: decls}}
}

// geminiCall is the part of a functionCall the parser reads.
type geminiCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// ParseGeminiFunctionCalls reads the function calls of a Gemini response:
// a GenerateContentResponse (its first candidate), a Content, or a list of
// parts, as JSON bytes, a string or any value that encodes to that JSON
// (such as google.golang.org/genai's types). Every functionCall part
// becomes a ToolCall, in order; its id is the call's id when Gemini gave
// one (it may not: then it is "gemini-call-N" by position, and the answer
// carries no id, only the name, which is how Gemini matches it then). A call whose args are not an
// object or that has no name is kept with Err set (see ToolCall).
func ParseGeminiFunctionCalls(v any) ([]ToolCall, error) {
	data, err := rawJSON(v)
	if err != nil {
		return nil, err
	}
	data = trimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var parts []json.RawMessage
	switch data[0] {
	case '[':
		if err := json.Unmarshal(data, &parts); err != nil {
			return nil, fmt.Errorf("provider: gemini parts: %w", err)
		}
	case '{':
		var obj struct {
			Candidates []struct {
				Content struct {
					Parts []json.RawMessage `json:"parts"`
				} `json:"content"`
			} `json:"candidates"`
			Parts []json.RawMessage `json:"parts"`
		}
		if err := json.Unmarshal(data, &obj); err != nil {
			return nil, fmt.Errorf("provider: gemini response: %w", err)
		}
		parts = obj.Parts
		if obj.Candidates != nil {
			if len(obj.Candidates) == 0 {
				return nil, nil
			}
			parts = obj.Candidates[0].Content.Parts
		}
	default:
		return nil, fmt.Errorf("provider: gemini response: want a response, a content or its parts, got %.20q", data)
	}
	var out []ToolCall
	for _, raw := range parts {
		var p struct {
			FunctionCall *json.RawMessage `json:"functionCall"`
		}
		if json.Unmarshal(raw, &p) != nil || p.FunctionCall == nil {
			continue
		}
		var c geminiCall
		if err := json.Unmarshal(*p.FunctionCall, &c); err != nil {
			out = append(out, ToolCall{Raw: *p.FunctionCall, Err: malformed("function call %d is not a valid functionCall object: %v", len(out), err)})
			continue
		}
		tc := ToolCall{Call: tool.Call{ID: c.ID, Name: c.Name}, Raw: c.Args}
		if tc.Call.ID == "" {
			tc.Call.ID = fmt.Sprintf("%s%d", geminiNoID, len(out))
		}
		switch {
		case c.Name == "":
			tc.Err = malformed("the function call has no name")
		default:
			if in, err := decodeArguments(c.Args); err != nil {
				tc.Err = err
			} else {
				tc.Call.Input = in
			}
		}
		out = append(out, tc)
	}
	return out, nil
}

// GeminiContent is a Content of the conversation: a role and its parts.
type GeminiContent struct {
	Role  string       `json:"role"`
	Parts []GeminiPart `json:"parts"`
}

// GeminiPart is the part of a Content this package writes: a function
// response.
type GeminiPart struct {
	FunctionResponse *GeminiFunctionResponse `json:"functionResponse,omitempty"`
}

// GeminiFunctionResponse answers one function call: its id (when the call
// had one) and name, the text under "output" (or, for an error result,
// "error", as Gemini reads it), and the result's images, audio and
// documents as inline data parts.
type GeminiFunctionResponse struct {
	ID       string               `json:"id,omitempty"`
	Name     string               `json:"name"`
	Response map[string]any       `json:"response"`
	Parts    []GeminiResponsePart `json:"parts,omitempty"`
}

// GeminiResponsePart is a function response's media part.
type GeminiResponsePart struct {
	InlineData *GeminiBlob `json:"inlineData,omitempty"`
}

// GeminiBlob is inline data: a MIME type and the bytes (base64 in JSON).
type GeminiBlob struct {
	MIMEType string `json:"mimeType"`
	Data     string `json:"data"`
}

// NewGeminiFunctionResponse answers the call c with r.
func NewGeminiFunctionResponse(c ToolCall, r tool.Result) GeminiFunctionResponse {
	key := "output"
	if r.IsError {
		key = "error"
	}
	fr := GeminiFunctionResponse{Name: c.Call.Name, Response: map[string]any{key: r.Content}}
	if id := c.Call.ID; id != "" && !generatedGeminiID(c) {
		fr.ID = id
	}
	if r.Structured != nil && !r.IsError {
		fr.Response[key] = r.Structured
	}
	for _, p := range r.Parts {
		if (p.Kind == tool.ImagePart || p.Kind == tool.AudioPart || p.Kind == tool.ResourcePart) && len(p.Data) > 0 && p.MIMEType != "" {
			fr.Parts = append(fr.Parts, GeminiResponsePart{InlineData: &GeminiBlob{MIMEType: p.MIMEType, Data: base64.StdEncoding.EncodeToString(p.Data)}})
		}
	}
	return fr
}

// geminiNoID starts the id ParseGeminiFunctionCalls gives a call Gemini
// sent without one; the answer then carries no id.
const geminiNoID = "gemini-call-"

// generatedGeminiID reports whether c's id was made up by
// ParseGeminiFunctionCalls.
func generatedGeminiID(c ToolCall) bool { return strings.HasPrefix(c.Call.ID, geminiNoID) }

// NewGeminiContent answers calls with results (one per call, in order) as
// one Content of role "user" holding a functionResponse part per call, the
// turn that follows the model's function calls.
func NewGeminiContent(calls []ToolCall, results []tool.Result) GeminiContent {
	c := GeminiContent{Role: "user", Parts: make([]GeminiPart, 0, len(calls))}
	for i, call := range calls {
		fr := NewGeminiFunctionResponse(call, resultAt(results, i))
		c.Parts = append(c.Parts, GeminiPart{FunctionResponse: &fr})
	}
	return c
}
