package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

// KillShellInput is the input of the KillShell tool.
//
//tool:name KillShell
//tool:unexported
//tool:title Stop background command
//tool:keywords stop, kill, terminate, cancel, abort, background job, process
//tool:description Stops a background command started by Bash with run_in_background and waits until it has ended. The answer says whether processes the command started are still running afterwards, with their PIDs.
//tool:description shell_id is the ID Bash returned (the one BashOutput takes as bash_id). Output not read yet can still be read with BashOutput.
//tool:concurrency sequential
//tool:side-effect destructive
//tool:idempotent
type KillShellInput struct {
	// The ID of the background command to stop, as Bash returned it.
	ShellID string `json:"shell_id" tool:"required"`
}

// kill is the KillShell tool. After the kill it looks for the processes
// that carry the command's marker and says what it found.
func (b *shellKit) kill(_ context.Context, in KillShellInput, _ tool.Context) (tool.Result, error) {
	id := strings.TrimSpace(in.ShellID)
	if id == "" {
		return tool.Failure("shell_id is empty. Give the ID Bash returned for a command run with run_in_background."), nil
	}
	marker, running := b.bg.marker(id)
	// Before the kill the command's own bash carries the marker: finding
	// it shows that this program can see the command's processes, so that
	// finding none afterwards means something.
	var visible bool
	var scanErr error
	if running {
		visible, scanErr = seen(marker)
	}
	st, err := b.bg.Kill(id)
	if err != nil {
		msg := err.Error()
		if marker != "" {
			// It had ended already; what it left behind may still run.
			if left, err := settledProcs(marker); err == nil && len(left) > 0 {
				msg += " " + stillRunning(left)
			}
		}
		return tool.FailureWith(msg, err), nil
	}
	what := fmt.Sprintf("Background command %s was killed", id)
	if st != StatusKilled {
		// It ended on its own while being stopped.
		r, _ := b.bg.status(id)
		what = fmt.Sprintf("Background command %s ended before it could be killed (%s)", id, r)
	}
	left, err := settledProcs(marker)
	switch {
	case len(left) > 0:
		return tool.Success(what + ", but " + stillRunning(left)), nil
	case err == nil && scanErr == nil && visible:
		return tool.Success(what + ", and no process it started was found still running."), nil
	case err == nil && scanErr == nil:
		return tool.Success(what + "; whether processes it started are still running could not be checked: this shell's processes are not visible to the tool."), nil
	}
	if err == nil {
		err = scanErr
	}
	return tool.Success(what + "; whether processes it started are still running could not be checked: " + err.Error() + "."), nil
}

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
