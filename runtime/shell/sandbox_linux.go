package shell

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// probeTimeout bounds the one command NewSandbox runs to prove the sandbox
// works; bwrap takes milliseconds, the bound is for a machine that hangs.
const probeTimeout = 30 * time.Second

func newSandbox(opts SandboxOptions) (*Sandbox, error) {
	if err := resolveSandboxOptions(&opts); err != nil {
		return nil, err
	}
	name := opts.Bwrap
	if name == "" {
		name = "bwrap"
	}
	bwrap, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%w: bubblewrap (%s) not found: install the bubblewrap package (apt-get install bubblewrap) or set SandboxOptions.Bwrap: %v",
			ErrSandboxUnavailable, name, err)
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		return nil, fmt.Errorf("sandbox: no bash: %w", err)
	}
	opts.Limits = opts.Limits.withDefaults()
	s := &Sandbox{opts: opts, bwrap: bwrap, bash: bash}
	if !opts.noCgroup {
		s.pids, s.memV2 = pidsCgroup(bash)
		if s.pids == "" && opts.Limits.Processes > 0 {
			s.pidsV1 = pidsV1()
		}
		if s.pids == "" && opts.Limits.Memory > 0 {
			s.memV1 = memoryV1()
		}
	}
	if !opts.Network {
		prog, err := socketFilter(len(opts.AllowUnixSockets) > 0)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrSandboxUnavailable, err)
		}
		s.seccomp = prog
	}
	if s.pids == "" && s.pidsV1 == "" && opts.Limits.Processes > 0 && pidMaxPerNamespace() {
		// The descriptor after info's (3) and seccomp's.
		s.pidMax, s.pidMaxFD = pidMaxFor(opts.Limits.Processes), 4
		if s.seccomp != nil {
			s.pidMaxFD = 5
		}
	}
	s.args = sandboxArgs(&opts, s.pidMaxFD)
	rl, lim := rlimits(opts.Limits)
	s.rlimits = rl
	s.base = baseEnv(opts.home)

	net := "network off (own loopback only; unix sockets refused by seccomp)"
	switch {
	case opts.Network:
		net = "host network"
	case len(opts.AllowUnixSockets) > 0:
		net = fmt.Sprintf("network off (own loopback only); unix sockets reachable: %s, the host shown only through %s",
			strings.Join(opts.AllowUnixSockets, ", "), strings.Join(systemDirs, " "))
	}
	s.desc = fmt.Sprintf("bubblewrap %s: new user (if possible), pid, ipc, uts and cgroup namespaces; "+
		"host file system read-only, %s read-write, private /tmp and /run, /proc/sys read-only; %s; capabilities dropped; limits: %s",
		bwrap, opts.Root, net, lim)
	switch {
	case s.pids != "" && opts.Limits.Processes > 0:
		s.desc += fmt.Sprintf("; a pids cgroup per run (pids.max %d, which binds root)", opts.Limits.Processes)
	case s.pidsV1 != "":
		s.desc += fmt.Sprintf("; a cgroup v1 pids group per run (pids.max %d, which binds root)", opts.Limits.Processes)
	}
	switch {
	case s.pids != "" && s.memV2 && opts.Limits.Memory > 0:
		s.desc += fmt.Sprintf("; the run's total memory, shared memory included, bounded by its cgroup (memory.max %d)", opts.Limits.Memory)
	case s.memV1 != "":
		s.desc += fmt.Sprintf("; a cgroup v1 memory group per run: the run's total memory, shared memory included, bounded (memory.limit_in_bytes %d)", opts.Limits.Memory)
	case opts.Limits.Memory > 0:
		s.desc += "; memory bounded per process only (address space), not in total: no memory cgroup per run can be made here"
	}
	if opts.hiddenHome != "" {
		s.desc += fmt.Sprintf("; %s hidden but for %d read-only paths", opts.hiddenHome, len(opts.HomeVisible))
	}
	s.desc += "; the workspace's MandatoryReadOnly paths read-only"

	if s.pidMax > 0 {
		// The probe proves the bound too; where it fails (bwrap cannot
		// write pid_max here), the sandbox goes on without it.
		own := ownPidMax()
		res, err := s.probe(pidMaxProbe(s.pidMax))
		if now := ownPidMax(); now != own {
			// The kernel's pid_max is not per namespace after all: the
			// probe wrote this process's own.
			restorePidMax(own)
			err = errors.New("pid_max is not per namespace")
		}
		if err == nil && res.ExitCode == 0 {
			s.desc += fmt.Sprintf("; pid_max %d in each run's pid namespace (at most %d processes, which binds root)", s.pidMax, s.pidMax-1)
			return s, nil
		}
		s.pidMax, s.pidMaxFD = 0, 0
		s.args = sandboxArgs(&opts, 0)
	}
	res, err := s.probe("true")
	if err != nil {
		return nil, fmt.Errorf("%w: %s cannot run a command: %v", ErrSandboxUnavailable, bwrap, err)
	}
	if res.ExitCode != 0 {
		msg := strings.TrimSpace(Text(res.Stdout))
		if msg == "" {
			msg = "no message"
		}
		return nil, fmt.Errorf("%w: %s cannot create the sandbox (exit status %d): %s",
			ErrSandboxUnavailable, bwrap, res.ExitCode, msg)
	}
	return s, nil
}

// probe runs line in the sandbox as NewSandbox's proof that it works.
func (s *Sandbox) probe(line string) (Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	return s.Execute(ctx, Command{Line: line}, Options{Timeout: probeTimeout, MaxCaptureBytes: 4 << 10, MergeOutput: true})
}

// resolveSandboxOptions checks opts and makes every path absolute and free
// of symbolic links, so that what is bound is what was checked.
func resolveSandboxOptions(o *SandboxOptions) error {
	if o.Root == "" {
		return errors.New("sandbox: SandboxOptions.Root is required: the workspace directory commands may write to")
	}
	root, err := realPath(o.Root)
	if err != nil {
		return fmt.Errorf("sandbox: Root: %w", err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return fmt.Errorf("sandbox: Root %s is not a directory", o.Root)
	}
	if root == "/" {
		return errors.New("sandbox: Root / would make the whole file system writable; give the workspace directory")
	}
	o.Root = root

	writable := make([]string, 0, len(o.Writable))
	for _, w := range o.Writable {
		p, err := realPath(w)
		if err != nil {
			return fmt.Errorf("sandbox: Writable: %w", err)
		}
		if p == "/" {
			return errors.New("sandbox: Writable / would make the whole file system writable")
		}
		writable = append(writable, p)
	}
	o.Writable = writable

	var readOnly []string
	for _, r := range o.ReadOnly {
		p, err := realPath(r)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox: ReadOnly: %w", err)
		}
		readOnly = append(readOnly, p)
	}
	o.ReadOnly = readOnly

	hide, explicit := o.Hide, o.Hide != nil
	if !explicit {
		hide = DefaultHide
	}
	home, err := hostHome()
	if err != nil && (!o.ShowHome || slices.ContainsFunc(hide, func(h string) bool { return strings.HasPrefix(h, "~/") })) {
		// Fail closed: without a home nothing of it would be hidden.
		return err
	}
	o.home = home
	if err := resolveHome(o); err != nil {
		return err
	}
	var hidden []string
	for _, h := range hide {
		if rest, ok := strings.CutPrefix(h, "~/"); ok {
			if home == "" {
				continue
			}
			h = filepath.Join(home, rest)
		}
		p, err := realPath(h)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox: Hide: %w", err)
		}
		shared := append([]string{o.Root}, o.Writable...)
		if in := holds(p, shared); in != "" {
			if explicit {
				return fmt.Errorf("sandbox: Hide %s would hide %s, which must stay visible", h, in)
			}
			continue
		}
		if (within(p, "/tmp") || within(p, "/run")) && !insideAny(p, shared) {
			continue // the sandbox's /tmp and /run are its own: the host's are not there
		}
		if o.hiddenHome != "" && within(p, o.hiddenHome) && !insideAny(p, shared) && holds(p, o.HomeVisible) == "" && !insideAny(p, o.HomeVisible) {
			continue // the home is hidden: nothing of it is there but what is visible
		}
		hidden = append(hidden, p)
	}
	o.Hide = hidden
	return resolveSockets(o)
}

// currentUser is user.Current, replaced in tests.
var currentUser = user.Current

// hostHome is the home directory of the user this process runs as: $HOME,
// or where that is unset or empty the user database's entry. Where neither
// names one it is an error: the sandbox hides the home and the ~/ paths of
// Hide, and would hide nothing of them without it.
func hostHome() (string, error) {
	if h := os.Getenv("HOME"); h != "" {
		return h, nil
	}
	u, err := currentUser()
	if err == nil && filepath.IsAbs(u.HomeDir) {
		return u.HomeDir, nil
	}
	why := "the user database names no home directory for this user"
	if err != nil {
		why = err.Error()
	}
	return "", fmt.Errorf("sandbox: HOME is not set and %s: set HOME to the home directory the sandbox must hide (or set SandboxOptions.ShowHome and a Hide list without ~/ paths)", why)
}

// realPath is p made absolute with its symbolic links resolved; p must exist.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// within reports whether p is dir or inside it (both clean and absolute).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// insideAny reports whether p is one of dirs or inside one.
func insideAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// holds returns the first of paths that dir is or contains, or "".
func holds(dir string, paths []string) string {
	for _, p := range paths {
		if within(p, dir) {
			return p
		}
	}
	return ""
}

// pidsCgroup returns the cgroup v2 directory each sandboxed run can get a
// child cgroup of with the pids controller in it (so that pids.max bounds
// the run, root included), or "" where this process cannot make one: the
// automatic cgroup [Local] uses, proved by starting a process in a child,
// whose children must have pids.max.
func pidsCgroup(bash string) (dir string, memory bool) {
	dir, err := autoCgroup(bash)
	if err != nil {
		return "", false
	}
	cg, err := newCgroup(dir)
	if err != nil {
		return "", false
	}
	defer cg.remove()
	if _, err := os.Stat(filepath.Join(cg.dir, "pids.max")); err != nil {
		return "", false
	}
	_, err = os.Stat(filepath.Join(cg.dir, "memory.max"))
	return dir, err == nil
}

// resolveHome decides whether $HOME is hidden and resolves HomeVisible and
// Cache to real paths: the visible paths that exist, under the home.
func resolveHome(o *SandboxOptions) error {
	home := o.home
	if o.ShowHome || home == "" {
		return nil
	}
	realHome, err := realPath(home)
	if err != nil || realHome == "/" || within(o.Root, realHome) && o.Root == realHome {
		// No home to hide, or the workspace is the home itself: it is
		// bound read-write whatever happens here.
		return nil
	}
	o.hiddenHome = realHome
	visible := o.HomeVisible
	if visible == nil {
		visible = append([]string(nil), DefaultHomeVisible...)
		for _, v := range []string{"GOMODCACHE", "GOPATH", "CARGO_HOME", "RUSTUP_HOME"} {
			if d := os.Getenv(v); d != "" && filepath.IsAbs(d) {
				if v == "GOPATH" {
					d = filepath.Join(filepath.SplitList(d)[0], "pkg", "mod")
				}
				visible = append(visible, d)
			}
		}
	}
	var paths []string
	for _, v := range visible {
		if rest, ok := strings.CutPrefix(v, "~/"); ok {
			v = filepath.Join(home, rest)
		}
		p, err := realPath(v)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("sandbox: HomeVisible: %w", err)
		}
		if !within(p, realHome) {
			continue // outside the home: visible as the rest of the host is
		}
		paths = append(paths, p)
	}
	o.HomeVisible = paths
	if o.Cache != "" {
		c, err := realPath(o.Cache)
		if err != nil {
			return fmt.Errorf("sandbox: Cache: %w", err)
		}
		o.Cache = c
	}
	return nil
}

// sandboxArgs are bwrap's options for every run; the working directory,
// --info-fd and the command follow. pidMaxFD is the descriptor bwrap
// reads the pid namespace's pid_max from, or 0 (see procArgs).
func sandboxArgs(o *SandboxOptions, pidMaxFD int) []string {
	a := []string{
		"bwrap",
		// pid 1 of the namespace gets SIGKILL when bwrap dies, and takes
		// every process in the namespace with it.
		"--die-with-parent",
		// A session without a controlling terminal: no TIOCSTI into ours.
		"--new-session",
		"--unshare-user-try", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
	}
	if !o.Network {
		a = append(a, "--unshare-net")
	}
	// Root (uid 0) in the sandbox keeps no capability: it cannot
	// remount, change ownership or bypass permissions.
	a = append(a, "--cap-drop", "ALL")
	if len(o.AllowUnixSockets) > 0 {
		a = append(a, systemView()...) // see unixview_linux.go
	} else {
		a = append(a, "--ro-bind", "/", "/")
	}
	// tmpfs mounts with their size bounded (--size applies to the next
	// --tmpfs only).
	tmpfs := func(dir string) []string {
		if o.Limits.TmpSize < 0 {
			return []string{"--tmpfs", dir}
		}
		return []string{"--size", strconv.FormatInt(o.Limits.TmpSize/1024*1024, 10), "--tmpfs", dir}
	}
	// bwrap's /dev is a tmpfs without a size bound (--size does not apply
	// to --dev), and so is the /dev/shm in it: /dev/shm becomes a bounded
	// tmpfs of its own and /dev is then made read-only (its device nodes
	// stay usable: writing to /dev/null changes no file system).
	a = append(a, "--dev", "/dev")
	if o.Limits.TmpSize >= 0 {
		a = append(append(a, tmpfs("/dev/shm")...), "--remount-ro", "/dev")
	}
	a = append(a, procArgs(pidMaxFD)...)
	a = append(a, tmpfs("/tmp")...)
	// /run holds the host's sockets (a container engine, the system bus,
	// databases): a socket can be connected to on a read-only mount.
	a = append(a, tmpfs("/run")...)
	if o.hiddenHome != "" {
		// $HOME: an empty tmpfs with the visible paths in it; Root and the
		// Writable paths under it are bound below, after it.
		a = append(a, tmpfs(o.hiddenHome)...)
		for _, v := range o.HomeVisible {
			a = append(a, "--ro-bind", v, v)
		}
		if o.Cache != "" {
			a = append(a, "--bind", o.Cache, filepath.Join(o.hiddenHome, ".cache"))
		}
	}
	// resolv.conf often points into /run (systemd-resolved); keep it.
	if t, err := filepath.EvalSymlinks("/etc/resolv.conf"); err == nil && within(t, "/run") {
		a = append(a, "--ro-bind", t, t)
	}
	// After the tmpfs mounts, so that a workspace under /tmp stays itself.
	a = append(a, "--bind", o.Root, o.Root)
	for _, w := range o.Writable {
		a = append(a, "--bind", w, w)
	}
	for _, r := range o.ReadOnly {
		a = append(a, "--ro-bind", r, r)
	}
	for _, h := range o.Hide {
		if fi, err := os.Stat(h); err == nil && fi.IsDir() {
			a = append(append(a, tmpfs(h)...), "--remount-ro", h)
		} else {
			a = append(a, "--ro-bind", "/dev/null", h)
		}
	}
	return a
}

// rlimitNPROC is RLIMIT_NPROC, which package syscall does not name.
func rlimitNPROC() int {
	switch runtime.GOARCH {
	case "mips", "mipsle", "mips64", "mips64le":
		return 8
	}
	return 6
}

// withDefaults is l with its zero fields set to the defaults.
func (l Limits) withDefaults() Limits {
	if l.CPUTime == 0 {
		l.CPUTime = DefaultLimitCPUTime
	}
	if l.FileSize == 0 {
		l.FileSize = DefaultLimitFileSize
	}
	if l.Processes == 0 {
		l.Processes = DefaultLimitProcesses
	}
	if l.Memory == 0 {
		l.Memory = DefaultLimitMemory
	}
	if l.TmpSize == 0 {
		l.TmpSize = DefaultLimitTmpSize
	}
	if l.TmpSize > 0 && l.TmpSize < 1024 {
		l.TmpSize = 1024
	}
	return l
}

// rlimits turns l (defaults filled in) into the resource limits of each
// command, and a description of them, each value lowered to this process's
// hard limit, which the command could not exceed anyway, and rounded down
// to the unit bash's ulimit reports (KiB for sizes).
func rlimits(l Limits) (out []rlimitValue, desc string) {
	cpu := int64(l.CPUTime)
	if cpu > 0 {
		cpu = int64((l.CPUTime + time.Second - 1) / time.Second)
	}
	limits := []struct {
		opt      string
		resource int
		v        int64 // in the unit of the rlimit
		unit     int64 // rlimit units per ulimit unit
		name     string
	}{
		{"-t", syscall.RLIMIT_CPU, cpu, 1, "cpu time %d s"},
		{"-f", syscall.RLIMIT_FSIZE, l.FileSize, 1024, "file size %d KiB"},
		{"-u", rlimitNPROC(), int64(l.Processes), 1, "processes %d (RLIMIT_NPROC, which does not bind root)"},
		{"-v", syscall.RLIMIT_AS, l.Memory, 1024, "address space %d KiB"},
	}
	var d []string
	for _, lim := range limits {
		if lim.v < 0 {
			d = append(d, strings.Fields(lim.name)[0]+" unlimited")
			continue
		}
		var hard syscall.Rlimit
		if syscall.Getrlimit(lim.resource, &hard) == nil && hard.Max != ^uint64(0) && uint64(lim.v) > hard.Max {
			lim.v = int64(hard.Max)
		}
		n := max(lim.v/lim.unit, 1)
		out = append(out, rlimitValue{resource: lim.resource, value: uint64(n * lim.unit)})
		d = append(d, fmt.Sprintf(lim.name, n))
	}
	if l.TmpSize < 0 {
		d = append(d, "tmpfs unlimited")
	} else {
		d = append(d, fmt.Sprintf("tmpfs %d KiB each", l.TmpSize/1024))
	}
	return out, strings.Join(d, ", ")
}

// baseEnv is the environment every sandboxed command starts from: the few
// variables ordinary tools need, from this process where set.
func baseEnv(home string) []string {
	get := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	name := os.Getenv("USER")
	if name == "" {
		if u, err := user.Current(); err == nil {
			name = u.Username
		}
	}
	env := []string{
		"PATH=" + get("PATH", "/usr/local/bin:/usr/bin:/bin"),
		"HOME=" + get("HOME", cmp.Or(home, "/")),
		"LANG=" + get("LANG", "C.UTF-8"),
		"TERM=" + get("TERM", "dumb"),
		"TMPDIR=/tmp",
	}
	if name != "" {
		env = append(env, "USER="+name)
	}
	return env
}

// Execute runs cmd.Line with `bash --norc -c` inside a fresh sandbox, under
// opts. See [Shell] for the results and errors and [Sandbox] for how the
// options are read. ctx must not be nil.
func (s *Sandbox) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	if res, err := check(ctx, opts); err != nil {
		return res, err
	}
	dir, err := s.dir(opts.Dir)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	var passed []string
	if len(opts.PassEnv) > 0 {
		for _, kv := range os.Environ() {
			k, _, _ := strings.Cut(kv, "=")
			if k != "TMPDIR" && passes(opts.PassEnv, k) {
				passed = append(passed, kv)
			}
		}
	}
	env, err := buildEnv(append(s.base[:len(s.base):len(s.base)], passed...), nil, opts.Env)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	// The descriptors this process inherited without close-on-exec would
	// pass through bwrap to the command: they are marked close-on-exec.
	// The limits are set on bwrap's pid 1 (and, with a v1 pids group, it
	// joins the group) while it waits on --block-fd (see spec.block), so
	// that bash is the sandbox's only shell: bwrap
	// runs `bash --norc -c LINE` (found on the command's PATH, as argv[0]
	// "bash", as under Local).
	closeInherited()
	// The descriptors bwrap gets: 3 --info-fd, 4 --seccomp (when set), then
	// the pid_max file (--file, s.pidMaxFD), then those of the binds made
	// by descriptor (see bindfd_linux.go), then --block-fd.
	binds := &bindFDs{first: 4}
	if s.seccomp != nil {
		binds.first++
	}
	var files [][]byte
	if s.pidMax > 0 {
		files = append(files, []byte(strconv.Itoa(s.pidMax)+"\n"))
		binds.first++
	}
	defer binds.close()
	args, err := s.bindArgsByFD(s.args[:len(s.args):len(s.args)], binds)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	protect, err := protectedArgs(s.opts.Root, s.opts.ReadOnly, binds)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	args = append(args, protect.args...)
	if len(s.opts.sockets) > 0 {
		args = append(args, s.socketArgs()...)
	}
	args = append(args, "--chdir", dir, "--info-fd", "3")
	if s.seccomp != nil {
		args = append(args, "--seccomp", "4")
	}
	fd := binds.first + len(binds.files)
	v1 := opts.Cgroup == "" && s.pids == "" && (s.pidsV1 != "" || s.memV1 != "")
	block := len(s.rlimits) > 0 || v1
	if block {
		args = append(args, "--block-fd", strconv.Itoa(fd))
	}
	args = append(args, "--", "bash", "--norc", "-c", cmd.Line)
	sp := spec{path: s.bwrap, args: args, env: env, namespace: true, seccomp: s.seccomp, files: files, binds: binds.files, block: block, rlimits: s.rlimits}
	switch {
	case opts.Cgroup != "":
		// Negative limits (none) stay out: limit writes positive ones only.
		sp.cgroup, sp.cgroupRequired = opts.Cgroup, true
		sp.pidsMax, sp.memoryMax = s.opts.Limits.Processes, s.opts.Limits.Memory
	case s.pids != "":
		// A cgroup of the run's own whose pids.max binds root too.
		sp.cgroup = s.pids
		sp.pidsMax, sp.memoryMax = s.opts.Limits.Processes, s.opts.Limits.Memory
	}
	if v1 && s.pidsV1 != "" {
		// bwrap's pid 1 joins the run's v1 pids group before the command
		// starts (see spec.joinProcs); everything it starts is counted.
		dir, err := newPidsGroupV1(s.pidsV1, s.opts.Limits.Processes)
		if err != nil {
			return Result{}, &StartError{Err: err}
		}
		defer removeGroupV1(dir)
		sp.joinProcs = append(sp.joinProcs, v1Join{"pids", filepath.Join(dir, "cgroup.procs")})
	}
	if v1 && s.memV1 != "" {
		// And its v1 memory group: every page the run is charged for,
		// shared memory included, counts against Limits.Memory.
		dir, err := newMemoryGroupV1(s.memV1, s.opts.Limits.Memory)
		if err != nil {
			return Result{}, &StartError{Err: err}
		}
		defer removeGroupV1(dir)
		sp.joinProcs = append(sp.joinProcs, v1Join{"memory", filepath.Join(dir, "cgroup.procs")})
	}
	res, err := run(ctx, sp, opts)
	if note := removePlanted(s.opts.Root, protect); note != "" {
		if opts.MergeOutput || res.Stderr == nil && res.Stdout != nil {
			res.Stdout = append(res.Stdout, note...)
		} else {
			res.Stderr = append(res.Stderr, note...)
		}
	}
	return res, err
}

// dir resolves Options.Dir for a run: "" is Root, relative is from Root,
// and the result must be a directory inside Root.
func (s *Sandbox) dir(d string) (string, error) {
	if d == "" {
		return s.opts.Root, nil
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(s.opts.Root, d)
	}
	p, err := filepath.EvalSymlinks(d)
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	if !within(p, s.opts.Root) {
		return "", fmt.Errorf("working directory %s is outside the sandbox's workspace %s", d, s.opts.Root)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("working directory %s is not a directory", d)
	}
	return p, nil
}

// shellQuote quotes s as one word for bash.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// rlimitValue is one resource limit of a sandboxed command, soft and hard.
type rlimitValue struct {
	resource int
	value    uint64
}

// closeInherited marks every descriptor of this process above 2
// close-on-exec. Go opens its own so; the others were inherited when the
// process started (or opened by C code) and would reach the sandboxed
// command through bwrap.
func closeInherited() {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		if fd, err := strconv.Atoi(n); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}

// prlimit sets a resource limit (soft and hard) of the process pid.
func prlimit(pid int, r rlimitValue) error {
	lim := syscall.Rlimit{Cur: r.value, Max: r.value}
	_, _, errno := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), uintptr(r.resource), uintptr(unsafe.Pointer(&lim)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
