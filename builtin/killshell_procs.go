package builtin

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxListedProcs is how many surviving processes KillShell names.
const maxListedProcs = 10

// stillRunning says which processes of a killed command still run, as the
// end of a sentence.
func stillRunning(procs []markedProc) string {
	var b strings.Builder
	if len(procs) == 1 {
		b.WriteString("1 process it started is still running (it left the command's process group, which this shell does not stop): ")
	} else {
		fmt.Fprintf(&b, "%d processes it started are still running (they left the command's process group, which this shell does not stop): ", len(procs))
	}
	for i, p := range procs[:min(len(procs), maxListedProcs)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "PID %d (%s)", p.pid, p.name)
	}
	if n := len(procs) - maxListedProcs; n > 0 {
		fmt.Fprintf(&b, " and %d more", n)
	}
	b.WriteString(".")
	return b.String()
}

// marker returns the marker of the command id, and whether it is running.
func (m *BackgroundManager) marker(id string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return "", false
	}
	return t.marker, t.status == StatusRunning
}

// markedProc is a live process that carries a command's marker.
type markedProc struct {
	pid  int
	name string
}

// procRoot is where markedProcs reads the process table.
const procRoot = "/proc"

// markedProcs lists the live processes whose environment holds
// bgMarkerVar set to marker, in PID order: the processes a background
// command started, those that left its process group included (setsid
// keeps the environment). Zombies and processes with a SIGKILL pending,
// which are on their way out, are left out. A process that cleared its
// environment, or another user's, is not found. The error is for a
// process table that cannot be read (a system without /proc).
func markedProcs(marker string) ([]markedProc, error) {
	ents, err := os.ReadDir(procRoot)
	if err != nil {
		return nil, errors.New("the process table cannot be read here")
	}
	needle := []byte(bgMarkerVar + "=" + marker + "\x00")
	var out []markedProc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		dir := filepath.Join(procRoot, e.Name())
		env, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil || !hasEnvEntry(env, needle) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		name, state, ok := parseProcStat(stat)
		if !ok || state == 'Z' || state == 'X' || state == 'x' {
			continue
		}
		if status, err := os.ReadFile(filepath.Join(dir, "status")); err == nil && killPending(status) {
			continue
		}
		out = append(out, markedProc{pid: pid, name: name})
	}
	slices.SortFunc(out, func(a, b markedProc) int { return a.pid - b.pid })
	return out, nil
}

// seen reports whether a process carrying marker shows up in the process
// table, looking again for a little while: a command started a moment ago
// may not have reached exec yet.
func seen(marker string) (bool, error) {
	for d := time.Millisecond; ; d *= 2 {
		procs, err := markedProcs(marker)
		if err != nil || len(procs) > 0 || d > 128*time.Millisecond {
			return len(procs) > 0, err
		}
		time.Sleep(d)
	}
}

// settledProcs is markedProcs once processes killed a moment ago have had
// a little time to go: while it finds some, it looks again, a few times,
// until two looks agree.
func settledProcs(marker string) ([]markedProc, error) {
	left, err := markedProcs(marker)
	for d := 5 * time.Millisecond; err == nil && len(left) > 0 && d <= 80*time.Millisecond; d *= 2 {
		time.Sleep(d)
		again, err2 := markedProcs(marker)
		if err2 != nil || slices.Equal(again, left) {
			break
		}
		left = again
	}
	return left, err
}

// hasEnvEntry reports whether env, a NUL-separated environment as
// /proc/PID/environ holds it, has an entry equal to needle (which ends in
// its NUL). A last entry without its NUL counts.
func hasEnvEntry(env, needle []byte) bool {
	for len(env) > 0 {
		entry := env
		if i := bytes.IndexByte(env, 0); i >= 0 {
			entry, env = env[:i+1], env[i+1:]
		} else {
			entry, env = append(entry, 0), nil
		}
		if bytes.Equal(entry, needle) {
			return true
		}
	}
	return false
}

// parseProcStat reads the command name and the state of /proc/PID/stat:
// "PID (NAME) STATE ...", where NAME may hold spaces and parentheses, so
// the state follows the last ')'.
func parseProcStat(stat []byte) (name string, state byte, ok bool) {
	open := bytes.IndexByte(stat, '(')
	end := bytes.LastIndexByte(stat, ')')
	if open < 0 || end < open || end+2 >= len(stat) || stat[end+1] != ' ' {
		return "", 0, false
	}
	return string(stat[open+1 : end]), stat[end+2], true
}

// killPending reports whether /proc/PID/status shows a SIGKILL pending
// for the process (ShdPnd) or its main thread (SigPnd): such a process is
// dying.
func killPending(status []byte) bool {
	const sigkill = 1 << (9 - 1)
	for line := range bytes.Lines(status) {
		key, val, ok := bytes.Cut(bytes.TrimSpace(line), []byte(":"))
		if !ok || (!bytes.Equal(key, []byte("SigPnd")) && !bytes.Equal(key, []byte("ShdPnd"))) {
			continue
		}
		mask, err := strconv.ParseUint(string(bytes.TrimSpace(val)), 16, 64)
		if err == nil && mask&sigkill != 0 {
			return true
		}
	}
	return false
}
