package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tool/ask"
)

// SamplingInput is the input of test_sampling.
//
//tool:name test_sampling
//tool:description Asks the client's model to complete the prompt (sampling/createMessage).
//tool:concurrency safe
//tool:side-effect read-only
type SamplingInput struct {
	// The prompt to send to the model.
	Prompt string `json:"prompt" tool:"required"`
}

// ElicitationInput is the input of test_elicitation.
//
//tool:name test_elicitation
//tool:description Asks the user for a username and an email address (elicitation/create).
//tool:concurrency safe
//tool:side-effect read-only
type ElicitationInput struct {
	// The message to show the user.
	Message string `json:"message" tool:"required"`
}

// ElicitationDefaultsInput is the input of test_elicitation_sep1034_defaults.
//
//tool:name test_elicitation_sep1034_defaults
//tool:description Asks the user for a form whose every field has a default (SEP-1034).
//tool:concurrency safe
//tool:side-effect read-only
type ElicitationDefaultsInput struct{}

// ElicitationEnumsInput is the input of test_elicitation_sep1330_enums.
//
//tool:name test_elicitation_sep1330_enums
//tool:description Asks the user for a form with the five kinds of enum (SEP-1330).
//tool:concurrency safe
//tool:side-effect read-only
type ElicitationEnumsInput struct{}

func sampling(ctx context.Context, in SamplingInput, tc tool.Context) (string, error) {
	resp, err := ask.Sample(ctx, tc, ask.SampleRequest{
		Messages:  []ask.SampleMessage{{Role: "user", Text: in.Prompt}},
		MaxTokens: 100,
	})
	if err != nil {
		return "", fmt.Errorf("sampling: %w", err)
	}
	return "LLM response: " + resp.Text, nil
}

func elicitation(ctx context.Context, in ElicitationInput, tc tool.Context) (string, error) {
	resp, err := ask.Elicit(ctx, tc, ask.ElicitRequest{Message: in.Message, Schema: map[string]any{
		"type": "object",
		"properties": map[string]any{
			"username": map[string]any{"type": "string", "description": "User's response"},
			"email":    map[string]any{"type": "string", "description": "User's email address"},
		},
		"required": []any{"username", "email"},
	}})
	if err != nil {
		return "", fmt.Errorf("elicitation: %w", err)
	}
	return fmt.Sprintf("User response: action=%s, content=%s", resp.Action, jsonText(resp.Content)), nil
}

func elicitationDefaults(ctx context.Context, _ ElicitationDefaultsInput, tc tool.Context) (string, error) {
	return elicitForm(ctx, tc, "Test client default value handling - please accept with defaults", map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
			"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
			"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
			"status":   map[string]any{"type": "string", "description": "User status", "enum": []any{"active", "inactive", "pending"}, "default": "active"},
			"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
		},
	})
}

func elicitationEnums(ctx context.Context, _ ElicitationEnumsInput, tc tool.Context) (string, error) {
	titled := func(pairs ...string) []any {
		var out []any
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, map[string]any{"const": pairs[i], "title": pairs[i+1]})
		}
		return out
	}
	return elicitForm(ctx, tc, "Test enum schema variants", map[string]any{
		"type": "object",
		"properties": map[string]any{
			"untitledSingle": map[string]any{"type": "string", "enum": []any{"option1", "option2", "option3"}},
			"titledSingle": map[string]any{"type": "string",
				"oneOf": titled("value1", "First Option", "value2", "Second Option", "value3", "Third Option")},
			"legacyEnum": map[string]any{"type": "string", "enum": []any{"opt1", "opt2", "opt3"},
				"enumNames": []any{"Option One", "Option Two", "Option Three"}},
			"untitledMulti": map[string]any{"type": "array",
				"items": map[string]any{"type": "string", "enum": []any{"option1", "option2", "option3"}}},
			"titledMulti": map[string]any{"type": "array",
				"items": map[string]any{"anyOf": titled("value1", "First Choice", "value2", "Second Choice", "value3", "Third Choice")}},
		},
	})
}

// elicitForm asks for the form schema describes and words the answer.
func elicitForm(ctx context.Context, tc tool.Context, message string, schema map[string]any) (string, error) {
	resp, err := ask.Elicit(ctx, tc, ask.ElicitRequest{Message: message, Schema: schema})
	if err != nil {
		return "", fmt.Errorf("elicitation: %w", err)
	}
	return fmt.Sprintf("Elicitation completed: action=%s, content=%s", resp.Action, jsonText(resp.Content)), nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}
