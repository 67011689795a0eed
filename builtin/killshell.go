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
//tool:unexported
//tool:title Stop background command
//tool:keywords stop, kill, terminate, cancel, abort, background job, process
//tool:description Stops a background command started by Bash with run_in_background and waits until it has ended. The answer says whether processes the command started are still running afterwards, with their PIDs.
//tool:description shell_id is the ID Bash returned (the one BashOutput takes as bash_id). Output not read yet can still be read with BashOutput.
//tool:concurrency sequential
//tool:side-effect destructive
//tool:idempotent
type KillShellInput struct {
	// The ID of the background command to stop, as Bash returned it.
	ShellID string `json:"shell_id" tool:"required"`
}

// kill is the KillShell tool. After the kill it looks for the processes
// that carry the command's marker and says what it found.
func (b *shellKit) kill(_ context.Context, in KillShellInput, _ tool.Context) (tool.Result, error) {
	id := strings.TrimSpace(in.ShellID)
	if id == "" {
		return tool.Failure("shell_id is empty. Give the ID Bash returned for a command run with run_in_background."), nil
	}
	marker, running := b.bg.marker(id)
	// Before the kill the command's own bash carries the marker: finding
	// it shows that this program can see the command's processes, so that
	// finding none afterwards means something.
	var visible bool
	var scanErr error
	if running {
		visible, scanErr = seen(marker)
	}
	st, err := b.bg.Kill(id)
	if err != nil {
		msg := err.Error()
		if marker != "" {
			// It had ended already; what it left behind may still run.
			if left, err := settledProcs(marker); err == nil && len(left) > 0 {
				msg += " " + stillRunning(left)
			}
		}
		return tool.FailureWith(msg, err), nil
	}
	what := fmt.Sprintf("Background command %s was killed", id)
	if st != StatusKilled {
		// It ended on its own while being stopped.
		r, _ := b.bg.status(id)
		what = fmt.Sprintf("Background command %s ended before it could be killed (%s)", id, r)
	}
	left, err := settledProcs(marker)
	switch {
	case len(left) > 0:
		return tool.Success(what + ", but " + stillRunning(left)), nil
	case err == nil && scanErr == nil && visible:
		return tool.Success(what + ", and no process it started was found still running."), nil
	case err == nil && scanErr == nil:
		return tool.Success(what + "; whether processes it started are still running could not be checked: this shell's processes are not visible to the tool."), nil
	}
	if err == nil {
		err = scanErr
	}
	return tool.Success(what + "; whether processes it started are still running could not be checked: " + err.Error() + "."), nil
}
