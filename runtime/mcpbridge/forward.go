package mcpbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Forwarding returns a copy of opts (nil: the zero options) whose progress
// and log handlers pass a server's notifications/progress and
// notifications/message on to the tool.Context of the remote tool's call
// they belong to: progress by the token the call sent (every call of a
// tool made by Tools, Register or NewTool sends one when its tool.Context
// has a progress reporter), log records to the logger of every call in
// flight on that session. Handlers opts already has are called too. Give
// the result to mcp.NewClient, before connecting.
func Forwarding(opts *mcp.ClientOptions) *mcp.ClientOptions {
	var o mcp.ClientOptions
	if opts != nil {
		o = *opts
	}
	prevProgress, prevLog := o.ProgressNotificationHandler, o.LoggingMessageHandler
	o.ProgressNotificationHandler = func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
		if prevProgress != nil {
			prevProgress(ctx, req)
		}
		if req == nil || req.Params == nil {
			return
		}
		if c := inFlight.byToken(req.Session, req.Params.ProgressToken); c != nil {
			c.tc.ReportProgress(ctx, tool.Progress{Done: req.Params.Progress, Total: req.Params.Total, Message: req.Params.Message})
		}
	}
	o.LoggingMessageHandler = func(ctx context.Context, req *mcp.LoggingMessageRequest) {
		if prevLog != nil {
			prevLog(ctx, req)
		}
		if req == nil || req.Params == nil {
			return
		}
		for _, c := range inFlight.calls(req.Session) {
			logRemote(ctx, c.tc.Logger(), req.Params)
		}
	}
	return &o
}

// logRemote logs one remote record to l, at its level.
func logRemote(ctx context.Context, l *slog.Logger, p *mcp.LoggingMessageParams) {
	level := slog.LevelInfo
	switch p.Level {
	case "debug":
		level = slog.LevelDebug
	case "notice", "info":
		level = slog.LevelInfo
	case "warning":
		level = slog.LevelWarn
	default: // error, critical, alert, emergency
		level = slog.LevelError
	}
	msg := ""
	var attrs []any
	switch d := p.Data.(type) {
	case string:
		msg = d
	case map[string]any:
		if m, ok := d["msg"].(string); ok {
			msg = m
		}
		for k, v := range d {
			if k != "msg" {
				attrs = append(attrs, k, v)
			}
		}
	default:
		msg = fmt.Sprint(d)
	}
	if p.Logger != "" {
		attrs = append(attrs, "remote_logger", p.Logger)
	}
	l.Log(ctx, level, msg, attrs...)
}

// flight is one remote call in flight.
type flight struct {
	tc    tool.Context
	token string
}

// flights are the remote calls in flight, per client session.
type flights struct {
	mu  sync.Mutex
	by  map[*mcp.ClientSession]map[string]*flight
	seq atomic.Uint64
}

var inFlight = &flights{by: make(map[*mcp.ClientSession]map[string]*flight)}

// start registers a call on cs and returns its progress token and the
// func that ends it.
func (f *flights) start(cs *mcp.ClientSession, tc tool.Context) (string, func()) {
	token := "toolgen-" + strconv.FormatUint(f.seq.Add(1), 10)
	c := &flight{tc: tc, token: token}
	f.mu.Lock()
	m := f.by[cs]
	if m == nil {
		m = make(map[string]*flight)
		f.by[cs] = m
	}
	m[token] = c
	f.mu.Unlock()
	// The client handles a server's notifications apart from its answers,
	// so those the server sent just before answering may be handled just
	// after the call returned: the call is forgotten a moment later.
	return token, func() {
		time.AfterFunc(forwardGrace, func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			delete(m, token)
			if len(m) == 0 && f.by[cs] != nil && len(f.by[cs]) == 0 {
				delete(f.by, cs)
			}
		})
	}
}

// forwardGrace is how long after a remote call returned the notifications
// it caused are still passed on to its caller.
const forwardGrace = 2 * time.Second

func (f *flights) byToken(cs *mcp.ClientSession, token any) *flight {
	s, ok := token.(string)
	if !ok {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.by[cs][s]
}

func (f *flights) calls(cs *mcp.ClientSession) []*flight {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]*flight, 0, len(f.by[cs]))
	for _, c := range f.by[cs] {
		out = append(out, c)
	}
	return out
}

// checkStructured holds a remote result's structured content to the
// tool's output schema with the gate's validator (runtime/schema): a
// result that breaks it, or that has none when the schema asks for it,
// is a failure saying what is wrong, rather than passed on as valid.
func (rc *remoteCall) checkStructured(res *mcp.CallToolResult) (string, bool) {
	if rc.output == nil || res.IsError {
		return "", true
	}
	if res.StructuredContent == nil {
		return fmt.Sprintf("Tool '%s' failed: its MCP server sent no structured content, though the tool's output schema asks for it.", rc.name), false
	}
	data, err := json.Marshal(res.StructuredContent)
	var obj map[string]any
	if err == nil {
		err = json.Unmarshal(data, &obj)
	}
	if err != nil || obj == nil {
		return fmt.Sprintf("Tool '%s' failed: its MCP server sent structured content that is not a JSON object, as an output schema requires.", rc.name), false
	}
	vs := rc.output.Validate(obj)
	if len(vs) == 0 {
		return "", true
	}
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteString(" ")
		}
		m := strings.TrimSuffix(v.Message, " The tool was not executed.")
		b.WriteString(strings.Replace(m, "Parameter '", "Field '", 1))
	}
	return fmt.Sprintf("Tool '%s' failed: its MCP server sent structured content that does not match the tool's output schema: %s", rc.name, b.String()), false
}

// compileOutput compiles a remote tool's output schema for checkStructured;
// a schema that does not compile is reported and not checked.
func compileOutput(def tool.Definition, o ClientOptions) *schema.Validator {
	if def.OutputSchema == nil {
		return nil
	}
	v, err := schema.Compile(def.OutputSchema)
	if err != nil {
		o.log().Warn("remote tool's output schema does not compile; its structured content is passed on unchecked", "tool", def.Name, "err", err)
		return nil
	}
	return v
}
