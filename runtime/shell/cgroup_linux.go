package shell

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

const cgroup2Magic = 0x63677270 // CGROUP2_SUPER_MAGIC

var cgroupSeq atomic.Uint64

// cgroup is the child cgroup of one run.
type cgroup struct {
	dir string
	fd  int
}

// newCgroup creates a fresh child of parent, which must be a cgroup v2
// directory with cgroup.kill.
func newCgroup(parent string) (*cgroup, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(parent, &st); err != nil {
		return nil, fmt.Errorf("cgroup %s: %w", parent, err)
	}
	if st.Type != cgroup2Magic {
		return nil, fmt.Errorf("cgroup %s: not a cgroup v2 directory", parent)
	}
	name := "toolgen-shell-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(cgroupSeq.Add(1), 10)
	dir := filepath.Join(parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("cgroup %s: no cgroup.kill (Linux 5.14 or later is needed): %w", parent, err)
	}
	fd, err := syscall.Open(dir, syscall.O_DIRECTORY|syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	return &cgroup{dir: dir, fd: fd}, nil
}

// kill kills every process in the cgroup, including those that left the
// process group.
func (g *cgroup) kill() error {
	return os.WriteFile(filepath.Join(g.dir, "cgroup.kill"), []byte("1"), 0)
}

// limit writes pids.max and memory.max, each when positive and when the
// cgroup has the controller (the file exists: its parent enables the
// controller in cgroup.subtree_control).
func (g *cgroup) limit(pids int, memory int64) error {
	for _, l := range []struct {
		file string
		v    int64
	}{{"pids.max", int64(pids)}, {"memory.max", memory}} {
		if l.v <= 0 {
			continue
		}
		path := filepath.Join(g.dir, l.file)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		if err := os.WriteFile(path, []byte(strconv.FormatInt(l.v, 10)), 0); err != nil {
			return fmt.Errorf("cgroup: %w", err)
		}
	}
	return nil
}

// populated reports whether a process is still in the cgroup.
func (g *cgroup) populated() bool {
	b, err := os.ReadFile(filepath.Join(g.dir, "cgroup.events"))
	if err != nil {
		return false
	}
	return !bytes.Contains(b, []byte("populated 0"))
}

// remove kills what is left, waits (briefly) for the cgroup to empty and
// removes it.
func (g *cgroup) remove() error {
	syscall.Close(g.fd)
	deadline := time.Now().Add(2 * time.Second)
	for delay := 100 * time.Microsecond; ; delay = min(2*delay, 20*time.Millisecond) {
		if !g.populated() {
			err := os.Remove(g.dir)
			if err == nil || !errors.Is(err, syscall.EBUSY) {
				return err
			}
		} else {
			g.kill()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: still populated", g.dir)
		}
		time.Sleep(delay)
	}
}
