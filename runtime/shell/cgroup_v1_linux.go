package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The cgroup v1 pids controller, for hosts that have no cgroup v2 with it
// (a hybrid hierarchy, such as many container hosts): there a sandboxed
// run's processes are bounded by a pids cgroup v1 of the run's own. A
// process cannot be started inside a v1 cgroup as clone3 starts one in a
// v2 cgroup, so the run starts as a small sh that writes its own pid into
// the cgroup and then execs bwrap: everything bwrap starts is inside before
// it exists.

// pidsV1 returns the directory of this process's cgroup v1 pids
// hierarchy where it may make children with pids.max, or "".
func pidsV1() string {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	dir, err := pidsV1Path(own, mounts)
	if err != nil {
		return ""
	}
	probe, err := newPidsGroupV1(dir, 1)
	if err != nil {
		return ""
	}
	removeGroupV1(probe)
	return dir
}

// pidsV1Path finds the directory of the pids cgroup that the text of
// /proc/self/cgroup names ("N:pids:/path"), under the cgroup v1 mount of
// the pids controller that the text of /proc/self/mountinfo lists.
func pidsV1Path(own, mountinfo []byte) (string, error) {
	return v1Path("pids", own, mountinfo)
}

// v1Path finds the directory of the cgroup of controller that the text of
// /proc/self/cgroup names ("N:controller:/path"), under the cgroup v1
// mount of that controller that the text of /proc/self/mountinfo lists.
func v1Path(controller string, own, mountinfo []byte) (string, error) {
	rel, found := "", false
	for _, line := range strings.Split(string(own), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == controller {
				rel, found = parts[2], true
			}
		}
	}
	if !found || !strings.HasPrefix(rel, "/") {
		return "", fmt.Errorf("this process is in no cgroup v1 %s hierarchy", controller)
	}
	for _, line := range strings.Split(string(mountinfo), "\n") {
		before, after, ok := strings.Cut(line, " - ")
		if !ok || !strings.HasPrefix(after, "cgroup ") {
			continue
		}
		fields := strings.Fields(after)
		if len(fields) < 3 || !hasOption(fields[2], controller) {
			continue
		}
		pre := strings.Fields(before)
		if len(pre) < 5 {
			continue
		}
		root, mount := pre[3], pre[4]
		if !strings.HasPrefix(rel+"/", strings.TrimSuffix(root, "/")+"/") {
			continue
		}
		return filepath.Join(mount, strings.TrimPrefix(rel, root)), nil
	}
	return "", fmt.Errorf("no cgroup v1 mount of the %s controller", controller)
}

func hasOption(opts, name string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == name {
			return true
		}
	}
	return false
}

// newPidsGroupV1 makes a child of parent whose pids.max is max.
func newPidsGroupV1(parent string, max int) (string, error) {
	name := "toolgen-sandbox-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(cgroupSeq.Add(1), 10)
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("pids cgroup: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(max)), 0); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("pids cgroup: %w", err)
	}
	return dir, nil
}

// The cgroup v1 memory controller, on the same hosts: each run gets a
// memory group of its own, joined as the pids group is, whose
// memory.limit_in_bytes (and memory.memsw.limit_in_bytes, memory and swap
// together, where the kernel accounts swap) is Limits.Memory. It counts
// every page the run's processes are charged for, shared memory (memfd,
// tmpfs, System V) included, which RLIMIT_AS, per process and per address
// space, does not bound.

// memoryV1 returns the directory of this process's cgroup v1 memory
// hierarchy where it may make children with memory.limit_in_bytes, or "".
func memoryV1() string {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return ""
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return ""
	}
	dir, err := v1Path("memory", own, mounts)
	if err != nil {
		return ""
	}
	probe, err := newMemoryGroupV1(dir, 1<<30)
	if err != nil {
		return ""
	}
	removeGroupV1(probe)
	return dir
}

// newMemoryGroupV1 makes a child of parent whose memory.limit_in_bytes
// (and memory.memsw.limit_in_bytes, where it exists) is limit.
func newMemoryGroupV1(parent string, limit int64) (string, error) {
	name := "toolgen-sandbox-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(cgroupSeq.Add(1), 10)
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", fmt.Errorf("memory cgroup: %w", err)
	}
	v := []byte(strconv.FormatInt(limit, 10))
	// memsw may not be below the memory limit: the memory limit first.
	if err := os.WriteFile(filepath.Join(dir, "memory.limit_in_bytes"), v, 0); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("memory cgroup: %w", err)
	}
	memsw := filepath.Join(dir, "memory.memsw.limit_in_bytes")
	if _, err := os.Stat(memsw); err == nil {
		if err := os.WriteFile(memsw, v, 0); err != nil {
			os.Remove(dir)
			return "", fmt.Errorf("memory cgroup: %w", err)
		}
	}
	return dir, nil
}

// removeGroupV1 removes a run's pids (or memory) cgroup once its processes are
// gone (the pid namespace ends with bwrap; the kernel may take a moment to
// let go of them), giving up after two seconds: an empty cgroup left
// behind holds nothing.
func removeGroupV1(dir string) {
	deadline := time.Now().Add(2 * time.Second)
	for delay := 100 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		err := os.Remove(dir)
		if err == nil || !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return
		}
		time.Sleep(delay)
	}
}

// v1Join is a v1 group that bwrap's pid 1 joins before the command starts.
type v1Join struct {
	controller string // "pids" or "memory", for messages
	procs      string // the group's cgroup.procs
}
