package shell

import "runtime"

// Guarantees is what a shell enforces for every command it runs, for a
// caller that tells a model what to expect (the Bash tool words its
// description from it). Each field claims only what holds for every
// command, whatever the command does.
type Guarantees struct {
	// Processes says which of the processes a command starts are stopped
	// when its run ends, times out or is canceled.
	Processes Reach
	// ConfinedWrites reports that the command cannot change files outside
	// the workspace (and the paths made writable for it).
	ConfinedWrites bool
	// NoNetwork reports that no connection leaves the command, not even to
	// this machine, but to the unix sockets UnixSockets names.
	NoNetwork bool
	// UnixSockets are the host's unix sockets a command without network
	// can connect to (SandboxOptions.AllowUnixSockets, links resolved), or
	// nil.
	UnixSockets []string
	// ProcessCap is the most processes (threads included) a command may
	// have at once, root included, or 0 where no such cap holds (then only
	// RLIMIT_NPROC bounds them, and not for root). ProcessBound says what
	// enforces it.
	ProcessCap int
	// ProcessBound is what enforces ProcessCap.
	ProcessBound ProcessBound
	// MemoryCap is the most memory, in bytes, a command's processes may be
	// charged for together, shared memory (memfd, tmpfs such as /dev/shm,
	// System V) included, or 0 where no such cap holds (then only each
	// process's address space is bounded, and shared memory, which outlives
	// the process that wrote it, is bounded by nothing but tmpfs sizes).
	// It is a memory cgroup of the run's own: memory.max (cgroup v2) or
	// memory.limit_in_bytes (cgroup v1, on a hybrid host). A command that
	// reaches it is refused memory or killed by the kernel.
	MemoryCap int64
}

// ProcessBound is what bounds the number of a command's processes, root
// included.
type ProcessBound int

const (
	// BoundNone: nothing that binds root. The sandbox still sets
	// RLIMIT_NPROC, which binds other users (counting every process of
	// the same user, inside the sandbox or not).
	BoundNone ProcessBound = iota
	// BoundPidsCgroup: pids.max of a cgroup of the run's own (cgroup v2,
	// or v1 on a hybrid host).
	BoundPidsCgroup
	// BoundPidMax: pid_max of the run's own pid namespace (Linux 6.14 and
	// later), which the command cannot change; used where no pids cgroup
	// can be made. Its floor is 300 processes, and once the namespace has
	// handed out 300 pids the kernel gives out only pids from 300 up
	// again, so a run that has started more than that may be held to
	// fewer at once (pid_max-300 at least).
	BoundPidMax
)

// String names the bound as the package documentation does.
func (b ProcessBound) String() string {
	switch b {
	case BoundPidsCgroup:
		return "pids cgroup"
	case BoundPidMax:
		return "pid namespace pid_max"
	}
	return "none"
}

// Reach is how far a shell's stopping of a run's processes reaches.
type Reach int

const (
	// StopsGroup: the run's process group is stopped; a process that left
	// it (setsid, a daemon that detaches) may keep running.
	StopsGroup Reach = iota
	// StopsMarked: the process group and every process that still carries
	// the run's mark in its environment are stopped; a process that both
	// left the group and cleared its environment may keep running.
	StopsMarked
	// StopsAll: every process the command started is stopped (a cgroup of
	// the run's own ended with cgroup.kill, or a pid namespace).
	StopsAll
)

// Guarantor is implemented by shells that say what they guarantee:
// [Local] and [Sandbox].
type Guarantor interface {
	Guarantees() Guarantees
}

var (
	_ Guarantor = (*Local)(nil)
	_ Guarantor = (*Sandbox)(nil)
)

// Guarantees reports what Execute enforces for every run that does not set
// Options.Cgroup: StopsAll where each run gets a cgroup of its own, else
// StopsMarked on Linux (the /proc sweep) and StopsGroup elsewhere. Calling
// it makes the choice if no run has yet.
func (l *Local) Guarantees() Guarantees {
	l.detect()
	switch {
	case l.cgroup != "":
		return Guarantees{Processes: StopsAll}
	case runtime.GOOS == "linux":
		return Guarantees{Processes: StopsMarked}
	}
	return Guarantees{Processes: StopsGroup}
}

// Guarantees reports what the sandbox enforces for a run that does not set
// Options.Cgroup: every process stopped (a pid namespace per run), writes
// confined to the workspace, no network unless SandboxOptions.Network
// (but for the unix sockets SandboxOptions.AllowUnixSockets names), and
// the process cap with what enforces it: a pids cgroup per run where
// one can be made here, else the pid namespace's pid_max where the kernel
// keeps one per namespace (the cap is then at least 300), else none; and
// the memory cap: Limits.Memory where each run gets a memory cgroup (v2,
// or a v1 memory group on a hybrid host), else none.
func (s *Sandbox) Guarantees() Guarantees {
	g := Guarantees{Processes: StopsAll, ConfinedWrites: true, NoNetwork: !s.opts.Network}
	if len(s.opts.AllowUnixSockets) > 0 {
		g.UnixSockets = append([]string(nil), s.opts.AllowUnixSockets...)
	}
	switch {
	case s.opts.Limits.Processes <= 0:
	case s.pids != "" || s.pidsV1 != "":
		g.ProcessCap, g.ProcessBound = s.opts.Limits.Processes, BoundPidsCgroup
	case s.pidMax > 0:
		g.ProcessCap, g.ProcessBound = s.pidMax-1, BoundPidMax
	}
	if m := s.opts.Limits.Memory; m > 0 && (s.pids != "" && s.memV2 || s.memV1 != "") {
		g.MemoryCap = m
	}
	return g
}
