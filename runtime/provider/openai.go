package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// OpenAITool is a function tool of the Chat Completions API.
type OpenAITool struct {
	// Type is always "function".
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction is the function of an OpenAITool.
type OpenAIFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
	// Strict asks the API to hold the model to Parameters exactly.
	Strict bool `json:"strict,omitempty"`
}

// OpenAIMessage is a "tool" message of the Chat Completions API, answering
// one tool call.
type OpenAIMessage struct {
	// Role is always "tool".
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// OpenAIResponsesTool is a function tool of the Responses API. The Responses
// API makes tools strict unless told otherwise, so Strict is always sent.
type OpenAIResponsesTool struct {
	// Type is always "function".
	Type        string         `json:"type"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
	Strict      bool           `json:"strict"`
}

// OpenAIFunctionCallOutput is a "function_call_output" input item of the
// Responses API, answering one "function_call" output item.
type OpenAIFunctionCallOutput struct {
	// Type is always "function_call_output".
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	// Output is the result's text (OpenAIContent), sent as the output
	// when Items is empty.
	Output string `json:"-"`
	// Items, set for a result with images or PDF files, are sent as the
	// output instead: input_text, input_image and input_file items.
	Items []OpenAIOutputItem `json:"-"`
}

// MarshalJSON writes the output as a string, or as the array of Items.
func (o OpenAIFunctionCallOutput) MarshalJSON() ([]byte, error) {
	wire := struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
		Output any    `json:"output"`
	}{o.Type, o.CallID, o.Output}
	if len(o.Items) > 0 {
		wire.Output = o.Items
	}
	return json.Marshal(wire)
}

// OpenAIOutputItem is one item of a function call's output: "input_text"
// (Text), "input_image" (ImageURL, a data URL) or "input_file" (FileData,
// a data URL, and Filename).
type OpenAIOutputItem struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	FileData string `json:"file_data,omitempty"`
	Filename string `json:"filename,omitempty"`
}

// openAIImageTypes are the image types the Responses API takes.
var openAIImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// openAIOutputItems returns r's parts as Responses API output items, or nil
// when they hold nothing but text (the output is then the text form): an
// image of a type the API takes as input_image, a PDF resource as
// input_file, and every other part as input_text of its text form. An error
// result's first text says ErrorPrefix, as OpenAIContent does.
func openAIOutputItems(r tool.Result) []OpenAIOutputItem {
	rich := false
	for _, p := range r.Parts {
		if isOpenAIImage(p) || isPDF(p) {
			rich = true
			break
		}
	}
	if !rich {
		return nil
	}
	out := make([]OpenAIOutputItem, 0, len(r.Parts)+1)
	if r.IsError {
		out = append(out, OpenAIOutputItem{Type: "input_text", Text: strings.TrimSpace(ErrorPrefix)})
	}
	for _, p := range r.Parts {
		switch {
		case isOpenAIImage(p):
			out = append(out, OpenAIOutputItem{Type: "input_image", ImageURL: dataURL(p)})
		case isPDF(p):
			out = append(out, OpenAIOutputItem{Type: "input_file", FileData: dataURL(p), Filename: fileName(p.URI)})
		default:
			if text := p.TextForm(); text != "" {
				out = append(out, OpenAIOutputItem{Type: "input_text", Text: text})
			}
		}
	}
	return out
}

func isOpenAIImage(p tool.Part) bool { return p.Kind == tool.ImagePart && openAIImageTypes[p.MIMEType] }

func isPDF(p tool.Part) bool {
	return p.Kind == tool.ResourcePart && p.Data != nil && p.MIMEType == "application/pdf"
}

// fileName names a file part by the last element of its URI.
func fileName(uri string) string {
	if base := path.Base(uri); base != "." && base != "/" && base != "" {
		return base
	}
	return "document.pdf"
}

func dataURL(p tool.Part) string {
	return "data:" + p.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}

// ErrorPrefix starts the content of an error result sent to OpenAI, which
// has no error flag for tool results.
const ErrorPrefix = "Error: "

// NewOpenAITool returns def as a Chat Completions function tool, strict when
// StrictSchema can make its schema strict. Otherwise the tool is sent with
// its own schema and Strict false, and notStrict says why (it wraps
// ErrNotStrict); the tool is usable either way.
func NewOpenAITool(def tool.Definition) (t OpenAITool, notStrict error) {
	params, strict, notStrict := openAIParameters(def.InputSchema)
	return OpenAITool{Type: "function", Function: OpenAIFunction{
		Name: def.Name, Description: def.Description, Parameters: params, Strict: strict,
	}}, notStrict
}

// OpenAITools converts definitions with NewOpenAITool, in order. notStrict
// maps the name of every tool sent without strict mode to the reason; it is
// nil when every tool is strict.
func OpenAITools(defs []tool.Definition) (tools []OpenAITool, notStrict map[string]error) {
	tools = make([]OpenAITool, 0, len(defs))
	for _, d := range defs {
		t, err := NewOpenAITool(d)
		tools = append(tools, t)
		if err != nil {
			if notStrict == nil {
				notStrict = make(map[string]error)
			}
			notStrict[d.Name] = err
		}
	}
	return tools, notStrict
}

// NewOpenAIResponsesTool is NewOpenAITool for the Responses API.
func NewOpenAIResponsesTool(def tool.Definition) (t OpenAIResponsesTool, notStrict error) {
	params, strict, notStrict := openAIParameters(def.InputSchema)
	return OpenAIResponsesTool{Type: "function", Name: def.Name, Description: def.Description, Parameters: params, Strict: strict}, notStrict
}

// OpenAIResponsesTools is OpenAITools for the Responses API.
func OpenAIResponsesTools(defs []tool.Definition) (tools []OpenAIResponsesTool, notStrict map[string]error) {
	tools = make([]OpenAIResponsesTool, 0, len(defs))
	for _, d := range defs {
		t, err := NewOpenAIResponsesTool(d)
		tools = append(tools, t)
		if err != nil {
			if notStrict == nil {
				notStrict = make(map[string]error)
			}
			notStrict[d.Name] = err
		}
	}
	return tools, notStrict
}

func openAIParameters(s map[string]any) (params map[string]any, strict bool, notStrict error) {
	s = inputSchema(s)
	st, err := StrictSchema(s)
	if err != nil {
		return s, false, err
	}
	return st, true, nil
}

// openAIToolCall is the part of a Chat Completions tool call the parser
// reads.
type openAIToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// ParseOpenAIToolCalls reads the tool calls of a Chat Completions response.
// v is the message's "tool_calls" array, the assistant message, or the whole
// completion (its first choice is read), as JSON bytes, a string, or any
// value that encodes to that JSON (such as the SDK's response types).
//
// Each call's "arguments" is a string holding JSON, which models sometimes
// get wrong: a call whose arguments are not valid JSON, not an object, or
// that lacks a name is kept with Err set (see ToolCall), so that it can be
// answered. Arguments sent as an object instead of a string are accepted.
// The error is for a v that is none of the shapes above.
func ParseOpenAIToolCalls(v any) ([]ToolCall, error) {
	data, err := rawJSON(v)
	if err != nil {
		return nil, err
	}
	data, err = openAICallsArray(trimSpace(data))
	if err != nil {
		return nil, err
	}
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("provider: openai tool_calls: want an array: %w", err)
	}
	out := make([]ToolCall, 0, len(raws))
	for i, raw := range raws {
		var c openAIToolCall
		if err := json.Unmarshal(raw, &c); err != nil {
			out = append(out, ToolCall{Raw: raw, Err: malformed("tool call %d is not a valid tool call object: %v", i, err)})
			continue
		}
		if c.Type != "" && c.Type != "function" {
			out = append(out, ToolCall{Call: tool.Call{ID: c.ID, Name: c.Function.Name}, Raw: raw,
				Err: malformed("tool call %q has type %q; only function calls are supported", c.ID, c.Type)})
			continue
		}
		out = append(out, openAICall(c.ID, c.Function.Name, c.Function.Arguments))
	}
	return out, nil
}

// openAICallsArray finds the tool_calls array in a completion, a message or
// the array itself.
func openAICallsArray(data []byte) ([]byte, error) {
	if len(data) == 0 || data[0] != '{' {
		return data, nil
	}
	var obj struct {
		ToolCalls json.RawMessage `json:"tool_calls"`
		Choices   []struct {
			Message struct {
				ToolCalls json.RawMessage `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("provider: openai response: %w", err)
	}
	if obj.Choices != nil {
		if len(obj.Choices) == 0 {
			return nil, nil
		}
		return trimSpace(obj.Choices[0].Message.ToolCalls), nil
	}
	return trimSpace(obj.ToolCalls), nil
}

// openAICall builds a call from an id, a name and arguments that are either
// a JSON string holding the arguments or (leniently) the object itself.
func openAICall(id, name string, args json.RawMessage) ToolCall {
	tc := ToolCall{Call: tool.Call{ID: id, Name: name}}
	args = trimSpace(args)
	if len(args) > 0 && args[0] == '"' {
		var s string
		if err := json.Unmarshal(args, &s); err != nil {
			tc.Raw = args
			tc.Err = malformed("its arguments string cannot be read: %v", err)
			return tc
		}
		args = json.RawMessage(s)
	}
	tc.Raw = args
	if name == "" {
		tc.Err = malformed("tool call %q has no function name", id)
		return tc
	}
	in, err := decodeArguments(args)
	if err != nil {
		tc.Err = err
		return tc
	}
	tc.Call.Input = in
	return tc
}

// openAIResponseItem is the part of a Responses API output item the parser
// reads.
type openAIResponseItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ParseOpenAIResponseCalls reads the "function_call" items of a Responses
// API response: v is the response (an object with "output") or its output
// array, in any form ParseOpenAIToolCalls accepts. A call's id is its
// call_id. Malformed calls are kept with Err set, as ParseOpenAIToolCalls
// keeps them.
func ParseOpenAIResponseCalls(v any) ([]ToolCall, error) {
	data, err := rawJSON(v)
	if err != nil {
		return nil, err
	}
	data = trimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var resp struct {
			Output json.RawMessage `json:"output"`
		}
		if err := json.Unmarshal(data, &resp); err != nil {
			return nil, fmt.Errorf("provider: openai response: %w", err)
		}
		data = trimSpace(resp.Output)
	}
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("provider: openai response output: want an array: %w", err)
	}
	var out []ToolCall
	for i, raw := range raws {
		var it openAIResponseItem
		if err := json.Unmarshal(raw, &it); err != nil {
			if looksLikeType(raw, "function_call") {
				out = append(out, ToolCall{Raw: raw, Err: malformed("output item %d is not a valid function_call item: %v", i, err)})
			}
			continue
		}
		if it.Type != "function_call" {
			continue
		}
		out = append(out, openAICall(it.CallID, it.Name, it.Arguments))
	}
	return out, nil
}

func looksLikeType(raw []byte, typ string) bool {
	var probe struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.Type == typ
}

// OpenAIContent is the text OpenAI is sent for a result: its content, with
// ErrorPrefix put before an error result's content once (not again when the
// content already starts with it).
func OpenAIContent(r tool.Result) string {
	if !r.IsError || strings.HasPrefix(r.Content, ErrorPrefix) {
		return r.Content
	}
	if r.Content == "" {
		return ErrorPrefix + "the tool failed without saying why."
	}
	return ErrorPrefix + r.Content
}

// NewOpenAIMessage answers the tool call with id toolCallID.
func NewOpenAIMessage(toolCallID string, r tool.Result) OpenAIMessage {
	return OpenAIMessage{Role: "tool", ToolCallID: toolCallID, Content: OpenAIContent(r)}
}

// NewOpenAIMessages answers calls with results (one per call, in order).
func NewOpenAIMessages(calls []ToolCall, results []tool.Result) []OpenAIMessage {
	out := make([]OpenAIMessage, 0, len(calls))
	for i, c := range calls {
		out = append(out, NewOpenAIMessage(c.Call.ID, resultAt(results, i)))
	}
	return out
}

// NewOpenAIFunctionCallOutput answers the Responses API function call with
// call id callID: the result's text, or, for a result with images or PDF
// files, its parts as output items. (Chat Completions tool messages take
// text only: NewOpenAIMessage sends the text form, where an image is a
// bracketed note.)
func NewOpenAIFunctionCallOutput(callID string, r tool.Result) OpenAIFunctionCallOutput {
	return OpenAIFunctionCallOutput{Type: "function_call_output", CallID: callID, Output: OpenAIContent(r), Items: openAIOutputItems(r)}
}

// NewOpenAIFunctionCallOutputs answers Responses API calls with results.
func NewOpenAIFunctionCallOutputs(calls []ToolCall, results []tool.Result) []OpenAIFunctionCallOutput {
	out := make([]OpenAIFunctionCallOutput, 0, len(calls))
	for i, c := range calls {
		out = append(out, NewOpenAIFunctionCallOutput(c.Call.ID, resultAt(results, i)))
	}
	return out
}

func resultAt(results []tool.Result, i int) tool.Result {
	if i < len(results) {
		return results[i]
	}
	return tool.Failure("The tool call got no result.")
}
