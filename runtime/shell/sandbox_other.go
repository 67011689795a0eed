//go:build !linux

package shell

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

func newSandbox(SandboxOptions) (*Sandbox, error) {
	return nil, fmt.Errorf("%w: bubblewrap needs Linux namespaces; this is %s", ErrSandboxUnavailable, runtime.GOOS)
}

// Execute fails with a *StartError: there is no sandbox outside Linux
// (NewSandbox never returns one).
func (s *Sandbox) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	return Result{}, &StartError{Err: errors.New("the sandbox is not supported on " + runtime.GOOS)}
}
