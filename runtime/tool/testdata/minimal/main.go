// Command minimal is the smallest program that runs tools: it links
// runtime/tool (and runtime/schema, which runtime/tool links, for the
// mode) and nothing else of toolgen. TestMinimalProgram builds it to
// measure what such a program pays for, and runs it to show how the gate
// treats a schema that only the complete validator checks when the
// program does not link it (package runtime/schema/full).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})))
	run := func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
		return tool.Result{Content: "ran with " + string(in.Raw())}
	}
	reg := tool.NewRegistry()
	for _, def := range []tool.Definition{{
		Name:        "Echo",
		Description: "Echoes its text.",
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"text": map[string]any{"type": "string"}},
			"required":             []string{"text"},
			"additionalProperties": false,
		},
	}, {
		Name:        "Either",
		Description: "Takes a string or a number.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"v": map[string]any{"anyOf": []any{map[string]any{"type": "string"}, map[string]any{"type": "number"}}},
				"n": map[string]any{"type": "integer"},
			},
			"additionalProperties": false,
		},
	}} {
		if err := reg.Register(tool.New(def, run)); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
	}
	for _, mode := range []schema.Mode{schema.Enforce, schema.Warn} {
		ex := tool.NewExecutor(reg, tool.WithSchemaMode(mode))
		for _, c := range []struct{ name, args string }{
			{"Echo", `{"text":"hi"}`},
			{"Echo", `{"text":1}`},
			{"Either", `{"v":"a"}`},
			{"Either", `{"v":true,"n":"x"}`},
		} {
			in, err := tool.DecodeInput([]byte(c.args))
			if err != nil {
				fmt.Println(err)
				os.Exit(1)
			}
			res := ex.Execute(context.Background(), tool.Call{ID: "1", Name: c.name, Input: in}, tool.Context{})
			fmt.Printf("%s %s %s: error=%v %s\n", mode, c.name, c.args, res.IsError, res.Content)
		}
	}
}
