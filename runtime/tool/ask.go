package tool

import (
	"context"
	"errors"
)

// ErrNotSupported is the error of Context.Elicit and Context.Sample when the
// call's client offers no such thing (a provider's agent loop, an MCP
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

// ElicitFunc and SampleFunc carry a call's elicitation and sampling
// requests to its client.
type (
	ElicitFunc func(ctx context.Context, req ElicitRequest) (ElicitResponse, error)
	SampleFunc func(ctx context.Context, req SampleRequest) (SampleResponse, error)
)

// The keys through which a caller lets a tool ask its client. An MCP server
// binds them for every tools/call whose client declared the elicitation or
// sampling capability.
var (
	ElicitKey = NewKey[ElicitFunc]("elicit")
	SampleKey = NewKey[SampleFunc]("sample")
)

// Elicit asks the user for input through the call's client (MCP's
// elicitation/create). It returns ErrNotSupported when the client cannot.
func (c Context) Elicit(ctx context.Context, req ElicitRequest) (ElicitResponse, error) {
	f, ok := ElicitKey.Get(c)
	if !ok || f == nil {
		return ElicitResponse{}, ErrNotSupported
	}
	return f(ctx, req)
}

// Sample asks the host's model for a completion through the call's client
// (MCP's sampling/createMessage). It returns ErrNotSupported when the
// client cannot.
func (c Context) Sample(ctx context.Context, req SampleRequest) (SampleResponse, error) {
	f, ok := SampleKey.Get(c)
	if !ok || f == nil {
		return SampleResponse{}, ErrNotSupported
	}
	return f(ctx, req)
}
