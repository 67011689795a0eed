// Package indirect runs tools the way the contract says: through the
// executor.
package indirect

import (
	"context"

	"github.com/toolgen/toolgen/runtime/tool"
)

func run(ctx context.Context, e *tool.Executor) tool.Result {
	return e.Execute(ctx, tool.Call{ID: "call_1", Name: "Greet"}, tool.Context{})
}

// Naming the method in a type or a doc comment is not a call: t.Execute.
type executer interface {
	Execute(ctx context.Context, call tool.Call, tc tool.Context) tool.Result
}

var _ executer = (*tool.Executor)(nil)
