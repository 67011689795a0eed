// Command quickstart runs a generated tool (Echo, from the annotated struct
// in echo/echo.go) and hand-written ones (Greet, Crash) through toolgen's
// executor, and prints what the model would see for good calls and for
// each kind of mistake.
//
// Run it with `make demo` or `go run ./examples/quickstart`.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// greetTool is a hand-written tool: the path for one to three parameters.
func greetTool() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "Greet",
		Description: "Greets someone by name.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"name":  map[string]any{"type": "string", "description": "Who to greet."},
				"times": map[string]any{"type": "integer", "description": "How many times.", "minimum": 1},
			},
			"required":             []any{"name"},
			"additionalProperties": false,
		},
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		name, err := tool.Param[string](in, "name")
		if err != nil {
			return tool.FailureFrom(err)
		}
		times, err := tool.ParamOr[int](in, "times", 1)
		if err != nil {
			return tool.FailureFrom(err)
		}
		if times < 1 || times > 10 {
			return tool.Failure("Parameter 'times' must be between 1 and 10.")
		}
		return tool.Success(strings.TrimSpace(strings.Repeat("Hello, "+name+"! ", times)))
	})
}

// crashTool panics: the executor turns that into an error result.
func crashTool() tool.Tool {
	return tool.New(tool.Definition{Name: "Crash", Description: "Always panics."},
		func(context.Context, tool.Input, tool.Context) tool.Result {
			var m map[string]int
			m["boom"]++ // assignment to entry in nil map
			return tool.Success("unreachable")
		})
}

func run(w io.Writer) error {
	reg := tool.NewRegistry()
	for _, t := range []tool.Tool{echo.NewEchoTool(echo.Echo), greetTool(), crashTool()} {
		if err := reg.Register(t); err != nil {
			return err
		}
	}
	// The demo prints what the model sees; logs would only repeat it.
	quiet := slog.New(slog.DiscardHandler)
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(quiet))

	// What the model is shown of the generated tool.
	def := exec.Definitions()[0]
	schemaJSON, err := json.MarshalIndent(def.InputSchema, "   ", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "The generated tool %s (%s), as the model sees it:\n   %s\n\n", def.Name, def.Description, schemaJSON)

	calls := []struct{ title, name, args string }{
		{"a good call", "Echo", `{"message":"hi","times":3,"sep":"none"}`},
		{"defaults applied", "Echo", `{"message":"hi"}`},
		{"a missing parameter", "Echo", `{"times":2}`},
		{"a typo'd parameter", "Echo", `{"mesage":"hi"}`},
		{"a wrong type", "Echo", `{"message":"hi","times":"two"}`},
		{"outside the enum", "Echo", `{"message":"hi","sep":"comma"}`},
		{"out of range (the tool's own rule)", "Echo", `{"message":"hi","times":0}`},
		{"every mistake at once", "Echo", `{"message":7,"times":1000,"sep":"tab","colour":"red"}`},
		{"a hand-written tool", "Greet", `{"name":"Ada","times":2}`},
		{"a hand-written tool, missing parameter", "Greet", `{}`},
		{"an unknown tool", "Ecko", `{"message":"hi"}`},
		{"a panicking tool", "Crash", `{}`},
	}
	ctx := context.Background()
	for i, c := range calls {
		in, err := tool.DecodeInput([]byte(c.args))
		if err != nil {
			return err
		}
		res := exec.Execute(ctx, tool.Call{ID: fmt.Sprint("call_", i+1), Name: c.name, Input: in}, tool.NewContext())
		status := "ok"
		if res.IsError {
			status = "error"
		}
		content := strings.ReplaceAll(res.Content, "\n", "\n      ")
		fmt.Fprintf(w, "%d. %s: %s %s\n   -> [%s] %s\n", i+1, c.title, c.name, c.args, status, content)
	}
	return nil
}
