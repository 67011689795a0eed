package open

import (
	"context"

	"github.com/toolgen/toolgen/runtime/tool"
)

func run(context.Context, tool.Input, tool.Context) tool.Result { return tool.Result{} }

func missing() tool.Tool {
	return tool.New(tool.Definition{
		Name: "Greet",
		InputSchema: map[string]any{ // want `tool input schema does not declare "additionalProperties": false at its top level`
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}},
		},
	}, run)
}

func openTrue() tool.Tool {
	return tool.New(tool.Definition{
		Name: "Greet",
		InputSchema: map[string]any{
			"type":                 "object",
			"additionalProperties": true, // want `declares "additionalProperties" but not as the constant false`
		},
	}, run)
}

func nestedOnly() tool.Tool {
	// Closed one level down is not closed at the top.
	return tool.New(tool.Definition{Name: "Nested", InputSchema: map[string]any{ // want `does not declare`
		"type": "object",
		"properties": map[string]any{
			"opts": map[string]any{"type": "object", "additionalProperties": false},
		},
	}}, run)
}

func dynamic() tool.Tool {
	return tool.NewDynamic(func() tool.Definition {
		return tool.Definition{"Dyn", "A dynamic tool.", map[string]any{"type": "object"}} // want `does not declare`
	}, run)
}

var sharedSchema = map[string]any{"type": "object"}

func viaVariable() tool.Tool {
	return tool.New(tool.Definition{Name: "Var", InputSchema: sharedSchema}, run) // want `does not declare`
}

func notConstant(closed bool) tool.Tool {
	def := &tool.Definition{Name: "NotConst", InputSchema: map[string]any{
		"type":                 "object",
		"additionalProperties": closed, // want `not as the constant false`
	}}
	return tool.New(*def, run)
}

const open = true

func namedConstant() tool.Definition {
	return tool.Definition{Name: "Const", InputSchema: map[string]any{"additionalProperties": open}} // want `not as the constant false`
}
