package shell

import (
	"errors"
	"time"
)

// ErrSandboxUnavailable is wrapped by the error of [NewSandbox] when this
// machine cannot run the sandbox: bubblewrap (bwrap) is not installed, or
// it is and cannot create the namespaces (a kernel or a security policy
// that forbids them). The error text carries bwrap's own message. A
// mistake in [SandboxOptions] is a different error, so that a caller
// falling back to [Local] on ErrSandboxUnavailable does not also fall back
// on a typo.
var ErrSandboxUnavailable = errors.New("sandbox unavailable")

// SandboxOptions configure a [Sandbox]. Only Root is required.
type SandboxOptions struct {
	// Root is the workspace: the host directory commands run in and may
	// write to. It must exist and be a directory; "/" is refused (it would
	// make the whole file system writable). A relative Root is taken from
	// the current directory; symbolic links are resolved once, by
	// NewSandbox.
	Root string

	// Network lets commands use this machine's network. When false (the
	// default) each command runs in a network namespace of its own, with
	// nothing but its own loopback interface: no connection leaves it, not
	// even to this machine's 127.0.0.1.
	Network bool

	// AllowUnixSockets are host unix sockets (a database the tests need,
	// say) that commands may connect to while Network is off; each must
	// exist and be a socket. seccomp cannot see the path a connect(2)
	// names, so with a non-empty list socket(AF_UNIX) is allowed and the
	// host is shown through a narrower view instead: only the system
	// directories (/usr, /bin, /sbin, /lib*, /etc, /opt, /sys, /nix/store
	// and /nix/var/nix/profiles), read-only, besides what the sandbox
	// binds anyway (Root, Writable, the visible home paths, the private
	// /tmp, /run and $HOME) and these sockets; /var, /srv, /mnt, /media,
	// /home and the rest are not there, so no socket of theirs is
	// reachable, and each run covers the sockets this machine's network
	// namespace has bound inside what is shown. Each socket is bound at
	// its real path (links resolved once, by NewSandbox) and at the path
	// given where that differs and lies outside Root, Writable and Cache
	// (/var/run/x.sock as well as /run/x.sock); one inside Root or a
	// Writable path is there already and is only left uncovered. The
	// list needs the home hidden (ShowHome false: an agent's socket under
	// $HOME would be reachable) and a socket outside the Hide paths; with
	// Network on it is not needed and is refused.
	AllowUnixSockets []string

	// Writable are more host paths (directories or files) that commands
	// may write to, bound at the same place (a build cache, say). Each
	// must exist.
	Writable []string

	// ReadOnly are paths inside Root or Writable that commands may read
	// but not change (Root/.git, say). Paths that do not exist are skipped.
	ReadOnly []string

	// Hide are paths commands must not read: a directory shows up empty,
	// a file cannot be opened, neither can be written. A leading "~/" stands for
	// $HOME. Paths that do not exist are skipped; a path that holds Root or
	// a Writable path is an error. nil means [DefaultHide]; a non-nil empty
	// slice hides nothing.
	Hide []string

	// ShowHome leaves $HOME readable as the rest of the host is (DefaultHide
	// still applies). By default $HOME is an empty tmpfs (bounded by
	// Limits.TmpSize, writable, gone after the run) with only HomeVisible
	// bound into it read-only, so that a credential the hide list does not
	// name (~/.vault-token, ~/.pgpass, an agent's credentials) is not there
	// to read. A Root or Writable path under $HOME is bound as usual.
	ShowHome bool

	// HomeVisible are the paths under $HOME a command may read when the
	// home is hidden, "~/"-relative or absolute; those that do not exist
	// are skipped. nil means [DefaultHomeVisible]; append to it to add more.
	HomeVisible []string

	// Cache is a host directory bound read-write at $HOME/.cache when the
	// home is hidden, so that build caches (GOCACHE, pip's, ...) last
	// between commands. "" (the default) leaves $HOME/.cache in the tmpfs:
	// every command starts with a cold cache. A cache the sandbox writes
	// is a cache its commands can poison: never give the host's own.
	Cache string

	// Limits bound what each process of a command may use.
	Limits Limits

	// Bwrap is the bubblewrap executable; "" looks "bwrap" up in PATH.
	Bwrap string

	// noCgroup makes no pids cgroup for the runs (tests of the bound that
	// holds without one).
	noCgroup bool

	// hiddenHome is $HOME with its links followed when the home is hidden,
	// else "" (set by NewSandbox).
	hiddenHome string
	// home is the host user's home directory (see hostHome), or "" where
	// none was found and none is needed.
	home string
	// sockets are AllowUnixSockets resolved (set by NewSandbox).
	sockets []namedSocket
}

// DefaultHomeVisible is what a command sees of $HOME when
// SandboxOptions.HomeVisible is nil: what toolchains need to build and
// test offline, read-only, and no credentials: git's configuration files
// (not its credentials), the Go module cache and installed Go programs,
// cargo's programs, registry and git checkouts and rustup's toolchains
// (not cargo's credentials), pyenv's and nvm's interpreters, and
// ~/.local/bin. Their writes land in the tmpfs home or fail.
var DefaultHomeVisible = []string{
	"~/.gitconfig", "~/.config/git/config", "~/.config/git/ignore", "~/.config/git/attributes",
	"~/go/pkg/mod", "~/go/bin",
	"~/.cargo/bin", "~/.cargo/registry", "~/.cargo/git", "~/.cargo/config.toml", "~/.rustup",
	"~/.pyenv", "~/.nvm", "~/.local/bin",
}

// DefaultHide is what the sandbox hides when SandboxOptions.Hide is nil:
// the usual homes of credentials under $HOME (keys, cloud and registry
// tokens). The rest of $HOME stays readable so that tools find their
// configuration (~/.gitconfig, say).
var DefaultHide = []string{
	"~/.ssh", "~/.gnupg", "~/.aws", "~/.azure", "~/.config/gcloud",
	"~/.kube", "~/.docker", "~/.netrc", "~/.git-credentials",
	"~/.config/gh", "~/.npmrc", "~/.pypirc", "~/.cargo/credentials.toml",
	"~/.password-store",
	// Outside $HOME: the password hashes, which root can read.
	"/etc/shadow", "/etc/gshadow",
}

// Limits are the resource limits of every process a sandboxed command
// starts. In each field 0 means the default and a negative value means no
// limit. They are set with prlimit(2) on bwrap's pid 1 while it waits to
// start the command, lowered to the hard limits of this process where
// those are lower, and cannot be raised by the command; a limit that
// cannot be set fails the run with a StartError before the command starts.
type Limits struct {
	// CPUTime is the CPU time each process may use (RLIMIT_CPU, soft and
	// hard: a process that has used it is killed, exit status 137).
	// Default [DefaultLimitCPUTime]. Whole seconds, rounded up.
	CPUTime time.Duration

	// FileSize is the largest file a process may write, in bytes
	// (RLIMIT_FSIZE; SIGXFSZ, exit status 153). Default
	// [DefaultLimitFileSize]. Rounded down to KiB, at least 1 KiB.
	FileSize int64

	// Processes bounds the processes of a command. Where this process can
	// give each run a cgroup of its own with the pids controller (as
	// [Local] finds out: cgroup v2, delegated or as root; or a v1 pids
	// hierarchy), or Options.Cgroup gives one, it is the run's pids.max,
	// which binds root too. Where no such cgroup can be made, on Linux
	// 6.14 and later, the run's pid namespace gets pid_max Processes+1
	// (at least 301), which binds root too. [Guarantees].ProcessCap and
	// ProcessBound say which holds. It is also RLIMIT_NPROC, which counts
	// every process of the same real user id, inside the sandbox or not,
	// and which the kernel does not apply to root at all. Default
	// [DefaultLimitProcesses].
	Processes int

	// Memory bounds the address space of each process, in bytes
	// (RLIMIT_AS: allocations past it fail). Default [DefaultLimitMemory].
	// Where the run's cgroup (its own cgroup v2, or Options.Cgroup) has
	// the memory controller, memory.max is set too, which bounds the whole
	// command; on a host whose memory controller is cgroup v1 (a hybrid
	// hierarchy) each run gets a v1 memory group whose
	// memory.limit_in_bytes (and memory.memsw.limit_in_bytes, where swap
	// is accounted) is Memory, which does the same. Either counts shared
	// memory (memfd, tmpfs such as /dev/shm, System V) and every process
	// together; [Guarantees].MemoryCap says whether it holds. Rounded down
	// to KiB (the address space limit).
	Memory int64

	// TmpSize bounds each tmpfs the sandbox mounts (its own /tmp, /run and
	// /dev/shm, the hidden $HOME, and the empty directories that hide host
	// paths; /dev itself is read-only), in bytes: a write
	// past it fails with ENOSPC. Without it a tmpfs may grow to half the
	// host's memory, and the host's memory is what it takes. Default
	// [DefaultLimitTmpSize]; rounded down to KiB. Needs bubblewrap 0.8 or
	// later (its --size option).
	TmpSize int64
}

// Defaults of [Limits].
const (
	DefaultLimitCPUTime   = 10 * time.Minute
	DefaultLimitFileSize  = 1 << 30
	DefaultLimitProcesses = 1024
	DefaultLimitMemory    = 8 << 30
	DefaultLimitTmpSize   = 512 << 20
)

// Sandbox runs each command with bubblewrap, in namespaces of its own; see
// the package documentation (Containment) for what it guarantees.
//
// It honours every field of [Options] as [Local] does, with these
// differences, all of them what isolation means:
//   - the environment is built afresh: PATH, HOME, LANG, TERM, USER from
//     this process (with defaults where unset) and TMPDIR=/tmp, plus the
//     host variables PassEnv names (nil or empty: none) and Env;
//   - Dir "" is Root, a relative Dir is taken from Root, and a Dir outside
//     Root is a *StartError;
//   - Result.Signal is 0 unless bwrap itself was killed: bwrap reports a
//     command that died of signal n as exit status 128+n, which ExitCode
//     carries just as Local's does.
//
// A Sandbox is safe for concurrent use; each command gets its own
// namespaces and its own /tmp.
type Sandbox struct {
	opts    SandboxOptions // resolved
	bwrap   string
	bash    string
	args    []string      // bwrap's arguments up to the command
	rlimits []rlimitValue // set on bwrap's pid 1 before the command starts
	base    []string      // the environment before PassEnv and Env
	desc    string
	seccomp []byte // the filter that refuses unix sockets (network off), or nil
	pids    string // the cgroup v2 directory each run gets a child of, with pids.max; "" where none can be made
	pidsV1  string // without pids: the cgroup v1 pids directory each run gets a child of, or ""
	// memV2 says that the cgroup v2 each run gets (pids) has the memory
	// controller, so memory.max bounds the run.
	memV2 bool
	// memV1, without pids: the cgroup v1 memory directory each run gets a
	// child of, with memory.limit_in_bytes Limits.Memory, or "".
	memV1 string
	// Without either: the pid_max bwrap writes in each run's pid
	// namespace, and the descriptor it reads it from, or 0 and 0 (see
	// pidmax_linux.go).
	pidMax, pidMaxFD int
}

var _ Shell = (*Sandbox)(nil)

// NewSandbox checks opts, finds bwrap and bash, and runs one command in a
// sandbox built from opts to prove that this machine can. Its error wraps
// [ErrSandboxUnavailable] when bwrap is missing or cannot create the
// sandbox, with bwrap's message; other errors name the option that is
// wrong.
func NewSandbox(opts SandboxOptions) (*Sandbox, error) {
	return newSandbox(opts)
}

// Containment says how this sandbox isolates a command and which limits
// hold, for logs: the namespaces, the file system, the network, the
// limits. Its wording is not a contract; [Sandbox.Guarantees] is what a
// program reads.
func (s *Sandbox) Containment() string { return s.desc }
