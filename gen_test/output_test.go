package gentest

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/toolgen/toolgen/gen_test/tracker"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestOutputNilsAreSentEmpty: a generated output tool sends nil slices and
// maps as [] and {}, in its text and its structured content, and the
// executor's output check (under Enforce) accepts the result; the value
// the function returned is not written.
func TestOutputNilsAreSentEmpty(t *testing.T) {
	var returned *tracker.Issue
	tl := tracker.NewGetIssueTool(func(_ context.Context, in tracker.GetIssueInput, _ tool.Context) (*tracker.Issue, error) {
		returned = tracker.LazyIssue(in.Number)
		return returned, nil
	})
	reg := tool.NewRegistry()
	if err := reg.Register(tl); err != nil {
		t.Fatal(err)
	}
	e := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
	res := e.Execute(context.Background(), tool.Call{Name: "GetIssue", Input: tool.NewInput(map[string]any{"number": 7})}, tool.Context{})
	if res.IsError || res.Content != tracker.LazyIssueJSON {
		t.Fatalf("result %q (error %v)\nwant %q", res.Content, res.IsError, tracker.LazyIssueJSON)
	}
	structured, err := json.Marshal(res.Structured)
	if err != nil || string(structured) != tracker.LazyIssueJSON {
		t.Errorf("structured content %s (%v)\nwant %s", structured, err, tracker.LazyIssueJSON)
	}
	if returned.Labels != nil || returned.Fields["os"] != nil || returned.Milestone.Blockers != nil || returned.Comments[0].Reactions != nil {
		t.Errorf("the value the tool's function returned was written: %+v", returned)
	}
}
