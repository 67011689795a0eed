// Package tool is a stub of the runtime package with the names the
// analyzers look for.
package tool

import "context"

type Definition struct {
	Name        string
	Description string
	InputSchema map[string]any
}

type Input struct{}

type Context struct{}

type Result struct {
	Content string
	IsError bool
}

type Tool interface {
	Definition() Definition
	Execute(ctx context.Context, in Input, tc Context) Result
}

type Func func(ctx context.Context, in Input, tc Context) Result

func New(def Definition, fn func(context.Context, Input, Context) Result) Tool { return nil }

func NewDynamic(def func() Definition, fn func(context.Context, Input, Context) Result) Tool {
	return nil
}

type Call struct {
	ID, Name string
	Input    Input
}

type Executor struct{}

func (e *Executor) Execute(ctx context.Context, call Call, tc Context) Result { return Result{} }
