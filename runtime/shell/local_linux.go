package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// Execute runs cmd.Line with `bash --norc -c` under opts. See [Shell] for
// the meaning of the results and errors, and the package documentation for
// how the process tree is contained. ctx must not be nil.
func (l *Local) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	if err := opts.validate(); err != nil {
		return Result{}, &StartError{Err: fmt.Errorf("invalid options: %w", err)}
	}
	if ctx.Err() != nil {
		return Result{ExitCode: -1}, canceled(ctx, nil, nil, false)
	}
	bash, err := l.bashPath()
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	env, err := buildEnv(os.Environ(), opts.PassEnv, opts.Env)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}

	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if opts.Timeout > 0 {
		runCtx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errTimedOut)
	}
	defer cancel()

	// --norc: Debian-built bash sources ~/.bashrc even for `bash -c` when
	// SSH_CLIENT is set; the flag stops that.
	c := exec.CommandContext(runCtx, bash, "--norc", "-c", cmd.Line)
	c.Args[0] = "bash"
	c.Env = env
	c.Dir = opts.Dir
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
	g := &group{}
	c.Cancel = g.terminate
	c.WaitDelay = grace + pipeGrace

	if opts.Cgroup != "" {
		cg, err := newCgroup(opts.Cgroup)
		if err != nil {
			return Result{}, &StartError{Err: err}
		}
		defer cg.remove()
		g.cg = cg
		c.SysProcAttr.UseCgroupFD = true
		c.SysProcAttr.CgroupFD = cg.fd
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
	if err := c.Start(); err != nil {
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
		// unless bash had already exited on its own.
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
	// The run was stopped iff SIGTERM went out while bash was running.
	stopped := g.stopped()
	// bash has exited but is not reaped: its pid, hence the group id, cannot
	// be reused yet, so killing the group cannot hit an unrelated process.
	// This takes down whatever the command left behind (`sleep 1000 &`).
	g.finish()
	werr := c.Wait()
	if stdinW != nil {
		stdinW.Close() // ends the copying goroutine if it is stuck on a full pipe
	}
	dur := time.Since(start)

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

// group is the process group of one run (and its cgroup, if any). Its
// methods are safe to call concurrently: exec calls terminate from its
// own goroutine when the context is done.
type group struct {
	mu     sync.Mutex
	pgid   int           // 0 until started
	exited chan struct{} // closed once bash has exited
	term   bool          // SIGTERM sent while bash was running
	done   bool          // bash is about to be reaped: the group id may be reused
	cg     *cgroup
}

func (g *group) start(pid int, exited chan struct{}) {
	g.mu.Lock()
	g.pgid, g.exited = pid, exited
	g.mu.Unlock()
}

func (g *group) stopped() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.term
}

// terminate is exec.Cmd.Cancel: SIGTERM to the group, and SIGCONT so that
// stopped members see it.
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
	err := syscall.Kill(-g.pgid, syscall.SIGTERM)
	syscall.Kill(-g.pgid, syscall.SIGCONT)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}

// kill sends SIGKILL to the group and to the cgroup.
func (g *group) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.killLocked()
}

func (g *group) killLocked() {
	if g.done || g.pgid == 0 {
		return
	}
	syscall.Kill(-g.pgid, syscall.SIGKILL)
	if g.cg != nil {
		g.cg.kill()
	}
}

// finish kills what is left of the group while bash is still an unreaped
// zombie, then forbids any further signal to the group id.
func (g *group) finish() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.killLocked()
	g.done = true
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
