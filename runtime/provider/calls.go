package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// ErrMalformedCall is wrapped by the Err of a ToolCall that could not be
// read from a provider response.
var ErrMalformedCall = errors.New("provider: malformed tool call")

// ToolCall is one tool call read from a provider response.
//
// Parsing never drops a call: a provider requires an answer to every call id
// it sent, so a call whose arguments are not a JSON object (or that lacks a
// name) is kept, with Err set, and Call holding what could be read (the id,
// the name). The Loop answers such a call with an error result built by
// MalformedResult, without running anything, and the model reads what to fix.
type ToolCall struct {
	// Call is the call to execute; Call.Input is empty when Err is set.
	Call tool.Call
	// Raw holds the arguments as the provider sent them (for OpenAI, the
	// contents of the arguments string).
	Raw json.RawMessage
	// Err, when non-nil, says why the call cannot run; it wraps
	// ErrMalformedCall.
	Err error
}

// Calls returns the calls of tcs that can run, in order, and reports whether
// any could not.
func Calls(tcs []ToolCall) (calls []tool.Call, malformed bool) {
	for _, tc := range tcs {
		if tc.Err != nil {
			malformed = true
			continue
		}
		calls = append(calls, tc.Call)
	}
	return calls, malformed
}

// MalformedResult is the error result that answers a call that could not be
// read: it says what was wrong and what to send instead.
func MalformedResult(tc ToolCall) tool.Result {
	name := tc.Call.Name
	if name == "" {
		return tool.FailureWith("The tool call was not executed: it has no tool name. Call a tool by one of the names you were given.", tc.Err)
	}
	return tool.FailureWith(fmt.Sprintf("Tool '%s' was not executed: %s. Send the arguments as one JSON object, for example {\"name\": \"value\"}.",
		schema.Echo(name), reason(tc.Err)), tc.Err)
}

// reason is err's message without the sentinel's prefix.
func reason(err error) string {
	var me *malformedError
	if errors.As(err, &me) {
		return me.detail
	}
	if err == nil {
		return "its arguments could not be read"
	}
	return err.Error()
}

type malformedError struct{ detail string }

func (e *malformedError) Error() string { return ErrMalformedCall.Error() + ": " + e.detail }
func (e *malformedError) Unwrap() error { return ErrMalformedCall }

func malformed(format string, args ...any) error {
	return &malformedError{detail: fmt.Sprintf(format, args...)}
}

// decodeArguments reads a call's arguments. Empty arguments and null are an
// empty object: models send them for tools without parameters.
func decodeArguments(raw []byte) (tool.Input, error) {
	trimmed := trimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return tool.Input{}, nil
	}
	in, err := tool.DecodeInput(trimmed)
	if err != nil {
		return tool.Input{}, malformed("%s", argumentsProblem(err))
	}
	return in, nil
}

// argumentsProblem words a DecodeInput error for the model: the runtime's
// own sentences, joined by "; ", each without " The tool was not
// executed." and the final period, since MalformedResult's answer says the
// first and adds the second (before, a duplicate key read "...not
// executed.. Send the arguments ...").
func argumentsProblem(err error) string {
	var vs schema.Violations
	if !errors.As(err, &vs) || len(vs) == 0 {
		return strings.TrimSuffix(err.Error(), ".")
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strings.TrimSuffix(strings.TrimSuffix(v.Message, " The tool was not executed."), ".")
	}
	return strings.Join(parts, "; ")
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// rawJSONer is implemented by the response types of the Anthropic and
// OpenAI SDKs: RawJSON returns the JSON the value was decoded from.
type rawJSONer interface{ RawJSON() string }

// rawJSON turns what a caller passes as a provider payload into JSON bytes:
// []byte, json.RawMessage and string as they are; a value with a RawJSON
// method (an SDK response type), or a slice of them, by the JSON it was
// decoded from (SDK unions do not always encode back to the wire form);
// anything else through encoding/json.
func rawJSON(v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []byte:
		return x, nil
	case json.RawMessage:
		return x, nil
	case string:
		return []byte(x), nil
	case rawJSONer:
		if raw := x.RawJSON(); raw != "" {
			return []byte(raw), nil
		}
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.Type().Elem().Implements(reflect.TypeFor[rawJSONer]()) {
		var b bytes.Buffer
		b.WriteByte('[')
		for i := range rv.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			elem, err := rawJSON(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			b.Write(elem)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("provider: encoding %T: %w", v, err)
	}
	return data, nil
}
