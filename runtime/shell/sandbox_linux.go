package shell

import (
	"context"
	"errors"
	"fmt"
)

func newSandbox(SandboxOptions) (*Sandbox, error) {
	return nil, fmt.Errorf("%w: not implemented yet", ErrSandboxUnavailable)
}

// Execute runs cmd.Line in the sandbox.
func (s *Sandbox) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	return Result{}, &StartError{Err: errors.New("the sandbox is not implemented yet")}
}
