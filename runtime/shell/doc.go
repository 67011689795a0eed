// Package shell runs the shell commands an LLM agent asks for, with limits
// that hold: a command never outlives its timeout, never fills the heap,
// and always comes back with what it printed and how it ended.
//
// [Shell] is the interface tools are written against. [Local] runs
// commands with this machine's bash; [Sandbox] runs each in a bubblewrap
// sandbox of its own (namespaces, a read-only host, limits). Both share one
// runner, so capture, timeouts and the kill sequence behave the same. The
// package imports nothing but the standard library.
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
// Under Local the command inherits this process's environment (or only
// what Options.PassEnv names; [MinimalEnv] is a ready allow-list) plus
// Options.Env. The sandbox builds its own: PATH, HOME, LANG, TERM, USER
// and TMPDIR=/tmp, plus the host variables PassEnv names and Env; nothing
// else of this process's environment gets in. Whatever those say, the
// variables that make bash run code or set options before the command are
// removed: BASH_ENV, ENV, SHELLOPTS, BASHOPTS and exported functions
// BASH_FUNC_*. bash runs with --norc, which stops distribution builds from
// sourcing ~/.bashrc when SSH_CLIENT is set. Stdin is at EOF unless
// Options.Stdin gives one.
//
// # Containment (Linux)
//
// What each shell guarantees when Execute returns, whatever the command
// did (`cmd &`, nohup, setsid, `set -m` and disown, double forks):
//
//   - [Local] with a cgroup (the default where this process may create
//     one; [Local.Containment] says which): no process the command started
//     is left. Each run starts inside a child cgroup of its own (clone3
//     with CLONE_INTO_CGROUP) and ends with cgroup.kill, which kills every
//     descendant wherever it went; the cgroup is removed before Execute
//     returns. NewLocal finds this process's cgroup v2 from
//     /proc/self/cgroup and the cgroup2 mount (/sys/fs/cgroup, or
//     /sys/fs/cgroup/unified on hybrid systems) and proves once that it may
//     start a process in a child there: as root, or in a delegated subtree
//     (systemd Delegate=yes, a user session). A child without controllers
//     may sit beside the processes of its parent. Options.Cgroup names
//     another parent for a run, and fails the run if it is not usable.
//   - [Local] without a cgroup: every run's environment carries a mark
//     (TOOLGEN_SHELL_RUN=<unique>). After the process group is killed,
//     /proc is swept: every process started since the run began whose
//     environment holds the mark is stopped (SIGSTOP, until a pass finds
//     none running, so that nothing forks behind the sweep), then killed,
//     each through a pidfd opened before its mark was checked, so that a
//     reused pid is never signalled. What escapes: a process that starts
//     with an environment without the mark (env -i, a daemon that clears
//     it) and left the process group.
//   - [Sandbox]: nothing survives, marked or not. Each command runs in a
//     new pid namespace (bwrap --unshare-pid --die-with-parent); when
//     bash exits, or the run is stopped, the namespace's pid 1 exits and
//     the kernel kills every process in it. On timeout or cancellation
//     SIGTERM goes to every process in the namespace (a stop that comes
//     before bwrap has reported the namespace, or while its pid 1 is
//     still alone in it, is sent once the command's processes are
//     there), then, after KillGrace, SIGKILL to its pid 1; bwrap exits
//     only once the namespace is empty.
//
// In every case bash (or bwrap) starts in a process group of its own
// (Setpgid), with Pdeathsig SIGKILL so that it dies if this program dies.
// On timeout or cancellation the group gets SIGTERM and SIGCONT
// (exec.Cmd.Cancel), then, once bash has exited or Options.KillGrace has
// passed, SIGKILL. When bash exits, on its own or not, the group is killed
// too. Execute waits for bash without reaping it first (waitid WNOWAIT),
// kills the group while bash is a zombie, then reaps: the group id cannot
// have been reused, so no unrelated process is ever signalled.
// exec.Cmd.WaitDelay (KillGrace plus one second) bounds the wait for
// output pipes still held open, so a process holding them cannot hang
// Execute. Pdeathsig fires when the OS thread that started the child
// exits, which the Go runtime does not do for ordinary goroutines.
//
// A child subreaper (PR_SET_CHILD_SUBREAPER) was not chosen: it is
// process-wide and would make this package reap, and race with, children
// it does not own.
//
// # The sandbox
//
// [NewSandbox] checks its options and runs one command to prove that
// bubblewrap works here; its error wraps [ErrSandboxUnavailable] when it
// does not. Each command then gets, from bwrap:
//
//   - new user (where the kernel allows it), pid, ipc, uts and cgroup
//     namespaces, and a network namespace with only its own loopback
//     unless SandboxOptions.Network (no connection leaves it, not even to
//     this machine's 127.0.0.1); with the network off, a seccomp filter
//     makes socket(AF_UNIX) fail with EACCES, so that no unix socket of the
//     host is reached wherever it lies (socketpair still works for stream
//     and seqpacket pairs; a datagram pair, whose unbound socket could
//     send to a host socket by path, fails with EACCES; io_uring
//     and system calls of another architecture fail with ENOSYS);
//     SandboxOptions.AllowUnixSockets names host sockets that stay
//     reachable: the filter cannot see the path a connect names, so then
//     socket(AF_UNIX) is allowed and the host is shown only through its
//     system directories (/usr, /bin, /sbin, /lib*, /etc, /opt, /sys,
//     /nix/store and /nix/var/nix/profiles, read-only) besides the
//     sandbox's own binds and the named sockets, with bwrap's root
//     read-only, which puts every other socket's path out of reach (/var,
//     /srv, /home and the rest are not there); each run also covers with
//     /dev/null the sockets this machine's network namespace has bound
//     (/proc/net/unix) inside what is shown, Root included, unless named.
//     What stays reachable: a socket file inside what is shown that was
//     bound in another network namespace, by a relative path, or moved
//     since. Bind sources are resolved once and are never paths the
//     sandbox writes, so no link widens them, and [Guarantees].UnixSockets
//     lists the named sockets. A proxy on an inherited descriptor, with
//     the filter kept, was not chosen: clients (psql, redis-cli, a test's
//     driver) connect by path, which needs socket(AF_UNIX);
//   - the host file system read-only; SandboxOptions.Root (the workspace)
//     and Writable read-write; ReadOnly paths inside them read-only; a
//     private /tmp and /run (the host's sockets live under /run, and a
//     socket can be connected to on a read-only mount), each a tmpfs of
//     at most Limits.TmpSize (512 MiB by default) rather than half the
//     host's memory; a minimal /dev, read-only but for its /dev/shm, a
//     tmpfs bounded the same way (bwrap's /dev is a tmpfs without a bound)
//     and its own /proc, with /proc/sys read-only (a sysctl's write
//     permission is checked against the effective uid alone, so host root
//     in the sandbox, without any capability, could otherwise write the
//     host's global ones, kernel.core_pattern among them); $HOME an empty tmpfs of the run's own with only
//     [DefaultHomeVisible] (git's configuration, the Go module cache,
//     cargo's, rustup's, pyenv's and nvm's toolchains) bound into it
//     read-only, unless SandboxOptions.ShowHome (the home is $HOME, or
//     the user database's where HOME is unset; NewSandbox fails where
//     neither names one rather than hide nothing), and SandboxOptions.Cache
//     bound at $HOME/.cache where given; [DefaultHide] (credentials
//     under $HOME: ~/.ssh, ~/.aws, ..., and /etc/shadow and /etc/gshadow)
//     or SandboxOptions.Hide made unreadable;
//   - the paths of [MandatoryReadOnly] under Root (.git/config,
//     .git/config.worktree, .git/commondir, .git/hooks/, .git/modules/,
//     .git/worktrees/, .gitmodules, shell start-up files, .envrc, editor
//     and agent settings) bound read-only for each run, so that nothing
//     planted now runs on the host later (git config core.fsmonitor fails;
//     add, commit, branch and stash still work); those that did not exist
//     when the run started are removed after it if it created them, and a
//     note in the output says so; Root/.git itself, a directory, is bound
//     onto itself so that it cannot be renamed or removed, and a .git that
//     is not the one the run started with (device and inode) is removed
//     after it; where there was no .git, one the run creates (directory,
//     gitdir file or link) is removed: a sandboxed command cannot make a
//     repository git on the host then trusts. Every removal goes through
//     an os.Root on Root, so a link the command planted is removed as a
//     link and never followed;
//   - a new session (no TIOCSTI into this program's terminal), all
//     capabilities dropped even for root, and only file descriptors 0, 1
//     and 2 (those this process inherited without close-on-exec are marked
//     close-on-exec before each run);
//   - per-process limits (set with prlimit(2) before the command starts):
//     CPU time, file size, processes (RLIMIT_NPROC, which the kernel does not apply to root) and address
//     space (RLIMIT_AS); where each run can get a cgroup v2 of its own
//     with the pids controller (the automatic cgroup of [Local]), or
//     Options.Cgroup gives one, pids.max (and memory.max) bound the whole
//     command, root included, and [Sandbox.Guarantees] reports the cap
//     (ProcessBound [BoundPidsCgroup]); on a host whose pids controller is
//     cgroup v1 each run gets a v1 pids group the same way (and, where the
//     memory controller is cgroup v1, a v1 memory group whose
//     memory.limit_in_bytes is Limits.Memory, which bounds the run's
//     memory in total, shared memory included: [Guarantees].MemoryCap);
//     where no pids cgroup can be made, on Linux 6.14 and later (which
//     keep a pid_max per pid namespace), each run's pid namespace gets pid_max, written
//     by bwrap while it sets the sandbox up, before /proc/sys is bound
//     read-only and before the command exists, which binds root too,
//     with a floor of 300 processes ([BoundPidMax]); elsewhere nothing
//     binds root ([BoundNone]). Running the command as a non-root uid
//     inside the sandbox would not help: bwrap maps it to the host uid of
//     its caller, and the kernel exempts host root from RLIMIT_NPROC.
//
// The environment variables bwrap passes are set by Execute, never on
// bwrap's command line, where other users could read them in /proc.
// With Network on, unix sockets outside /run, /tmp and the hidden paths
// are reachable, and so are abstract sockets. The seccomp filter is built
// for amd64 and arm64; elsewhere a sandbox without network is refused
// (an error wrapping ErrSandboxUnavailable) rather than run without it.
//
// On systems other than Linux, [Local.Execute] fails with a *StartError.
package shell
