package builtin

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/shell"
)

// Defaults of BackgroundLimits.
const (
	// DefaultMaxBackground is the number of background commands that may
	// run at once when BackgroundLimits.MaxRunning is 0.
	DefaultMaxBackground = 8

	// DefaultBackgroundOutputBytes is the unread output kept per background
	// command when BackgroundLimits.MaxOutputBytes is 0.
	DefaultBackgroundOutputBytes = 1 << 20

	// DefaultBackgroundTotalOutputBytes is the unread output a manager
	// keeps for all its background commands together when
	// BackgroundLimits.MaxTotalOutputBytes is 0.
	DefaultBackgroundTotalOutputBytes = 8 << 20

	// maxFinishedKept bounds the finished commands a manager remembers
	// (their status, and output not read yet). Past it the oldest finished
	// command whose output has all been read is forgotten, and its ID
	// becomes unknown.
	maxFinishedKept = 256

	// bgCaptureBytes is the capture cap passed to the shell for background
	// commands. Their output is read through Options.LiveStdout into the
	// task's own buffer, so the shell's capture is not used; it is kept
	// small and passed explicitly.
	bgCaptureBytes = 4 << 10

	// outChunkBytes is the size of the chunks unread output is kept in
	// (a quarter of MaxOutputBytes when that is smaller), and
	// maxFreeChunks how many empty chunks a manager keeps for reuse
	// rather than leave to the garbage collector.
	outChunkBytes = 32 << 10
	maxFreeChunks = 4

	// bgMarkerVar is set in the environment of every background command,
	// to a value unique to the command: KillShell finds the processes the
	// command started, even those that left its process group, by it.
	bgMarkerVar = "TOOLGEN_BACKGROUND_ID"
)

// BackgroundLimits bound what a BackgroundManager holds.
type BackgroundLimits struct {
	// MaxRunning is how many background commands may run at once; Start
	// refuses more. 0 means DefaultMaxBackground; negative means
	// DefaultMaxBackground too.
	MaxRunning int

	// MaxOutputBytes bounds the output kept per command that has not been
	// read yet. The buffer is a ring: when a command prints more than this
	// between two reads, the oldest unread bytes are dropped, and the next
	// read says how many. 0 (or negative) means
	// DefaultBackgroundOutputBytes.
	MaxOutputBytes int

	// MaxTotalOutputBytes bounds the memory that holds unread output, for
	// all the manager's commands together. When a command's output needs
	// room past it, the oldest unread output goes first: that of the
	// command that finished first (a finished command's output is all
	// dropped before the next one's is touched), and when no finished
	// command holds any, the oldest output of the running command that
	// holds the most. Each read says how many bytes were dropped. 0 (or
	// negative) means DefaultBackgroundTotalOutputBytes; a value below
	// MaxOutputBytes lowers that too.
	MaxTotalOutputBytes int

	// KillGrace is the time between SIGTERM and SIGKILL when a background
	// command is killed, times out or the manager is closed. 0 means one
	// second.
	KillGrace time.Duration
}

func (l BackgroundLimits) maxRunning() int {
	if l.MaxRunning <= 0 {
		return DefaultMaxBackground
	}
	return l.MaxRunning
}

func (l BackgroundLimits) maxTotal() int {
	if l.MaxTotalOutputBytes <= 0 {
		return DefaultBackgroundTotalOutputBytes
	}
	return l.MaxTotalOutputBytes
}

func (l BackgroundLimits) maxOutput() int {
	n := l.MaxOutputBytes
	if n <= 0 {
		n = DefaultBackgroundOutputBytes
	}
	return min(n, l.maxTotal())
}

func (l BackgroundLimits) killGrace() time.Duration {
	if l.KillGrace <= 0 {
		return bashKillGrace
	}
	return l.KillGrace
}

// BackgroundManager runs the commands the Bash tool starts with
// run_in_background and keeps their output until BashOutput reads it.
//
// A manager belongs to the agent runtime that created it (one per agent,
// or per session), not to the process: there is no global one. Close ends
// every command still running and waits for them; the owner must call it.
// A BackgroundManager is safe for concurrent use.
//
// Each command still has a timeout (the Bash tool's, at most ten minutes):
// a background command that never ends is stopped like a foreground one,
// its whole process group killed, and its status becomes "timed out".
//
// Unread output is bounded twice: per command (MaxOutputBytes) and for
// all commands together (MaxTotalOutputBytes), finished or not, read or
// never read. Output that has been read is released at once.
type BackgroundManager struct {
	sh     shell.Shell
	limits BackgroundLimits
	// markers is the start of every command's marker, random per manager
	// so that two managers (or two programs) never share a marker.
	markers string

	ctx    context.Context // ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	closed   bool
	nextID   int
	idPrefix string // starts every ID (SetIDPrefix)
	tasks    map[string]*bgTask
	order    []string  // IDs in start order
	finished []*bgTask // finished commands holding output (or that held it), in the order they finished
	running  int
	store    outStore
}

// NewBackgroundManager returns a manager that runs background commands
// with sh under the given limits. The caller owns it and must Close it.
func NewBackgroundManager(sh shell.Shell, limits BackgroundLimits) *BackgroundManager {
	ctx, cancel := context.WithCancel(context.Background())
	total := limits.maxTotal()
	// A quarter of the per-command cap at most, so that dropping a chunk
	// for the budget takes little of a command's output at a time.
	chunk := min(outChunkBytes, max(limits.maxOutput()/4, 1))
	m := &BackgroundManager{
		sh:      sh,
		limits:  limits,
		markers: strconv.FormatUint(rand.Uint64(), 36),
		ctx:     ctx,
		cancel:  cancel,
		tasks:   make(map[string]*bgTask),
	}
	m.store = outStore{chunk: chunk, maxChunks: max(total/chunk, 1), reclaim: m.reclaim}
	return m
}

// Close kills every background command still running (its whole process
// group, as a timeout does), waits until they have ended, and refuses new
// ones. Their status becomes "killed". Close is idempotent and returns nil.
func (m *BackgroundManager) Close() error {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	return nil
}

// Running returns how many background commands are running now.
func (m *BackgroundManager) Running() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.running
}

// BackgroundStatus is the state of a background command.
type BackgroundStatus int

const (
	// StatusRunning: the command has not ended.
	StatusRunning BackgroundStatus = iota
	// StatusCompleted: the command ended on its own, with an exit code
	// (0 or not).
	StatusCompleted
	// StatusFailed: the command could not be started, or the shell failed.
	StatusFailed
	// StatusKilled: KillShell stopped it, or its manager was closed.
	StatusKilled
	// StatusTimedOut: its timeout elapsed and it was stopped.
	StatusTimedOut
)

func (s BackgroundStatus) String() string {
	switch s {
	case StatusCompleted:
		return "completed"
	case StatusFailed:
		return "failed"
	case StatusKilled:
		return "killed"
	case StatusTimedOut:
		return "timed out"
	}
	return "running"
}

// bgTask is one background command.
type bgTask struct {
	id          string
	command     string
	description string
	timeout     time.Duration
	started     time.Time
	marker      string // the value of bgMarkerVar in its environment

	cancel context.CancelCauseFunc
	done   chan struct{} // closed when the command has ended

	// Guarded by the manager's mu.
	status   BackgroundStatus
	exitCode int
	reason   string // why it failed
	out      ring
	dropped  int64 // unread bytes dropped since the last read
	// budgetDropped is the part of dropped that made room under
	// MaxTotalOutputBytes.
	budgetDropped int64
}

// errKilled is the cancellation cause of a command stopped by KillShell.
var errKilled = errors.New("killed by KillShell")

// bgError is a refusal of the manager, worded for the model.
type bgError struct{ msg string }

func (e *bgError) Error() string { return e.msg }

// BackgroundCommand is a command for [BackgroundManager.Start].
type BackgroundCommand struct {
	// Line is the command line, run with bash -c.
	Line string
	// Description says what it does, for the user; BashOutput shows it.
	Description string
	// Dir is its working directory; "" is this process's.
	Dir string
	// Timeout bounds its run; 0 (or negative) means the Bash tool's
	// default, two minutes. A background command never runs unbounded.
	Timeout time.Duration
	// PassEnv names the variables of this process's environment it
	// inherits, as shell.Options.PassEnv does, except that nil means
	// shell.MinimalEnv, never the whole environment.
	PassEnv []string
}

// Start runs c in the background and returns its ID at once. It refuses
// when the manager is closed or MaxRunning commands are already running.
// A command that cannot be started still gets an ID; its status is then
// "failed".
//
// The command's environment holds, besides what PassEnv lets through,
// TOOLGEN_BACKGROUND_ID set to a value unique to it, by which KillShell
// finds the processes it started.
func (m *BackgroundManager) Start(c BackgroundCommand) (string, error) {
	command, description, dir, timeout := c.Line, c.Description, c.Dir, c.Timeout
	if timeout <= 0 {
		timeout = bashDefaultTimeout
	}
	passEnv := c.PassEnv
	if passEnv == nil {
		passEnv = bashPassEnv(nil)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return "", &bgError{"Background commands are not available: the agent's background manager has been closed."}
	}
	if m.sh == nil {
		return "", &bgError{"Background commands are not available: no shell is configured."}
	}
	if limit := m.limits.maxRunning(); m.running >= limit {
		return "", &bgError{fmt.Sprintf("Too many background commands are running (the limit is %d): %s. Stop one with KillShell, or wait until one ends.",
			limit, strings.Join(m.runningIDs(), ", "))}
	}
	m.forgetOld()
	m.nextID++
	ctx, cancel := context.WithCancelCause(m.ctx)
	id := m.idPrefix + "bash_" + strconv.Itoa(m.nextID)
	t := &bgTask{
		id:          id,
		command:     command,
		description: description,
		timeout:     timeout,
		started:     time.Now(),
		marker:      id + "-" + m.markers,
		cancel:      cancel,
		done:        make(chan struct{}),
		out:         ring{max: m.limits.maxOutput(), store: &m.store},
	}
	m.tasks[t.id] = t
	m.order = append(m.order, t.id)
	m.running++
	m.wg.Add(1)
	opts := shell.Options{
		Timeout:         timeout,
		MaxCaptureBytes: bgCaptureBytes,
		Dir:             dir,
		PassEnv:         passEnv,
		Env:             []string{bgMarkerVar + "=" + t.marker},
		Stdin:           nil, // EOF at once
		MergeOutput:     true,
		LiveStdout:      &taskWriter{m: m, t: t},
		LiveStderr:      &taskWriter{m: m, t: t},
		KillGrace:       m.limits.killGrace(),
	}
	go m.run(ctx, t, opts)
	return t.id, nil
}

// run executes t and records how it ended.
func (m *BackgroundManager) run(ctx context.Context, t *bgTask, opts shell.Options) {
	defer m.wg.Done()
	defer close(t.done)
	defer t.cancel(nil)
	res, err := m.sh.Execute(ctx, shell.Command{Line: t.command}, opts)

	m.mu.Lock()
	defer m.mu.Unlock()
	m.running--
	var se *shell.StartError
	var te *shell.TimeoutError
	var ce *shell.CanceledError
	switch {
	case err == nil:
		// A Shell that wrote nothing live leaves the output in the result.
		// It is written while the status is still running, so that the
		// budget can take from it as from any running command.
		if t.out.total == 0 {
			t.write(res.Stdout)
			t.write(res.Stderr)
		}
		t.status, t.exitCode = StatusCompleted, res.ExitCode
	case errors.As(err, &te):
		t.status = StatusTimedOut
	case errors.As(err, &ce):
		t.status = StatusKilled
		if !errors.Is(context.Cause(ctx), errKilled) {
			t.reason = "the agent's background manager was closed"
		}
	case errors.As(err, &se):
		t.status, t.reason = StatusFailed, "could not start: "+se.Err.Error()
	default:
		t.status, t.reason = StatusFailed, err.Error()
	}
	if t.out.size > 0 {
		m.finished = append(m.finished, t)
	}
}

// forgetOld drops the oldest finished commands whose output has all been
// read, once more than maxFinishedKept finished commands are remembered.
// Called with mu held.
func (m *BackgroundManager) forgetOld() {
	finished := len(m.tasks) - m.running
	if finished <= maxFinishedKept {
		return
	}
	keep := m.order[:0]
	for _, id := range m.order {
		t := m.tasks[id]
		if finished > maxFinishedKept && t.status != StatusRunning && t.out.size == 0 {
			delete(m.tasks, id)
			finished--
			continue
		}
		keep = append(keep, id)
	}
	clear(m.order[len(keep):])
	m.order = keep
	m.finished = slices.DeleteFunc(m.finished, func(t *bgTask) bool { return t.out.size == 0 })
}

// unknown is the refusal for an ID the manager does not know. Called with
// mu held.
func (m *BackgroundManager) unknown(id string) error {
	msg := fmt.Sprintf("No background command has the ID '%s'.", id)
	if ids := m.runningIDs(); len(ids) > 0 {
		msg += " Running now: " + strings.Join(ids, ", ") + "."
	} else {
		msg += " No background command is running now."
	}
	return &bgError{msg + " IDs are given by Bash when run_in_background is true."}
}

// runningIDs lists the running commands in start order. Called with mu
// held.
func (m *BackgroundManager) runningIDs() []string {
	var ids []string
	for _, id := range m.order {
		if t := m.tasks[id]; t.status == StatusRunning {
			ids = append(ids, id)
		}
	}
	return ids
}

// statusText describes t's status in a few words. Called with the
// manager's mu held.
func (t *bgTask) statusText() string {
	return describeStatus(t.status, t.exitCode, t.timeout, t.reason)
}

// status describes the status of the command id in a few words.
func (m *BackgroundManager) status(id string) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return "", false
	}
	return t.statusText(), true
}

// describeStatus describes a status in a few words: "running",
// "completed with exit code 0", "timed out after 1000ms", ...
func describeStatus(st BackgroundStatus, exitCode int, timeout time.Duration, reason string) string {
	switch st {
	case StatusCompleted:
		return fmt.Sprintf("completed with exit code %d", exitCode)
	case StatusTimedOut:
		return fmt.Sprintf("timed out after %dms", timeout.Milliseconds())
	case StatusFailed:
		return "failed: " + reason
	case StatusKilled:
		if reason != "" {
			return "killed: " + reason
		}
		return "killed"
	}
	return "running"
}
