package provider

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

var (
	pixel = []byte{0x89, 'P', 'N', 'G'}
	pdf   = []byte("%PDF-1.7")
)

func TestAnthropicBlocks(t *testing.T) {
	tests := []struct {
		name string
		res  tool.Result
		want []AnthropicBlock
	}{
		{"text", tool.Success("hi"), []AnthropicBlock{{Type: "text", Text: "hi"}}},
		{"empty", tool.Success(""), nil},
		{"image", tool.SuccessParts(tool.Part{Kind: tool.TextPart, Text: "Image a.png:"}, tool.Part{Kind: tool.ImagePart, Data: pixel, MIMEType: "image/png"}), []AnthropicBlock{
			{Type: "text", Text: "Image a.png:"},
			{Type: "image", Source: &AnthropicSource{Type: "base64", MediaType: "image/png", Data: "iVBORw=="}},
		}},
		{"an image type the API does not take", tool.SuccessParts(tool.Part{Kind: tool.ImagePart, Data: pixel, MIMEType: "image/bmp"}), []AnthropicBlock{
			{Type: "text", Text: "[image: image/bmp, 4 bytes]"},
		}},
		{"pdf", tool.SuccessParts(tool.Part{Kind: tool.ResourcePart, URI: "file:///a.pdf", MIMEType: "application/pdf", Data: pdf}), []AnthropicBlock{
			{Type: "document", Source: &AnthropicSource{Type: "base64", MediaType: "application/pdf", Data: "JVBERi0xLjc="}},
		}},
		{"audio, link and text resource as text", tool.SuccessParts(
			tool.Part{Kind: tool.AudioPart, Data: []byte{1}, MIMEType: "audio/wav"}, tool.Part{Kind: tool.ResourceLinkPart, URI: "file:///x", Name: "x", MIMEType: ""}, tool.Part{Kind: tool.ResourcePart, URI: "file:///t", MIMEType: "text/plain", Text: "body"}, tool.Part{Kind: tool.TextPart, Text: ""}), []AnthropicBlock{
			{Type: "text", Text: "[audio: audio/wav, 1 bytes]"},
			{Type: "text", Text: "[resource: file:///x (x)]"},
			{Type: "text", Text: "body"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewAnthropicToolResult("toolu_1", tt.res)
			if diff := cmp.Diff(tt.want, got.Content); diff != "" {
				t.Errorf("blocks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenAIOutputItems(t *testing.T) {
	tests := []struct {
		name string
		res  tool.Result
		want string // the JSON of the function_call_output
	}{
		{"text", tool.Success("hi"), `{"type":"function_call_output","call_id":"c","output":"hi"}`},
		{"audio alone stays text", tool.SuccessParts(tool.Part{Kind: tool.AudioPart, Data: []byte{1}, MIMEType: "audio/wav"}),
			`{"type":"function_call_output","call_id":"c","output":"[audio: audio/wav, 1 bytes]"}`},
		{"image", tool.SuccessParts(tool.Part{Kind: tool.TextPart, Text: "Image a.png:"}, tool.Part{Kind: tool.ImagePart, Data: pixel, MIMEType: "image/png"}),
			`{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"Image a.png:"},{"type":"input_image","image_url":"data:image/png;base64,iVBORw=="}]}`},
		{"pdf", tool.SuccessParts(tool.Part{Kind: tool.ResourcePart, URI: "file:///docs/a.pdf", MIMEType: "application/pdf", Data: pdf}),
			`{"type":"function_call_output","call_id":"c","output":[{"type":"input_file","file_data":"data:application/pdf;base64,JVBERi0xLjc=","filename":"a.pdf"}]}`},
		{"error with an image", tool.Result{IsError: true, Parts: []tool.Part{tool.Part{Kind: tool.TextPart, Text: "bad"}, tool.Part{Kind: tool.ImagePart, Data: pixel, MIMEType: "image/gif"}}},
			`{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"Error:"},{"type":"input_text","text":"bad"},{"type":"input_image","image_url":"data:image/gif;base64,iVBORw=="}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(NewOpenAIFunctionCallOutput("c", tt.res))
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("got  %s\nwant %s", data, tt.want)
			}
		})
	}
}
