// Package einotool offers the tools of a toolgen executor to Eino
// (github.com/cloudwego/eino) as its own tool type,
// components/tool.InvokableTool, so that an Eino ToolsNode or agent calls
// them through the executor: the allow-list, the schema gate, the
// never-panic contract and the result bounds hold for every call.
//
//	tools, err := einotool.Tools(ctx, exec, tool.NewContext())
//	node, err := compose.NewToolNode(ctx, &compose.ToolsNodeConfig{Tools: tools})
//
// Info reads the tool's current definition from the executor (its name,
// description and input schema, given to Eino as JSON Schema). InvokableRun
// decodes the model's JSON arguments, executes the call (with the model's
// id for it, inside a ToolsNode, so logs and spans name it) and returns the
// result's text; an error result is returned as text too, prefixed
// "Error: ", never as a Go error, so that the model reads the sentence and
// can fix its call instead of the graph failing. It is a module of its own
// so that Eino's dependencies stay out of toolgen's go.mod.
package einotool
