package mcpbridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// mrtrProtocol is the first MCP version in which a server may no longer
// send elicitation or sampling requests while it serves a call (they come
// back as input requests of the call's result instead, SEP-2322, which
// this bridge does not do yet).
const mrtrProtocol = "2026-07-28"

// askBindings returns the elicitation and sampling functions of a call, for
// the capabilities the session's client declared, on a protocol version
// that lets the server ask during a call (before 2026-07-28). Elsewhere a
// tool's Elicit and Sample return tool.ErrNotSupported.
func askBindings(ss *mcp.ServerSession) []tool.Binding {
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.ProtocolVersion >= mrtrProtocol {
		return nil
	}
	var b []tool.Binding
	if ip.Capabilities.Elicitation != nil {
		b = append(b, tool.ElicitKey.Bind(func(ctx context.Context, req tool.ElicitRequest) (tool.ElicitResponse, error) {
			p := &mcp.ElicitParams{Message: req.Message}
			if req.Schema != nil {
				p.RequestedSchema = req.Schema
			}
			res, err := ss.Elicit(ctx, p)
			if err != nil {
				return tool.ElicitResponse{}, fmt.Errorf("elicitation: %w", err)
			}
			return tool.ElicitResponse{Action: res.Action, Content: res.Content}, nil
		}))
	}
	if ip.Capabilities.Sampling != nil {
		b = append(b, tool.SampleKey.Bind(func(ctx context.Context, req tool.SampleRequest) (tool.SampleResponse, error) {
			return sample(ctx, ss, req)
		}))
	}
	return b
}

// errNoText is the error of a sampling answer that is not text.
var errNoText = errors.New("sampling: the client's model answered with content that is not text")

func sample(ctx context.Context, ss *mcp.ServerSession, req tool.SampleRequest) (tool.SampleResponse, error) {
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
		return tool.SampleResponse{}, fmt.Errorf("sampling: %w", err)
	}
	text, ok := res.Content.(*mcp.TextContent)
	if !ok {
		return tool.SampleResponse{Model: res.Model, StopReason: res.StopReason}, errNoText
	}
	return tool.SampleResponse{Text: text.Text, Model: res.Model, StopReason: res.StopReason}, nil
}
