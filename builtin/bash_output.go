package builtin

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// BashOutputInput is the input of the BashOutput tool.
//
//tool:name BashOutput
//tool:unexported
//tool:title Read background command output
//tool:keywords background output, logs, tail, job status, poll, progress, check on a command
//tool:description Reads a background command started by Bash with run_in_background: its status (running, completed with its exit code, failed, killed or timed out) and the output it produced since the last read, stdout and stderr merged.
//tool:description Each read returns only new output, at most 30000 characters; when more is waiting the answer says so.
//tool:description Output not read yet is kept up to a limit per command and for all background commands together; past it the oldest unread output is dropped (that of commands that finished first), and the next read says how many bytes.
//tool:description With filter, a regular expression (RE2 syntax), only the new lines that match are returned and the other new lines are discarded.
//tool:concurrency safe
//tool:side-effect destructive
type BashOutputInput struct {
	// The ID of the background command, as Bash returned it.
	BashID string `json:"bash_id" tool:"required"`
	// A regular expression (RE2 syntax): return only the new lines that match it; the other new lines are discarded.
	Filter string `json:"filter,omitempty"`
}

// output is the BashOutput tool.
func (b *shellKit) output(_ context.Context, in BashOutputInput, _ tool.Context) (tool.Result, error) {
	id := strings.TrimSpace(in.BashID)
	if id == "" {
		return tool.Failure("bash_id is empty. Give the ID Bash returned for a command run with run_in_background."), nil
	}
	var re *regexp.Regexp
	if in.Filter != "" {
		var err error
		if re, err = regexp.Compile(in.Filter); err != nil {
			return tool.FailureWith(fmt.Sprintf("The filter '%s' is not a valid regular expression (RE2 syntax): %v. No output was read.", in.Filter, err), err), nil
		}
	}
	r, err := b.bg.Read(id, re)
	if err != nil {
		return tool.FailureWith(err.Error(), err), nil
	}
	return tool.Success(renderRead(r, in.Filter)), nil
}

// renderRead is the text of one BashOutput read:
//
//	ID: bash_1
//	Status: completed with exit code 0
//	[... 12345 bytes of output were dropped ...]   (when a limit was hit)
//	Output since the last read:
//	...
//	[More output is waiting: call BashOutput again.]   (when so)
func renderRead(r BackgroundRead, filter string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "ID: %s\nStatus: %s\n", r.ID, readStatus(r))
	switch {
	case r.BudgetDropped > 0:
		fmt.Fprintf(&b, "[... %d bytes of output were dropped before this read: a background command keeps at most %d bytes that have not been read, and all background commands together at most %d (the oldest output goes first); read more often, or filter ...]\n", r.Dropped, r.Kept, r.KeptTotal)
	case r.Dropped > 0:
		fmt.Fprintf(&b, "[... %d bytes of output were dropped before this read: a background command keeps at most %d bytes that have not been read; read more often, or filter ...]\n", r.Dropped, r.Kept)
	}
	switch {
	case r.Output == "" && filter != "":
		fmt.Fprintf(&b, "No new lines match the filter '%s'.", filter)
	case r.Output == "":
		b.WriteString("No new output.")
	default:
		if filter != "" {
			fmt.Fprintf(&b, "New lines matching '%s':\n", filter)
		} else {
			b.WriteString("Output since the last read:\n")
		}
		b.WriteString(r.Output)
	}
	if r.More {
		if !strings.HasSuffix(b.String(), "\n") {
			b.WriteByte('\n')
		}
		b.WriteString("[More output is waiting: call BashOutput again.]")
	}
	return b.String()
}

// readStatus describes the status of a read in a few words.
func readStatus(r BackgroundRead) string {
	return describeStatus(r.Status, r.ExitCode, r.Timeout, r.Reason)
}
