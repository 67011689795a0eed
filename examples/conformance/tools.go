package main

import (
	"context"
	"encoding/base64"
	"errors"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// The inputs of the fixture tools the official MCP conformance suite calls
// (its "everything server" scenarios). toolgen writes their schemas,
// binders and constructors into tools_toolgen.go.

// SimpleTextInput is the input of test_simple_text.
//
//tool:name test_simple_text
//tool:description Returns a simple text response.
//tool:concurrency safe
//tool:side-effect read-only
type SimpleTextInput struct{}

// ImageContentInput is the input of test_image_content.
//
//tool:name test_image_content
//tool:description Returns a 1x1 red PNG image.
//tool:concurrency safe
//tool:side-effect read-only
type ImageContentInput struct{}

// AudioContentInput is the input of test_audio_content.
//
//tool:name test_audio_content
//tool:description Returns a short silent WAV clip.
//tool:concurrency safe
//tool:side-effect read-only
type AudioContentInput struct{}

// EmbeddedResourceInput is the input of test_embedded_resource.
//
//tool:name test_embedded_resource
//tool:description Returns an embedded text resource.
//tool:concurrency safe
//tool:side-effect read-only
type EmbeddedResourceInput struct{}

// MultipleContentTypesInput is the input of test_multiple_content_types.
//
//tool:name test_multiple_content_types
//tool:description Returns text, an image and an embedded resource.
//tool:concurrency safe
//tool:side-effect read-only
type MultipleContentTypesInput struct{}

// ToolWithLoggingInput is the input of test_tool_with_logging.
//
//tool:name test_tool_with_logging
//tool:description Logs three messages at info level while it runs.
//tool:concurrency safe
//tool:side-effect read-only
type ToolWithLoggingInput struct{}

// ToolWithProgressInput is the input of test_tool_with_progress.
//
//tool:name test_tool_with_progress
//tool:description Reports progress 0, 50 and 100 of 100 while it runs.
//tool:concurrency safe
//tool:side-effect read-only
type ToolWithProgressInput struct{}

// ErrorHandlingInput is the input of test_error_handling.
//
//tool:name test_error_handling
//tool:description Always fails.
//tool:concurrency safe
//tool:side-effect read-only
type ErrorHandlingInput struct{}

// redPixelPNG is a 1x1 red PNG.
const redPixelPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="

// silentWAV is a 44-byte header and 8 bytes of silence, 8 kHz mono 8-bit.
const silentWAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err) // the constants above are valid base64
	}
	return b
}

var (
	pngBytes = mustDecode(redPixelPNG)
	wavBytes = mustDecode(silentWAV)
)

func simpleText(context.Context, SimpleTextInput, tool.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

func imageContent(context.Context, ImageContentInput, tool.Context) (tool.Result, error) {
	return tool.SuccessParts(tool.Part{Kind: tool.ImagePart, Data: pngBytes, MIMEType: "image/png"}), nil
}

func audioContent(context.Context, AudioContentInput, tool.Context) (tool.Result, error) {
	return tool.SuccessParts(tool.Part{Kind: tool.AudioPart, Data: wavBytes, MIMEType: "audio/wav"}), nil
}

func embeddedResource(context.Context, EmbeddedResourceInput, tool.Context) (tool.Result, error) {
	return tool.SuccessParts(tool.Part{Kind: tool.ResourcePart, URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}), nil
}

func multipleContentTypes(context.Context, MultipleContentTypesInput, tool.Context) (tool.Result, error) {
	return tool.SuccessParts(
		tool.Part{Kind: tool.TextPart, Text: "Multiple content types test:"},
		tool.Part{Kind: tool.ImagePart, Data: pngBytes, MIMEType: "image/png"},
		tool.Part{Kind: tool.ResourcePart, URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`},
	), nil
}

// pause waits d or until ctx is done.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func toolWithLogging(ctx context.Context, _ ToolWithLoggingInput, tc tool.Context) (string, error) {
	log := tc.Logger()
	log.InfoContext(ctx, "Tool execution started")
	if err := pause(ctx, 50*time.Millisecond); err != nil {
		return "", err
	}
	log.InfoContext(ctx, "Tool processing data")
	if err := pause(ctx, 50*time.Millisecond); err != nil {
		return "", err
	}
	log.InfoContext(ctx, "Tool execution completed")
	return "Tool with logging executed successfully.", nil
}

func toolWithProgress(ctx context.Context, _ ToolWithProgressInput, tc tool.Context) (string, error) {
	for i, done := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		tc.ReportProgress(ctx, tool.Progress{Done: done, Total: 100})
	}
	return "Tool with progress executed successfully.", nil
}

func errorHandling(context.Context, ErrorHandlingInput, tool.Context) (string, error) {
	return "", errors.New("This tool intentionally returns an error for testing")
}
