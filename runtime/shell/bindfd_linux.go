package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// Binds whose source lies where a sandboxed command can write (Root, a
// Writable path) are not handed to bwrap by name: bwrap would resolve the
// name again later, in a view where nothing is hidden, and a link swapped
// in meanwhile by a run still going would redirect the mount (a hidden
// file, the host's /root). Each such source is opened once on the host as
// an O_PATH descriptor, beneath a descriptor of the directory that holds
// it and following no link (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS),
// and bwrap binds that descriptor (--bind-fd, --ro-bind-fd), which it
// received through exec.Cmd.ExtraFiles.

// bindFDs are the descriptors one run passes to bwrap for its binds, in
// order: the first is the child's descriptor first, the next first+1, ...
type bindFDs struct {
	first int
	files []*os.File
}

// add takes fd (an O_PATH descriptor) and returns the number bwrap knows
// it by.
func (b *bindFDs) add(fd int, name string) string {
	b.files = append(b.files, os.NewFile(uintptr(fd), name))
	return strconv.Itoa(b.first + len(b.files) - 1)
}

// bind is bwrap's options binding fd onto dest, read-only or not.
func (b *bindFDs) bind(fd int, dest string, readOnly bool) []string {
	opt := "--bind-fd"
	if readOnly {
		opt = "--ro-bind-fd"
	}
	return []string{opt, b.add(fd, dest), dest}
}

// close closes every descriptor (the child has its copies once started).
func (b *bindFDs) close() {
	for _, f := range b.files {
		f.Close()
	}
	b.files = nil
}

// errNoOpenat2 is why a run is refused on a kernel without openat2(2)
// (before Linux 5.6): its binds could only be made by name.
var errNoOpenat2 = errors.New("sandbox: this kernel has no openat2(2) (Linux 5.6 or later): a workspace path cannot be bound without following links, so no command runs")

// openDir opens the directory dir (a path the sandbox cannot change: Root
// or a Writable path, resolved by NewSandbox) as an O_PATH descriptor.
func openDir(dir string) (int, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return -1, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	return fd, nil
}

// openBeneath opens rel (relative, slash-separated) beneath the directory
// dirfd as an O_PATH descriptor, following no link: a link on the way
// fails with ELOOP, and a link at rel itself gives a descriptor of the
// link. A rename racing the lookup makes openat2 fail with EAGAIN; it is
// retried a bounded number of times.
func openBeneath(dirfd int, rel string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var err error
	for range 100 {
		var fd int
		fd, err = unix.Openat2(dirfd, rel, &how)
		if err == nil {
			return fd, nil
		}
		if err != unix.EAGAIN && err != unix.EINTR {
			break
		}
	}
	if err == unix.ENOSYS {
		return -1, errNoOpenat2
	}
	return -1, err
}

// openFollowing opens rel beneath dirfd as an O_PATH descriptor following
// links (not magic links such as /proc/self/fd/N) wherever they lead, and
// returns it with where it is: the path the kernel has for it (no link on
// it), and its identity. The caller judges the place, not the name: what
// is bound is the file the descriptor holds.
func openFollowing(dirfd int, rel string) (fd int, where string, st unix.Stat_t, err error) {
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_MAGICLINKS}
	fd, err = unix.Openat2(dirfd, rel, &how)
	if err == unix.ENOSYS {
		return -1, "", st, errNoOpenat2
	}
	if err != nil {
		return -1, "", st, err
	}
	where, err = os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err == nil {
		err = unix.Fstat(fd, &st)
	}
	if err == nil {
		// The path the kernel names is where the file was as it answered;
		// it must still be that file (not "... (deleted)", not renamed).
		var at unix.Stat_t
		if unix.Lstat(where, &at) != nil || at.Dev != st.Dev || at.Ino != st.Ino {
			err = fmt.Errorf("sandbox: %s changed while it was being checked: no command runs with it half-checked", rel)
		}
	}
	if err != nil {
		unix.Close(fd)
		return -1, "", st, err
	}
	return fd, where, st, nil
}

// nestedBindSources are the bind sources of sandboxArgs that lie inside
// Root or a Writable path (not equal to it), each with the outermost of
// those that holds it.
func (s *Sandbox) nestedBindSources() map[string]string {
	shared := append([]string{s.opts.Root}, s.opts.Writable...)
	outer := func(p string) string {
		best := ""
		for _, d := range shared {
			if d != p && within(p, d) && (best == "" || len(d) < len(best)) {
				best = d
			}
		}
		return best
	}
	srcs := append(append(append([]string(nil), s.opts.Writable...), s.opts.ReadOnly...), s.opts.HomeVisible...)
	if s.opts.hiddenHome != "" && s.opts.Cache != "" {
		srcs = append(srcs, s.opts.Cache)
	}
	m := make(map[string]string)
	for _, p := range srcs {
		if d := outer(p); d != "" {
			m[p] = d
		}
	}
	return m
}

// bindArgsByFD returns args with each bind of a nested bind source (see
// nestedBindSources) made a bind of a descriptor opened beneath the
// directory that holds it, following no link. A source that is no longer
// itself refuses the run: an earlier run put a link on the way or at it
// (mv sub sub-old; mkdir sub; ln -s /root sub/data), which bwrap binding
// by name would have followed (read-write for a Writable path), or removed
// it. The check is the open itself, so a link swapped in by a run still
// going has no window between check and bind.
func (s *Sandbox) bindArgsByFD(args []string, b *bindFDs) ([]string, error) {
	nested := s.nestedBindSources()
	if len(nested) == 0 {
		return args, nil
	}
	kinds := map[string]string{}
	for _, set := range []struct {
		kind  string
		paths []string
	}{{"Cache", []string{s.opts.Cache}}, {"HomeVisible", s.opts.HomeVisible}, {"ReadOnly", s.opts.ReadOnly}, {"Writable", s.opts.Writable}} {
		for _, p := range set.paths {
			kinds[p] = set.kind
		}
	}
	dirs := map[string]int{}
	defer func() {
		for _, fd := range dirs {
			unix.Close(fd)
		}
	}()
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		d, ok := "", false
		if (a == "--bind" || a == "--ro-bind") && i+2 < len(args) {
			d, ok = nested[args[i+1]]
		}
		if !ok {
			out = append(out, a)
			continue
		}
		src, dest := args[i+1], args[i+2]
		dfd, open := dirs[d]
		if !open {
			var err error
			if dfd, err = openDir(d); err != nil {
				return nil, err
			}
			dirs[d] = dfd
		}
		rel, err := filepath.Rel(d, src)
		if err != nil {
			return nil, err
		}
		fd, err := openBeneath(dfd, rel)
		if err == errNoOpenat2 {
			return nil, err
		}
		var st unix.Stat_t
		if err == nil {
			if err = unix.Fstat(fd, &st); err == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
				err = unix.ELOOP
			}
			if err != nil {
				unix.Close(fd)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("sandbox: the %s path %s is no longer itself (a command replaced a directory on the way with a link, or removed it): no command runs until it is restored", kinds[src], src)
		}
		out = append(out, b.bind(fd, dest, a == "--ro-bind")...)
		i += 2
	}
	return out, nil
}
