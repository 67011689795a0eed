package shell

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// pipeGrace is how long, past KillGrace, Execute waits for output pipes
// held open by a process that escaped the group (exec.Cmd.WaitDelay).
const pipeGrace = time.Second

// errTimedOut is the cause of the run context when Options.Timeout elapses.
var errTimedOut = errors.New("shell timeout")

// spec is one run as [Local] and [Sandbox] hand it to [run]: the process
// to start and how to contain what it starts. Everything else (capture,
// timeout, cancellation, stdin, the kill sequence, the result) is run's and
// the same for both.
type spec struct {
	path string
	args []string // argv; args[0] is the name ps shows
	env  []string
	dir  string // "" for this process's directory

	// cgroup is a cgroup v2 directory the run gets a child cgroup of, or
	// "". cgroupRequired makes a failure to create it a *StartError;
	// otherwise the run falls back to the sweep.
	cgroup         string
	cgroupRequired bool
	// pidsMax and memoryMax, when positive, are written to the child
	// cgroup's pids.max and memory.max where it has those controllers.
	pidsMax   int
	memoryMax int64

	// sweep is a "KEY=value" entry of env that marks the run's processes:
	// at the end every live process whose environment holds it is stopped
	// and killed, wherever it went (used when there is no cgroup).
	sweep string

	// block, with namespace, says path is bwrap with "--block-fd N" (N
	// the descriptor after info's, seccomp's, files' and binds'): once --info-fd has named
	// its pid 1, that process joins each of joinProcs (v1 cgroups'
	// cgroup.procs: the run's pids and memory groups) and gets rlimits (the command's resource limits), and only
	// then does a byte on the block descriptor let the command start. What
	// cannot be done kills the run and is a StartError.
	block     bool
	rlimits   []rlimitValue
	joinProcs []v1Join
	// namespace says path is bwrap with "--info-fd 3": the run's
	// processes live in a pid namespace of their own, bwrap reports it on
	// fd 3, and SIGTERM goes to every process in it rather than to bwrap
	// (whose death would SIGKILL the namespace at once, with no grace).
	namespace bool
	// seccomp, with namespace, is a seccomp program bwrap reads on fd 4
	// (its arguments say "--seccomp 4").
	seccomp []byte
	// files, with namespace, are contents bwrap reads on the descriptors
	// after seccomp's (or info's), in order, before block's (its
	// arguments say "--file N DEST").
	files [][]byte
	// binds, with namespace, are descriptors bwrap binds (its arguments
	// say "--bind-fd N DEST" or "--ro-bind-fd N DEST"), passed after
	// files' and before block's; run closes them once bwrap has its copies.
	binds []*os.File
}

// check refuses invalid options and a ctx that is already done, before a
// shell does any work of its own.
func check(ctx context.Context, opts Options) (Result, error) {
	if err := opts.validate(); err != nil {
		return Result{}, &StartError{Err: fmt.Errorf("invalid options: %w", err)}
	}
	if ctx.Err() != nil {
		return Result{ExitCode: -1}, canceled(ctx, nil, nil, false)
	}
	return Result{}, nil
}

// run starts sp, captures its output under opts and stops it as opts says.
// The caller has passed check. See [Shell] for the results and errors.
func run(ctx context.Context, sp spec, opts Options) (Result, error) {
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		runCtx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errTimedOut)
	}
	defer cancel()

	c := exec.CommandContext(runCtx, sp.path, sp.args[1:]...)
	c.Args[0] = sp.args[0]
	c.Env = sp.env
	c.Dir = sp.dir
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}

	limit := opts.captureLimit()
	var stdout, stderr *capture
	if opts.MergeOutput {
		stdout = newCapture(limit, opts.LiveStdout)
		c.Stdout, c.Stderr = stdout, stdout // the same writer: one pipe, true order
	} else {
		liveOut, liveErr := opts.LiveStdout, opts.LiveStderr
		if liveOut != nil && liveErr != nil {
			mu := new(sync.Mutex)
			liveOut, liveErr = lockedWriter{mu, liveOut}, lockedWriter{mu, liveErr}
		}
		stdout, stderr = newCapture(limit, liveOut), newCapture(limit, liveErr)
		c.Stdout, c.Stderr = stdout, stderr
	}

	grace := opts.killGrace()
	g := &group{namespace: sp.namespace}
	c.Cancel = g.terminate
	c.WaitDelay = grace + pipeGrace

	if sp.cgroup != "" {
		cg, err := newCgroup(sp.cgroup)
		if err == nil {
			err = cg.limit(sp.pidsMax, sp.memoryMax)
			if err != nil {
				cg.remove()
			}
		}
		switch {
		case err == nil:
			defer cg.remove()
			g.cg = cg
			c.SysProcAttr.UseCgroupFD = true
			c.SysProcAttr.CgroupFD = cg.fd
		case sp.cgroupRequired:
			return Result{}, &StartError{Err: err}
		default:
			// The automatic cgroup went away (or ran out): this run is
			// contained by the sweep instead.
			mark := newRunMark()
			c.Env = append(c.Env[:len(c.Env):len(c.Env)], mark)
			sp.sweep = mark
		}
	}
	if sp.sweep != "" {
		g.mark = []byte(sp.sweep)
	}

	var info *os.File // read end of bwrap's --info-fd
	if sp.namespace {
		r, w, err := os.Pipe()
		if err != nil {
			return Result{}, &StartError{Err: err}
		}
		defer r.Close()
		info = r
		c.ExtraFiles = []*os.File{w}
		data := sp.files
		if len(sp.seccomp) > 0 {
			data = append([][]byte{sp.seccomp}, data...)
		}
		for _, d := range data {
			f, err := pipeHolding(d)
			if err != nil {
				for _, f := range c.ExtraFiles {
					f.Close()
				}
				return Result{}, &StartError{Err: err}
			}
			c.ExtraFiles = append(c.ExtraFiles, f)
		}
		c.ExtraFiles = append(c.ExtraFiles, sp.binds...)
	}

	var block *os.File // write end of bwrap's --block-fd
	if sp.namespace && sp.block {
		r, w, err := os.Pipe()
		if err != nil {
			for _, f := range c.ExtraFiles {
				f.Close()
			}
			return Result{}, &StartError{Err: err}
		}
		defer w.Close()
		block = w
		c.ExtraFiles = append(c.ExtraFiles, r)
	}

	var stdinW *os.File
	var stdinR *os.File
	switch r := opts.Stdin.(type) {
	case nil:
	case *os.File:
		c.Stdin = r
	default:
		// Our own pipe rather than exec's copying goroutine, which Wait
		// would wait for even when its Read blocks forever.
		pr, pw, err := os.Pipe()
		if err != nil {
			return Result{}, &StartError{Err: err}
		}
		c.Stdin, stdinR, stdinW = pr, pr, pw
	}

	start := time.Now()
	err := c.Start()
	for _, f := range c.ExtraFiles {
		f.Close() // the child holds its copy
	}
	if err != nil {
		if stdinR != nil {
			stdinR.Close()
			stdinW.Close()
		}
		if runCtx.Err() != nil { // the timeout or ctx won the race with Start
			return interrupted(ctx, runCtx, opts.Timeout, Result{ExitCode: -1, Duration: time.Since(start)})
		}
		return Result{}, &StartError{Err: err}
	}
	if stdinR != nil {
		stdinR.Close()
		go func() {
			io.Copy(stdinW, opts.Stdin)
			stdinW.Close()
		}()
	}
	var infoDone chan struct{}
	var limitErr error
	if info != nil {
		infoDone = make(chan struct{})
		go func() {
			defer close(infoDone)
			g.readInfo(info)
			if block != nil {
				limitErr = g.release(block, sp, c.Process)
			}
		}()
	}
	exited := make(chan struct{})
	g.start(c.Process.Pid, exited)
	go func() {
		waitExited(c.Process.Pid)
		close(exited)
	}()

	select {
	case <-exited:
	case <-runCtx.Done():
		// exec calls c.Cancel too; whichever comes first sends SIGTERM,
		// unless the child had already exited on its own.
		g.terminate()
		t := time.NewTimer(grace)
		select {
		case <-exited:
		case <-t.C:
			g.kill()
		}
		t.Stop()
		<-exited
	}
	// The run was stopped iff SIGTERM went out while the child was running.
	stopped := g.stopped()
	// The child has exited but is not reaped: its pid, hence the group id,
	// cannot be reused yet, so killing the group cannot hit an unrelated
	// process. This takes down whatever the command left behind (`sleep
	// 1000 &`), and the sweep what left the group.
	g.finish()
	werr := c.Wait()
	if stdinW != nil {
		stdinW.Close() // ends the copying goroutine if it is stuck on a full pipe
	}
	if info != nil {
		info.Close() // ends readInfo if bwrap never wrote
		<-infoDone
	}
	dur := time.Since(start)
	if limitErr != nil {
		return Result{}, &StartError{Err: limitErr}
	}

	if c.ProcessState == nil {
		return Result{}, fmt.Errorf("shell: wait: %w", werr)
	}
	res := Result{Duration: dur, StdoutBytes: stdout.total}
	var tOut, tErr bool
	res.Stdout, tOut = stdout.bytes()
	if stderr != nil {
		res.Stderr, tErr = stderr.bytes()
		res.StderrBytes = stderr.total
	}
	res.Truncated = tOut || tErr
	ws, _ := c.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		res.Signal = ws.Signal()
		res.ExitCode = 128 + int(res.Signal)
	} else {
		res.ExitCode = ws.ExitStatus()
	}
	if stopped {
		res.ExitCode = -1
		return interrupted(ctx, runCtx, opts.Timeout, res)
	}
	return res, nil
}

// interrupted builds the error for a run stopped by the timeout or by ctx.
func interrupted(ctx, runCtx context.Context, timeout time.Duration, res Result) (Result, error) {
	// The first of the two to fire decides: the cause of runCtx is the
	// timeout only when it elapsed before ctx was done.
	if errors.Is(context.Cause(runCtx), errTimedOut) {
		return res, &TimeoutError{Timeout: timeout, Stdout: res.Stdout, Stderr: res.Stderr, Truncated: res.Truncated}
	}
	return res, canceled(ctx, res.Stdout, res.Stderr, res.Truncated)
}

func canceled(ctx context.Context, stdout, stderr []byte, truncated bool) error {
	return &CanceledError{Err: ctx.Err(), Cause: context.Cause(ctx), Stdout: stdout, Stderr: stderr, Truncated: truncated}
}

// group is everything one run started: the process group of the child
// and, when the run has them, its cgroup, its sweep mark and its pid
// namespace. Its methods are safe to call concurrently: exec calls
// terminate from its own goroutine when the context is done.
type group struct {
	mu     sync.Mutex
	pgid   int           // 0 until started
	exited chan struct{} // closed once the child has exited
	term   bool          // SIGTERM sent while the child was running
	done   bool          // the child is about to be reaped: the group id may be reused
	cg     *cgroup
	mark   []byte // the sweep's environment entry, or nil
	since  uint64 // the child's start time (clock ticks after boot), for the sweep

	namespace bool        // the child is bwrap; see spec.namespace
	pidNS     string      // "pid:[inode]" of bwrap's namespace, once reported
	nsInit    *os.Process // its pid 1, once reported
	initPID   int         // that pid 1's host pid, once reported
	termSent  bool        // SIGTERM reached a process of the namespace other than its pid 1
	retrying  bool        // retryTerm is running
}

func (g *group) start(pid int, exited chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pgid, g.exited = pid, exited
	if g.mark != nil {
		if st, ok := readStat(pid); ok {
			g.since = st.start
		}
	}
}

// readInfo reads bwrap's --info-fd report and remembers the namespace
// and a handle on its pid 1.
func (g *group) readInfo(r io.Reader) {
	pid, ns, ok := parseInfo(r)
	if !ok {
		return
	}
	// A pidfd first, then the check that it is bwrap's pid 1: a pid
	// reused in between names another namespace, or the pidfd names a
	// process that has exited and signalling it fails harmlessly.
	init, err := os.FindProcess(pid)
	if err != nil {
		return
	}
	if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err != nil || l != ns {
		init.Release()
		init = nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.pidNS, g.initPID = ns, pid
	if g.done && init != nil {
		init.Release()
		init = nil
	}
	g.nsInit = init
	if g.term && !g.done {
		// The run was stopped before bwrap reported its namespace.
		g.termNamespaceLocked()
	}
}

// termNamespaceLocked sends SIGTERM and SIGCONT to the processes in the
// namespace, once it is known. Its pid 1 ignores them; while it is the
// only process there (bwrap has not started the command yet, or its
// child has not yet become bash), retryTerm sends them again, until they
// reach another process or the run ends, so that a stop that comes during
// start-up is not lost until the grace's SIGKILL.
func (g *group) termNamespaceLocked() {
	if g.pidNS == "" || g.termSent || g.sendTermLocked() {
		return
	}
	if !g.retrying {
		g.retrying = true
		go g.retryTerm()
	}
}

// retryTerm is termNamespaceLocked's retry, waiting a little longer each
// time (1 ms doubling to 50 ms), until the signals reach a process other
// than pid 1 or the child exits.
func (g *group) retryTerm() {
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		t := time.NewTimer(wait)
		select {
		case <-g.exited:
			t.Stop()
			return
		case <-t.C:
		}
		g.mu.Lock()
		sent := g.done || g.termSent || g.sendTermLocked()
		g.mu.Unlock()
		if sent {
			return
		}
	}
}

// sendTermLocked sends SIGTERM and SIGCONT to the processes in the
// namespace and notes whether they reached one other than its pid 1.
func (g *group) sendTermLocked() bool {
	g.termSent = signalNamespace(g.pidNS, g.initPID, syscall.SIGTERM, syscall.SIGCONT) > 0
	return g.termSent
}

// parseInfo reads the first JSON object of bwrap's --info-fd: the host
// pid of the namespace's pid 1 and the namespace as /proc/PID/ns/pid
// names it ("pid:[inode]").
func parseInfo(r io.Reader) (pid int, ns string, ok bool) {
	var info struct {
		ChildPid     int    `json:"child-pid"`
		PidNamespace uint64 `json:"pid-namespace"`
	}
	if json.NewDecoder(r).Decode(&info) != nil || info.PidNamespace == 0 || info.ChildPid <= 0 {
		return 0, "", false
	}
	return info.ChildPid, "pid:[" + strconv.FormatUint(info.PidNamespace, 10) + "]", true
}

// release moves bwrap's pid 1, once readInfo has named it, into its v1
// cgroups (spec.joinProcs) and sets its limits, and then writes the byte on
// block that lets bwrap start the command. When either fails, bwrap is
// killed instead and block is left open (it
// closes after the run), so that the command never starts unlimited. A
// bwrap that reported nothing has failed or was stopped: it is killed too,
// and its own exit is the run's result.
func (g *group) release(block *os.File, sp spec, p *os.Process) error {
	g.mu.Lock()
	pid := g.initPID
	g.mu.Unlock()
	if pid == 0 {
		p.Kill()
		return nil
	}
	for _, j := range sp.joinProcs {
		if err := os.WriteFile(j.procs, []byte(strconv.Itoa(pid)), 0); err != nil {
			p.Kill()
			return fmt.Errorf("sandbox: joining the %s cgroup: %w", j.controller, err)
		}
	}
	for _, l := range sp.rlimits {
		if err := prlimit(pid, l); err != nil {
			p.Kill()
			return fmt.Errorf("sandbox: setting resource limit %d to %d: %w", l.resource, l.value, err)
		}
	}
	// A bwrap that died meanwhile cannot read it: its exit is the result.
	block.Write([]byte{1})
	block.Close()
	return nil
}

func (g *group) stopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.term
}

// terminate is exec.Cmd.Cancel: SIGTERM to the group, and SIGCONT so that
// stopped members see it. For bwrap, the signals go to the processes in
// its namespace instead.
func (g *group) terminate() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done || g.pgid == 0 {
		return os.ErrProcessDone
	}
	select {
	case <-g.exited:
		return os.ErrProcessDone // it ended on its own; not stopped by us
	default:
	}
	if g.term {
		return nil
	}
	g.term = true
	if g.namespace {
		// Until bwrap has reported its namespace nothing of the command
		// runs yet; readInfo sends the signals when it arrives.
		g.termNamespaceLocked()
		return nil
	}
	err := syscall.Kill(-g.pgid, syscall.SIGTERM)
	syscall.Kill(-g.pgid, syscall.SIGCONT)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}

// kill sends SIGKILL to the group and to the cgroup. For bwrap it goes to
// the namespace's pid 1: the kernel then kills every process in the
// namespace and waits for them before pid 1 is gone, and only then does
// bwrap exit, so that the run ends with the namespace empty. Until bwrap
// has reported its pid 1, bwrap itself is killed (--die-with-parent then
// kills the namespace's pid 1).
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.killLocked()
}

func (g *group) killLocked() {
	if g.done || g.pgid == 0 {
		return
	}
	if g.nsInit == nil || g.nsInit.Signal(syscall.SIGKILL) != nil {
		syscall.Kill(-g.pgid, syscall.SIGKILL)
	}
	if g.cg != nil {
		g.cg.kill()
	}
}

// finish kills what is left of the group while the child is still an
// unreaped zombie, sweeps the marked processes that left it, then forbids
// any further signal to the group id.
func (g *group) finish() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.killLocked()
	if g.mark != nil && g.pgid != 0 {
		sweep(g.mark, g.since)
	}
	g.done = true
	if g.nsInit != nil {
		g.nsInit.Release()
		g.nsInit = nil
	}
}

// waitExited blocks until the process pid has exited, without reaping it
// (waitid with WNOWAIT): until exec.Cmd.Wait reaps it, its pid stays
// reserved, and so does the process group id it leads.
func waitExited(pid int) {
	const pPID = 1     // P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return
		}
	}
}
