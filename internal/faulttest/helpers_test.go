package faulttest

import (
	"log/slog"
	"testing"
	"time"
)

var discard = slog.New(slog.DiscardHandler)

// waitBound is how long a fault test waits for what should happen soon (a
// call answered, a session connected): a tenth of the time the test has
// left, so that a loaded machine, which only makes things slower, cannot
// fail it, while a hang is still reported before go test's own timeout; a
// minute where the test has no deadline. The figures the tests claim are
// bounded by cancelBound and the tests' own limits, not by this.
func waitBound(t *testing.T) time.Duration {
	if d, ok := t.Deadline(); ok {
		return time.Until(d) / 10
	}
	return time.Minute
}
