package shell

import (
	"context"
	"os"
)

// Execute runs cmd.Line with `bash --norc -c` under opts. See [Shell] for
// the meaning of the results and errors, and the package documentation for
// how the process tree is contained. ctx must not be nil.
func (l *Local) Execute(ctx context.Context, cmd Command, opts Options) (Result, error) {
	if res, err := check(ctx, opts); err != nil {
		return res, err
	}
	bash, err := l.bashPath()
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	env, err := buildEnv(os.Environ(), opts.PassEnv, opts.Env)
	if err != nil {
		return Result{}, &StartError{Err: err}
	}
	// --norc: Debian-built bash sources ~/.bashrc even for `bash -c` when
	// SSH_CLIENT is set; the flag stops that.
	sp := spec{path: bash, args: []string{"bash", "--norc", "-c", cmd.Line}, env: env, dir: opts.Dir}
	switch l.detect(); {
	case opts.Cgroup != "":
		sp.cgroup, sp.cgroupRequired = opts.Cgroup, true
	case l.cgroup != "":
		sp.cgroup = l.cgroup
	default:
		sp.sweep = newRunMark()
		sp.env = append(sp.env, sp.sweep)
	}
	return run(ctx, sp, opts)
}

// detect chooses the containment once: the automatic cgroup where this
// process may create one, else the sweep.
func (l *Local) detect() {
	l.once.Do(func() {
		if l.noAuto {
			l.noCgroup = "automatic cgroup turned off"
			return
		}
		bash, err := l.bashPath()
		if err != nil {
			l.noCgroup = "no bash: " + err.Error()
			return
		}
		dir, err := autoCgroup(bash)
		if err != nil {
			l.noCgroup = "no usable cgroup v2: " + err.Error()
			return
		}
		l.cgroup = dir
	})
}
