package shell

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The unix-socket view: what a sandbox without network shows of the host
// when SandboxOptions.AllowUnixSockets names sockets its commands may
// reach. A seccomp filter cannot see the path a connect(2) names, so
// socket(AF_UNIX) is then allowed, and it is the file system that keeps
// every other socket out of reach: the host is shown only through the
// directories programs, their libraries and configuration come from
// (systemDirs, read-only), the sandbox's own binds (Root, Writable, the
// visible home paths, its tmpfs /tmp, /run and $HOME) and the named
// sockets, and bwrap's root is read-only once they are in place. /var,
// /srv, /mnt, /media, /home and the rest are not there, so no socket of
// theirs has a path that resolves. Abstract sockets belong to the
// network namespace, which is the sandbox's own.
//
// A socket file inside what is shown would still resolve (a system
// directory holds none on an ordinary system; /nix's daemon socket is why
// only /nix/store and the profiles are shown). Each run covers with
// /dev/null every socket this machine's network namespace has bound
// (/proc/net/unix) whose file lies in what is shown and is not named:
// what is left is a socket bound in another network namespace, by a
// relative path, or moved since it was bound, inside the workspace, a
// Writable path or a system directory.
//
// A named socket is bound at its real path (links resolved by
// NewSandbox; the run binds that path only while it still is a socket),
// and at the path named too where the two differ and the named one is
// not in the view (/var/run/... for /run/...); a named link that is in
// the view (in the workspace, under /etc) resolves inside the sandbox as
// on the host. A named socket inside Root or a Writable path is not bound
// at all: it is there already, and is only left uncovered. Bind sources
// are never paths the sandbox can write, so no link a command plants
// widens what a bind shows, and a named link changed on the host after
// NewSandbox changes nothing.

// systemDirs are what the sandbox shows of the host when
// SandboxOptions.AllowUnixSockets is not empty: where programs and their
// libraries and configuration come from, and where sockets do not live.
var systemDirs = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc", "/opt", "/sys", "/nix/store", "/nix/var/nix/profiles",
}

// namedSocket is one entry of SandboxOptions.AllowUnixSockets, resolved.
type namedSocket struct {
	real  string // the socket's path with links resolved: bound there
	alias string // the path as named, where it differs and may be bound too, else ""
}

// systemView are bwrap's options that show systemDirs read-only (a link,
// as /bin -> usr/bin, as the same link) instead of the whole host.
func systemView() []string {
	var a []string
	for _, d := range systemDirs {
		fi, err := os.Lstat(d)
		switch {
		case err != nil:
		case fi.Mode()&os.ModeSymlink != 0:
			if t, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", t, d)
			}
		case fi.IsDir():
			a = append(a, "--ro-bind", d, d)
		}
	}
	return a
}

// resolveSockets checks SandboxOptions.AllowUnixSockets (after Root,
// Writable, Cache and the home are resolved): the list only where it
// means something and can be kept to, each entry an existing socket. It
// sets o.sockets and makes AllowUnixSockets the real paths.
func resolveSockets(o *SandboxOptions) error {
	if len(o.AllowUnixSockets) == 0 {
		return nil
	}
	if o.Network {
		return errors.New("sandbox: AllowUnixSockets is for a sandbox without network; with Network on every socket is reachable")
	}
	if o.ShowHome {
		return errors.New("sandbox: AllowUnixSockets needs the home hidden (ShowHome false): the sockets under $HOME (an ssh or gpg agent's) would be reachable")
	}
	var real []string
	for _, p := range o.AllowUnixSockets {
		abs, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("sandbox: AllowUnixSockets: %w", err)
		}
		r, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return fmt.Errorf("sandbox: AllowUnixSockets: %w", err)
		}
		fi, err := os.Lstat(r)
		if err != nil {
			return fmt.Errorf("sandbox: AllowUnixSockets: %w", err)
		}
		if fi.Mode()&os.ModeSocket == 0 {
			return fmt.Errorf("sandbox: AllowUnixSockets: %s is not a unix socket", p)
		}
		for _, h := range o.Hide {
			if within(r, h) {
				return fmt.Errorf("sandbox: AllowUnixSockets: %s is under %s, which is hidden", p, h)
			}
		}
		s := namedSocket{real: r}
		if abs != r && o.shownAt(abs) == "" && !insideAny(abs, o.Hide) {
			// The link is not in the view (/var/run): the socket is
			// bound there too. A link that is (in the workspace, under
			// /etc) resolves inside the sandbox as on the host.
			s.alias = abs
		}
		o.sockets = append(o.sockets, s)
		real = append(real, r)
	}
	o.AllowUnixSockets = real
	return nil
}

// writablePaths are the host paths a sandboxed command can write and that
// outlast its run: Root, Writable and Cache.
func (o *SandboxOptions) writablePaths() []string {
	w := append([]string{o.Root}, o.Writable...)
	if o.Cache != "" && o.hiddenHome != "" {
		w = append(w, o.Cache)
	}
	return w
}

// socketArgs are a run's bwrap options for the unix-socket view, after
// every other bind: the named sockets that are still sockets, then
// /dev/null over the sockets /proc/net/unix lists inside what is shown,
// then bwrap's root made read-only.
func (s *Sandbox) socketArgs() []string {
	o := &s.opts
	writes := o.writablePaths()
	var a []string
	named := make(map[string]bool)
	for _, n := range o.sockets {
		named[n.real] = true
		if insideAny(n.real, writes) {
			continue // there already
		}
		if fi, err := os.Lstat(n.real); err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue // gone since NewSandbox: not there
		}
		a = append(a, "--ro-bind", n.real, n.real)
		if n.alias != "" {
			a = append(a, "--ro-bind", n.real, n.alias)
		}
	}
	for _, p := range boundSockets() {
		r, err := filepath.EvalSymlinks(p)
		if err != nil || named[r] {
			continue
		}
		if fi, err := os.Lstat(r); err != nil || fi.Mode()&os.ModeSocket == 0 {
			continue
		}
		if at := o.shownAt(r); at != "" {
			named[r] = true // covered once
			a = append(a, "--ro-bind", "/dev/null", at)
		}
	}
	return append(a, "--remount-ro", "/")
}

// shownAt is where the host path p (links resolved) appears in the
// unix-socket view, or "" where it does not.
func (o *SandboxOptions) shownAt(p string) string {
	if insideAny(p, o.Hide) {
		return ""
	}
	if o.Cache != "" && o.hiddenHome != "" && within(p, o.Cache) {
		return filepath.Join(o.hiddenHome, ".cache", strings.TrimPrefix(p, o.Cache))
	}
	shown := append(append(append([]string{o.Root}, o.Writable...), o.HomeVisible...), systemDirs...)
	for _, d := range shown {
		// A system directory that is a link (/bin) shows what it links
		// to, which is shown itself (/usr/bin).
		if within(p, d) {
			return p
		}
	}
	return ""
}

// boundSockets are the paths of the unix sockets bound in this process's
// network namespace, from /proc/net/unix ("Num RefCount Protocol Flags
// Type St Inode Path", the path absent for an unbound socket and starting
// with @ for an abstract one).
func boundSockets() []string {
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		return nil
	}
	defer f.Close()
	return parseNetUnix(bufio.NewScanner(f))
}

func parseNetUnix(sc *bufio.Scanner) []string {
	var paths []string
	seen := make(map[string]bool)
	for first := true; sc.Scan(); first = false {
		if first {
			continue // the header
		}
		rest := sc.Text()
		for range 7 {
			rest = strings.TrimLeft(rest, " ")
			i := strings.IndexByte(rest, ' ')
			if i < 0 {
				rest = ""
				break
			}
			rest = rest[i:]
		}
		p, ok := strings.CutPrefix(rest, " ")
		if !ok || !strings.HasPrefix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		paths = append(paths, filepath.Clean(p))
	}
	return paths
}
