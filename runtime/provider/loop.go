package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// DefaultRepeatLimit is how many identical failures of a call the Loop
// answers before its result says to stop repeating it.
const DefaultRepeatLimit = 3

// Loop is the tool side of an agent loop: the caller brings the LLM client
// (any provider's SDK), the Loop brings the tools. Every iteration:
//
//	tools := loop.AnthropicTools()           // re-read: the offered set may have changed
//	resp := client.Messages.New(ctx, ... tools ...)
//	msg, ok, err := loop.AnthropicStep(ctx, resp.Content)
//	if !ok { break }                         // no tool calls: the model is done
//	messages = append(messages, assistant(resp), msg)
//
// A step runs the response's tool calls as one batch through the executor
// (in parallel where the executor allows), answers malformed calls with an
// error result without running them, and turns the results into the
// provider's messages, in call order.
//
// The Loop guards against a model repeating a failing call: once the same
// tool with the same arguments has failed the same way RepeatLimit times,
// the result says so and suggests what to change. A success of that call
// clears its count.
//
// A Loop is meant for one run (one conversation); it is safe for concurrent
// use.
type Loop struct {
	exec  *tool.Executor
	tc    tool.Context
	limit int

	mu       sync.Mutex
	failures map[string]failure
}

type failure struct {
	content string
	count   int
}

// LoopOption configures a Loop.
type LoopOption func(*Loop)

// WithContext sets the tool context every call of the run receives (the
// working directory, the catalog view, ...). The default is a fresh
// tool.NewContext().
func WithContext(tc tool.Context) LoopOption { return func(l *Loop) { l.tc = tc } }

// WithRepeatLimit sets after how many identical failures a result says to
// stop; 0 or less turns the guard off.
func WithRepeatLimit(n int) LoopOption { return func(l *Loop) { l.limit = n } }

// NewLoop returns a loop over exec. It panics if exec is nil.
func NewLoop(exec *tool.Executor, opts ...LoopOption) *Loop {
	if exec == nil {
		panic("provider.NewLoop: nil executor")
	}
	l := &Loop{exec: exec, tc: tool.NewContext(), limit: DefaultRepeatLimit, failures: make(map[string]failure)}
	for _, o := range opts {
		if o != nil {
			o(l)
		}
	}
	return l
}

// Definitions returns the definitions to offer the model now. Call it (or
// one of the provider forms below) every iteration: a ToolSearch call or a
// registry change alters the set.
func (l *Loop) Definitions() []tool.Definition { return l.exec.Definitions() }

// AnthropicTools returns the offered tools for the Messages API.
func (l *Loop) AnthropicTools() []AnthropicTool { return AnthropicTools(l.Definitions()) }

// OpenAITools returns the offered tools for Chat Completions, strict where
// their schemas allow; notStrict gives the reason for each one that is not.
func (l *Loop) OpenAITools() (tools []OpenAITool, notStrict map[string]error) {
	return OpenAITools(l.Definitions())
}

// OpenAIResponsesTools returns the offered tools for the Responses API.
func (l *Loop) OpenAIResponsesTools() (tools []OpenAIResponsesTool, notStrict map[string]error) {
	return OpenAIResponsesTools(l.Definitions())
}

// Run executes the calls of one response as a batch and returns one result
// per call, in order. Malformed calls are answered with MalformedResult and
// not run; the others go through Executor.ExecuteBatch. The repeat guard
// applies to every result.
func (l *Loop) Run(ctx context.Context, calls []ToolCall) []tool.Result {
	results := make([]tool.Result, len(calls))
	var batch []tool.Call
	var index []int
	for i, c := range calls {
		if c.Err != nil {
			results[i] = MalformedResult(c)
			continue
		}
		batch = append(batch, c.Call)
		index = append(index, i)
	}
	if len(batch) > 0 {
		for j, r := range l.exec.ExecuteBatch(ctx, batch, l.tc) {
			results[index[j]] = r
		}
	}
	for i, c := range calls {
		results[i] = l.guard(c, results[i])
	}
	return results
}

// AnthropicStep parses the tool_use blocks of an assistant message (see
// ParseAnthropicToolUses for what content may be), runs them, and returns
// the user message with the tool_result blocks. ok is false when the
// message has no tool calls: the model is done.
func (l *Loop) AnthropicStep(ctx context.Context, content any) (msg AnthropicMessage, ok bool, err error) {
	calls, err := ParseAnthropicToolUses(content)
	if err != nil || len(calls) == 0 {
		return AnthropicMessage{}, false, err
	}
	return NewAnthropicMessage(calls, l.Run(ctx, calls)), true, nil
}

// OpenAIStep parses the tool calls of a Chat Completions message or
// completion (see ParseOpenAIToolCalls), runs them, and returns the "tool"
// messages answering them. No messages means the model is done.
func (l *Loop) OpenAIStep(ctx context.Context, message any) ([]OpenAIMessage, error) {
	calls, err := ParseOpenAIToolCalls(message)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	return NewOpenAIMessages(calls, l.Run(ctx, calls)), nil
}

// OpenAIResponsesStep parses the function calls of a Responses API response
// (see ParseOpenAIResponseCalls), runs them, and returns the
// function_call_output items answering them.
func (l *Loop) OpenAIResponsesStep(ctx context.Context, response any) ([]OpenAIFunctionCallOutput, error) {
	calls, err := ParseOpenAIResponseCalls(response)
	if err != nil || len(calls) == 0 {
		return nil, err
	}
	return NewOpenAIFunctionCallOutputs(calls, l.Run(ctx, calls)), nil
}

// GeminiTools returns the offered tools as a Gemini tool (function
// declarations); call it every iteration.
func (l *Loop) GeminiTools() []GeminiTool { return GeminiTools(l.Definitions()) }

// GeminiStep parses the function calls of a Gemini response (see
// ParseGeminiFunctionCalls), runs them, and returns the user Content
// answering them; ok is false when the response called no function (the
// model is done).
func (l *Loop) GeminiStep(ctx context.Context, response any) (content GeminiContent, ok bool, err error) {
	calls, err := ParseGeminiFunctionCalls(response)
	if err != nil || len(calls) == 0 {
		return GeminiContent{}, false, err
	}
	return NewGeminiContent(calls, l.Run(ctx, calls)), true, nil
}

// guard counts identical failures and, from the limit on, says so in the
// result.
func (l *Loop) guard(c ToolCall, r tool.Result) tool.Result {
	if l.limit <= 0 {
		return r
	}
	key := callKey(c)
	l.mu.Lock()
	defer l.mu.Unlock()
	if !r.IsError {
		delete(l.failures, key)
		return r
	}
	f := l.failures[key]
	if f.content != r.Content {
		f = failure{content: r.Content}
	}
	f.count++
	l.failures[key] = f
	if f.count < l.limit {
		return r
	}
	r.Content = strings.TrimRight(r.Content, "\n") + "\n\n" + repeatNote(f.count, r)
	return r
}

// callKey identifies a call by its tool and canonical arguments.
func callKey(c ToolCall) string {
	name := tool.NormalizeName(c.Call.Name)
	if c.Err != nil {
		return name + "\x00raw\x00" + string(compact(c.Raw))
	}
	args, err := json.Marshal(c.Call.Input) // sorted keys: canonical
	if err != nil {
		args = []byte(fmt.Sprint(c.Call.Input.Map()))
	}
	return name + "\x00" + string(args)
}

func compact(raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

// repeatNote tells the model the call keeps failing and what to change.
func repeatNote(n int, r tool.Result) string {
	var vs schema.Violations
	var suggestion string
	switch {
	case errors.Is(r.Err, tool.ErrNotAllowed):
		suggestion = "This tool is not allowed in this run: do not call it again; do the task another way or tell the user what you need."
	case errors.Is(r.Err, ErrMalformedCall):
		suggestion = "Send the arguments as one valid JSON object that matches the tool's schema."
	case errors.As(r.Err, &vs):
		suggestion = "Fix the parameters the error names (their names and types are in the tool's schema) before calling again."
	case strings.HasPrefix(r.Content, "Unknown tool"):
		suggestion = "Call only the tools you were offered, by their exact names."
	default:
		suggestion = "Change the arguments the error points at, try a different tool, or ask the user for help."
	}
	return fmt.Sprintf("This exact call (same tool, same arguments) has now failed %d times with the same error; repeating it will not help. %s", n, suggestion)
}
