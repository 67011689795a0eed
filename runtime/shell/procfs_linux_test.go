package shell

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSandboxSysctlsReadOnly: a command cannot write a sysctl, not even
// one of the host's global ones as host root (whose euid passes the
// sysctl permission check without any capability). Each case writes the
// value it reads, so that nothing changes if the write got through.
func TestSandboxSysctlsReadOnly(t *testing.T) {
	s := newTestSandbox(t, SandboxOptions{})
	for _, sysctl := range []string{
		"/proc/sys/vm/overcommit_ratio",     // global
		"/proc/sys/kernel/pid_max",          // the pid namespace's own (Linux 6.14 and later)
		"/proc/sys/net/ipv4/ip_default_ttl", // the network namespace's own
	} {
		t.Run(sysctl, func(t *testing.T) {
			line := "v=$(cat " + sysctl + ") && { echo \"$v\" > " + sysctl + "; } 2>&1 | sed 's/.*: //'"
			res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outcome{Stdout: "Read-only file system\n"}, outcomeOf(res)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
