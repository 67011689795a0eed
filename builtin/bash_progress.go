package builtin

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// bashProgressEvery is how often a running command reports its progress
// to a caller that listens (an MCP client that sent a progress token).
const bashProgressEvery = 3 * time.Second

// byteCounter counts the bytes written to it.
type byteCounter struct{ n atomic.Int64 }

func (c *byteCounter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return len(p), nil
}

// reportProgress makes the command opts runs count its output and report,
// every progressEvery until the returned stop is called, how long it has
// run out of its timeout (Done and Total in seconds, which only grow) and
// how much output it has written ("12 s of at most 120 s; 4.2 KiB of
// output so far").
func (b *shellKit) reportProgress(ctx context.Context, tc tool.Context, opts *shell.Options, timeout time.Duration) (stop func()) {
	every := b.progressEvery
	if every <= 0 {
		every = bashProgressEvery
	}
	counter := &byteCounter{}
	opts.LiveStdout = counter
	start := time.Now()
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			elapsed := time.Since(start)
			tc.ReportProgress(ctx, tool.Progress{
				Done:    elapsed.Seconds(),
				Total:   timeout.Seconds(),
				Message: progressMessage(elapsed, timeout, counter.n.Load()),
			})
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// progressMessage words a command's progress.
func progressMessage(elapsed, timeout time.Duration, bytes int64) string {
	return fmt.Sprintf("%s of at most %s; %s of output so far", elapsed.Round(time.Second), timeout, byteSize(bytes))
}

// byteSize words a byte count: bytes, KiB or MiB with one decimal.
func byteSize(n int64) string {
	switch {
	case n < 1<<10:
		if n == 1 {
			return "1 byte"
		}
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
