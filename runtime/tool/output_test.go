package tool

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/schema"
)

// issue is a tool's typed output, as a Go developer writes it.
type issue struct {
	ID     int               `json:"id"`
	Title  string            `json:"title"`
	Labels []string          `json:"labels"`
	Fields map[string]string `json:"fields,omitempty"`
	Extra  *string           `json:"extra,omitempty"`
}

var issueSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"id":     map[string]any{"type": "integer"},
		"title":  map[string]any{"type": "string"},
		"labels": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		"fields": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"note":   map[string]any{"type": []any{"string", "null"}},
	},
	"required":             []any{"id", "title"},
	"additionalProperties": false,
}

func outputTool(structured any) Tool {
	return New(Definition{Name: "GetIssue", OutputSchema: issueSchema}, func(context.Context, Input, Context) Result {
		r := Success(`{"id":1}`)
		r.Structured = structured
		return r
	})
}

func TestOutputChecked(t *testing.T) {
	const ran = "Tool 'GetIssue' ran, but its result was not sent: "
	const fault = ". This is a fault of the tool, not of the call."
	extra := "x"
	tests := []struct {
		name       string
		structured any
		want       string // "" for the tool's own result
	}{
		{"valid struct", issue{ID: 1, Title: "a", Labels: []string{"bug"}}, ""},
		{"valid map", map[string]any{"id": 1, "title": "a", "note": nil}, ""},
		{"valid raw JSON", json.RawMessage(`{"id": 1, "title": "a", "labels": []}`), ""},
		{"nil slice", issue{ID: 1, Title: "a"},
			ran + "it does not match the tool's output schema (field 'labels' must be an array)" + fault},
		{"nested element", map[string]any{"id": 1, "title": "a", "labels": []any{"bug", 3}},
			ran + "it does not match the tool's output schema (field 'labels[1]' must be a string)" + fault},
		{"required and type", map[string]any{"id": "1"},
			ran + "it does not match the tool's output schema (field 'title' is required (string); field 'id' must be an integer)" + fault},
		{"required null", map[string]any{"id": 1, "title": nil},
			ran + "it does not match the tool's output schema (field 'title' must be a string)" + fault},
		{"undeclared field", issue{ID: 1, Title: "a", Labels: []string{}, Extra: &extra},
			ran + "it does not match the tool's output schema (unknown field 'extra')" + fault},
		{"undeclared null", map[string]any{"id": 1, "title": "a", "later": nil},
			ran + "it does not match the tool's output schema (unknown field 'later')" + fault},
		{"missing", nil,
			ran + "it carries no structured content, though the tool declares an output schema" + fault},
		{"not an object", []string{"a"},
			ran + "its structured content is not a JSON object, as the tool's output schema requires" + fault},
		{"no JSON form", struct {
			ID int    `json:"id"`
			F  func() `json:"f"`
		}{ID: 1, F: func() {}},
			ran + "its structured content has no JSON form (json: unsupported type: func())" + fault},
	}
	for _, mode := range []schema.Mode{schema.Warn, schema.Enforce} {
		for _, tt := range tests {
			t.Run(mode.String()+"/"+tt.name, func(t *testing.T) {
				e, logs := newTestExecutor(t, []Tool{outputTool(tt.structured)}, WithSchemaMode(mode))
				res := e.Execute(context.Background(), Call{Name: "GetIssue"}, Context{})
				if tt.want == "" {
					if res.IsError || !cmp.Equal(res.Structured, tt.structured, cmp.Comparer(func(a, b json.RawMessage) bool { return string(a) == string(b) })) {
						t.Errorf("a valid result changed: %+v", res)
					}
					return
				}
				if res.Content != tt.want || !res.IsError || res.Structured != nil {
					t.Errorf("got %q (error %v)\nwant %q", res.Content, res.IsError, tt.want)
				}
				var oe *OutputError
				if !errors.As(res.Err, &oe) || oe.Tool != "GetIssue" {
					t.Errorf("Err = %v, want an *OutputError", res.Err)
				}
				if logs.maxLevel() != slog.LevelError {
					t.Errorf("a broken output must be logged at ERROR:\n%s", logs)
				}
			})
		}
	}
	// Off checks nothing; an error result is never checked.
	off, _ := newTestExecutor(t, []Tool{outputTool(issue{ID: 1})}, WithSchemaMode(schema.Off))
	if res := off.Execute(context.Background(), Call{Name: "GetIssue"}, Context{}); res.IsError {
		t.Errorf("schema.Off: %+v", res)
	}
	failing := New(Definition{Name: "Fails", OutputSchema: issueSchema}, func(context.Context, Input, Context) Result {
		return Failure("Issue 7 does not exist.")
	})
	e, _ := newTestExecutor(t, []Tool{failing})
	if res := e.Execute(context.Background(), Call{Name: "Fails"}, Context{}); res.Content != "Issue 7 does not exist." {
		t.Errorf("an error result must pass as it is: %+v", res)
	}
}

// TestOutputCheckedAfterPostHooks: what is sent is checked, so a post-hook
// that breaks the structured content is caught too.
func TestOutputCheckedAfterPostHooks(t *testing.T) {
	e, _ := newTestExecutor(t, []Tool{outputTool(issue{ID: 1, Title: "a", Labels: []string{}})},
		WithPostHook(func(_ context.Context, _ Call, _ Context, r Result) Result {
			r.Structured = map[string]any{"id": 1}
			return r
		}))
	res := e.Execute(context.Background(), Call{Name: "GetIssue"}, Context{})
	want := "Tool 'GetIssue' ran, but its result was not sent: it does not match the tool's output schema (field 'title' is required (string)). This is a fault of the tool, not of the call."
	if res.Content != want {
		t.Errorf("got %q\nwant %q", res.Content, want)
	}
}
