package builtin

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// BashInput is the input of the Bash tool.
//
//tool:name Bash
//tool:unexported
//tool:title Run shell command
//tool:open-world
//tool:keywords shell, terminal, command line, run a command, execute, sh, script, console, cli
//tool:description Runs a bash command (bash -c) in the working directory and returns what it printed: stdout and stderr merged in the order they were written, cut at 30000 characters.
//tool:description A line after the output says how it ended when it did not succeed: [exit code: N] for a non-zero exit status, [timed out after Nms] when it ran out of time (the output before it is what it printed until then).
//tool:description The answer starts with 'Command failed: ' only when the command could not be started.
//tool:description stdin is empty. The environment holds only PATH, HOME, USER, LANG, TERM, TMPDIR and a few like them, plus the variables the user chose to pass.
//tool:description timeout is in milliseconds: 120000 when not given, brought into 1000-600000.
//tool:description With run_in_background the answer is an ID at once: read the output later with BashOutput (bash_id) and stop the command with KillShell (shell_id).
//tool:concurrency sequential
//tool:interrupt externally-terminated
//tool:side-effect destructive
//tool:subject command command
type BashInput struct {
	// The command line to run.
	Command string `json:"command" tool:"required"`
	// How long the command may run, in milliseconds; 120000 when not given.
	Timeout int `json:"timeout,omitempty" tool:"min=1000,max=600000,clamp,default=120000"`
	// What the command does, in five to ten words, for the user watching.
	Description string `json:"description,omitempty"`
	// Run the command in the background and answer with its ID at once, for commands that run long (servers, watchers, long builds). The timeout still applies.
	RunInBackground bool `json:"run_in_background,omitempty"`
}

// The Bash tool's limits. Every one is passed to the Shell explicitly, so
// that another Shell implementation behaves the same.
const (
	// bashDefaultTimeout, bashMinTimeout and bashMaxTimeout are the
	// timeout's default and range (the tag of BashInput.Timeout says the
	// same for the binder).
	bashDefaultTimeout = 120_000 * time.Millisecond
	bashMinTimeout     = 1_000 * time.Millisecond
	bashMaxTimeout     = 600_000 * time.Millisecond

	// bashMaxOutputChars is where Bash and BashOutput cut the output, in
	// characters.
	bashMaxOutputChars = 30_000

	// bashCaptureBytes is the capture cap passed to the shell. The shell
	// keeps the head and the tail of a longer output, half the cap each;
	// half of it is more than bashMaxOutputChars characters of any width
	// (4 bytes each at most), so the 30000 characters shown are always the
	// command's first ones, never the shell's elision line.
	bashCaptureBytes = 256 << 10

	// bashKillGrace is the time between SIGTERM and SIGKILL on timeout or
	// cancellation.
	bashKillGrace = time.Second
)

// shellKit holds what Bash, BashOutput and KillShell share.
type shellKit struct {
	sh   shell.Shell
	root string
	bg   *BackgroundManager
	// passEnv is the shell.Options.PassEnv of every command: never nil,
	// since nil would pass this process's whole environment.
	passEnv []string
	// containment is what the shell guarantees about the processes a
	// command starts, as sentences for the model.
	containment string
	// progressEvery is how often a command reports progress to a caller
	// that listens (see bash_progress.go); 0 means bashProgressEvery.
	progressEvery time.Duration
}

// newShellKit returns what the Bash tools share, or nil when sh is nil
// (without a shell there are no shell tools).
//
// Commands run with sh, in the context's working directory, else in root
// (a relative working directory is taken relative to root), else in this
// process's directory. Background commands run in bg, which the caller
// owns and closes; when bg is nil a manager with default limits is made
// here, which nobody closes: its commands then end only by their timeout
// (ten minutes at most), so callers that can should pass their own.
func newShellKit(sh shell.Shell, root string, bg *BackgroundManager) *shellKit {
	if sh == nil {
		return nil
	}
	if bg == nil {
		bg = NewBackgroundManager(sh, BackgroundLimits{})
	}
	return &shellKit{sh: sh, root: root, bg: bg, passEnv: bashPassEnv(nil), containment: containmentOf(sh)}
}

// bashTool, bashOutputTool and killShellTool return the tools; each is nil
// for a nil kit.
func (k *shellKit) bashTool() tool.Tool {
	if k == nil {
		return nil
	}
	return withContainmentTool{newBashTool(k.bash), k.containment}
}

func (k *shellKit) bashOutputTool() tool.Tool {
	if k == nil {
		return nil
	}
	return newBashOutputTool(k.output)
}

func (k *shellKit) killShellTool() tool.Tool {
	if k == nil {
		return nil
	}
	return withContainmentTool{newKillShellTool(k.kill), k.containment}
}

// What the Bash tools say the shell guarantees about the processes a
// command starts, for the model. Each claims only what the shell enforces
// for every command.
const (
	// containAll is a shell that stops every process a command starts
	// (a cgroup per run, or a pid namespace).
	containAll = "Every process the command starts is stopped when it ends, times out or is killed."

	// containSwept is shell.Local without a cgroup but with its sweep of
	// the run's mark: processes that left the group are found by the
	// variable the shell put in their environment.
	containSwept = "Every process the command starts is stopped when it ends, times out or is killed, except one that both leaves its process group and clears its environment, which may keep running."

	// containGroup is shell.Local with its process group alone: a process
	// that leaves the group is not stopped.
	containGroup = "Processes the command starts are stopped when it ends, times out or is killed, except processes that leave its process group (setsid, daemons that detach): those may keep running."

	// containUnknown is a shell that does not say.
	containUnknown = "This shell does not say whether the processes a command starts are stopped when it ends: processes it leaves in the background may keep running."

	// The sandbox's file system and network.
	sandboxFiles     = "Files outside the workspace directory cannot be changed, except in a private /tmp and in paths the user made writable."
	sandboxNoNetwork = "There is no network: no connection leaves the command, not even to this machine."
	sandboxNetwork   = "The network is this machine's."
	// sandboxUnixSockets is sandboxNoNetwork where the sandbox names unix
	// sockets of this machine that stay reachable (their paths follow).
	sandboxUnixSockets = "There is no network: no connection leaves the command, not even to this machine, except to these unix sockets of it: "
)

// containmentOf is what sh guarantees about the processes a command
// starts, its files and its network, as sentences for the model, worded
// from the shell's own [shell.Guarantees]. Of a shell that does not say
// (no [shell.Guarantor]) nothing is claimed.
func containmentOf(sh shell.Shell) string {
	g, ok := sh.(shell.Guarantor)
	if !ok {
		return containUnknown
	}
	return guaranteeText(g.Guarantees())
}

// guaranteeText words g for the model.
func guaranteeText(g shell.Guarantees) string {
	var out string
	switch g.Processes {
	case shell.StopsAll:
		out = containAll
	case shell.StopsMarked:
		out = containSwept
	default:
		out = containGroup
	}
	if g.ConfinedWrites {
		out += " " + sandboxFiles
	}
	switch {
	case g.NoNetwork && len(g.UnixSockets) > 0:
		out += " " + sandboxUnixSockets + strings.Join(g.UnixSockets, ", ") + "."
	case g.NoNetwork:
		out += " " + sandboxNoNetwork
	case g.ConfinedWrites:
		// A sandbox that keeps the network says so, lest the model
		// assume the isolation covers it.
		out += " " + sandboxNetwork
	}
	return out
}

// withContainment appends the shell's containment sentences to a
// description.
func withContainment(d tool.Definition, containment string) tool.Definition {
	d.Description += " " + containment
	return d
}

// withContainmentTool is a generated tool (Bash, KillShell) with the
// shell's containment at the end of its description; its behaviours are
// fields of that definition, and Execute is the generated one.
type withContainmentTool struct {
	tool.Tool
	containment string
}

// Definition returns the tool's definition, ending with what the shell
// guarantees.
func (t withContainmentTool) Definition() tool.Definition {
	return withContainment(t.Tool.Definition(), t.containment)
}

// bashPassEnv is the PassEnv of the Bash tools' commands: shell.MinimalEnv
// and then the entries of extra it does not hold. It is never nil.
func bashPassEnv(extra []string) []string {
	out := slices.Clone(shell.MinimalEnv)
	if out == nil {
		out = []string{}
	}
	for _, e := range extra {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// checkPassEnv reports the entries of Options.PassEnv that are neither a
// variable name nor a prefix ending in "*".
func checkPassEnv(entries []string) error {
	var bad []string
	for _, e := range entries {
		name := strings.TrimSuffix(e, "*")
		if (name == "" && e != "*") || strings.ContainsAny(name, "=*\x00 \t\r\n") {
			bad = append(bad, strconv.Quote(e))
		}
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("PassEnv: %s is not a variable name: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)", bad[0])
	}
	return fmt.Errorf("PassEnv: %s are not variable names: give names such as GOPATH, or a prefix ending in * such as LC_* (a lone * passes the whole environment)", strings.Join(bad, ", "))
}

// bash is the Bash tool.
func (b *shellKit) bash(ctx context.Context, in BashInput, tc tool.Context) (tool.Result, error) {
	if strings.TrimSpace(in.Command) == "" {
		return tool.Failure("The command is empty. Put the shell command to run in 'command'."), nil
	}
	timeout := bashTimeout(in.Timeout)
	dir := b.dir(tc)
	if in.RunInBackground {
		return b.background(in, dir, timeout), nil
	}
	opts := shell.Options{
		Timeout:         timeout,
		MaxCaptureBytes: bashCaptureBytes,
		Dir:             dir,
		Stdin:           nil, // EOF at once
		MergeOutput:     true,
		KillGrace:       bashKillGrace,
		PassEnv:         b.passEnv,
	}
	if tc.ReportsProgress() {
		stop := b.reportProgress(ctx, tc, &opts, timeout)
		defer stop()
	}
	res, err := b.sh.Execute(ctx, shell.Command{Line: in.Command}, opts)
	return bashResult(res, err, timeout), nil
}

// background starts in as a background command.
func (b *shellKit) background(in BashInput, dir string, timeout time.Duration) tool.Result {
	if b.bg == nil {
		return tool.Failure("Background commands are not available here: run the command without run_in_background.")
	}
	id, err := b.bg.Start(BackgroundCommand{
		Line: in.Command, Description: in.Description, Dir: dir, Timeout: timeout, PassEnv: b.passEnv,
	})
	if err != nil {
		return tool.FailureWith(err.Error(), err)
	}
	return tool.Success(fmt.Sprintf("Command running in the background with ID: %s. Read its output with BashOutput (bash_id %s) and stop it with KillShell (shell_id %s); it is stopped after %dms.",
		id, id, id, timeout.Milliseconds()))
}

// dir is the working directory of a command.
func (b *shellKit) dir(tc tool.Context) string {
	wd := tc.WorkDir()
	switch {
	case wd == "":
		return b.root
	case !filepath.IsAbs(wd) && b.root != "":
		return filepath.Join(b.root, wd)
	}
	return wd
}

// bashTimeout turns the timeout argument (milliseconds) into a duration in
// [bashMinTimeout, bashMaxTimeout]; 0, which only a direct Go caller can
// pass (the binder applies the default), means bashDefaultTimeout.
func bashTimeout(ms int) time.Duration {
	if ms == 0 {
		return bashDefaultTimeout
	}
	// Compare in milliseconds: ms * time.Millisecond could overflow.
	switch {
	case ms < int(bashMinTimeout/time.Millisecond):
		return bashMinTimeout
	case ms > int(bashMaxTimeout/time.Millisecond):
		return bashMaxTimeout
	}
	return time.Duration(ms) * time.Millisecond
}

// ExitError is the Err of a Bash result for a command that exited with a
// non-zero status.
type ExitError struct{ Code int }

func (e *ExitError) Error() string { return fmt.Sprintf("command exited with code %d", e.Code) }

// bashResult renders how a command ended: its output cut at
// bashMaxOutputChars characters, then, after the cut, nothing on success,
// "[exit code: N]" on a non-zero exit, "[timed out after Nms]" on a
// timeout and "[canceled]" when the call was canceled. "Command failed: "
// starts the answer only when the command could not be started.
func bashResult(res shell.Result, err error, timeout time.Duration) tool.Result {
	var se *shell.StartError
	var te *shell.TimeoutError
	var ce *shell.CanceledError
	switch {
	case errors.As(err, &se):
		return tool.FailureWith("Command failed: "+se.Err.Error(), err)
	case errors.As(err, &te):
		return tool.FailureWith(withMarker(commandOutput(te.Stdout, te.Stderr), fmt.Sprintf("[timed out after %dms]", timeout.Milliseconds())), err)
	case errors.As(err, &ce):
		return tool.FailureWith(withMarker(commandOutput(ce.Stdout, ce.Stderr), "[canceled]"), err)
	case err != nil:
		return tool.FailureWith("The shell failed: "+err.Error(), err)
	case res.ExitCode != 0:
		return tool.FailureWith(withMarker(commandOutput(res.Stdout, res.Stderr), fmt.Sprintf("[exit code: %d]", res.ExitCode)), &ExitError{Code: res.ExitCode})
	}
	return tool.Success(commandOutput(res.Stdout, res.Stderr))
}

// commandOutput is a command's output for the model: valid UTF-8, cut at
// bashMaxOutputChars characters. With MergeOutput stderr is empty; a Shell
// that left stderr apart gets it appended.
func commandOutput(stdout, stderr []byte) string {
	out := stdout
	if len(stderr) > 0 {
		out = append(append(make([]byte, 0, len(stdout)+len(stderr)), stdout...), stderr...)
	}
	return cutChars(shell.Text(out), bashMaxOutputChars)
}

// withMarker appends marker on a line of its own.
func withMarker(out, marker string) string {
	if out == "" || strings.HasSuffix(out, "\n") {
		return out + marker
	}
	return out + "\n" + marker
}

// cutChars returns the first n characters of s.
func cutChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// charsPrefix returns the length in bytes of the first n characters of b,
// an invalid byte counting as one character. It does not end inside a
// character.
func charsPrefix(b []byte, n int) int {
	if len(b) <= n {
		return len(b)
	}
	i := 0
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return i
}
