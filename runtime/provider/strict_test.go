package provider_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

func TestStrictSchema(t *testing.T) {
	tests := []struct {
		name   string
		schema map[string]any
		want   map[string]any
		reason string // non-empty: not strict, with this error
	}{
		{
			name:   "generated schema: optional made nullable, hints moved",
			schema: echoSchema(),
			want: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"message": map[string]any{"type": "string", "description": "The message to repeat."},
					"times":   map[string]any{"type": []any{"integer", "null"}, "minimum": 1, "maximum": 100, "description": "Default: 1."},
					"sep":     map[string]any{"type": []any{"string", "null"}, "enum": []any{"space", "newline", "none", nil}},
				},
				"required":             []any{"message", "sep", "times"},
				"additionalProperties": false,
			},
		},
		{
			name: "nested objects and arrays of objects, additionalProperties added",
			schema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"edits": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{
						"type": "object",
						"properties": map[string]any{
							"old_string": map[string]any{"type": "string"},
							"new_string": map[string]any{"type": "string", "maxLength": 10},
						},
						"required": []any{"old_string"},
					}},
					"opts": map[string]any{"type": "object", "properties": map[string]any{"dry": map[string]any{"type": "boolean"}}},
				},
				"required": []any{"edits"},
			},
			want: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"edits": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{
						"type": "object",
						"properties": map[string]any{
							"old_string": map[string]any{"type": "string"},
							"new_string": map[string]any{"type": []any{"string", "null"}, "description": "At most 10 characters."},
						},
						"required":             []any{"new_string", "old_string"},
						"additionalProperties": false,
					}},
					"opts": map[string]any{
						"type":                 []any{"object", "null"},
						"properties":           map[string]any{"dry": map[string]any{"type": []any{"boolean", "null"}}},
						"required":             []any{"dry"},
						"additionalProperties": false,
					},
				},
				"required":             []any{"edits", "opts"},
				"additionalProperties": false,
			},
		},
		{
			name: "optional $ref and anyOf get a null branch",
			schema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"where": map[string]any{"$ref": "#/$defs/where", "description": "Filter."},
					"key":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}},
				},
				"$defs":   map[string]any{"where": map[string]any{"type": "object", "properties": map[string]any{"eq": map[string]any{"type": "string"}}, "required": []any{"eq"}}},
				"$schema": "https://json-schema.org/draft/2020-12/schema",
			},
			want: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"where": map[string]any{"description": "Filter.", "anyOf": []any{map[string]any{"$ref": "#/$defs/where"}, map[string]any{"type": "null"}}},
					"key":   map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}, map[string]any{"type": "null"}}},
				},
				"$defs": map[string]any{"where": map[string]any{
					"type": "object", "properties": map[string]any{"eq": map[string]any{"type": "string"}},
					"required": []any{"eq"}, "additionalProperties": false,
				}},
				"required":             []any{"key", "where"},
				"additionalProperties": false,
			},
		},
		{
			name:   "no schema at all",
			schema: nil,
			want:   map[string]any{"type": "object", "properties": map[string]any{}, "required": []any{}, "additionalProperties": false},
		},
		{
			name: "a map",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"env": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
			}},
			reason: "provider: schema cannot be strict: property 'env': it is a map (additionalProperties is a schema); strict mode needs every key declared",
		},
		{
			name: "a free-form object",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"opts": map[string]any{"type": "object"},
			}},
			reason: "provider: schema cannot be strict: property 'opts': it is an object without declared properties",
		},
		{
			name: "a value of any type",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"raw": map[string]any{"description": "Anything."},
			}},
			reason: "provider: schema cannot be strict: property 'raw': it has no type (a value of any type cannot be strict)",
		},
		{
			name: "oneOf",
			schema: map[string]any{"type": "object", "properties": map[string]any{
				"x": map[string]any{"type": "array", "items": map[string]any{"oneOf": []any{}}},
			}},
			reason: `provider: schema cannot be strict: property 'x[]': it uses "oneOf", which strict mode does not support`,
		},
		{
			name: "optional enum held as []string (generated schemas) gains null",
			schema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"output_mode": map[string]any{"type": "string", "enum": []string{"content", "count"}},
				},
			},
			want: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"output_mode": map[string]any{"type": []any{"string", "null"}, "enum": []any{"content", "count", nil}},
				},
				"required":             []any{"output_mode"},
				"additionalProperties": false,
			},
		},
		{
			name: "formats outside strict mode's list move into the description",
			schema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"when": map[string]any{"type": "string", "format": "date-time"},
					"url":  map[string]any{"type": "string", "format": "uri", "description": "Where."},
					"wait": map[string]any{"type": "string", "format": "go-duration"},
				},
				"required": []string{"when", "url", "wait"},
			},
			want: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"when": map[string]any{"type": "string", "format": "date-time"},
					"url":  map[string]any{"type": "string", "description": "Where. Format: uri."},
					"wait": map[string]any{"type": "string", "description": "Format: go-duration."},
				},
				"required":             []any{"url", "wait", "when"},
				"additionalProperties": false,
			},
		},
		{
			name:   "root additionalProperties true",
			schema: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": true},
			reason: "provider: schema cannot be strict: the schema: it allows undeclared keys (additionalProperties is true)",
		},
		{
			name:   "root not an object",
			schema: map[string]any{"type": "array"},
			reason: "provider: schema cannot be strict: the schema: the root must be an object schema, its type is array",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := mustJSON(t, tt.schema)
			got, err := provider.StrictSchema(tt.schema)
			if after := mustJSON(t, tt.schema); after != before {
				t.Errorf("StrictSchema changed its argument:\n%s\n%s", before, after)
			}
			if tt.reason != "" {
				if err == nil || err.Error() != tt.reason || !errors.Is(err, provider.ErrNotStrict) {
					t.Errorf("err = %v\nwant %s", err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("strict schema (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOpenAITools(t *testing.T) {
	defs := []tool.Definition{
		{Name: "Echo", Description: "Repeats.", InputSchema: echoSchema()},
		{Name: "Env", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"vars": map[string]any{"type": "object", "additionalProperties": true}}}},
	}
	tools, notStrict := provider.OpenAITools(defs)
	if len(tools) != 2 || !tools[0].Function.Strict || tools[1].Function.Strict {
		t.Fatalf("strictness: %+v", tools)
	}
	if diff := cmp.Diff(defs[1].InputSchema, tools[1].Function.Parameters); diff != "" {
		t.Errorf("a non-strict tool keeps its schema (-want +got):\n%s", diff)
	}
	if len(notStrict) != 1 || !errors.Is(notStrict["Env"], provider.ErrNotStrict) {
		t.Errorf("notStrict = %v", notStrict)
	}
	jsonEqual(t, `{"type":"function","function":{"name":"Env","parameters":{"type":"object","properties":{"vars":{"type":"object","additionalProperties":true}}}}}`, mustJSON(t, tools[1]))

	rtools, _ := provider.OpenAIResponsesTools(defs)
	jsonEqual(t, `{"type":"function","name":"Env","parameters":{"type":"object","properties":{"vars":{"type":"object","additionalProperties":true}}},"strict":false}`, mustJSON(t, rtools[1]))
	if !rtools[0].Strict {
		t.Error("Echo is not strict for the Responses API")
	}
}
