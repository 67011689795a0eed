package mcpbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// isOffered reports whether the SDK server offers the called tool.
func (s *Server) isOffered(req *mcp.CallToolRequest) bool {
	if req.Params == nil {
		return false
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	o, ok := s.offered[req.Params.Name]
	return ok && !o.rejected
}

// offers reports whether the SDK server offers the called tool, after
// loading the session's state when it does not (another replica may have
// activated the tool).
func (s *Server) offers(ctx context.Context, req *mcp.CallToolRequest) bool {
	if s.isOffered(req) || req.Params == nil {
		return s.isOffered(req)
	}
	run, err := s.current(ctx, req)
	if err != nil {
		return false
	}
	if run.load != nil {
		run.load(ctx)
	}
	s.Sync()
	return s.isOffered(req)
}

// unknownToolError returns, for the gate's refusal of a tool it does not
// know or the allow-list denies, the JSON-RPC error MCP names for an
// unknown tool, -32602 (invalid params), whose message is the gate's
// sentence ("Unknown tool 'Raed'. Did you mean 'Read'?", "Tool 'X' is not
// allowed."); nil for any other result.
func unknownToolError(res *mcp.CallToolResult) error {
	if res == nil || !res.IsError || len(res.Content) != 1 {
		return nil
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return nil
	}
	msg := tc.Text
	if strings.HasPrefix(msg, "Unknown tool '") ||
		strings.HasPrefix(msg, "Tool '") && strings.HasSuffix(msg, "' is not allowed.") {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
	}
	return nil
}

// declared returns the JSON-RPC error for a prompts or resources request
// to a server that declares no such capability (-32601, method not
// found), or nil. The SDK declares prompts when it has a prompt, and
// resources when it has a resource or a template (ServerOptions declares
// neither), so a server has the capability when its first page of prompts,
// or of resources or templates, is not empty.
func declared(ctx context.Context, next mcp.MethodHandler, req mcp.Request, method string) error {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return nil
	}
	what, _, _ := strings.Cut(method, "/")
	var has bool
	if what == "prompts" {
		res, err := next(ctx, "prompts/list", &mcp.ListPromptsRequest{Session: ss, Params: &mcp.ListPromptsParams{}})
		lp, ok := res.(*mcp.ListPromptsResult)
		has = err != nil || !ok || len(lp.Prompts) > 0
	} else {
		res, err := next(ctx, "resources/list", &mcp.ListResourcesRequest{Session: ss, Params: &mcp.ListResourcesParams{}})
		lr, ok := res.(*mcp.ListResourcesResult)
		has = err != nil || !ok || len(lr.Resources) > 0
		if !has {
			res, err := next(ctx, "resources/templates/list", &mcp.ListResourceTemplatesRequest{Session: ss, Params: &mcp.ListResourceTemplatesParams{}})
			lt, ok := res.(*mcp.ListResourceTemplatesResult)
			has = err != nil || !ok || len(lt.ResourceTemplates) > 0
		}
	}
	if has {
		return nil
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
		Message: fmt.Sprintf("Method not found: %s (this server declares no %s capability)", method, what)}
}

// sdkUnknownTool reports whether err is the SDK's answer to a tools/call of
// a tool it does not have.
func sdkUnknownTool(err error) bool {
	var je *jsonrpc.Error
	return errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams && strings.HasPrefix(je.Message, "unknown tool ")
}

// withErrorCode returns msg with a code for an error response the SDK
// raised without one before any handler ran (a request before
// notifications/initialized: "method is invalid during session
// initialization"), which it would send with code 0: -32600 (invalid
// request) for that one, -32603 (internal error) for any other.
func withErrorCode(msg jsonrpc.Message) jsonrpc.Message {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error == nil {
		return msg
	}
	var je *jsonrpc.Error
	if errors.As(resp.Error, &je) && je.Code != 0 {
		return msg
	}
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(resp.Error.Error(), "invalid during session initialization") {
		code = jsonrpc.CodeInvalidRequest
	}
	c := *resp
	c.Error = &jsonrpc.Error{Code: code, Message: resp.Error.Error()}
	return &c
}

// codeZero is how an error without a code is encoded.
var codeZero = []byte(`"code":0`)

// fixErrorCode returns data, one JSON-RPC message, with a code for an error
// response that has none (see withErrorCode); anything else unchanged.
func fixErrorCode(data []byte) []byte {
	if !bytes.Contains(data, codeZero) {
		return data
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return data
	}
	fixed := withErrorCode(msg)
	if fixed == msg {
		return data
	}
	out, err := jsonrpc.EncodeMessage(fixed)
	if err != nil {
		return data
	}
	return out
}
