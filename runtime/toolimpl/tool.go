package toolimpl

import (
	"context"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Tool is the tool a generated constructor returns: its Definition is the
// generated one, and its Execute binds the arguments with the generated
// binder, calls the tool's function and renders what it returns: a
// tool.Result as it is, a string as text, a value with TextForLLM through
// that method and anything else as JSON. Violations, an error from the
// function and a panic become error results; Execute never panics.
type Tool[I, O any] struct {
	def    *tool.Definition
	bind   func(tool.Input) (I, error)
	run    func(context.Context, I, tool.Context) (O, error)
	render func(O) tool.Result
}

// NewTool returns the tool defined by def, binding with bind and running
// run. def is the generated package-level Definition; it must not change.
func NewTool[I, O any](def *tool.Definition, bind func(tool.Input) (I, error), run func(context.Context, I, tool.Context) (O, error)) *Tool[I, O] {
	return &Tool[I, O]{def: def, bind: bind, run: run, render: render[O]}
}

// NewStructuredTool is NewTool for a tool whose output type S has an
// output schema: an output of type S (or a non-nil *S) is rendered with
// its structured content too, so that its structured content always matches the
// schema, and a nil *S is an error result; any other output as NewTool
// renders it (generated constructors allow only S and *S). fill, when not
// nil, is applied to a copy of the output first: the generated function
// that makes every nil slice and map in it empty, which encoding/json
// would write as null where the schema says array or object.
func NewStructuredTool[S, I, O any](def *tool.Definition, bind func(tool.Input) (I, error), run func(context.Context, I, tool.Context) (O, error), fill func(S) S) *Tool[I, O] {
	return &Tool[I, O]{def: def, bind: bind, run: run, render: func(out O) tool.Result { return renderStructured(out, fill) }}
}

func render[O any](out O) tool.Result { return renderValue(out) }

// renderStructured renders an output of a tool with an output schema. A
// nil *S with no error is an error result: a success must carry the
// structured content the schema promises, and a client refuses one that
// does not.
func renderStructured[S, O any](out O, fill func(S) S) tool.Result {
	switch v := any(out).(type) {
	case S:
		if fill != nil {
			v = fill(v)
		}
		return renderStructuredValue(v)
	case *S:
		if v == nil {
			return tool.Failure("The tool produced no output (its function returned nil and no error).")
		}
		if fill != nil {
			c := fill(*v)
			v = &c
		}
		return renderStructuredValue(v)
	}
	return renderValue(out)
}

// Definition returns the tool's definition.
func (t *Tool[I, O]) Definition() tool.Definition { return *t.def }

// Execute binds in, calls the tool's function and renders its output. It
// never panics.
func (t *Tool[I, O]) Execute(ctx context.Context, in tool.Input, tc tool.Context) (res tool.Result) {
	defer tool.Recover(t.def.Name, &res)
	args, err := t.bind(in)
	if err != nil {
		return tool.FailureFrom(err)
	}
	out, err := t.run(ctx, args, tc)
	if err != nil {
		return tool.FailureFrom(err)
	}
	return t.render(out)
}
