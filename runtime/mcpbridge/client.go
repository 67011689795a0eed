package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// ClientOptions configures the tools made from a connected MCP server's
// tools. The zero value is usable.
type ClientOptions struct {
	// Prefix is put before every remote tool's name (for example "github_"),
	// to keep the tools of several servers apart. The remote server is
	// always called by its own name.
	Prefix string
	// CallTimeout, when positive, bounds every call in addition to the
	// caller's ctx. Without it a call is bounded by ctx alone; a server that
	// disconnects fails the call at once either way.
	CallTimeout time.Duration
	// Logger receives a warning for every remote tool that cannot be used
	// (an invalid name), and for every remote tool whose input schema does
	// not compile (the executor refuses its calls under schema.Enforce).
	// The default is slog.Default() at call time.
	Logger *slog.Logger
}

func (o *ClientOptions) orZero() ClientOptions {
	if o == nil {
		return ClientOptions{}
	}
	return *o
}

func (o ClientOptions) log() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.Default()
}

// Tools lists every tool of the server behind cs (all pages) and returns
// them as tool.Tools, in the server's order. Each tool's schema is passed
// through unchanged: the executor's gate holds every call to all of it
// (JSON Schema 2020-12, or the draft the schema names), and the server
// validates its own input. A remote tool whose name (with the prefix) is
// not a valid tool name is skipped with a warning; one whose schema does
// not compile is kept, with a warning that names the schema's problem.
func Tools(ctx context.Context, cs *mcp.ClientSession, opts *ClientOptions) ([]tool.Tool, error) {
	if cs == nil {
		return nil, errors.New("mcpbridge: nil client session")
	}
	o := opts.orZero()
	var out []tool.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("mcpbridge: listing tools: %w", err)
		}
		rt, err := newRemoteTool(cs, t, o)
		if err != nil {
			o.log().Warn("mcp tool skipped", "tool", t.Name, "err", err)
			continue
		}
		if s := rt.Definition().InputSchema; s != nil {
			if _, err := schema.Compile(s); err != nil {
				o.log().Warn("mcp tool's input schema does not compile; under schema enforce every call to it is refused",
					"tool", t.Name, "err", err)
			}
		}
		out = append(out, rt)
	}
	return out, nil
}

// Register lists the tools of the server behind cs and registers each one in
// reg. It returns the names registered. A name reg already holds is not
// replaced; every such failure is reported in the joined error, and the
// other tools are registered all the same.
func Register(ctx context.Context, reg *tool.Registry, cs *mcp.ClientSession, opts *ClientOptions) ([]string, error) {
	if reg == nil {
		return nil, errors.New("mcpbridge: nil registry")
	}
	tools, err := Tools(ctx, cs, opts)
	if err != nil {
		return nil, err
	}
	var names []string
	var errs []error
	for _, t := range tools {
		if err := reg.Register(t); err != nil {
			errs = append(errs, err)
			continue
		}
		names = append(names, t.Definition().Name)
	}
	return names, errors.Join(errs...)
}

// NewTool returns one remote tool, t as listed by the server behind cs, as a
// tool.Tool. It is an error when the name (with the prefix) is not a valid
// tool name.
func NewTool(cs *mcp.ClientSession, t *mcp.Tool, opts *ClientOptions) (tool.Tool, error) {
	if cs == nil || t == nil {
		return nil, errors.New("mcpbridge: nil client session or tool")
	}
	return newRemoteTool(cs, t, opts.orZero())
}

func newRemoteTool(cs *mcp.ClientSession, t *mcp.Tool, o ClientOptions) (tool.Tool, error) {
	name := o.Prefix + t.Name
	if err := tool.ValidateDefinition(tool.Definition{Name: name}); err != nil {
		return nil, err
	}
	schema, err := schemaMap(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("tool %q: %w", t.Name, err)
	}
	def := tool.Definition{Name: name, Description: t.Description, InputSchema: schema}
	remoteMetadata(&def, t)
	rc := &remoteCall{cs: cs, remote: t.Name, name: name, timeout: o.CallTimeout, output: compileOutput(def, o)}
	behaviours(&def, t.Annotations)
	return tool.New(def, rc.call), nil
}

// schemaMap turns the schema a client session decoded (a map[string]any, or
// anything that encodes to a JSON object) into the map a Definition holds,
// unchanged.
func schemaMap(v any) (map[string]any, error) {
	switch s := v.(type) {
	case nil:
		return nil, nil
	case map[string]any:
		return s, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("input schema cannot be encoded: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	return m, nil
}

// behaviours sets in def what the server's annotations say: a read-only
// tool is read-only and may run beside others; a tool that says it is not
// destructive is mutating; anything else is destructive, as MCP's defaults
// say.
func behaviours(def *tool.Definition, a *mcp.ToolAnnotations) {
	switch {
	case a == nil:
		def.SideEffect = tool.Destructive
	case a.ReadOnlyHint:
		def.SideEffect, def.Concurrency = tool.ReadOnly, tool.Safe
	case a.DestructiveHint != nil && !*a.DestructiveHint:
		def.SideEffect = tool.Mutating
	default:
		def.SideEffect = tool.Destructive
	}
}

// remoteCall calls one tool of an MCP server.
type remoteCall struct {
	cs      *mcp.ClientSession
	remote  string // the server's name for the tool
	name    string // ours, with the prefix
	timeout time.Duration
	output  *schema.Validator // the output schema's, when the tool has one
}

func (rc *remoteCall) call(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
	if rc.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, rc.timeout, errCallTimeout)
		defer cancel()
	}
	params := &mcp.CallToolParams{Name: rc.remote, Arguments: in}
	// The call is registered for Forwarding's handlers: the server's
	// progress (by the token sent when the caller listens) and log records
	// reach tc.
	token, done := inFlight.start(rc.cs, tc)
	defer done()
	if tc.ReportsProgress() {
		params.SetProgressToken(token)
	}
	setTraceMeta(ctx, params)
	res, err := rc.cs.CallTool(ctx, params)
	if err != nil {
		return rc.failure(ctx, err)
	}
	if res == nil {
		return tool.Failure(fmt.Sprintf("Tool '%s' failed: its MCP server sent no result.", rc.name))
	}
	text := resultText(res)
	if res.IsError {
		if text == "" {
			text = fmt.Sprintf("Tool '%s' failed without saying why.", rc.name)
		}
		return tool.Failure(text)
	}
	if msg, ok := rc.checkStructured(res); !ok {
		return tool.Failure(msg)
	}
	out := tool.Success(text)
	out.Parts = remoteParts(res.Content)
	out.Structured = res.StructuredContent
	return out
}

// errCallTimeout is the cause of a call's context when ClientOptions.CallTimeout
// elapsed, as opposed to a deadline of the caller's.
var errCallTimeout = errors.New("mcpbridge: CallTimeout elapsed")

// failure words a call that got no result.
func (rc *remoteCall) failure(ctx context.Context, err error) tool.Result {
	var rpcErr *jsonrpc.Error
	switch {
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), errCallTimeout):
		// CallTimeout fired first; a caller's own deadline that came
		// sooner is worded below as that caller's.
		return tool.FailureWith(fmt.Sprintf("Tool '%s' timed out after %s: its MCP server did not answer in time.", rc.name, rc.timeout), err)
	case ctx.Err() != nil:
		word := "the call was cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			word = "the deadline passed"
		}
		return tool.FailureWith(fmt.Sprintf("Tool '%s' did not finish: %s.", rc.name, word), err)
	case errors.Is(err, mcp.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrClosedPipe),
		errors.Is(err, net.ErrClosed), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		// A peer that died resets its socket (ECONNRESET) or leaves a
		// broken pipe (EPIPE) rather than closing politely.
		return tool.FailureWith(fmt.Sprintf("Tool '%s' is not available: the connection to its MCP server is closed.", rc.name), err)
	case errors.As(err, &rpcErr):
		return tool.FailureWith(fmt.Sprintf("Tool '%s' failed: its MCP server answered with an error: %s", rc.name, rpcErr.Message), err)
	}
	return tool.FailureWith(fmt.Sprintf("Tool '%s' failed: %v", rc.name, err), err)
}

// resultText renders a CallToolResult as the text a model reads: text
// content as it is, embedded text resources by their text, other content as
// a short note, and the structured content as JSON when there is nothing
// else.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, c.Text)
		case *mcp.ImageContent:
			parts = append(parts, fmt.Sprintf("[image: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)))
		case *mcp.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes]", orUnknown(c.MIMEType), len(c.Data)))
		case *mcp.ResourceLink:
			parts = append(parts, fmt.Sprintf("[resource: %s]", c.URI))
		case *mcp.EmbeddedResource:
			switch {
			case c.Resource == nil:
			case c.Resource.Text != "":
				parts = append(parts, c.Resource.Text)
			default:
				parts = append(parts, fmt.Sprintf("[resource: %s, %s, %d bytes]", c.Resource.URI, orUnknown(c.Resource.MIMEType), len(c.Resource.Blob)))
			}
		default:
			if data, err := json.Marshal(c); err == nil {
				parts = append(parts, string(data))
			}
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if data, err := json.Marshal(res.StructuredContent); err == nil {
			return string(data)
		}
	}
	return strings.Join(parts, "\n")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}
