package tool

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgen/toolgen/runtime/schema"
)

// TestNamesEchoedWithSchemaEcho: every sentence of the executor that
// repeats a name the model sent quotes it through schema.Echo, so that a
// name with a newline, a bidi override or a zero-width space reads as
// written and a long name is cut by characters.
func TestNamesEchoedWithSchemaEcho(t *testing.T) {
	reg := NewRegistry()
	if err := reg.Register(New(Definition{Name: "Read"}, func(context.Context, Input, Context) Result { return Success("") })); err != nil {
		t.Fatal(err)
	}
	e := NewExecutor(reg, WithLogger(discard))
	long := strings.Repeat("é", schema.EchoLimit+3)
	cancelledCtx, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		run  func() Result
		want string
	}{
		{"unknown, newline", func() Result { return e.Execute(context.Background(), Call{Name: "Wri\nte"}, Context{}) },
			`Unknown tool 'Wri\nte'.`},
		{"unknown, bidi override", func() Result { return e.Execute(context.Background(), Call{Name: "Read\u202eetirW"}, Context{}) },
			`Unknown tool 'Read\u202eetirW'.`},
		{"unknown, zero width space", func() Result { return e.Execute(context.Background(), Call{Name: "Re\u200bad"}, Context{}) },
			`Unknown tool 'Re\u200bad'. Did you mean 'Read'?`},
		{"unknown, cut by characters", func() Result { return e.Execute(context.Background(), Call{Name: long}, Context{}) },
			"Unknown tool '" + strings.Repeat("é", schema.EchoLimit) + "...'."},
		{"cancelled before it started", func() Result {
			return cancelled(Call{Name: "Bad\tName"}, cancelledCtx.Err())
		}, `Tool 'Bad\tName' was not executed: the call was cancelled.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.run().Content); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}
