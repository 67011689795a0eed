package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// failure is an error whose message is a sentence for the model. The file
// tools return it from their run functions; the generated Execute turns it
// into an error result with the sentence as content. The wrapped error, if
// any, is for logs.
type failure struct {
	msg string
	err error
}

func (f *failure) Error() string { return f.msg }
func (f *failure) Unwrap() error { return f.err }

// fail returns a failure worded by format.
func fail(format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...)}
}

// failWith returns a failure worded by format that wraps err.
func failWith(err error, format string, args ...any) error {
	return &failure{msg: fmt.Sprintf(format, args...), err: err}
}

// fsys is the file system a file tool acts through: an *os.Root when a
// workspace root is configured, the host's file system otherwise. Names are
// relative to the root (slash-separated) for an *os.Root and absolute for
// the host.
type fsys interface {
	OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error)
	Stat(name string) (fs.FileInfo, error)
	Lstat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	Rename(oldname, newname string) error
	Remove(name string) error
	MkdirAll(name string, perm fs.FileMode) error
	Close() error
}

// hostFS is the unconfined file system: the os package on absolute names.
type hostFS struct{}

func (hostFS) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (hostFS) Stat(name string) (fs.FileInfo, error)        { return os.Stat(name) }
func (hostFS) Lstat(name string) (fs.FileInfo, error)       { return os.Lstat(name) }
func (hostFS) Readlink(name string) (string, error)         { return os.Readlink(name) }
func (hostFS) Rename(oldname, newname string) error         { return os.Rename(oldname, newname) }
func (hostFS) Remove(name string) error                     { return os.Remove(name) }
func (hostFS) MkdirAll(name string, perm fs.FileMode) error { return os.MkdirAll(name, perm) }
func (hostFS) Close() error                                 { return nil }

// workspace resolves the paths the model gives and opens the file system
// the tools act through.
type workspace struct {
	// root is the absolute, clean workspace root; "" leaves the tools
	// unconfined.
	root string
	// openRoot opens the root; tests replace it to simulate failures.
	openRoot func(dir string) (fsys, error)

	realOnce sync.Once
	realRoot string // root with its links followed; "" if that failed
}

func newWorkspace(root string) (*workspace, error) {
	w := &workspace{}
	w.openRoot = func(dir string) (fsys, error) {
		r, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		return &confined{Root: r, ws: w}, nil
	}
	if root == "" {
		return w, nil
	}
	if strings.ContainsRune(root, 0) {
		return nil, errors.New("builtin: the workspace root contains a NUL byte")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("builtin: workspace root %q: %w", root, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("builtin: workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("builtin: workspace root %q is not a directory", root)
	}
	w.root = filepath.ToSlash(filepath.Clean(abs))
	return w, nil
}

// location is a resolved path: what is shown to the model and recorded in
// the read-files set (abs), and what is passed to the file system (name).
type location struct {
	// given is the path as the model wrote it.
	given string
	// abs is the absolute, lexically clean host path.
	abs string
	// name is abs relative to the workspace root ("." for the root itself)
	// when confined, abs otherwise.
	name string
	fs   fsys
	ws   *workspace
}

// base returns the directory relative paths are resolved against: the
// context's working directory, else the workspace root, else the process's
// working directory. A relative working directory is taken relative to the
// root.
func (w *workspace) base(tc tool.Context) string {
	wd := filepath.ToSlash(tc.WorkDir())
	if wd != "" && !path.IsAbs(wd) && w.root != "" {
		wd = path.Join(w.root, wd)
	}
	if wd == "" {
		wd = w.root
	}
	if wd == "" {
		if cwd, err := os.Getwd(); err == nil {
			wd = filepath.ToSlash(cwd)
		}
	}
	return wd
}

// resolve turns the model's path into a location and opens its file
// system; the caller closes loc.fs. The path is joined to the working
// directory when relative and cleaned lexically, as the permission system
// judges it, so that the tool acts on the path that was judged. When a
// workspace root is configured, a path that leaves it is refused before the
// file system is touched, and everything after goes through an os.Root, so
// that ".." and symbolic links cannot leave it either, even if the tree
// changes between the check and the open.
func (w *workspace) resolve(p string, tc tool.Context) (location, error) {
	if strings.TrimSpace(p) == "" {
		return location{}, fail("The path is empty. Give an absolute path, or one relative to the working directory.")
	}
	if strings.ContainsRune(p, 0) {
		return location{}, fail("The path contains a NUL byte. Give the path without it.")
	}
	abs, err := permission.AbsPath(filepath.ToSlash(p), w.base(tc))
	if err != nil {
		return location{}, failWith(err, "The path %q cannot be used: %s.", p, strings.TrimPrefix(err.Error(), "permission: "))
	}
	loc := location{given: p, abs: abs, ws: w}
	if w.root == "" {
		loc.name = abs
		loc.fs = hostFS{}
		return loc, nil
	}
	rel, ok := within(w.root, abs)
	if !ok {
		return location{}, outside(p)
	}
	r, err := w.openRoot(w.root)
	if err != nil {
		return location{}, failWith(err, "The workspace cannot be opened: %s.", reason(err))
	}
	loc.name = rel
	loc.fs = r
	return loc, nil
}

// contains reports whether the path p, resolved as resolve resolves it, is
// dir or below it; every path is within the unconfined workspace's root "".
func (w *workspace) contains(dir, p string, tc tool.Context) bool {
	if dir == "" {
		return true
	}
	base := w.base(tc)
	d, err := permission.AbsPath(filepath.ToSlash(dir), base)
	if err != nil {
		return false
	}
	a, err := permission.AbsPath(filepath.ToSlash(p), base)
	if err != nil {
		return false
	}
	_, ok := within(d, a)
	return ok
}

// relative returns p relative to dir, both resolved as contains resolves
// them; ok is false when p is not dir or below it.
func (w *workspace) relative(dir, p string, tc tool.Context) (string, bool) {
	base := w.base(tc)
	d, err := permission.AbsPath(filepath.ToSlash(dir), base)
	if err != nil {
		return "", false
	}
	a, err := permission.AbsPath(filepath.ToSlash(p), base)
	if err != nil {
		return "", false
	}
	return within(d, a)
}

// within returns abs relative to root, and whether abs is root or below it.
func within(root, abs string) (string, bool) {
	if abs == root {
		return ".", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if !strings.HasPrefix(abs, prefix) {
		return "", false
	}
	return abs[len(prefix):], true
}

// outside is the answer for a path that leaves the workspace. It names only
// the path the model gave, so it reveals nothing about what exists there.
func outside(p string) error {
	return fail("The path %s is outside the workspace. Only files inside the workspace can be used.", p)
}

// join returns the location of a name below loc (a directory).
func (loc location) join(rel string) location {
	n := loc
	n.abs = path.Join(loc.abs, rel)
	if loc.ws.root == "" {
		n.name = n.abs
	} else {
		n.name = path.Join(loc.name, rel)
	}
	return n
}

// dirFS returns an fs.FS rooted at loc, which must be a directory. When
// confined it goes through the os.Root, which refuses to follow links out
// of the workspace.
func (loc location) dirFS() fs.FS {
	if c, ok := loc.fs.(*confined); ok {
		name := loc.name
		if _, err := c.Root.Stat(name); escapes(err) {
			if rebased, ok := c.ws.rebase(c.Root, name, true); ok {
				name = rebased
			}
		}
		sub, err := fs.Sub(c.Root.FS(), name)
		if err == nil {
			return sub
		}
		return c.Root.FS()
	}
	if r, ok := loc.fs.(*os.Root); ok {
		sub, err := fs.Sub(r.FS(), loc.name)
		if err == nil {
			return sub
		}
		return r.FS()
	}
	return os.DirFS(loc.abs)
}

// confined is the file system of a workspace with a root: an os.Root,
// which never leaves the root, and which also follows the absolute links
// that lead back inside it. An os.Root refuses every absolute link as
// leaving it; a link such as ws/abs -> /ws/real (with the root /ws) does
// not, so a name the os.Root refuses that way is rewritten without its
// links, each resolved within the root, and tried once more through the
// os.Root (which still refuses whatever would leave it).
type confined struct {
	*os.Root
	ws *workspace
}

// retry runs op on name, and once more on name with its links resolved
// within the workspace when the os.Root refused it as leaving the root.
// followLast is whether op follows a link in name's last element.
func (c *confined) retry(name string, followLast bool, op func(string) error) error {
	err := op(name)
	if !escapes(err) {
		return err
	}
	rebased, ok := c.ws.rebase(c.Root, name, followLast)
	if !ok || rebased == name {
		return err
	}
	return op(rebased)
}

func (c *confined) OpenFile(name string, flag int, perm fs.FileMode) (fh *os.File, err error) {
	err = c.retry(name, true, func(n string) error {
		fh, err = c.Root.OpenFile(n, flag, perm)
		return err
	})
	return fh, err
}

func (c *confined) Stat(name string) (fi fs.FileInfo, err error) {
	err = c.retry(name, true, func(n string) error {
		fi, err = c.Root.Stat(n)
		return err
	})
	return fi, err
}

func (c *confined) Lstat(name string) (fi fs.FileInfo, err error) {
	err = c.retry(name, false, func(n string) error {
		fi, err = c.Root.Lstat(n)
		return err
	})
	return fi, err
}

func (c *confined) Readlink(name string) (dest string, err error) {
	err = c.retry(name, false, func(n string) error {
		dest, err = c.Root.Readlink(n)
		return err
	})
	return dest, err
}

func (c *confined) Rename(oldname, newname string) error {
	err := c.Root.Rename(oldname, newname)
	if !escapes(err) {
		return err
	}
	o, ok1 := c.ws.rebase(c.Root, oldname, false)
	n, ok2 := c.ws.rebase(c.Root, newname, false)
	if !ok1 || !ok2 || (o == oldname && n == newname) {
		return err
	}
	return c.Root.Rename(o, n)
}

func (c *confined) Remove(name string) error {
	return c.retry(name, false, c.Root.Remove)
}

func (c *confined) MkdirAll(name string, perm fs.FileMode) error {
	return c.retry(name, true, func(n string) error { return c.Root.MkdirAll(n, perm) })
}

// realRootDir returns the root with its links followed, or "".
func (w *workspace) realRootDir() string {
	w.realOnce.Do(func() {
		if real, err := filepath.EvalSymlinks(filepath.FromSlash(w.root)); err == nil {
			w.realRoot = filepath.ToSlash(real)
		}
	})
	return w.realRoot
}

// rebase returns name (relative to the root) with its symbolic links
// resolved within the workspace, as the kernel would resolve them: a
// relative link from the directory it is in, an absolute one from the
// host's root, which must be the workspace root or below it (written as
// the root was given, or with the root's own links followed). ".." climbs
// the resolved directory. The part of name that does not exist is kept as
// it is. ok is false when a link leads out of the workspace, or there are
// too many. With followLast false, a link in name's last element is kept.
func (w *workspace) rebase(r *os.Root, name string, followLast bool) (string, bool) {
	cur := ""
	rest := name
	hops := 0
	for {
		rest = strings.TrimLeft(rest, "/")
		if rest == "" {
			break
		}
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case ".":
			continue
		case "..":
			if cur == "" {
				return "", false
			}
			cur = path.Dir(cur)
			if cur == "." {
				cur = ""
			}
			continue
		}
		next := path.Join(cur, comp)
		if strings.Trim(rest, "/") == "" && !followLast {
			cur = next
			break
		}
		fi, err := r.Lstat(next)
		if err != nil {
			// What does not exist (yet) is kept as it was written.
			cur = path.Join(next, rest)
			break
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", false
		}
		dest, err := r.Readlink(next)
		if err != nil {
			return "", false
		}
		dest = filepath.ToSlash(dest)
		if path.IsAbs(dest) {
			dest = path.Clean(dest)
			rel, ok := within(w.root, dest)
			if !ok {
				if real := w.realRootDir(); real != "" {
					rel, ok = within(real, dest)
				}
			}
			if !ok {
				return "", false
			}
			cur = ""
			if rel != "." {
				rest = rel + "/" + rest
			}
			continue
		}
		rest = dest + "/" + rest
	}
	if cur == "" {
		return ".", true
	}
	return cur, true
}

// openedAt returns the absolute path the open file fh really is at, its
// links followed: on Linux as the kernel reports it for the descriptor, so
// that a link swapped after the open cannot change the answer; elsewhere
// the resolved lexical path, when it is still the same file as fh. ok is
// false when neither can be told.
func openedAt(fh *os.File, lexical string) (string, bool) {
	if runtime.GOOS == "linux" {
		if rc, err := fh.SyscallConn(); err == nil {
			var real string
			var rerr error
			if err := rc.Control(func(fd uintptr) {
				real, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
			}); err == nil && rerr == nil && path.IsAbs(real) {
				return real, true
			}
		}
	}
	real, err := filepath.EvalSymlinks(filepath.FromSlash(lexical))
	if err != nil {
		return "", false
	}
	want, err1 := fh.Stat()
	got, err2 := os.Stat(real)
	if err1 != nil || err2 != nil || !os.SameFile(want, got) {
		return "", false
	}
	return filepath.ToSlash(real), true
}

// allowedOpen reports whether the open file fh, reached at the lexical
// path abs, is allowed by the call's PATH patterns: abs as written, and
// the path the file was really opened at.
func allowedOpen(f permission.PathFilter, fh *os.File, abs string) bool {
	if !f.Restricts() {
		return true
	}
	if !f.Allows(abs) {
		return false
	}
	real, ok := openedAt(fh, abs)
	return ok && (real == abs || f.AllowsResolved(real))
}

// physical returns the host path abs leads to: the links of its longest
// existing part followed, the rest appended as written.
func physical(abs string) string {
	rest := ""
	for dir := abs; ; dir = path.Dir(dir) {
		if real, err := filepath.EvalSymlinks(filepath.FromSlash(dir)); err == nil {
			return path.Join(filepath.ToSlash(real), rest)
		}
		if dir == "/" || dir == "." {
			return abs
		}
		rest = path.Join(path.Base(dir), rest)
	}
}

// notAllowed is the answer for a path the tool's own patterns refuse, in
// the words the permission system uses.
func notAllowed(toolName string) error {
	return fail(permission.ReasonPath, toolName)
}

// escapes reports whether err says a path left an os.Root. The os package
// does not export the error, so its text is matched.
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// openError words a failed file system call on loc.
func openError(loc location, err error) error {
	switch {
	case escapes(err):
		return failWith(err, "The path %s is outside the workspace. Only files inside the workspace can be used.", loc.given)
	case errors.Is(err, fs.ErrNotExist):
		return failWith(err, "File does not exist: %s", loc.abs)
	case errors.Is(err, fs.ErrPermission):
		return failWith(err, "Permission denied: %s", loc.abs)
	}
	return failWith(err, "Cannot access %s: %s.", loc.abs, reason(err))
}

// reason returns the innermost message of err: for an *fs.PathError the
// cause without the operation and path, so that host paths outside the
// workspace are not echoed.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

// kindOf names a file mode that is not a regular file.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}

// realDir returns dir with its symbolic links followed, written under the
// workspace root as the root was given; ok is false when it leads out of
// the root. A directory that does not exist is returned as it is.
func (w *workspace) realDir(dir string) (string, bool) {
	real, err := filepath.EvalSymlinks(filepath.FromSlash(dir))
	if err != nil {
		return dir, true
	}
	real = filepath.ToSlash(real)
	if w.root == "" {
		return real, true
	}
	realRoot, err := filepath.EvalSymlinks(filepath.FromSlash(w.root))
	if err != nil {
		return "", false
	}
	rel, ok := within(filepath.ToSlash(realRoot), real)
	if !ok {
		return "", false
	}
	return path.Join(w.root, rel), true
}

// maxLinkHops bounds the symbolic links Write and Edit follow to find the
// file a link names.
const maxLinkHops = 40

// target follows symbolic links from loc to the file they name, so that a
// write through a link replaces the file and keeps the link. Links are
// resolved lexically within the workspace; a link that leaves it is refused.
func (loc location) target() (location, error) {
	cur := loc
	for range maxLinkHops {
		fi, err := cur.fs.Lstat(cur.name)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return cur, nil
		}
		dest, err := cur.fs.Readlink(cur.name)
		if err != nil {
			return location{}, openError(loc, err)
		}
		dest = filepath.ToSlash(dest)
		next := cur
		if path.IsAbs(dest) {
			next.abs = path.Clean(dest)
		} else {
			// A relative link is relative to the directory it really is
			// in, which may itself be reached through links.
			parent, ok := cur.ws.realDir(path.Dir(cur.abs))
			if !ok {
				return location{}, outside(loc.given)
			}
			next.abs = path.Join(parent, dest)
		}
		if cur.ws.root == "" {
			next.name = next.abs
		} else {
			rel, ok := within(cur.ws.root, next.abs)
			if !ok && path.IsAbs(dest) {
				// An absolute link may name the root by its real path.
				if real := cur.ws.realRootDir(); real != "" {
					if rel, ok = within(real, next.abs); ok {
						next.abs = path.Join(cur.ws.root, rel)
					}
				}
			}
			if !ok {
				return location{}, outside(loc.given)
			}
			next.name = rel
		}
		cur = next
	}
	return location{}, fail("Too many levels of symbolic links: %s", loc.abs)
}

// pathLocks serialises writes to one path within the process, so that two
// runs editing the same file cannot both pass the "changed since read"
// check before either has written.
type pathLocks struct {
	mu sync.Mutex
	m  map[string]*pathLock
}

type pathLock struct {
	mu   sync.Mutex
	refs int
}

// lock locks p and returns the function that unlocks it.
func (l *pathLocks) lock(p string) func() {
	l.mu.Lock()
	if l.m == nil {
		l.m = make(map[string]*pathLock)
	}
	e := l.m[p]
	if e == nil {
		e = &pathLock{}
		l.m[p] = e
	}
	e.refs++
	l.mu.Unlock()
	e.mu.Lock()
	return func() {
		e.mu.Unlock()
		l.mu.Lock()
		e.refs--
		if e.refs == 0 {
			delete(l.m, p)
		}
		l.mu.Unlock()
	}
}

// writeLocks is shared by every registry of the process: two registries
// over the same tree must not interleave their writes either.
var writeLocks pathLocks
