package direct

import (
	"context"

	"github.com/toolgen/toolgen/runtime/tool"
)

// A hand-written tool type with a pointer receiver.
type myTool struct{}

func (*myTool) Definition() tool.Definition { return tool.Definition{Name: "Mine"} }
func (*myTool) Execute(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
	return tool.Result{}
}

// An interface that embeds tool.Tool.
type richTool interface {
	tool.Tool
	Close() error
}

// notATool has an Execute method but no Definition.
type notATool struct{}

func (notATool) Execute(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
	return tool.Result{}
}

func calls(ctx context.Context, t tool.Tool, m *myTool, v myTool, r richTool, e *tool.Executor, n notATool) {
	_ = t.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call of tool.Tool.Execute bypasses the executor`
	_ = m.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call of \*myTool.Execute`
	_ = v.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call of myTool.Execute`
	_ = r.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call of richTool.Execute`
	f := t.Execute                                   // want `direct call of tool.Tool.Execute`
	_ = f
	g := (*myTool).Execute // want `direct call of \*myTool.Execute`
	_ = g
	h := tool.Tool.Execute // want `direct call of tool.Tool.Execute`
	_ = h
	go t.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call`

	// The executor and other methods named Execute are fine.
	_ = e.Execute(ctx, tool.Call{Name: "Mine"}, tool.Context{})
	_ = n.Execute(ctx, tool.Input{}, tool.Context{})
}

func generic[T tool.Tool](ctx context.Context, t T) tool.Result {
	return t.Execute(ctx, tool.Input{}, tool.Context{}) // want `direct call of T.Execute`
}

// A wrapper delegating from its own Execute is reported too.
type wrapper struct{ inner tool.Tool }

func (w wrapper) Definition() tool.Definition { return w.inner.Definition() }
func (w wrapper) Execute(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
	return w.inner.Execute(ctx, in, tc) // want `direct call`
}
