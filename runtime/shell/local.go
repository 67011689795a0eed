package shell

import (
	"os/exec"
	"sync"
)

// Local runs commands with the bash of this machine. Each run is its own
// process group and, on Linux, is contained further: in a cgroup of its
// own where this process may create one, else by a sweep of /proc for the
// processes that carry the run's mark; [Local.Containment] says which.
// See the package documentation for what is guaranteed and what escapes.
//
// A Local is safe for concurrent use. The zero value is ready to use; bash
// is looked up in PATH, and the containment chosen, at the first run.
type Local struct {
	mu   sync.Mutex
	bash string

	once     sync.Once
	cgroup   string // the automatic cgroup parent, or ""
	noCgroup string // why there is none
	// noAuto turns the automatic cgroup off (tests of the sweep).
	noAuto bool
}

var _ Shell = (*Local)(nil)

// NewLocal returns a shell that runs commands on this machine.
func NewLocal() *Local { return &Local{} }

func (l *Local) bashPath() (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bash != "" {
		return l.bash, nil
	}
	p, err := exec.LookPath("bash")
	if err != nil {
		return "", err
	}
	l.bash = p
	return p, nil
}

// Containment says how Execute stops every process a run starts, for
// logs. It begins with "cgroup" when each run gets a cgroup of its own
// (under the directory it names) and ends with cgroup.kill, or with
// "process group" when this process may not create cgroups and the
// processes that left the group are found in /proc by the run's mark
// instead; the reason follows. Options.Cgroup, when set, overrides it for
// a run. Calling it makes the choice if no run has yet. The wording is for
// people; [Local.Guarantees] is what a program reads.
func (l *Local) Containment() string {
	l.detect()
	if l.cgroup != "" {
		return "cgroup " + l.cgroup + " (a child per run, ended with cgroup.kill)"
	}
	return "process group and /proc sweep of the run's mark (" + l.noCgroup + ")"
}
