package gentest

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/gen_test/weather"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The weather fixture's generated tool: the title, the output schema and
// the hints its directives declare, and structured content for an output
// of its declared type.
func TestHostMetadata(t *testing.T) {
	forecast := func(_ context.Context, in weather.ForecastInput, _ tool.Context) (weather.Forecast, error) {
		if in.City == "Atlantis" {
			return weather.Forecast{}, errors.New("No forecast for Atlantis.")
		}
		return weather.Forecast{City: in.City, TempC: 21.5}, nil
	}
	tl := weather.NewForecastTool(forecast)
	d := tl.Definition()
	if d.Title != "Weather forecast" {
		t.Errorf("Title = %q", d.Title)
	}
	wantSchema := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"properties": map[string]any{
			"city":     map[string]any{"type": "string", "description": "The city the forecast is for."},
			"temp_c":   map[string]any{"type": "number", "description": "The temperature in degrees Celsius."},
			"warnings": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "Warnings in force, if any."},
		},
		"required": []string{"city", "temp_c"},
	}
	if diff := cmp.Diff(wantSchema, d.OutputSchema); diff != "" {
		t.Errorf("OutputSchema (-want +got):\n%s", diff)
	}
	if d.SideEffect != tool.ReadOnly || !d.OpenWorld || d.Idempotent || d.Hints != nil {
		t.Errorf("behaviours: side effect %v, open world %v, idempotent %v, hints %v", d.SideEffect, d.OpenWorld, d.Idempotent, d.Hints)
	}

	tests := []struct {
		name           string
		tool           tool.Tool
		args           map[string]any
		wantContent    string
		wantStructured any
		wantError      bool
	}{
		{"a value", tl, map[string]any{"city": "Oslo"}, `{"city":"Oslo","temp_c":21.5}`, weather.Forecast{City: "Oslo", TempC: 21.5}, false},
		{"an error", tl, map[string]any{"city": "Atlantis"}, "No forecast for Atlantis.", nil, true},
		{"a pointer", weather.NewForecastTool(func(context.Context, weather.ForecastInput, tool.Context) (*weather.Forecast, error) {
			return &weather.Forecast{City: "Rome", TempC: 30}, nil
		}), map[string]any{"city": "Rome"}, `{"city":"Rome","temp_c":30}`, &weather.Forecast{City: "Rome", TempC: 30}, false},
		// A success must carry the structured content the output schema
		// promises: a nil pointer is a fault, and a function returning
		// another type does not compile (TestOutputToolRefusesOtherTypes).
		{"a nil pointer is an error", weather.NewForecastTool(func(context.Context, weather.ForecastInput, tool.Context) (*weather.Forecast, error) {
			return nil, nil
		}), map[string]any{"city": "Rome"}, "The tool produced no output (its function returned nil and no error).", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.tool.Execute(context.Background(), tool.NewInput(tt.args), tool.Context{})
			if res.IsError != tt.wantError || res.Content != tt.wantContent {
				t.Errorf("result = %q (error %v), want %q (error %v)", res.Content, res.IsError, tt.wantContent, tt.wantError)
			}
			if diff := cmp.Diff(tt.wantStructured, res.Structured); diff != "" {
				t.Errorf("Structured (-want +got):\n%s", diff)
			}
		})
	}
}
