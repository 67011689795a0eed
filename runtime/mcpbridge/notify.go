package mcpbridge

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// callBindings returns what a tools/call gives its tool besides the
// server's context: a progress reporter that sends notifications/progress
// when the request carries a progress token, and a logger whose records
// reach the client as notifications/message at or above the level the
// client set with logging/setLevel (none before it sets one), and, where the
// client declared elicitation or sampling, the functions behind
// ask.Elicit and ask.Sample.
func callBindings(req *mcp.CallToolRequest, toolName string) []tool.Binding {
	if req == nil || req.Session == nil {
		return nil
	}
	ss := req.Session
	b := []tool.Binding{tool.LoggerKey.Bind(slog.New(&logHandler{ss: ss, logger: toolName}))}
	b = append(b, askBindings(ss)...)
	if req.Params != nil {
		if token := req.Params.GetProgressToken(); token != nil {
			pr := &progressReporter{ss: ss, token: token}
			b = append(b, tool.ProgressKey.Bind(pr.report))
		}
	}
	return b
}

// progressReporter sends one call's progress reports as
// notifications/progress. MCP asks that progress grow with every
// notification: a report that does not is dropped.
type progressReporter struct {
	ss    *mcp.ServerSession
	token any

	mu   sync.Mutex
	last float64
	sent bool
}

func (p *progressReporter) report(ctx context.Context, pr tool.Progress) {
	p.mu.Lock()
	if p.sent && pr.Done <= p.last {
		p.mu.Unlock()
		return
	}
	p.last, p.sent = pr.Done, true
	p.mu.Unlock()
	// A notification that cannot be sent (the client went away) is no
	// failure of the call.
	_ = p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token,
		Progress:      pr.Done,
		Total:         pr.Total,
		Message:       pr.Message,
	})
}

// logHandler is a slog.Handler sending records to an MCP client as
// notifications/message: the level mapped to MCP's (debug, info, notice,
// warning, error, critical, alert, emergency), the tool's name as the
// logger, and as data an object holding the message under "msg" and the
// record's attributes (groups as nested objects). The session drops what is
// below the level the client set.
type logHandler struct {
	ss     *mcp.ServerSession
	logger string
	attrs  []slog.Attr // given with WithAttrs, already inside groups
	groups []string
}

func (h *logHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *logHandler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), nest(h.groups, as)...)
	return &c
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(append([]string(nil), h.groups...), name)
	return &c
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	data := map[string]any{"msg": r.Message}
	for _, a := range h.attrs {
		addAttr(data, a)
	}
	var own []slog.Attr
	r.Attrs(func(a slog.Attr) bool {
		own = append(own, a)
		return true
	})
	for _, a := range nest(h.groups, own) {
		addAttr(data, a)
	}
	//lint:ignore SA1019 MCP logging is deprecated from protocol 2026-07-28 but is what hosts read today.
	return h.ss.Log(ctx, &mcp.LoggingMessageParams{Level: mcpLevel(r.Level), Logger: h.logger, Data: data})
}

// nest puts as inside the groups, outermost first.
func nest(groups []string, as []slog.Attr) []slog.Attr {
	if len(groups) == 0 || len(as) == 0 {
		return as
	}
	args := make([]any, len(as))
	for i, a := range as {
		args[i] = a
	}
	out := slog.Group(groups[len(groups)-1], args...)
	for i := len(groups) - 2; i >= 0; i-- {
		out = slog.Group(groups[i], out)
	}
	return []slog.Attr{out}
}

// addAttr adds a to m as JSON-ready data.
func addAttr(m map[string]any, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		group := v.Group()
		if len(group) == 0 {
			return
		}
		if a.Key == "" { // an inline group
			for _, g := range group {
				addAttr(m, g)
			}
			return
		}
		sub, _ := m[a.Key].(map[string]any)
		if sub == nil {
			sub = make(map[string]any, len(group))
		}
		for _, g := range group {
			addAttr(sub, g)
		}
		m[a.Key] = sub
		return
	}
	if a.Key == "" {
		return
	}
	switch v.Kind() {
	case slog.KindString:
		m[a.Key] = v.String()
	case slog.KindInt64:
		m[a.Key] = v.Int64()
	case slog.KindUint64:
		m[a.Key] = v.Uint64()
	case slog.KindFloat64:
		m[a.Key] = v.Float64()
	case slog.KindBool:
		m[a.Key] = v.Bool()
	case slog.KindDuration:
		m[a.Key] = v.Duration().String()
	case slog.KindTime:
		m[a.Key] = v.Time().Format(time.RFC3339Nano)
	default:
		if err, ok := v.Any().(error); ok {
			m[a.Key] = err.Error()
			return
		}
		m[a.Key] = v.String()
	}
}

// mcpLevel maps a slog level to MCP's: levels between two of MCP's go to
// the lower one.
func mcpLevel(l slog.Level) mcp.LoggingLevel {
	switch {
	case l >= mcp.LevelEmergency:
		return "emergency"
	case l >= mcp.LevelAlert:
		return "alert"
	case l >= mcp.LevelCritical:
		return "critical"
	case l >= mcp.LevelError:
		return "error"
	case l >= mcp.LevelWarning:
		return "warning"
	case l >= mcp.LevelNotice:
		return "notice"
	case l >= mcp.LevelInfo:
		return "info"
	}
	return "debug"
}
