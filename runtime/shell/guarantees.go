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
	// this machine.
	NoNetwork bool
	// ProcessCap is the most processes a command may have at once, root
	// included (a pids cgroup per run), or 0 where no such cap holds (then
	// only RLIMIT_NPROC bounds them, and not for root).
	ProcessCap int
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

// Guarantees reports what the sandbox enforces: every process stopped
// (a pid namespace per run), writes confined to the workspace, no network
// unless SandboxOptions.Network, and the process cap where a pids cgroup
// per run can be made here.
func (s *Sandbox) Guarantees() Guarantees {
	g := Guarantees{Processes: StopsAll, ConfinedWrites: true, NoNetwork: !s.opts.Network}
	if (s.pids != "" || s.pidsV1 != "") && s.opts.Limits.Processes > 0 {
		g.ProcessCap = s.opts.Limits.Processes
	}
	return g
}
