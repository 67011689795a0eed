package tool

import (
	"context"
	"log/slog"
)

// Progress is how far a call has come, as a tool reports it while it runs.
type Progress struct {
	// Done is the progress so far (bytes written, files searched); it
	// should grow with every report.
	Done float64
	// Total is the value Done reaches at the end, or 0 when unknown.
	Total float64
	// Message says in words what is happening ("12 KiB of output so far").
	Message string
}

// The keys through which a caller gives a call its progress reporter and
// its logger. An MCP server binds them for every tools/call: progress
// becomes notifications/progress (when the request carries a progress
// token), log records notifications/message (at the level the client set
// with logging/setLevel).
var (
	// ProgressKey holds the call's progress reporter, which must be safe
	// for concurrent use and return quickly.
	ProgressKey = NewKey[func(ctx context.Context, p Progress)]("progress")
	// LoggerKey holds the logger whose records reach the call's client.
	LoggerKey = NewKey[*slog.Logger]("logger")
)

// ReportProgress hands p to the call's progress reporter; it does nothing
// when the caller gave none (see ProgressKey).
func (c Context) ReportProgress(ctx context.Context, p Progress) {
	if f, ok := ProgressKey.Get(c); ok && f != nil {
		f(ctx, p)
	}
}

// ReportsProgress reports whether somebody listens to the call's progress,
// so that a tool can skip the work of measuring it.
func (c Context) ReportsProgress() bool {
	f, ok := ProgressKey.Get(c)
	return ok && f != nil
}

// discardLogger drops every record.
var discardLogger = slog.New(slog.DiscardHandler)

// Logger returns the logger whose records reach the call's client (see
// LoggerKey), or a logger that drops every record when there is none. It is
// for what the user of the host should see about the call (a step taken, a
// retry); the executor's own logging is not sent there.
func (c Context) Logger() *slog.Logger {
	if l, ok := LoggerKey.Get(c); ok && l != nil {
		return l
	}
	return discardLogger
}
