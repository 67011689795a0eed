package toolimpl

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen/toolgen/runtime/tool"
)

// llmTexter is implemented by tool outputs that know how to present
// themselves to a model: a generated tool's output with a TextForLLM
// method is shown to the model as what it returns.
type llmTexter interface {
	TextForLLM() string
}

// renderValue turns a tool function's output into a Result: a Result (or
// *Result) as it is, a string as text, a value with a TextForLLM() string
// method through it, a []byte as text, an error as a failure, and anything
// else as JSON. A value that cannot be encoded gives an error result that
// says so.
func renderValue(v any) tool.Result {
	switch out := v.(type) {
	case tool.Result:
		return out
	case *tool.Result:
		if out == nil {
			return tool.Success("")
		}
		return *out
	case string:
		return tool.Success(out)
	case llmTexter:
		return tool.Success(out.TextForLLM())
	case []byte:
		return tool.Success(string(out))
	case error:
		return tool.FailureFrom(out)
	case nil:
		return tool.Success("")
	}
	data, err := json.Marshal(v)
	if err != nil {
		return tool.FailureWith(fmt.Sprintf("The tool's output could not be encoded as JSON: %v", err), err)
	}
	return tool.Success(string(data))
}

// renderStructuredValue is renderValue for a tool that declares an output
// schema: the result of a value other than a Result, a string, a []byte or
// an error also carries v as its structured content, so that a client
// reading structured content gets the object the text form shows.
func renderStructuredValue(v any) tool.Result {
	r := renderValue(v)
	switch v.(type) {
	case tool.Result, *tool.Result, string, []byte, error, nil:
		return r
	}
	if !r.IsError {
		r.Structured = v
	}
	return r
}
