package provider

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// AnthropicTool is a tool definition in the Messages API's "tools" list.
type AnthropicTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	InputSchema map[string]any `json:"input_schema"`
}

// AnthropicToolResult is a "tool_result" content block, answering one
// "tool_use" block. Its content is the result's parts as blocks (see
// NewAnthropicToolResult): for a text result one text block, as the SDK's
// NewToolResultBlock writes it, or none for empty content (the API refuses
// empty text blocks).
type AnthropicToolResult struct {
	// Type is always "tool_result".
	Type      string           `json:"type"`
	ToolUseID string           `json:"tool_use_id"`
	Content   []AnthropicBlock `json:"content,omitempty"`
	IsError   bool             `json:"is_error,omitempty"`
}

// AnthropicBlock is a content block of a tool result: "text" (Text),
// "image" or "document" (Source).
type AnthropicBlock struct {
	Type   string           `json:"type"`
	Text   string           `json:"text,omitempty"`
	Source *AnthropicSource `json:"source,omitempty"`
}

// AnthropicText is the block type of a text block; kept for callers
// written when tool results held text blocks only.
type AnthropicText = AnthropicBlock

// AnthropicSource is the base64 source of an image or document block.
type AnthropicSource struct {
	// Type is always "base64".
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	// Data is the base64 encoding of the bytes.
	Data string `json:"data"`
}

// anthropicImageTypes are the image types the Messages API takes.
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// Text returns the result's text: its text blocks, one after the other.
func (r AnthropicToolResult) Text() string {
	var b strings.Builder
	for _, t := range r.Content {
		if t.Type == "text" {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// anthropicBlocks returns r's content as Messages API blocks: text parts
// (and embedded text resources) as text blocks, images of a type the API
// takes as image blocks, a PDF resource as a document block, and every
// other part as a text block of its text form. Empty text is left out.
func anthropicBlocks(r tool.Result) []AnthropicBlock {
	if len(r.Parts) == 0 {
		if r.Content == "" {
			return nil
		}
		return []AnthropicBlock{{Type: "text", Text: r.Content}}
	}
	out := make([]AnthropicBlock, 0, len(r.Parts))
	for _, p := range r.Parts {
		switch {
		case p.Kind == tool.ImagePart && anthropicImageTypes[p.MIMEType]:
			out = append(out, AnthropicBlock{Type: "image", Source: base64Source(p)})
		case p.Kind == tool.ResourcePart && p.Data != nil && p.MIMEType == "application/pdf":
			out = append(out, AnthropicBlock{Type: "document", Source: base64Source(p)})
		default:
			if text := p.TextForm(); text != "" {
				out = append(out, AnthropicBlock{Type: "text", Text: text})
			}
		}
	}
	return out
}

func base64Source(p tool.Part) *AnthropicSource {
	return &AnthropicSource{Type: "base64", MediaType: p.MIMEType, Data: base64.StdEncoding.EncodeToString(p.Data)}
}

// AnthropicMessage is the user message that carries the tool results of one
// assistant turn back to the model.
type AnthropicMessage struct {
	// Role is always "user".
	Role    string                `json:"role"`
	Content []AnthropicToolResult `json:"content"`
}

// AnthropicTools turns definitions into the Messages API's tools, in order.
// A definition without a schema gets an empty object schema, which the API
// requires. A schema with "allOf", "anyOf" or "oneOf" at the top, which the
// API refuses for the whole request, is flattened into one object schema
// (see flattenTop); the definition itself is not changed, and the
// executor's gate still checks each call against all of it.
func AnthropicTools(defs []tool.Definition) []AnthropicTool {
	out := make([]AnthropicTool, 0, len(defs))
	for _, d := range defs {
		out = append(out, AnthropicTool{Name: d.Name, Description: d.Description, InputSchema: inputSchema(d.InputSchema)})
	}
	return out
}

func inputSchema(s map[string]any) map[string]any {
	if s == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return flattenTop(s)
}

// anthropicBlock is the part of a content block the parser reads.
type anthropicBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ParseAnthropicToolUses reads the "tool_use" blocks of an assistant
// message. content is the message's content array, or the whole message
// (an object with "content"), as JSON bytes, a string, or any value that
// encodes to that JSON (such as the SDK's response types). Other blocks
// (text, thinking, server tools) are skipped.
//
// A block whose input is not a JSON object, or that lacks a name, is kept
// with Err set (see ToolCall). The error is for content that is not a
// message or a content array at all.
func ParseAnthropicToolUses(content any) ([]ToolCall, error) {
	data, err := rawJSON(content)
	if err != nil {
		return nil, err
	}
	data = trimSpace(data)
	if len(data) > 0 && data[0] == '{' {
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(data, &msg); err != nil {
			return nil, fmt.Errorf("provider: anthropic message: %w", err)
		}
		data = trimSpace(msg.Content)
	}
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(data, &blocks); err != nil {
		return nil, fmt.Errorf("provider: anthropic content: want an array of content blocks: %w", err)
	}
	var out []ToolCall
	for i, raw := range blocks {
		var b anthropicBlock
		if err := json.Unmarshal(raw, &b); err != nil {
			// Not even a block; if it claims to be a tool_use, answer it.
			if looksLikeToolUse(raw) {
				out = append(out, ToolCall{Raw: raw, Err: malformed("content block %d is not a valid tool_use block: %v", i, err)})
			}
			continue
		}
		if b.Type != "tool_use" {
			continue
		}
		out = append(out, anthropicCall(b))
	}
	return out, nil
}

func looksLikeToolUse(raw []byte) bool {
	var probe struct {
		Type string `json:"type"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.Type == "tool_use"
}

func anthropicCall(b anthropicBlock) ToolCall {
	tc := ToolCall{Call: tool.Call{ID: b.ID, Name: b.Name}, Raw: b.Input}
	if b.Name == "" {
		tc.Err = malformed("tool_use block %q has no name", b.ID)
		return tc
	}
	in, err := decodeArguments(b.Input)
	if err != nil {
		tc.Err = err
		return tc
	}
	tc.Call.Input = in
	return tc
}

// NewAnthropicToolResult answers the tool_use block with id toolUseID: the
// result's content (its parts as blocks, see AnthropicBlock), with is_error
// set for an error result.
func NewAnthropicToolResult(toolUseID string, r tool.Result) AnthropicToolResult {
	return AnthropicToolResult{Type: "tool_result", ToolUseID: toolUseID, IsError: r.IsError, Content: anthropicBlocks(r)}
}

// NewAnthropicMessage returns the user message answering calls with results
// (one result per call, in the same order).
func NewAnthropicMessage(calls []ToolCall, results []tool.Result) AnthropicMessage {
	msg := AnthropicMessage{Role: "user", Content: make([]AnthropicToolResult, 0, len(calls))}
	for i, c := range calls {
		msg.Content = append(msg.Content, NewAnthropicToolResult(c.Call.ID, resultAt(results, i)))
	}
	return msg
}
