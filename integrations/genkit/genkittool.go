package genkittool

import (
	"encoding/json"
	"fmt"

	"github.com/firebase/genkit/go/ai"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Tools returns the tools exec offers now as Genkit tools whose calls run
// through exec with the tool context tc.
func Tools(exec *tool.Executor, tc tool.Context) []ai.Tool {
	var out []ai.Tool
	for _, d := range exec.Definitions() {
		out = append(out, newTool(exec, d, tc))
	}
	return out
}

// Refs returns tools as the tool references ai.WithTools takes.
func Refs(tools []ai.Tool) []ai.ToolRef {
	out := make([]ai.ToolRef, len(tools))
	for i, t := range tools {
		out[i] = t
	}
	return out
}

// New returns a Genkit tool for the definition d whose calls run through
// exec (which refuses them if it does not offer d.Name).
func New(exec *tool.Executor, d tool.Definition, tc tool.Context) ai.Tool {
	return newTool(exec, d, tc)
}

func newTool(exec *tool.Executor, d tool.Definition, tc tool.Context) ai.Tool {
	name := d.Name
	run := func(ctx *ai.ToolContext, input any) (string, error) {
		raw, err := json.Marshal(input)
		if err != nil || string(raw) == "null" {
			raw = []byte("{}")
		}
		in, err := tool.DecodeInput(raw)
		if err != nil {
			r := provider.MalformedResult(provider.ToolCall{Call: tool.Call{Name: name}, Err: fmt.Errorf("%w: %v", provider.ErrMalformedCall, err)})
			return provider.OpenAIContent(r), nil
		}
		res := exec.Execute(ctx, tool.Call{Name: name, Input: in}, tc)
		return provider.OpenAIContent(res), nil
	}
	schema := d.InputSchema
	if schema == nil {
		schema = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return ai.NewTool(name, d.Description, run, ai.WithInputSchema(schema))
}
