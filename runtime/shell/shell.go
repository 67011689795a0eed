package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"
)

// Shell runs one command line and reports how it ended.
//
// Execute returns a [Result] for every command that started and ended on its
// own, whatever its exit code: a non-zero exit (127 for a command not found,
// 128+n for death by signal n) is a value, not an error. The error is
// non-nil only when
//   - the command could not be started: a [*StartError], with a zero Result;
//   - Options.Timeout elapsed: a [*TimeoutError], carrying the partial output;
//   - ctx was canceled or its deadline passed: a [*CanceledError], carrying the
//     partial output and wrapping ctx.Err().
//
// For a timeout or a cancellation the Result is filled as well (the same
// partial output, Duration, ExitCode -1), so callers may use either.
//
// An implementation must honour every field of [Options] and rely on no
// default the caller did not ask for; callers such as the Bash tool pass
// every limit explicitly so that implementations can be swapped.
type Shell interface {
	Execute(ctx context.Context, cmd Command, opts Options) (Result, error)
}

// Command is what to run.
type Command struct {
	// Line is the command line, interpreted by bash (`bash -c Line`). An
	// empty line runs nothing and exits 0; rejecting blank commands is the
	// caller's business.
	Line string
}

// Defaults applied when the corresponding Options field is zero.
const (
	// DefaultMaxCaptureBytes is the capture cap per stream when
	// Options.MaxCaptureBytes is 0. Capture is never unbounded.
	DefaultMaxCaptureBytes = 10 << 20

	// DefaultKillGrace is the time between SIGTERM and SIGKILL when
	// Options.KillGrace is 0.
	DefaultKillGrace = time.Second
)

// Options are the limits and the surroundings of one run. The zero value is
// valid: no timeout of its own (see Timeout), DefaultMaxCaptureBytes per
// stream, the current directory, this process's environment minus the
// scrubbed variables, stdin at EOF.
type Options struct {
	// Timeout bounds the run. When it elapses the whole process group gets
	// SIGTERM, then SIGKILL after KillGrace, and Execute returns a
	// *TimeoutError with the output captured so far.
	//
	// 0 MEANS NO TIMEOUT OF ITS OWN: the run is then bounded only by ctx, and
	// with a ctx that is never canceled a command that never ends makes
	// Execute wait forever. That is for library callers who bound the run
	// through ctx; tools that run model-written commands (the Bash tool) must
	// always pass a positive Timeout. Negative is an error.
	Timeout time.Duration

	// MaxCaptureBytes bounds the bytes kept in memory for each stream
	// (stdout, stderr). 0 means DefaultMaxCaptureBytes; negative is an error.
	// Past the cap the output is counted and dropped, never refused: the
	// command keeps running and its exit code is not disturbed. What is kept
	// is the head and the tail of the stream (each about half of the cap)
	// around an elision marker; see Result.Stdout.
	MaxCaptureBytes int

	// Dir is the working directory; "" means the current directory of this
	// process. A directory that does not exist is a *StartError. (In a
	// [Sandbox], "" is its Root, a relative Dir is taken from Root, and a
	// Dir outside Root is a *StartError.)
	Dir string

	// PassEnv names the variables of this process's environment the command
	// inherits. An entry ending in "*" matches every name with that prefix
	// ("LC_*"). As with exec.Cmd.Env, nil and empty differ: nil passes the
	// whole environment, an empty non-nil slice passes none.
	// [MinimalEnv] is a ready allow-list. (A [Sandbox] starts from its own
	// minimal environment instead, and PassEnv adds to it; nil passes
	// nothing more.)
	PassEnv []string

	// Env holds "KEY=value" entries set on top of what PassEnv lets through;
	// they win over inherited values. An entry without "=" or with a NUL
	// byte is a *StartError.
	//
	// Whatever PassEnv and Env say, the variables that make bash run code or
	// change behaviour before the command starts are removed: BASH_ENV, ENV,
	// SHELLOPTS, BASHOPTS and exported functions (BASH_FUNC_*).
	Env []string

	// Stdin is the command's standard input. nil means EOF at once
	// (/dev/null). An *os.File is handed to the command directly; any other
	// reader is copied in by a goroutine that Execute does not wait for once
	// the command has ended, so a Read that blocks forever cannot hang
	// Execute (the goroutine ends when that Read returns).
	Stdin io.Reader

	// MergeOutput sends stderr to the same pipe as stdout (as `2>&1`):
	// Result.Stdout then holds both streams in the exact order the command
	// wrote them, under one cap, and Result.Stderr is empty.
	MergeOutput bool

	// LiveStdout and LiveStderr, when non-nil, receive every byte of the
	// corresponding stream as it is read, before any capping (with
	// MergeOutput, both streams go to LiveStdout and LiveStderr is unused).
	// They exist for callers that read output while the command runs, such
	// as a background-command manager; such a caller keeps its own bounded
	// buffer. Writes are never concurrent, even when both fields hold the
	// same writer; p must not be retained after Write returns. A slow writer
	// slows the command (the pipe fills up). A writer that returns an error
	// is not called again for this run; the error is not reported and does
	// not reach the command. All writes have returned when Execute returns.
	LiveStdout, LiveStderr io.Writer

	// KillGrace is the time between SIGTERM and SIGKILL on timeout or
	// cancellation, measured against the direct child (bash): as soon as it
	// has exited, or the grace has passed, the whole group gets SIGKILL.
	// 0 means DefaultKillGrace; negative is an error.
	KillGrace time.Duration

	// Cgroup, when non-empty, is a cgroup v2 directory this process may
	// create child cgroups in (a delegated subtree). Each run then gets its
	// own child cgroup: bash starts inside it (clone3 with
	// CLONE_INTO_CGROUP), and the run ends by writing cgroup.kill, which
	// also kills processes that left the process group (setsid, setpgid,
	// daemons). The child cgroup is removed before Execute returns. When the
	// directory is not a usable cgroup v2 (or the kernel lacks cgroup.kill,
	// Linux < 5.14) Execute fails with a *StartError rather than silently
	// running with weaker containment. Without it, [Local] uses a child of
	// its own cgroup where it may (see [Local.Containment]); a [Sandbox]
	// needs none, but with one it also sets pids.max and memory.max there
	// when the parent enables those controllers.
	Cgroup string
}

// MinimalEnv is an allow-list for Options.PassEnv: enough for ordinary
// tools to work, without the rest of this process's environment (tokens,
// API keys).
var MinimalEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "TZ",
	"LANG", "LANGUAGE", "LC_*",
}

// Result is how a command ended and what it printed.
type Result struct {
	// ExitCode is the exit status of bash: 0 on success, 127 when the
	// command was not found, 128+n when bash died of signal n (as $? in a
	// shell reports it). It is -1 when the run was stopped by a timeout or
	// a cancellation.
	ExitCode int

	// Stdout and Stderr are the raw bytes the command wrote, possibly not
	// valid UTF-8 (use [Text] before showing them to a model). When a
	// stream exceeded MaxCaptureBytes they hold its head, an elision marker
	// on a line of its own ("[... N bytes omitted ...]") and its tail; the
	// head and the tail are cut at UTF-8 boundaries so the cut itself does
	// not create invalid text. Their length is at most MaxCaptureBytes plus
	// the marker (under 64 bytes). nil when nothing was written.
	Stdout, Stderr []byte

	// Truncated reports that at least one stream exceeded MaxCaptureBytes.
	Truncated bool

	// StdoutBytes and StderrBytes count every byte the command wrote to
	// each stream, kept or not.
	StdoutBytes, StderrBytes int64

	// Duration is the wall time from start to the end of the run, the
	// killing and reaping included.
	Duration time.Duration

	// Signal is the signal bash died of when it did not exit on its own
	// (ExitCode is then 128+Signal), else 0. After a timeout or a
	// cancellation it is the signal that ended it, if any.
	Signal syscall.Signal
}

// StartError reports a command that could not be started: invalid Options,
// bash not found, a missing working directory, a failed fork, an unusable
// Cgroup. A command that starts and is not found by bash is not a
// StartError: it exits 127.
type StartError struct {
	Err error
}

func (e *StartError) Error() string { return "shell: cannot start command: " + e.Err.Error() }

// Unwrap returns the cause.
func (e *StartError) Unwrap() error { return e.Err }

// TimeoutError reports a run stopped because Options.Timeout elapsed. The
// whole process group has been killed and reaped by the time it is
// returned.
type TimeoutError struct {
	// Timeout is the Options.Timeout that elapsed.
	Timeout time.Duration
	// Stdout and Stderr are the output captured before the kill, shaped as
	// in Result.
	Stdout, Stderr []byte
	// Truncated is as in Result.
	Truncated bool
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("shell: command timed out after %v", e.Timeout)
}

// CanceledError reports a run stopped because ctx was canceled or its
// deadline passed. The whole process group has been killed and reaped by
// the time it is returned. errors.Is(err, context.Canceled) (or
// context.DeadlineExceeded) holds, and so does errors.Is for a cause given
// with context.WithCancelCause.
type CanceledError struct {
	// Err is ctx.Err().
	Err error
	// Cause is context.Cause(ctx); it equals Err unless a cause was given.
	Cause error
	// Stdout and Stderr are the output captured before the kill, shaped as
	// in Result.
	Stdout, Stderr []byte
	// Truncated is as in Result.
	Truncated bool
}

func (e *CanceledError) Error() string {
	if e.Cause != nil && e.Cause != e.Err {
		return "shell: command canceled: " + e.Cause.Error()
	}
	return "shell: command canceled: " + e.Err.Error()
}

// Unwrap returns ctx.Err() and, when it differs, the cause.
func (e *CanceledError) Unwrap() []error {
	if e.Cause == nil || e.Cause == e.Err {
		return []error{e.Err}
	}
	return []error{e.Err, e.Cause}
}

// Text returns b as valid UTF-8 for a model: each run of bytes that is not
// valid UTF-8 is replaced by U+FFFD, nothing is dropped silently. Valid
// input is returned unchanged.
func Text(b []byte) string {
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}

func (o *Options) validate() error {
	var errs []error
	if o.Timeout < 0 {
		errs = append(errs, fmt.Errorf("negative Timeout %v", o.Timeout))
	}
	if o.MaxCaptureBytes < 0 {
		errs = append(errs, fmt.Errorf("negative MaxCaptureBytes %d", o.MaxCaptureBytes))
	}
	if o.KillGrace < 0 {
		errs = append(errs, fmt.Errorf("negative KillGrace %v", o.KillGrace))
	}
	return errors.Join(errs...)
}

func (o *Options) captureLimit() int {
	if o.MaxCaptureBytes == 0 {
		return DefaultMaxCaptureBytes
	}
	return o.MaxCaptureBytes
}

func (o *Options) killGrace() time.Duration {
	if o.KillGrace == 0 {
		return DefaultKillGrace
	}
	return o.KillGrace
}
