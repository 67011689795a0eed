//go:build !linux

package shell

import (
	"context"
	"errors"
	"runtime"
)

// Execute fails with a *StartError: the local shell's guarantees (process
// groups reaped without races, Pdeathsig, cgroups) are implemented for
// Linux only.
func (l *Local) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	return Result{}, &StartError{Err: errors.New("the local shell is not supported on " + runtime.GOOS)}
}

func (l *Local) detect() {
	l.once.Do(func() { l.noCgroup = "not supported on " + runtime.GOOS })
}
