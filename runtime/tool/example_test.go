package tool_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// A hand-written tool, the path for one to three parameters or for keys
// known only at run time, run through the executor's gate: the executor
// checks the schema before the function runs, and the function reads its
// input with accessors worded as the gate words its violations.
func ExampleNew() {
	greet := tool.New(tool.Definition{
		Name:        "Greet",
		Description: "Greets someone by name.",
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"name": map[string]any{"type": "string"}},
			"required":             []any{"name"},
			"additionalProperties": false,
		},
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		name, err := tool.Param[string](in, "name")
		if err != nil {
			return tool.FailureFrom(err)
		}
		return tool.Success("Hello, " + name + "!")
	})

	reg := tool.NewRegistry()
	if err := reg.Register(greet); err != nil {
		fmt.Println(err)
		return
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
	fmt.Println(exec.Definitions()[0].Name)

	for _, args := range []string{`{"name":"Ada"}`, `{"nmae":"Ada"}`} {
		in, err := tool.DecodeInput([]byte(args))
		if err != nil {
			fmt.Println(err)
			return
		}
		res := exec.Execute(context.Background(), tool.Call{ID: "call_1", Name: "Greet", Input: in}, tool.NewContext())
		fmt.Println(res.IsError, res.Content)
	}
	// Output:
	// Greet
	// false Hello, Ada!
	// true Parameter 'name' is required (string).
	// Unknown parameter 'nmae'. Did you mean 'name'? The tool was not executed.
}
