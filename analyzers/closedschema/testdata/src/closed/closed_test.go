package closed

import "github.com/toolgen/toolgen/runtime/tool"

// Tests build open schemas on purpose, to exercise the gate.
var openForTest = tool.Definition{Name: "T", InputSchema: map[string]any{"type": "object"}}
