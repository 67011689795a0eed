package einotool

import (
	"context"
	"encoding/json"
	"fmt"

	einotool "github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Tool is one tool of an executor as an Eino InvokableTool.
type Tool struct {
	exec *tool.Executor
	name string
	tc   tool.Context
}

var _ einotool.InvokableTool = (*Tool)(nil)

// Tools returns the tools exec offers now, as Eino tools whose calls run
// through exec with the tool context tc.
func Tools(ctx context.Context, exec *tool.Executor, tc tool.Context) ([]einotool.BaseTool, error) {
	if exec == nil {
		return nil, fmt.Errorf("einotool: nil executor")
	}
	var out []einotool.BaseTool
	for _, d := range exec.Definitions() {
		out = append(out, &Tool{exec: exec, name: d.Name, tc: tc})
	}
	return out, nil
}

// New returns the executor's tool name as an Eino tool.
func New(exec *tool.Executor, name string, tc tool.Context) *Tool {
	return &Tool{exec: exec, name: name, tc: tc}
}

// Info returns the tool's name, description and parameters (its input
// schema as JSON Schema), read from the executor's current definitions.
func (t *Tool) Info(context.Context) (*schema.ToolInfo, error) {
	for _, d := range t.exec.Definitions() {
		if d.Name != t.name {
			continue
		}
		info := &schema.ToolInfo{Name: d.Name, Desc: d.Description}
		if d.InputSchema != nil {
			data, err := json.Marshal(d.InputSchema)
			if err != nil {
				return nil, fmt.Errorf("einotool: %s: its input schema: %w", d.Name, err)
			}
			var js jsonschema.Schema
			if err := json.Unmarshal(data, &js); err != nil {
				return nil, fmt.Errorf("einotool: %s: its input schema as Eino's jsonschema: %w", d.Name, err)
			}
			info.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(&js)
		}
		return info, nil
	}
	return nil, fmt.Errorf("einotool: the executor offers no tool %q", t.name)
}

// InvokableRun runs the call with the model's JSON arguments through the
// executor and returns the result's text; an error result's text starts
// with "Error: " (see the package doc). The error return is always nil.
func (t *Tool) InvokableRun(ctx context.Context, argumentsInJSON string, _ ...einotool.Option) (string, error) {
	in, err := tool.DecodeInput([]byte(argumentsInJSON))
	if argumentsInJSON == "" {
		in, err = tool.Input{}, nil
	}
	if err != nil {
		r := provider.MalformedResult(provider.ToolCall{Call: tool.Call{Name: t.name}, Err: fmt.Errorf("%w: %v", provider.ErrMalformedCall, err)})
		return provider.OpenAIContent(r), nil
	}
	// Inside Eino's ToolsNode the call carries the model's id for it,
	// which the executor's logs and spans name.
	res := t.exec.Execute(ctx, tool.Call{ID: compose.GetToolCallID(ctx), Name: t.name, Input: in}, t.tc)
	return provider.OpenAIContent(res), nil
}
