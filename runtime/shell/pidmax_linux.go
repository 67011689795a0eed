package shell

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// The process bound where no pids cgroup can be made (no writable pids
// controller, v2 or v1): pid_max of the run's own pid namespace, which
// Linux 6.14 and later keep per namespace. Every process the command
// starts, threads and nested pid namespaces included, takes a pid of that
// namespace, so at most pid_max-1 exist at once, root included. The
// kernel's floor for pid_max is 301, so the cap is at least 300.
//
// bwrap writes the value itself (--file, see procArgs) while it sets the
// sandbox up: inside the new pid namespace, with its capabilities over
// the sandbox's user namespace, before /proc/sys is bound read-only and
// before the command exists. No code of the command's environment runs
// with a capability, and the command, without any, cannot remount
// /proc/sys to raise the value (nor can a user namespace it makes: the
// mounts it inherits are locked). A /proc mounted in a nested pid
// namespace shows that namespace's own pid_max, which does not lift this
// one.
//
// On an older kernel /proc/sys/kernel/pid_max is the host's one value,
// and host root in the sandbox would write that, so the bound is tried
// only where the kernel's release is 6.14 or later, and NewSandbox checks
// that its probe left this process's pid_max as it was.
//
// Running the command as a non-root uid inside a user namespace, so that
// RLIMIT_NPROC binds, was not chosen: bwrap maps the sandbox's uid to the
// uid of its caller, and the kernel exempts processes whose real uid is
// host root from RLIMIT_NPROC whatever uid they have inside (64 sleeps
// started under ulimit -u 20 with bwrap --uid 1000, as root); mapping to
// another host uid would take the workspace's write access away.

// pidMaxFloor is the smallest pid_max the kernel accepts.
const pidMaxFloor = 301

// pidMaxFile is the pid namespace's pid_max as seen from inside it.
const pidMaxFile = "/proc/sys/kernel/pid_max"

// pidMaxFor is the pid_max that bounds a command to processes (at most
// pid_max-1 at once).
func pidMaxFor(processes int) int {
	return max(processes+1, pidMaxFloor)
}

// pidMaxPerNamespace reports whether this kernel keeps a pid_max per pid
// namespace: its release is 6.14 or later.
func pidMaxPerNamespace() bool {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return false
	}
	major, minor, ok := kernelRelease(string(bytes.TrimSpace(b)))
	return ok && (major > 6 || major == 6 && minor >= 14)
}

// kernelRelease reads the major and minor numbers of a kernel release
// ("6.18.44-generic").
func kernelRelease(r string) (major, minor int, ok bool) {
	maj, rest, found := strings.Cut(r, ".")
	if !found {
		return 0, 0, false
	}
	end := strings.IndexFunc(rest, func(c rune) bool { return c < '0' || c > '9' })
	if end >= 0 {
		rest = rest[:end]
	}
	major, err1 := strconv.Atoi(maj)
	minor, err2 := strconv.Atoi(rest)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return major, minor, true
}

// pidMaxProbe is the line NewSandbox runs where runs are bounded by
// pid_max: it succeeds only where the value is set and the command cannot
// change it.
func pidMaxProbe(pidMax int) string {
	want := strconv.Itoa(pidMax)
	return `[ "$(cat ` + pidMaxFile + `)" = ` + want + ` ] && ! { echo 4194304 > ` + pidMaxFile + `; } 2>/dev/null && [ "$(cat ` + pidMaxFile + `)" = ` + want + ` ]`
}

// ownPidMax is this process's pid_max ("" where it cannot be read), and
// restorePidMax writes back a value read with it.
func ownPidMax() string {
	b, _ := os.ReadFile(pidMaxFile)
	return string(bytes.TrimSpace(b))
}

func restorePidMax(v string) {
	os.WriteFile(pidMaxFile, []byte(v+"\n"), 0)
}
