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
	removePidsGroupV1(probe)
	return dir
}

// pidsV1Path finds the directory of the pids cgroup that the text of
// /proc/self/cgroup names ("N:pids:/path"), under the cgroup v1 mount of
// the pids controller that the text of /proc/self/mountinfo lists.
func pidsV1Path(own, mountinfo []byte) (string, error) {
	rel, found := "", false
	for _, line := range strings.Split(string(own), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			if c == "pids" {
				rel, found = parts[2], true
			}
		}
	}
	if !found || !strings.HasPrefix(rel, "/") {
		return "", errors.New("this process is in no cgroup v1 pids hierarchy")
	}
	for _, line := range strings.Split(string(mountinfo), "\n") {
		before, after, ok := strings.Cut(line, " - ")
		if !ok || !strings.HasPrefix(after, "cgroup ") {
			continue
		}
		fields := strings.Fields(after)
		if len(fields) < 3 || !hasOption(fields[2], "pids") {
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
	return "", errors.New("no cgroup v1 mount of the pids controller")
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

// removePidsGroupV1 removes a run's pids cgroup once its processes are
// gone (the pid namespace ends with bwrap; the kernel may take a moment to
// let go of them), giving up after two seconds: an empty cgroup left
// behind holds nothing.
func removePidsGroupV1(dir string) {
	deadline := time.Now().Add(2 * time.Second)
	for delay := 100 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		err := os.Remove(dir)
		if err == nil || !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
			return
		}
		time.Sleep(delay)
	}
}
