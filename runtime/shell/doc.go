// Package shell runs the shell commands an LLM agent asks for, with limits
// that hold: a command never outlives its timeout, never fills the heap,
// and always comes back with what it printed and how it ended.
//
// [Shell] is the interface tools are written against; [Local] runs commands
// with this machine's bash. Another implementation (a container, a remote
// sandbox) plugs in behind the same interface. The package imports nothing
// but the standard library.
//
// # Results and errors
//
// A command that ran is a [Result]: exit code (127 for a command not found,
// 128+n for death by signal n), stdout, stderr, the byte counts, a Truncated
// flag and the duration. Errors are for runs that did not end on their own:
// [*StartError] (could not start), [*TimeoutError] (Options.Timeout
// elapsed) and [*CanceledError] (ctx was done; it wraps ctx.Err()). The
// last two carry the partial output, and the Result returned with them
// holds it too.
//
// Options.Timeout 0 means no timeout of the shell's own: the run is then
// bounded by ctx alone. Callers that run model-written commands must pass a
// positive Timeout; the Bash tool always does.
//
// # Output
//
// Each stream is captured by a writer that never fails (a failing writer
// would kill the command with SIGPIPE and hide its exit code) and holds at
// most Options.MaxCaptureBytes (default [DefaultMaxCaptureBytes]; there is
// no unbounded mode). Past the cap bytes are counted and dropped while
// reading, so memory stays flat whatever the command prints. What is kept
// is the head and the tail, about half the cap each, joined by a line
// "[... N bytes omitted ...]": the start of a log says what ran, its end
// says how it failed. Options.MergeOutput puts stderr on the stdout pipe
// (true interleaving, as `2>&1`). Options.LiveStdout and
// Options.LiveStderr receive the output as it is produced, for callers
// that read a command while it runs (a background-command manager).
//
// Result bytes are raw. [Text] makes them valid UTF-8 for a model, each
// invalid run replaced by U+FFFD; the capture cuts head and tail at UTF-8
// boundaries so truncation does not add invalid bytes of its own.
//
// # Environment and input
//
// The command inherits this process's environment (or only what
// Options.PassEnv names; [MinimalEnv] is a ready allow-list) plus
// Options.Env. Whatever those say, the variables that make bash run code or
// set options before the command are removed: BASH_ENV, ENV, SHELLOPTS,
// BASHOPTS and exported functions BASH_FUNC_*. bash runs with --norc, which
// stops distribution builds from sourcing ~/.bashrc when SSH_CLIENT is set.
// Stdin is at EOF unless Options.Stdin gives one.
//
// # Containment (Linux)
//
// bash starts in a process group of its own (Setpgid), with Pdeathsig
// SIGKILL so that it dies if this program dies. On timeout or cancellation
// the group gets SIGTERM and SIGCONT (exec.Cmd.Cancel), then, once bash has
// exited or Options.KillGrace has passed, SIGKILL. When bash exits, on its
// own or not, the group is killed too, so background children (`sleep 1000
// &`, `(sleep 1000 &)`, `nohup cmd &`) do not outlive the command; children
// born at any time are members, so no snapshot can miss them. Execute
// waits for bash without reaping it first (waitid WNOWAIT), kills the group
// while bash is a zombie, then reaps: the group id cannot have been reused,
// so no unrelated process is ever signalled. exec.Cmd.WaitDelay
// (KillGrace plus one second) bounds the wait for output pipes still held
// open, so a process holding them cannot hang Execute.
//
// What still escapes the process group: a process that leaves it itself,
// with setsid (setsid(1), daemons that double-fork and call setsid) or
// setpgid. Such a process keeps running after Execute returns; output it
// writes after WaitDelay is lost. Pdeathsig covers bash only, and it fires
// when the OS thread that started bash exits, which the Go runtime does not
// do for ordinary goroutines.
//
// The stronger option is Options.Cgroup: a cgroup v2 directory this program
// may create children in (a delegated subtree, e.g. systemd Delegate=yes).
// Each run then starts inside its own child cgroup (clone3 with
// CLONE_INTO_CGROUP, through SysProcAttr.UseCgroupFD) and ends with
// cgroup.kill, which kills every descendant whether or not it left the
// group; Execute removes the cgroup before returning. A child subreaper
// (PR_SET_CHILD_SUBREAPER) was not chosen: it is process-wide and would
// make this package reap, and race with, children it does not own.
//
// On systems other than Linux, [Local.Execute] fails with a *StartError.
package shell
