package sdktest

import (
	"encoding/base64"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

var (
	pixel = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}
	pdf   = []byte("%PDF-1.7\n")
)

func richResult() tool.Result {
	return tool.SuccessParts(
		tool.Part{Kind: tool.TextPart, Text: "Image /w/a.png:"},
		tool.Part{Kind: tool.ImagePart, Data: pixel, MIMEType: "image/png"},
		tool.Part{Kind: tool.ResourcePart, URI: "file:///w/spec.pdf", MIMEType: "application/pdf", Data: pdf},
		tool.Part{Kind: tool.ResourceLinkPart, URI: "file:///w/big.log", Name: "big.log", MIMEType: "text/plain"},
	)
}

// An image and a PDF in a tool result survive the Anthropic SDK's types and
// are what its own constructors build.
func TestAnthropicPartsRoundTrip(t *testing.T) {
	ours := provider.NewAnthropicMessage([]provider.ToolCall{{Call: tool.Call{ID: "toolu_01"}}}, []tool.Result{richResult()})
	sdk := roundTrip[anthropic.MessageParam](t, ours)
	if sdk.OfUser == nil || len(sdk.OfUser.Content) != 1 || sdk.OfUser.Content[0].OfToolResult == nil {
		t.Fatalf("not a user message with one tool result: %s", marshal(t, sdk))
	}
	made := anthropic.NewUserMessage(anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{
		ToolUseID: "toolu_01",
		Content: []anthropic.ToolResultBlockParamContentUnion{
			{OfText: &anthropic.TextBlockParam{Text: "Image /w/a.png:"}},
			{OfImage: &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
				Data: base64.StdEncoding.EncodeToString(pixel), MediaType: anthropic.Base64ImageSourceMediaTypeImagePNG,
			}}}},
			{OfDocument: &anthropic.DocumentBlockParam{Source: anthropic.DocumentBlockParamSourceUnion{OfBase64: &anthropic.Base64PDFSourceParam{
				Data: base64.StdEncoding.EncodeToString(pdf),
			}}}},
			{OfText: &anthropic.TextBlockParam{Text: "[resource: file:///w/big.log (big.log)]"}},
		},
	}})
	if diff := cmp.Diff(asJSON(t, marshal(t, made)), asJSON(t, marshal(t, ours))); diff != "" {
		t.Errorf("ours vs the SDK's blocks (-sdk +ours):\n%s", diff)
	}
}

// The same result as a Responses API function_call_output: the SDK reads
// the output as an item array with the image and the file.
func TestOpenAIResponsesPartsRoundTrip(t *testing.T) {
	ours := provider.NewOpenAIFunctionCallOutput("call_1", richResult())
	sdk := roundTrip[responses.ResponseInputItemUnionParam](t, ours)
	fco := sdk.OfFunctionCallOutput
	if fco == nil {
		t.Fatalf("not a function_call_output: %s", marshal(t, sdk))
	}
	items := fco.Output.OfResponseFunctionCallOutputItemArray
	if len(items) != 4 {
		t.Fatalf("output items = %s", marshal(t, fco.Output))
	}
	type item struct{ Kind, Value string }
	var got []item
	for _, it := range items {
		switch {
		case it.OfInputText != nil:
			got = append(got, item{"text", it.OfInputText.Text})
		case it.OfInputImage != nil:
			got = append(got, item{"image", it.OfInputImage.ImageURL.Value})
		case it.OfInputFile != nil:
			got = append(got, item{"file " + it.OfInputFile.Filename.Value, it.OfInputFile.FileData.Value})
		}
	}
	want := []item{
		{"text", "Image /w/a.png:"},
		{"image", "data:image/png;base64," + base64.StdEncoding.EncodeToString(pixel)},
		{"file spec.pdf", "data:application/pdf;base64," + base64.StdEncoding.EncodeToString(pdf)},
		{"text", "[resource: file:///w/big.log (big.log)]"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items as the SDK reads them (-want +got):\n%s", diff)
	}
}
