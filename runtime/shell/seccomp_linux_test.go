package shell

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// socketHelper is the environment variable that makes this test binary,
// copied into a sandbox's workspace, try one socket operation and print
// what happened instead of running the tests.
const socketHelper = "TOOLGEN_SHELL_SOCKET_HELPER"

func init() {
	mode := os.Getenv(socketHelper)
	if mode == "" {
		return
	}
	switch mode {
	case "connect":
		c, err := net.Dial("unix", os.Args[len(os.Args)-1])
		if err != nil {
			fmt.Println("refused:", errorName(err))
			os.Exit(0)
		}
		// A server that says who it is is named.
		b, _ := io.ReadAll(io.LimitReader(c, 64))
		c.Close()
		if len(b) > 0 {
			fmt.Printf("connected: %s\n", b)
		} else {
			fmt.Println("connected")
		}
	case "socketpair", "seqpacket":
		typ := syscall.SOCK_STREAM
		if mode == "seqpacket" {
			typ = syscall.SOCK_SEQPACKET
		}
		fds, err := syscall.Socketpair(syscall.AF_UNIX, typ|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			fmt.Println("refused:", errorName(err))
			os.Exit(0)
		}
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		fmt.Println("pair")
	case "dgram", "raw":
		// An unbound datagram socket from a pair sends to the host's
		// datagram socket by its path (os.Args' last).
		typ := syscall.SOCK_DGRAM
		if mode == "raw" {
			typ = syscall.SOCK_RAW
		}
		fds, err := syscall.Socketpair(syscall.AF_UNIX, typ|syscall.SOCK_NONBLOCK, 0)
		if err != nil {
			fmt.Println("refused:", errorName(err))
			os.Exit(0)
		}
		if err := syscall.Sendto(fds[0], []byte("hello"), 0, &syscall.SockaddrUnix{Name: os.Args[len(os.Args)-1]}); err != nil {
			fmt.Println("send failed:", errorName(err))
			os.Exit(0)
		}
		fmt.Println("sent")
	case "spawn":
		// Start sleeps until the kernel refuses one; print how many ran.
		var started []*exec.Cmd
		for range 10000 {
			c := exec.Command("sleep", "60")
			if err := c.Start(); err != nil {
				break
			}
			started = append(started, c)
		}
		fmt.Println(len(started))
		for _, c := range started {
			c.Process.Kill()
			c.Wait()
		}
	case "inet":
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
		if err != nil {
			fmt.Println("refused:", errorName(err))
			os.Exit(0)
		}
		syscall.Close(fd)
		fmt.Println("socket")
	}
	os.Exit(0)
}

// errorName is the errno behind err, or err's text.
func errorName(err error) string {
	var errno syscall.Errno
	for e := err; e != nil; {
		if n, ok := e.(syscall.Errno); ok {
			errno = n
			break
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			break
		}
		e = u.Unwrap()
	}
	if errno != 0 {
		return errno.Error()
	}
	return err.Error()
}

// TestSandboxUnixSockets: with the network off, a unix socket of the host
// outside the sandbox's own /tmp and /run (here under /var/tmp) cannot be
// connected to: socket(AF_UNIX) fails with EACCES under the seccomp
// filter, and so does socketpair(AF_UNIX) of a datagram type, whose
// unbound socket would send to a host datagram socket by its path.
// socketpair of the stream and seqpacket types and an inet socket (on the
// namespace's own loopback) still work; with the network on, the host's
// sockets are reachable as before.
func TestSandboxUnixSockets(t *testing.T) {
	root := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	helper := filepath.Join(root, "helper")
	copyFile(t, self, helper)

	sock := filepath.Join(outsideTmp(t), "host.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("cannot listen on a unix socket: %v", err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()

	// A host datagram socket: an unbound socket from a datagram pair
	// reached it before (sendto names its path).
	dsock := filepath.Join(filepath.Dir(sock), "host-dgram.sock")
	dl, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: dsock, Net: "unixgram"})
	if err != nil {
		t.Skipf("cannot listen on a unix datagram socket: %v", err)
	}
	defer dl.Close()

	tests := []struct {
		network bool
		mode    string
		want    string
	}{
		{false, "connect", "refused: permission denied"},
		{false, "socketpair", "pair"},
		{false, "seqpacket", "pair"},
		{false, "dgram", "refused: permission denied"},
		{false, "raw", "refused: permission denied"},
		{false, "inet", "socket"},
		{true, "connect", "connected"},
		{true, "dgram", "sent"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("network=%v/%s", tt.network, tt.mode), func(t *testing.T) {
			s := newTestSandbox(t, SandboxOptions{Root: root, Network: tt.network})
			path := sock
			if tt.mode == "dgram" || tt.mode == "raw" {
				path = dsock
			}
			res, err := s.Execute(context.Background(), Command{Line: "./helper " + shellQuote(path)},
				Options{Timeout: boundFor(t), MergeOutput: true, Env: []string{socketHelper + "=" + tt.mode}})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, strings.TrimSpace(string(res.Stdout))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSocketFilterShape: the program, refusing unix sockets or not, ends
// in its three returns and every jump lands inside it.
func TestSocketFilterShape(t *testing.T) {
	for _, allowUnix := range []bool{false, true} {
		prog, err := socketFilter(allowUnix)
		if err != nil {
			t.Skip(err)
		}
		checkFilterShape(t, prog)
	}
}

func checkFilterShape(t *testing.T, prog []byte) {
	t.Helper()
	if len(prog)%8 != 0 {
		t.Fatalf("program of %d bytes, not whole instructions", len(prog))
	}
	n := len(prog) / 8
	for i := range n {
		ins := prog[8*i : 8*i+8]
		code := uint16(ins[0]) | uint16(ins[1])<<8
		if code == bpfJeqK || code == bpfJsetK || code == bpfJgeK {
			for _, d := range []byte{ins[2], ins[3]} {
				if i+1+int(d) >= n {
					t.Errorf("instruction %d jumps %d, past the end (%d instructions)", i, d, n)
				}
			}
		}
	}
	if last := prog[len(prog)-8:]; last[0] != bpfRetK {
		t.Errorf("the program does not end in a return")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
