package shell

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolgen/toolgen/internal/redistest"
)

func TestParseNetUnix(t *testing.T) {
	const text = `Num       RefCount Protocol Flags    Type St Inode Path
0000000000000000: 00000002 00000000 00010000 0001 01 21413 /run/systemd/private
0000000000000000: 00000002 00000000 00010000 0001 01  1234 /var/tmp/a b.sock
0000000000000000: 00000003 00000000 00000000 0001 03 23861 /run/systemd/private
0000000000000000: 00000002 00000000 00010000 0001 01 19887 @/tmp/.X11-unix/X0
0000000000000000: 00000003 00000000 00000000 0001 03 23862
0000000000000000: 00000002 00000000 00000000 0002 01 17071 /run/systemd/journal/socket
0000000000000000: 00000002 00000000 00010000 0001 01 17072 relative.sock
`
	got := parseNetUnix(bufio.NewScanner(strings.NewReader(text)))
	want := []string{"/run/systemd/private", "/var/tmp/a b.sock", "/run/systemd/journal/socket"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// listenUnix serves a unix socket at path that writes its base name on
// every connection and closes it, until the test ends.
func listenUnix(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skipf("cannot listen on a unix socket: %v", err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(filepath.Base(path)))
			c.Close()
		}
	}()
}

// TestSandboxAllowUnixSockets: with the network off and host sockets
// named in AllowUnixSockets, those are reachable from inside and no other
// is: not one beside them (under /var/tmp, outside the sandbox's own
// /tmp), not the system bus, not one this machine listens on inside the
// workspace, not one a command links to from the workspace, and not the
// socket a named link points to once it is changed after NewSandbox.
// Nothing of /var but the path to the named sockets is there, bwrap's
// root is read-only, and a toolchain still works.
func TestSandboxAllowUnixSockets(t *testing.T) {
	root := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, self, filepath.Join(root, "helper"))
	dir := outsideTmp(t)
	allowed, other := filepath.Join(dir, "allowed.sock"), filepath.Join(dir, "other.sock")
	inRoot, namedInRoot := filepath.Join(root, "host.sock"), filepath.Join(root, "named.sock")
	for _, p := range []string{allowed, other, inRoot, namedInRoot} {
		listenUnix(t, p)
	}
	// A named path through a link outside the view: bound at the link's
	// path and at the socket's, from the socket's. A link in the
	// workspace is there already and resolves to the socket's path.
	link, rootLink := filepath.Join(outsideTmp(t), "link.sock"), filepath.Join(root, "link.sock")
	for _, l := range []string{link, rootLink} {
		if err := os.Symlink(allowed, l); err != nil {
			t.Fatal(err)
		}
	}

	s := newTestSandbox(t, SandboxOptions{Root: root, AllowUnixSockets: []string{link, namedInRoot, rootLink}})
	g := s.Guarantees()
	if diff := cmp.Diff([]string{allowed, namedInRoot, allowed}, g.UnixSockets); diff != "" {
		t.Errorf("Guarantees().UnixSockets (-want +got):\n%s", diff)
	}
	if !g.NoNetwork {
		t.Errorf("Guarantees().NoNetwork = false, want true")
	}
	// The link now points elsewhere: what is bound stays the socket it
	// pointed to when the sandbox was made.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	const gone = "refused: no such file or directory"
	for _, tt := range []struct{ name, sock, pre, want string }{
		{"named", allowed, "", "connected: allowed.sock"},
		{"named through a link", link, "", "connected: allowed.sock"},
		{"named through a link in the workspace", rootLink, "", "connected: allowed.sock"},
		{"named in the workspace", namedInRoot, "", "connected: named.sock"},
		{"beside the named one", other, "", gone},
		{"the system bus", "/run/dbus/system_bus_socket", "", gone},
		{"listened on in the workspace", inRoot, "", "refused: connection refused"},
		{"linked to from the workspace", filepath.Join(root, "planted.sock"), "ln -sf " + shellQuote(other) + " planted.sock && ", gone},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.Execute(context.Background(), Command{Line: tt.pre + "./helper " + shellQuote(tt.sock)},
				Options{Timeout: boundFor(t), MergeOutput: true, Env: []string{socketHelper + "=connect"}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, strings.TrimSpace(string(res.Stdout))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.sock, diff)
			}
		})
	}
	line := "ls -A /var; ls -A " + shellQuote(dir) + "; touch /x 2>&1 | sed 's/.*: //'; go version >/dev/null && echo go works"
	res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t)})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outcome{Stdout: "tmp\nallowed.sock\nRead-only file system\ngo works\n"}, outcomeOf(res)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAllowUnixSocketsErrors: the list names sockets, outside the hidden
// paths, and needs the network off and the home hidden.
func TestAllowUnixSocketsErrors(t *testing.T) {
	requireProc(t)
	root := t.TempDir()
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := outsideTmp(t)
	sock := filepath.Join(dir, "s.sock")
	listenUnix(t, sock)
	for _, tt := range []struct {
		name string
		opts SandboxOptions
		want string
	}{
		{"missing", SandboxOptions{Root: root, AllowUnixSockets: []string{filepath.Join(root, "nope")}}, "AllowUnixSockets: lstat"},
		{"not a socket", SandboxOptions{Root: root, AllowUnixSockets: []string{file}}, "is not a unix socket"},
		{"network on", SandboxOptions{Root: root, Network: true, AllowUnixSockets: []string{sock}}, "for a sandbox without network"},
		{"home shown", SandboxOptions{Root: root, ShowHome: true, AllowUnixSockets: []string{sock}}, "needs the home hidden"},
		{"hidden", SandboxOptions{Root: root, Hide: []string{dir}, AllowUnixSockets: []string{sock}}, "which is hidden"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewSandbox(tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewSandbox: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestSandboxAllowUnixSocketsRedis: a redis-server on this machine,
// listening on a unix socket, answers redis-cli inside a sandbox without
// network when AllowUnixSockets names its socket, and is out of reach
// without it.
func TestSandboxAllowUnixSocketsRedis(t *testing.T) {
	if testing.Short() {
		t.Skip(shortNoSandbox)
	}
	srv := redistest.Start(t)
	sock := strings.TrimPrefix(srv.URL, "unix://")
	line := "redis-cli -s " + shellQuote(sock) + " ping 2>&1"
	for _, tt := range []struct {
		allow []string
		want  string
	}{
		{[]string{sock}, "PONG"},
		{nil, "Could not connect"},
	} {
		s := newTestSandbox(t, SandboxOptions{AllowUnixSockets: tt.allow})
		res, err := s.Execute(context.Background(), Command{Line: line}, Options{Timeout: boundFor(t), MergeOutput: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.Stdout), tt.want) {
			t.Errorf("allowed %v: redis-cli said %q, want %q", tt.allow, res.Stdout, tt.want)
		}
	}
}
