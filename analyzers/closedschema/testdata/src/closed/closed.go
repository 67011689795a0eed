package closed

import (
	"context"
	"encoding/json"

	"github.com/toolgen/toolgen/runtime/tool"
)

func run(context.Context, tool.Input, tool.Context) tool.Result { return tool.Result{} }

const additional = "additionalProperties"

func greet() tool.Tool {
	return tool.New(tool.Definition{
		Name: "Greet",
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"name": map[string]any{"type": "string"}},
			"required":             []any{"name"},
			"additionalProperties": false,
		},
	}, run)
}

// A named constant for the key and for the value are both understood.
const closed = false

func constants() tool.Definition {
	return tool.Definition{Name: "C", InputSchema: map[string]any{additional: closed}}
}

// A variable closed after it is built.
func assigned() tool.Tool {
	s := map[string]any{"type": "object"}
	s["additionalProperties"] = false
	return tool.New(tool.Definition{Name: "Assigned", InputSchema: s}, run)
}

// No schema: the tool takes no arguments.
func noArgs() tool.Tool {
	return tool.New(tool.Definition{Name: "Crash", Description: "Always panics."}, run)
}

// A schema that is not built here (an MCP server's, a file's) is not ours.
func decoded(raw []byte) (tool.Tool, error) {
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	return tool.New(tool.Definition{Name: "Remote", InputSchema: schema}, run), nil
}

func fromParameter(schema map[string]any) tool.Definition {
	return tool.Definition{Name: "P", InputSchema: schema}
}
