package mcpbridge

import (
	"context"
	"log/slog"
)

// clientLogKey is the context key under which a call served over MCP
// carries the handler that sends log records to its client.
type clientLogKey struct{}

// ClientLogs returns a handler that passes every record to h and, for a
// record logged with the context of a call served over MCP, at warning
// level or above, also sends it to that call's client as
// notifications/message (at or above the level the client set with
// logging/setLevel). Give it to the executor (tool.WithLogger(slog.New(
// mcpbridge.ClientLogs(h)))) so that what the gate and the tools warn
// about a call (a schema violation run anyway under schema.Warn, a call
// that failed, was refused or denied) reaches the host that made the call,
// not only the server's log.
func ClientLogs(h slog.Handler) slog.Handler { return &clientLogs{h: h} }

type clientLogs struct {
	h     slog.Handler
	attrs []slog.Attr
	group []string
}

func (c *clientLogs) Enabled(ctx context.Context, l slog.Level) bool {
	if l >= slog.LevelWarn && ctx != nil && ctx.Value(clientLogKey{}) != nil {
		return true
	}
	return c.h.Enabled(ctx, l)
}

func (c *clientLogs) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if c.h.Enabled(ctx, r.Level) {
		err = c.h.Handle(ctx, r)
	}
	if r.Level < slog.LevelWarn || ctx == nil {
		return err
	}
	if client, ok := ctx.Value(clientLogKey{}).(slog.Handler); ok {
		for _, g := range c.group {
			client = client.WithGroup(g)
		}
		if len(c.attrs) > 0 {
			client = client.WithAttrs(c.attrs)
		}
		// The session's level decides, as for the records a tool logs
		// through tool.Context's logger (not the request's _meta, which
		// a 2026-07-28 client sends only when it asks for logs per call).
		// A client gone is no error of the server's log.
		_ = client.Handle(context.Background(), r)
	}
	return err
}

func (c *clientLogs) WithAttrs(as []slog.Attr) slog.Handler {
	return &clientLogs{h: c.h.WithAttrs(as), attrs: append(append([]slog.Attr(nil), c.attrs...), as...), group: c.group}
}

func (c *clientLogs) WithGroup(name string) slog.Handler {
	if name == "" {
		return c
	}
	return &clientLogs{h: c.h.WithGroup(name), attrs: c.attrs, group: append(append([]string(nil), c.group...), name)}
}
