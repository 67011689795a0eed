package annotations

import (
	"time"
)

// parseTimeout parses //tool:timeout DURATION: a positive Go duration (30s,
// 2m, 1m30s, 500ms), the bound the runtime puts on each call of the tool.
func parseTimeout(d *Directives, errs *ErrorList, c Comment, arg string) {
	if arg == "" {
		errs.Add(c.Pos, "//tool:timeout needs a duration, e.g. //tool:timeout 30s")
		return
	}
	v, err := time.ParseDuration(arg)
	switch {
	case err != nil:
		errs.Add(c.Pos, "//tool:timeout %q: want a Go duration such as 30s, 2m or 1m30s", arg)
	case v <= 0:
		errs.Add(c.Pos, "//tool:timeout %s: the timeout must be positive; leave the directive out for no bound of the tool's own", arg)
	case v < time.Millisecond:
		errs.Add(c.Pos, "//tool:timeout %s: the timeout must be at least 1ms", arg)
	default:
		d.Timeout, d.TimeoutPos = v, c.Pos
	}
}
