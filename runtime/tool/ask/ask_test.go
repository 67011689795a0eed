package ask_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tool/ask"
)

func TestAsk(t *testing.T) {
	ctx := context.Background()
	// Without a binding a tool cannot ask, and learns so.
	if _, err := ask.Elicit(ctx, tool.Context{}, ask.ElicitRequest{Message: "Name?"}); !errors.Is(err, ask.ErrNotSupported) {
		t.Errorf("Elicit without a client = %v, want ErrNotSupported", err)
	}
	if _, err := ask.Sample(ctx, tool.NewContext(), ask.SampleRequest{}); !errors.Is(err, ask.ErrNotSupported) {
		t.Errorf("Sample without a client = %v, want ErrNotSupported", err)
	}
	// With one, the request reaches the caller's function and its answer
	// the tool.
	var asked []string
	tc := tool.NewContext(
		ask.ElicitKey.Bind(func(_ context.Context, req ask.ElicitRequest) (ask.ElicitResponse, error) {
			asked = append(asked, req.Message)
			return ask.ElicitResponse{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
		}),
		ask.SampleKey.Bind(func(_ context.Context, req ask.SampleRequest) (ask.SampleResponse, error) {
			asked = append(asked, req.Messages[0].Text)
			return ask.SampleResponse{Text: "Hello"}, nil
		}),
	)
	e, err := ask.Elicit(ctx, tc, ask.ElicitRequest{Message: "Name?"})
	if err != nil || e.Action != "accept" || e.Content["name"] != "Ada" {
		t.Errorf("Elicit = %+v, %v", e, err)
	}
	s, err := ask.Sample(ctx, tc, ask.SampleRequest{Messages: []ask.SampleMessage{{Role: "user", Text: "Greet"}}})
	if err != nil || s.Text != "Hello" {
		t.Errorf("Sample = %+v, %v", s, err)
	}
	if diff := cmp.Diff([]string{"Name?", "Greet"}, asked); diff != "" {
		t.Errorf("asked (-want +got):\n%s", diff)
	}
}
