package shell

import "strconv"

// The sandbox's /proc: its own (bwrap --proc, the run's pid namespace),
// with /proc/sys bound read-only over itself.
//
// A sysctl's write permission is its file mode checked against the
// caller's effective uid, with no capability needed: a process whose euid
// is host root passes for every global sysctl (kernel.core_pattern, which
// the kernel runs on a crash as host root, among them), and in a user
// namespace that maps root to root, as bwrap's does when this process is
// root, the sandboxed command is exactly that. bwrap covers /proc/sys
// only where access(2) says it is writable, which it never says for that
// directory. Read-only, the files cannot be opened for writing at all,
// and no process in the sandbox holds the capability to remount them.
//
// The bind's source is the host's /proc/sys: what a sysctl file shows
// depends on the namespaces of the process reading it, not on the proc
// mount it is read through, so the command sees its own network and pid
// namespaces' values, as through its own /proc.

// procArgs are bwrap's options for the sandbox's /proc. With pidMaxFD > 0
// bwrap first copies what it reads from that descriptor into the pid
// namespace's pid_max (see pidmax_linux.go), while /proc/sys is still
// writable and bwrap still holds its capabilities.
func procArgs(pidMaxFD int) []string {
	a := []string{"--proc", "/proc"}
	if pidMaxFD > 0 {
		a = append(a, "--file", strconv.Itoa(pidMaxFD), pidMaxFile)
	}
	return append(a, "--ro-bind", "/proc/sys", "/proc/sys")
}
