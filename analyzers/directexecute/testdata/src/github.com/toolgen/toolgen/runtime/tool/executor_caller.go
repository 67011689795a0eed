package tool

import "context"

// The runtime package itself is the executor: allowed.
func (e *Executor) run(ctx context.Context, t Tool, call Call, tc Context) Result {
	return t.Execute(ctx, call.Input, tc)
}
