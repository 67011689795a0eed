package builtin

import "github.com/toolgen/toolgen/runtime/tool"

// The constructors of the builtin tools, over the generated NewXTool
// functions (see the *_toolgen.go files).

func newReadTool(f *files) tool.Tool      { return NewReadTool(f.readResult) }
func newWriteTool(f *files) tool.Tool     { return NewWriteTool(f.write) }
func newEditTool(f *files) tool.Tool      { return NewEditTool(f.edit) }
func newGlobTool(f *files) tool.Tool      { return NewGlobTool(f.glob) }
func newGrepTool(f *files) tool.Tool      { return NewGrepTool(f.grep) }
func newTodoWriteTool(t *todos) tool.Tool { return NewTodoWriteTool(t.write) }
