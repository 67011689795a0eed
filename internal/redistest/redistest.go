// Package redistest starts a redis-server of its own for a test: on a
// unix socket in the test's temporary directory, with no persistence,
// stopped when the test ends. A test on a machine without redis-server
// (Debian's package of that name) is skipped, saying so.
package redistest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Server is a running redis-server.
type Server struct {
	// URL reaches it: unix://<socket>.
	URL  string
	cmd  *exec.Cmd
	sock string
}

// Start starts redis-server for t, or skips t when the program is absent.
// The server is stopped (and waited for) when t ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server is not installed (Debian: apt-get install redis-server); the Redis store's tests need one of their own")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "redis.sock")
	// Unix sockets have a short path limit (108 bytes): fall back to a
	// shorter directory when the test's is too deep.
	if len(sock) > 100 {
		d, err := os.MkdirTemp("", "redis")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		sock = filepath.Join(d, "r.sock")
	}
	cmd := exec.Command(bin, "--port", "0", "--unixsocket", sock, "--unixsocketperm", "700",
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no", "--loglevel", "warning")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting redis-server: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	// Poll until it answers PING, with a growing wait; bounded by the
	// test's deadline (or a minute).
	deadline := time.Now().Add(time.Minute)
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			deadline = dl
		}
	}
	for wait := time.Millisecond; ; wait = min(wait*2, 100*time.Millisecond) {
		select {
		case <-done:
			t.Fatalf("redis-server exited at start: %s", out.String())
		default:
		}
		if ping(sock) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server did not answer on %s: %s", sock, out.String())
		}
		time.Sleep(wait)
	}
	return &Server{URL: "unix://" + sock, cmd: cmd, sock: sock}
}

// ping reports whether a server answers PING on the socket.
func ping(sock string) bool {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Second))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	buf := make([]byte, 16)
	n, _ := c.Read(buf)
	return strings.HasPrefix(string(buf[:n]), "+PONG")
}
