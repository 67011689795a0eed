package shell

import (
	"os/exec"
	"sync"
)

// Local runs commands with the bash of this machine. Each run is its own
// process group (and, with Options.Cgroup, its own cgroup); see the package
// documentation for what is guaranteed and what escapes.
//
// A Local is safe for concurrent use. The zero value is ready to use; bash
// is looked up in PATH at the first run and remembered.
type Local struct {
	mu   sync.Mutex
	bash string
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
// logs. It begins with "cgroup" when each run gets a cgroup of its own and
// ends with cgroup.kill, or with "process group" when this process may not
// create cgroups and escaped processes are found in /proc instead (see the
// package documentation). Options.Cgroup, when set, overrides it for a run.
func (l *Local) Containment() string { return "process group" }
