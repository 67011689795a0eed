package builtin

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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

// Kill stops the background command id (its whole process group) and
// waits until it has ended. It refuses an unknown ID and a command that has
// already ended.
func (m *BackgroundManager) Kill(id string) (BackgroundStatus, error) {
	m.mu.Lock()
	t, ok := m.tasks[id]
	if !ok {
		err := m.unknown(id)
		m.mu.Unlock()
		return 0, err
	}
	if t.status != StatusRunning {
		st := t.statusText()
		m.mu.Unlock()
		return t.status, &bgError{fmt.Sprintf("Background command %s has already ended (%s); there is nothing to kill.", id, st)}
	}
	m.mu.Unlock()
	t.cancel(errKilled)
	<-t.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return t.status, nil
}

// BackgroundRead is what one read of a background command returns.
type BackgroundRead struct {
	ID          string
	Command     string
	Description string
	Status      BackgroundStatus
	// ExitCode is meaningful when Status is StatusCompleted.
	ExitCode int
	// Timeout is the command's timeout.
	Timeout time.Duration
	// Reason says why a command failed or was killed, when known.
	Reason string
	// Output is the output produced since the last read, as valid UTF-8
	// (filtered when a filter was given), at most bashMaxOutputChars
	// characters.
	Output string
	// Dropped counts unread bytes dropped before this read: past the
	// per-command cap, Kept, or to make room under the manager's total
	// budget, KeptTotal. BudgetDropped is the part of Dropped the budget
	// took.
	Dropped       int64
	BudgetDropped int64
	Kept          int
	KeptTotal     int
	// More reports that unread output is left: read again for it.
	More bool
}

// Read returns the output the command id produced since the last read and
// its status, and marks that output read. With a filter, only the lines
// that match are returned; the others are read and discarded. While the
// command runs, a filtered read leaves a last line without its newline for
// the next read, so that a line is judged whole. At most
// bashMaxOutputChars characters are returned; the rest stays unread and
// More is set.
func (m *BackgroundManager) Read(id string, filter *regexp.Regexp) (BackgroundRead, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return BackgroundRead{}, m.unknown(id)
	}
	r := BackgroundRead{
		ID: t.id, Command: t.command, Description: t.description,
		Status: t.status, ExitCode: t.exitCode, Timeout: t.timeout, Reason: t.reason,
		Dropped: t.dropped, BudgetDropped: t.budgetDropped,
		Kept: t.out.max, KeptTotal: m.store.maxChunks * m.store.chunk,
	}
	t.dropped, t.budgetDropped = 0, 0
	// Without a filter a read returns bashMaxOutputChars characters at
	// most: copy only the bytes those can take (and those a cut
	// character skipped below can).
	var buf []byte
	if filter == nil {
		buf = t.out.prefix(utf8.UTFMax*bashMaxOutputChars + 2*utf8.UTFMax)
	} else {
		buf = t.out.bytes()
	}
	// Bytes dropped from the front may have cut a character: skip its rest.
	if r.Dropped > 0 {
		n := 0
		for n < len(buf) && n < utf8.UTFMax-1 && !utf8.RuneStart(buf[n]) {
			n++
		}
		buf = buf[n:]
		t.out.discard(n)
		r.Dropped += int64(n)
	}
	var used int
	if filter == nil {
		used = charsPrefix(buf, bashMaxOutputChars)
		if used == len(buf) && t.status == StatusRunning {
			// Leave a character the command has not finished writing.
			used = completeRunes(buf)
		}
		r.Output = shell.Text(buf[:used])
	} else {
		r.Output, used = filterLines(buf, filter, t.status == StatusRunning)
	}
	t.out.discard(used)
	r.More = t.out.size > 0 && (filter == nil || t.status != StatusRunning || t.out.contains('\n'))
	return r, nil
}

// filterLines returns the lines of buf that match re, joined with
// newlines, and how many bytes of buf it consumed. It stops before the
// result would pass bashMaxOutputChars characters (a single matching line
// longer than that is cut and consumed whole). When partial is set, a last
// line without a newline is not consumed.
func filterLines(buf []byte, re *regexp.Regexp, partial bool) (string, int) {
	var b strings.Builder
	chars, used := 0, 0
	for used < len(buf) {
		rest := buf[used:]
		end := len(rest)
		next := len(rest)
		if i := slices.Index(rest, '\n'); i >= 0 {
			end, next = i, i+1
		} else if partial {
			break
		}
		line := shell.Text(rest[:end])
		if re.MatchString(line) {
			n := utf8.RuneCountInString(line) + 1 // with its newline
			if chars > 0 && chars+n > bashMaxOutputChars {
				break
			}
			if n > bashMaxOutputChars {
				line = cutChars(line, bashMaxOutputChars)
			}
			b.WriteString(line)
			b.WriteByte('\n')
			chars += n
		}
		used += next
	}
	return b.String(), used
}

// completeRunes returns the length of b without a last character whose
// bytes have not all arrived yet.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
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

// write adds p to t's unread output. Called with the manager's mu held.
func (t *bgTask) write(p []byte) {
	t.dropped += int64(t.out.write(p))
}

// taskWriter receives a background command's output from the shell.
type taskWriter struct {
	m *BackgroundManager
	t *bgTask
}

func (w *taskWriter) Write(p []byte) (int, error) {
	w.m.mu.Lock()
	w.t.write(p)
	w.m.mu.Unlock()
	return len(p), nil
}

// reclaim makes room in the store: it drops the oldest chunk of unread
// output of the command that finished first and still holds some, or,
// when none does, of the running command that holds the most (the
// earliest started of those that hold as much). It reports whether it
// found a chunk. Called with mu held, by the store.
func (m *BackgroundManager) reclaim() bool {
	for len(m.finished) > 0 {
		t := m.finished[0]
		if t.out.size > 0 {
			m.dropBudget(t)
			return true
		}
		m.finished[0] = nil
		m.finished = m.finished[1:]
	}
	var victim *bgTask
	for _, id := range m.order {
		t := m.tasks[id]
		if t.status == StatusRunning && len(t.out.chunks) > 0 && (victim == nil || len(t.out.chunks) > len(victim.out.chunks)) {
			victim = t
		}
	}
	if victim == nil {
		return false
	}
	m.dropBudget(victim)
	return true
}

// dropBudget drops t's oldest chunk to make room under the budget.
func (m *BackgroundManager) dropBudget(t *bgTask) {
	n := t.out.dropChunk()
	t.dropped += int64(n)
	t.budgetDropped += int64(n)
}

// outStore hands out the fixed-size chunks unread output is kept in, at
// most maxChunks of them in all (those held by rings and the spare ones).
// When none is left it asks reclaim to free one. It is guarded by the
// manager's mu.
type outStore struct {
	chunk     int
	maxChunks int
	allocated int      // chunks in rings and in free
	free      [][]byte // spare chunks
	reclaim   func() bool
}

// get returns a chunk, freeing one held by a ring when the store is full.
func (s *outStore) get() []byte {
	if len(s.free) == 0 && s.allocated >= s.maxChunks && s.reclaim != nil {
		s.reclaim()
	}
	if n := len(s.free); n > 0 {
		c := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		return c
	}
	// Past maxChunks only when reclaim found nothing to take, which the
	// manager rules out: every chunk is spare or held by a command it
	// lists (a store without reclaim, in tests, is unbounded).
	s.allocated++
	return make([]byte, s.chunk)
}

// put takes back a chunk a ring no longer needs: kept for reuse, or left
// to the garbage collector.
func (s *outStore) put(c []byte) {
	if len(s.free) < maxFreeChunks {
		s.free = append(s.free, c)
		return
	}
	s.allocated--
}

// ring is a byte queue of at most max bytes, kept in chunks of its store,
// that drops its oldest bytes to make room. It holds the bytes from head
// in chunks[0] on; every chunk but the last is full.
type ring struct {
	max    int
	store  *outStore
	chunks [][]byte
	head   int // offset of the oldest byte in chunks[0]
	size   int // bytes held
	total  int64
}

// write appends p, dropping the oldest bytes beyond max, and returns how
// many bytes it dropped for max. Getting a chunk may make the store
// reclaim one, from this ring or another; the reclaimer counts those
// bytes, on the task it took them from.
func (r *ring) write(p []byte) (dropped int) {
	if len(p) == 0 {
		return 0
	}
	r.total += int64(len(p))
	if len(p) >= r.max {
		dropped = r.size + len(p) - r.max
		p = p[len(p)-r.max:]
		r.discard(r.size)
	} else if over := r.size + len(p) - r.max; over > 0 {
		r.discard(over)
		dropped = over
	}
	for len(p) > 0 {
		end := r.head + r.size // offset past the last byte, from chunks[0]
		if end == len(r.chunks)*r.store.chunk {
			c := r.store.get() // may drop this ring's oldest chunk
			r.chunks = append(r.chunks, c)
			end = r.head + r.size
		}
		last := r.chunks[len(r.chunks)-1]
		n := copy(last[end-(len(r.chunks)-1)*r.store.chunk:], p)
		r.size += n
		p = p[n:]
	}
	return dropped
}

// copyTo copies the held bytes, oldest first, into dst, as many as fit.
func (r *ring) copyTo(dst []byte) int {
	n, off := 0, r.head
	left := min(r.size, len(dst))
	for _, c := range r.chunks {
		if left == 0 {
			break
		}
		k := copy(dst[n:], c[off:min(len(c), off+left)])
		n += k
		left -= k
		off = 0
	}
	return n
}

// bytes returns a copy of the held bytes, oldest first.
func (r *ring) bytes() []byte {
	return r.prefix(r.size)
}

// prefix returns a copy of the n oldest bytes held (all of them when
// fewer are).
func (r *ring) prefix(n int) []byte {
	out := make([]byte, min(n, r.size))
	r.copyTo(out)
	return out
}

// contains reports whether the held bytes contain b.
func (r *ring) contains(b byte) bool {
	off, left := r.head, r.size
	for _, c := range r.chunks {
		if left == 0 {
			break
		}
		seg := c[off:min(len(c), off+left)]
		if slices.Contains(seg, b) {
			return true
		}
		left -= len(seg)
		off = 0
	}
	return false
}

// discard drops the n oldest bytes, giving emptied chunks back to the
// store. An empty ring holds no chunk.
func (r *ring) discard(n int) {
	n = min(n, r.size)
	r.head += n
	r.size -= n
	if r.size == 0 {
		for _, c := range r.chunks {
			r.store.put(c)
		}
		r.chunks, r.head = nil, 0
		return
	}
	for r.head >= r.store.chunk {
		r.store.put(r.chunks[0])
		r.chunks[0] = nil
		r.chunks = r.chunks[1:]
		r.head -= r.store.chunk
	}
}

// dropChunk drops the bytes held in the oldest chunk, giving it back to
// the store, and returns how many bytes were dropped.
func (r *ring) dropChunk() int {
	if len(r.chunks) == 0 {
		return 0
	}
	n := min(r.size, r.store.chunk-r.head)
	r.discard(n)
	return n
}
