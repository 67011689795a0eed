package builtin

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// KillShellInput is the input of the KillShell tool.
//
//tool:name KillShell
//tool:description Stops a background command started by Bash with run_in_background, with every process it started, and waits until it has ended.
//tool:description shell_id is the ID Bash returned (the one BashOutput takes as bash_id). Output not read yet can still be read with BashOutput.
//tool:concurrency sequential
//tool:side-effect mutating
type KillShellInput struct {
	// The ID of the background command to stop, as Bash returned it.
	ShellID string `json:"shell_id" tool:"required"`
}

// kill is the KillShell tool.
func (b *shellKit) kill(_ context.Context, in KillShellInput, _ tool.Context) (tool.Result, error) {
	id := strings.TrimSpace(in.ShellID)
	if id == "" {
		return tool.Failure("shell_id is empty. Give the ID Bash returned for a command run with run_in_background."), nil
	}
	st, err := b.bg.Kill(id)
	if err != nil {
		return tool.FailureWith(err.Error(), err), nil
	}
	if st != StatusKilled {
		// It ended on its own while being stopped.
		r, _ := b.bg.status(id)
		return tool.Success(fmt.Sprintf("Background command %s ended before it could be killed: %s.", id, r)), nil
	}
	return tool.Success(fmt.Sprintf("Background command %s was killed.", id)), nil
}
