package ask

import (
	"context"
	"errors"

	"github.com/toolgen/toolgen/runtime/tool"
)

// ErrNotSupported is the error of Elicit and Sample when the call's client
// offers no such thing (a provider's agent loop, an MCP
// client without the capability).
var ErrNotSupported = errors.New("the client of this call does not support it")

// ElicitRequest asks the user, through the host, for input: a message and
// the JSON schema (a flat object of strings, numbers, booleans and enums)
// of the answer.
type ElicitRequest struct {
	Message string
	Schema  map[string]any
}

// ElicitResponse is the user's answer: Action is "accept" (Content holds
// the answer), "decline" or "cancel".
type ElicitResponse struct {
	Action  string
	Content map[string]any
}

// SampleRequest asks the host's model for a completion: a system prompt,
// the conversation (alternating "user" and "assistant" texts) and a bound
// on the tokens of the answer.
type SampleRequest struct {
	SystemPrompt string
	Messages     []SampleMessage
	MaxTokens    int
}

// SampleMessage is one text message of a SampleRequest.
type SampleMessage struct {
	Role string // "user" or "assistant"
	Text string
}

// SampleResponse is the host model's answer.
type SampleResponse struct {
	Text       string
	Model      string
	StopReason string
}

// The keys through which a caller lets a tool ask its client: each holds
// the function that carries a call's requests to it. An MCP server binds
// them for every tools/call whose client declared the elicitation or
// sampling capability.
var (
	ElicitKey = tool.NewKey[func(ctx context.Context, req ElicitRequest) (ElicitResponse, error)]("elicit")
	SampleKey = tool.NewKey[func(ctx context.Context, req SampleRequest) (SampleResponse, error)]("sample")
)

// Elicit asks the user for input through the client of the call tc
// belongs to (MCP's elicitation/create). It returns ErrNotSupported when
// the client cannot.
func Elicit(ctx context.Context, tc tool.Context, req ElicitRequest) (ElicitResponse, error) {
	f, ok := ElicitKey.Get(tc)
	if !ok || f == nil {
		return ElicitResponse{}, ErrNotSupported
	}
	return f(ctx, req)
}

// Sample asks the host's model for a completion through the client of the
// call tc belongs to (MCP's sampling/createMessage). It returns
// ErrNotSupported when the client cannot.
func Sample(ctx context.Context, tc tool.Context, req SampleRequest) (SampleResponse, error) {
	f, ok := SampleKey.Get(tc)
	if !ok || f == nil {
		return SampleResponse{}, ErrNotSupported
	}
	return f(ctx, req)
}
