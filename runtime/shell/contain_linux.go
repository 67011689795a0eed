package shell

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// This file holds what contains a run beyond its process group: finding a
// cgroup v2 this process may create children in, the /proc sweep of the
// processes that carry a run's mark, and signalling a pid namespace.

// runMarkKey is the variable that marks the processes of a run when there
// is no cgroup; its value is unique to the run.
const runMarkKey = "TOOLGEN_SHELL_RUN"

var runMarkSeq atomic.Uint64

func newRunMark() string {
	return runMarkKey + "=" + strconv.Itoa(os.Getpid()) + "." + strconv.FormatUint(runMarkSeq.Add(1), 10) +
		"." + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// procStat is what the sweep reads from /proc/PID/stat.
type procStat struct {
	state byte
	start uint64 // clock ticks after boot
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(b)
}

// parseStat reads the state and the start time from the text of
// /proc/PID/stat.
func parseStat(b []byte) (procStat, bool) {
	// The command name is parenthesised and may hold anything, spaces and
	// parentheses included; the fields after the last ')' are plain.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) || b[i+1] != ' ' {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+2:]))
	// f[0] is field 3 (state); starttime is field 22.
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], start: start}, true
}

// procPIDs lists the process ids in /proc, this process excluded.
func procPIDs() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	self := os.Getpid()
	pids := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil && pid != self {
			pids = append(pids, pid)
		}
	}
	return pids
}

// hasMark reports whether the environment pid started with holds mark.
func hasMark(pid int, mark []byte) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	for len(env) > 0 {
		entry, rest, _ := bytes.Cut(env, []byte{0})
		if bytes.Equal(entry, mark) {
			return true
		}
		env = rest
	}
	return false
}

// maxSweepRounds bounds the sweep: each round stops every marked process
// still running, and a stopped process cannot fork, so the rounds end as
// soon as one finds nothing new; the bound holds against a tree that
// forks faster than /proc is read.
const maxSweepRounds = 64

// sweep stops, then kills, every live process started at or after since
// whose environment holds mark. Each is signalled through a pidfd opened
// before its mark is checked, so a pid reused by an unrelated process is
// never signalled.
func sweep(mark []byte, since uint64) {
	var marked []*os.Process
	seen := make(map[int]bool)
	for range maxSweepRounds {
		found := false
		for _, pid := range procPIDs() {
			if seen[pid] {
				continue
			}
			st, ok := readStat(pid)
			if !ok || st.start < since || st.state == 'Z' || st.state == 'X' {
				continue
			}
			p, err := os.FindProcess(pid) // a pidfd where the kernel has them
			if err != nil {
				continue
			}
			if !hasMark(pid, mark) {
				p.Release()
				continue
			}
			if p.Signal(syscall.SIGSTOP) != nil {
				p.Release()
				continue
			}
			seen[pid] = true
			marked = append(marked, p)
			found = true
		}
		if !found {
			break
		}
	}
	for _, p := range marked {
		p.Signal(syscall.SIGKILL)
		p.Release()
	}
}

// signalNamespace sends sigs, in order, to every process in the pid
// namespace ns ("pid:[inode]" as /proc/PID/ns/pid reads), and returns how
// many processes other than init (the namespace's pid 1, by its host pid;
// 0 for none) it reached. Its pid 1 (bwrap's reaper) ignores signals it
// has no handler for; the others get them.
func signalNamespace(ns string, init int, sigs ...syscall.Signal) (reached int) {
	for _, pid := range procPIDs() {
		link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid")
		if err != nil || link != ns {
			continue
		}
		p, err := os.FindProcess(pid)
		if err != nil {
			continue
		}
		// Checked again through the pidfd's process: if pid was reused
		// in between, the link names the new process and the pidfd the
		// old one, and signalling the old one fails harmlessly.
		if link, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil && link == ns {
			sent := true
			for _, s := range sigs {
				sent = p.Signal(s) == nil && sent
			}
			if sent && pid != init {
				reached++
			}
		}
		p.Release()
	}
	return reached
}

// ownCgroup returns the cgroup v2 directory this process is in, found
// from /proc/self/cgroup and the cgroup2 mount in /proc/self/mountinfo
// (at /sys/fs/cgroup on unified systems, /sys/fs/cgroup/unified on hybrid
// ones).
func ownCgroup() (string, error) {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", fmt.Errorf("no /proc/self/cgroup: %w", err)
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", fmt.Errorf("no /proc/self/mountinfo: %w", err)
	}
	return cgroupPath(own, mounts)
}

// cgroupPath finds the directory of the cgroup v2 that the text of
// /proc/self/cgroup names, under the cgroup2 mount that the text of
// /proc/self/mountinfo lists.
func cgroupPath(own, mountinfo []byte) (string, error) {
	rel, found := "", false
	for _, line := range strings.Split(string(own), "\n") {
		if p, ok := strings.CutPrefix(line, "0::"); ok {
			rel, found = p, true
		}
	}
	if !found || !strings.HasPrefix(rel, "/") {
		return "", errors.New("this process is in no cgroup v2")
	}
	rel = filepath.Clean(rel)
	for _, line := range strings.Split(string(mountinfo), "\n") {
		before, after, ok := strings.Cut(line, " - ")
		if !ok || !strings.HasPrefix(after, "cgroup2 ") {
			continue
		}
		fields := strings.Fields(before)
		if len(fields) < 5 || !strings.HasPrefix(fields[3], "/") || !strings.HasPrefix(fields[4], "/") {
			continue
		}
		// fields[3] is the mount's root within the hierarchy, fields[4]
		// where it is mounted.
		root, point := filepath.Clean(fields[3]), filepath.Clean(fields[4])
		if !within(rel, root) {
			continue
		}
		return filepath.Join(point, strings.TrimPrefix(rel, root)), nil
	}
	return "", errors.New("no cgroup2 file system is mounted where this process's cgroup is")
}

// autoCgroup finds this process's own cgroup v2 and proves that runs can
// be started in children of it: it creates one, starts bash in it with
// CLONE_INTO_CGROUP and kills it with cgroup.kill. A child cgroup without
// controllers may sit under a cgroup that has processes (the "no internal
// processes" rule concerns controllers), so this works wherever this
// process may write its cgroup directory: as root, or in a delegated
// subtree such as a systemd user session.
func autoCgroup(bash string) (string, error) {
	dir, err := ownCgroup()
	if err != nil {
		return "", err
	}
	cg, err := newCgroup(dir)
	if err != nil {
		return "", err
	}
	defer cg.remove()
	c := exec.Command(bash, "--norc", "-c", "")
	c.Env = []string{}
	c.SysProcAttr = &syscall.SysProcAttr{UseCgroupFD: true, CgroupFD: cg.fd}
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("cgroup %s: cannot start a process in a child: %w", dir, err)
	}
	if err := cg.kill(); err != nil {
		return "", fmt.Errorf("cgroup %s: %w", dir, err)
	}
	return dir, nil
}
