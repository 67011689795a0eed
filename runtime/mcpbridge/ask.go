package mcpbridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
	"github.com/toolgen/toolgen/runtime/tool/ask"
)

// mrtrProtocol is the first MCP version in which a server may no longer
// send elicitation or sampling requests while it serves a call: it asks by
// ending the call with an input-required result (SEP-2322, multi
// round-trip), and the client calls again with the answers. The SDK
// supports that form (CallToolResult.InputRequests, RequestState, and
// CallToolParams.InputResponses on the retry), but a tool's Elicit and
// Sample ask in the middle of running Go code and wait for the answer
// there: a tool would have to be re-run from its start on every retry
// (safe only for tools whose work before the question is repeatable), or
// its goroutine kept parked between the client's HTTP requests under a
// request state (the server state the form was designed to do without).
// Neither is done; on these sessions Elicit and Sample say so.
const mrtrProtocol = "2026-07-28"

// askBindings returns the elicitation and sampling functions of a call,
// for the capabilities the session's client declared, on a protocol
// version that lets the server ask during a call (before 2026-07-28).
// Elsewhere a tool's Elicit and Sample return errors wrapping
// ask.ErrNotSupported that say why, in a sentence the model can act on.
func askBindings(ss *mcp.ServerSession) []tool.Binding {
	ip := ss.InitializeParams()
	if ip == nil {
		return nil
	}
	caps := ip.Capabilities
	if caps == nil {
		caps = &mcp.ClientCapabilities{}
	}
	var elicit func(context.Context, ask.ElicitRequest) (ask.ElicitResponse, error)
	var samp func(context.Context, ask.SampleRequest) (ask.SampleResponse, error)
	switch {
	case ip.ProtocolVersion >= mrtrProtocol:
		err := fmt.Errorf("%w: the MCP client speaks protocol %s, in which a server asks only between rounds of a call (SEP-2322), and this server asks during a call; %s", ask.ErrNotSupported, ip.ProtocolVersion, askYourself)
		elicit = func(context.Context, ask.ElicitRequest) (ask.ElicitResponse, error) {
			return ask.ElicitResponse{}, err
		}
		samp = func(context.Context, ask.SampleRequest) (ask.SampleResponse, error) {
			return ask.SampleResponse{}, err
		}
	default:
		if caps.Elicitation != nil {
			elicit = func(ctx context.Context, req ask.ElicitRequest) (ask.ElicitResponse, error) {
				p := &mcp.ElicitParams{Message: req.Message}
				if req.Schema != nil {
					p.RequestedSchema = req.Schema
				}
				res, err := ss.Elicit(ctx, p)
				if err != nil {
					return ask.ElicitResponse{}, fmt.Errorf("elicitation: %w", err)
				}
				return ask.ElicitResponse{Action: res.Action, Content: res.Content}, nil
			}
		} else {
			err := fmt.Errorf("%w: the MCP client did not declare the elicitation capability, so the user cannot be asked during the call; %s", ask.ErrNotSupported, askYourself)
			elicit = func(context.Context, ask.ElicitRequest) (ask.ElicitResponse, error) {
				return ask.ElicitResponse{}, err
			}
		}
		if caps.Sampling != nil {
			samp = func(ctx context.Context, req ask.SampleRequest) (ask.SampleResponse, error) {
				return sample(ctx, ss, req)
			}
		} else {
			err := fmt.Errorf("%w: the MCP client did not declare the sampling capability, so the host's model cannot be asked during the call; %s", ask.ErrNotSupported, askYourself)
			samp = func(context.Context, ask.SampleRequest) (ask.SampleResponse, error) {
				return ask.SampleResponse{}, err
			}
		}
	}
	return []tool.Binding{ask.ElicitKey.Bind(elicit), ask.SampleKey.Bind(samp)}
}

// askYourself is what a model whose tool could not ask can do instead.
const askYourself = "ask in your reply instead, then call the tool again with the answer"

// errNoText is the error of a sampling answer that is not text.
var errNoText = errors.New("sampling: the client's model answered with content that is not text")

func sample(ctx context.Context, ss *mcp.ServerSession, req ask.SampleRequest) (ask.SampleResponse, error) {
	p := &mcp.CreateMessageParams{SystemPrompt: req.SystemPrompt, MaxTokens: int64(req.MaxTokens), Messages: make([]*mcp.SamplingMessage, 0, len(req.Messages))}
	if p.MaxTokens <= 0 {
		p.MaxTokens = 1024
	}
	for _, m := range req.Messages {
		p.Messages = append(p.Messages, &mcp.SamplingMessage{Role: mcp.Role(m.Role), Content: &mcp.TextContent{Text: m.Text}})
	}
	//lint:ignore SA1019 MCP sampling is deprecated from protocol 2026-07-28 but is what hosts offer today.
	res, err := ss.CreateMessage(ctx, p)
	if err != nil {
		return ask.SampleResponse{}, fmt.Errorf("sampling: %w", err)
	}
	text, ok := res.Content.(*mcp.TextContent)
	if !ok {
		return ask.SampleResponse{Model: res.Model, StopReason: res.StopReason}, errNoText
	}
	return ask.SampleResponse{Text: text.Text, Model: res.Model, StopReason: res.StopReason}, nil
}
