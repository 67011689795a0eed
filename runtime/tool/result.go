package tool

import (
	"fmt"
	"runtime/debug"
)

// Result is what a tool call gives back to the model. A failure is a Result
// with IsError set, never a Go error or a panic.
type Result struct {
	// Content is the text the model sees: the text form of the result, for
	// models and logs, also when Parts carry richer content.
	Content string
	// Parts, when set, are the result's content as a client that takes
	// more than text is sent it (an MCP host, a provider's API): text,
	// images, audio, resources. Content is then their text form (see
	// SuccessParts). Empty means the content is Content alone.
	Parts []Part
	// Structured is the result's structured content: a value that encodes
	// to a JSON object matching the tool's Definition.OutputSchema, sent
	// beside the content to clients that read it (MCP's
	// structuredContent). Nil for tools without an output schema.
	Structured any
	// IsError marks a failed call.
	IsError bool
	// Err is the underlying error of a failure, when there is one. It is for
	// logs and callers; the model sees only Content.
	Err error
	// Render is an optional payload for a user interface (a diff, a table);
	// the model never sees it.
	Render any
}

// Success returns a successful result with the given content.
func Success(content string) Result { return Result{Content: content} }

// Failure returns an error result whose content is msg.
func Failure(msg string) Result { return Result{Content: msg, IsError: true} }

// FailureFrom returns an error result whose content is err's message; err is
// kept in Err. A nil err gives a generic failure.
func FailureFrom(err error) Result {
	if err == nil {
		return Failure("The tool failed without saying why.")
	}
	return Result{Content: err.Error(), IsError: true, Err: err}
}

// FailureWith returns an error result whose content is msg and whose Err is
// err: the model sees msg, logs and callers see err.
func FailureWith(msg string, err error) Result {
	return Result{Content: msg, IsError: true, Err: err}
}

// WithRender returns a copy of r carrying the render payload v.
func (r Result) WithRender(v any) Result {
	r.Render = v
	return r
}

// WithStructured returns a copy of r carrying the structured content v.
func (r Result) WithStructured(v any) Result {
	r.Structured = v
	return r
}

// maxPanicText bounds how much of a panic value reaches the model.
const maxPanicText = 200

// panicError is the Err of a result made from a recovered panic.
type panicError struct {
	Tool  string
	Value any
	Stack []byte
}

func (e *panicError) Error() string {
	return fmt.Sprintf("tool %q panicked: %v", e.Tool, e.Value)
}

// Recover turns a panic into an error result. Use it deferred, directly, at
// the top of an Execute method with a named result:
//
//	func (t *myTool) Execute(ctx context.Context, in tool.Input, tc tool.Context) (res tool.Result) {
//		defer tool.Recover("MyTool", &res)
//		...
//	}
//
// The model is told the tool failed with an internal error; the result's
// Err carries the panic value and the stack (its message says the tool
// panicked), which the Executor logs at ERROR. Recover does not log
// itself, so a panic is logged once, by the executor that ran the call,
// through its own logger.
func Recover(toolName string, res *Result) {
	p := recover()
	if p == nil {
		return
	}
	*res = panicResult(toolName, p, debug.Stack())
}

func panicResult(toolName string, p any, stack []byte) Result {
	text := fmt.Sprint(p)
	if len(text) > maxPanicText {
		text = text[:maxPanicText] + "..."
	}
	err := &panicError{Tool: toolName, Value: p, Stack: stack}
	return FailureWith(fmt.Sprintf("Tool '%s' failed with an internal error: %s", toolName, text), err)
}
