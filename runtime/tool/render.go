package tool

import (
	"encoding/json"
	"fmt"
)

// LLMTexter is implemented by tool outputs that know how to present
// themselves to a model.
type LLMTexter interface {
	TextForLLM() string
}

// Render turns a tool function's output into a Result: a Result (or
// *Result) as it is, a string as text, an LLMTexter through TextForLLM, a
// []byte as text, an error as a failure, and anything else as JSON. A value
// that cannot be encoded gives an error result that says so.
func Render(v any) Result {
	switch out := v.(type) {
	case Result:
		return out
	case *Result:
		if out == nil {
			return Success("")
		}
		return *out
	case string:
		return Success(out)
	case LLMTexter:
		return Success(out.TextForLLM())
	case []byte:
		return Success(string(out))
	case error:
		return FailureFrom(out)
	case nil:
		return Success("")
	}
	data, err := json.Marshal(v)
	if err != nil {
		return FailureWith(fmt.Sprintf("The tool's output could not be encoded as JSON: %v", err), err)
	}
	return Success(string(data))
}

// RenderStructured is Render for a tool that declares an output schema: the
// result of a value other than a Result, a string, a []byte or an error
// also carries v as its structured content, so that a client reading
// structured content gets the object the text form shows.
func RenderStructured(v any) Result {
	r := Render(v)
	switch v.(type) {
	case Result, *Result, string, []byte, error, nil:
		return r
	}
	if !r.IsError {
		r.Structured = v
	}
	return r
}
