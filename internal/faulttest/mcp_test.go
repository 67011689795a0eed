package faulttest

import (
	"context"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// cancelBound is the bound of the MCP fault tests: a peer's disconnect
// must reach the other side well within it (it takes milliseconds).
const cancelBound = 2 * time.Second

// blocker is a tool that runs until its ctx ends (or the test ends) and
// reports when it started and why its ctx ended.
type blocker struct {
	started chan struct{}
	ended   chan blockEnd
	release chan struct{}
}

type blockEnd struct {
	cause error // context.Cause of the call's ctx; nil when the test released it
	at    time.Time
}

func newBlocker(t *testing.T) *blocker {
	b := &blocker{started: make(chan struct{}, 8), ended: make(chan blockEnd, 8), release: make(chan struct{})}
	t.Cleanup(func() { close(b.release) })
	return b
}

func (b *blocker) tool() tool.Tool {
	return tool.New(tool.Definition{Name: "Block", Description: "Runs until its call is cancelled.", InputSchema: openObject, Concurrency: tool.Safe},
		func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
			b.started <- struct{}{}
			select {
			case <-ctx.Done():
				b.ended <- blockEnd{context.Cause(ctx), time.Now()}
				return tool.FailureWith("Block was cancelled.", ctx.Err())
			case <-b.release:
				b.ended <- blockEnd{nil, time.Now()}
				return tool.Success("released")
			}
		})
}

func (b *blocker) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-b.started:
	case <-time.After(waitBound(t)):
		t.Fatal("the Block call never started")
	}
}

// waitCancelled waits for the running Block call to see its ctx cancelled
// and returns how long after since that was.
func (b *blocker) waitCancelled(t *testing.T, since time.Time) time.Duration {
	t.Helper()
	select {
	case e := <-b.ended:
		if e.cause == nil {
			t.Fatal("the Block call was released by the test, not cancelled")
		}
		d := e.at.Sub(since)
		if d > cancelBound {
			t.Errorf("the Block call saw its ctx cancelled %v after the fault, want within %v", d, cancelBound)
		}
		return d
	case <-time.After(waitBound(t)):
		t.Fatalf("the Block call's ctx was not cancelled %v after the fault", waitBound(t))
	}
	return 0
}

// link is one connection between a client and a server: the two
// transports, and for each side a function that kills it from below the
// SDK, as the death of its process would (its file descriptors close).
type link struct {
	client, server         mcp.Transport
	killClient, killServer func()
}

// transports are the ways a client reaches our server in these tests, all
// inside the process or on loopback.
var transports = []struct {
	name string
	open func(t *testing.T) link
}{
	{"in-memory", func(t *testing.T) link {
		// mcp.NewInMemoryTransports hides its net.Pipe; a killable wrapper
		// closes the connection under the SDK's feet.
		c, s := mcp.NewInMemoryTransports()
		kc, ks := &killable{Transport: c}, &killable{Transport: s}
		return link{client: kc, server: ks, killClient: kc.kill, killServer: ks.kill}
	}},
	{"io-os-pipe", func(t *testing.T) link {
		// Two OS pipes, as a host and a server started as a subprocess have.
		c2sR, c2sW := mustPipe(t)
		s2cR, s2cW := mustPipe(t)
		return link{
			client:     &mcp.IOTransport{Reader: s2cR, Writer: c2sW},
			server:     &mcp.IOTransport{Reader: c2sR, Writer: s2cW},
			killClient: func() { s2cR.Close(); c2sW.Close() },
			killServer: func() { c2sR.Close(); s2cW.Close() },
		}
	}},
	{"io-tcp-loopback", func(t *testing.T) link {
		cc, sc := tcpPair(t)
		// A killed process's sockets are reset, not shut down politely.
		reset := func(c *net.TCPConn) func() { return func() { c.SetLinger(0); c.Close() } }
		return link{
			client:     &mcp.IOTransport{Reader: cc, Writer: cc},
			server:     &mcp.IOTransport{Reader: sc, Writer: sc},
			killClient: reset(cc),
			killServer: reset(sc),
		}
	}},
}

func mustPipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func tcpPair(t *testing.T) (client, server *net.TCPConn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	c, err := net.DialTimeout("tcp", ln.Addr().String(), waitBound(t))
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { c.Close(); s.Close() })
	return c.(*net.TCPConn), s.(*net.TCPConn)
}

// killable is a transport whose connection the test can close from below
// the SDK.
type killable struct {
	mcp.Transport
	mu   sync.Mutex
	conn mcp.Connection
}

func (k *killable) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := k.Transport.Connect(ctx)
	k.mu.Lock()
	k.conn = c
	k.mu.Unlock()
	return c, err
}

func (k *killable) kill() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.conn != nil {
		k.conn.Close()
	}
}

// mcpServer is our server over an executor with Block and Echo.
type mcpServer struct {
	exec *tool.Executor
	srv  *mcpbridge.Server
	b    *blocker
}

func newMCPServer(t *testing.T) *mcpServer {
	t.Helper()
	b := newBlocker(t)
	exec := newExec(t, b.tool())
	srv := mcpbridge.NewServer(exec, &mcpbridge.ServerOptions{Name: "faulttest", Logger: discard})
	t.Cleanup(func() { srv.Close() })
	return &mcpServer{exec: exec, srv: srv, b: b}
}

// serve runs one session of s over tr in the background; the returned
// channel receives Run's error when the session ends.
func (s *mcpServer) serve(ctx context.Context, tr mcp.Transport) <-chan error {
	done := make(chan error, 1)
	go func() { done <- s.srv.Run(ctx, tr) }()
	return done
}

func connectClient(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitBound(t))
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "faulttest-client", Version: "v0"}, nil).Connect(ctx, tr, nil)
	if err != nil {
		t.Fatalf("client connect: %v", err)
	}
	return cs
}

// echoOver calls Echo over cs and checks the answer.
func echoOver(t *testing.T, cs *mcp.ClientSession, who string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitBound(t))
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Echo", Arguments: map[string]any{"s": who}})
	if err != nil {
		t.Errorf("%s: Echo: %v", who, err)
		return
	}
	if diff := cmp.Diff("echo "+who, mcpText(res)); diff != "" || res.IsError {
		t.Errorf("%s: Echo answered IsError=%v (-want +got):\n%s", who, res.IsError, diff)
	}
}

func mcpText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitBound(t)):
		t.Fatalf("%s: still waiting after %v", what, waitBound(t))
	}
	var zero T
	return zero
}

// checkNoLeaks fails the test when goroutines started after ignore are
// still running (goleak retries for a while before it reports).
func checkNoLeaks(t *testing.T, ignore goleak.Option) {
	t.Helper()
	if err := goleak.Find(ignore); err != nil {
		t.Error(err)
	}
}

// TestMCPClientDisconnectsMidCall: a client of our MCP server goes away
// while its call runs a tool that blocks until its ctx ends. The server
// cancels the call's ctx at once, ends that session, keeps serving the
// sessions it has and the ones that come, leaves no call in flight and no
// goroutine behind, and the executor serves the next call.
func TestMCPClientDisconnectsMidCall(t *testing.T) {
	// How the client goes away. Closing a ClientSession alone is not a
	// disconnect while a call is outstanding: the SDK's Close waits for the
	// outgoing calls to end, so a host that shuts down cancels its calls and
	// then closes (case "cancel-and-close"); a host that dies closes its end
	// of the transport (case "killed").
	type mode int
	const (
		killed mode = iota
		cancelAndClose
		cancelOnly // not a disconnect: the call is cancelled, the session stays
	)
	modes := []struct {
		name string
		mode mode
	}{
		{"killed", killed},
		{"cancel-and-close", cancelAndClose},
		{"cancel-only", cancelOnly},
	}
	for _, tr := range transports {
		for _, m := range modes {
			t.Run(tr.name+"/"+m.name, func(t *testing.T) {
				ignore := goleak.IgnoreCurrent()
				s := newMCPServer(t)
				runCtx, stopRun := context.WithCancel(context.Background())
				defer stopRun()

				// A bystander session, connected before the fault, in memory.
				bc, bs := mcp.NewInMemoryTransports()
				bystanderDone := s.serve(runCtx, bs)
				bystander := connectClient(t, bc)

				l := tr.open(t)
				sessionDone := s.serve(runCtx, l.server)
				cs := connectClient(t, l.client)
				callCtx, cancelCall := context.WithCancel(context.Background())
				defer cancelCall()
				type answer struct {
					res *mcp.CallToolResult
					err error
				}
				answered := make(chan answer, 1)
				go func() {
					res, err := cs.CallTool(callCtx, &mcp.CallToolParams{Name: "Block", Arguments: map[string]any{}})
					answered <- answer{res, err}
				}()
				s.b.waitStarted(t)

				fault := time.Now()
				closed := make(chan error, 1)
				switch m.mode {
				case killed:
					l.killClient()
				case cancelAndClose:
					cancelCall()
					go func() { closed <- cs.Close() }()
				case cancelOnly:
					cancelCall()
				}
				d := s.b.waitCancelled(t, fault)
				t.Logf("the server cancelled the call %v after the fault", d.Round(time.Microsecond))

				a := within(t, answered, "the client's CallTool")
				if a.err == nil {
					t.Errorf("the client's CallTool answered %q, IsError=%v after the fault, want an error", mcpText(a.res), a.res.IsError)
				}
				switch m.mode {
				case cancelOnly:
					// The session survives a cancelled call and serves the next.
					echoOver(t, cs, "same session")
					cs.Close()
				case cancelAndClose:
					if err := within(t, closed, "ClientSession.Close"); err != nil {
						t.Logf("ClientSession.Close: %v", err)
					}
				case killed:
					cs.Close()
				}
				// The server ends the session that lost its client.
				err := within(t, sessionDone, "the server's Run for the lost session")
				t.Logf("Run of the lost session returned %v", err)

				// It keeps serving: the bystander, and a new session.
				echoOver(t, bystander, "bystander")
				l2 := tr.open(t)
				againDone := s.serve(runCtx, l2.server)
				again := connectClient(t, l2.client)
				echoOver(t, again, "new session")
				served(t, s.exec)

				// No call is left in flight: Shutdown finds the server idle.
				again.Close()
				bystander.Close()
				within(t, againDone, "the new session's Run")
				within(t, bystanderDone, "the bystander's Run")
				sctx, cancel := context.WithTimeout(context.Background(), cancelBound)
				defer cancel()
				if err := s.srv.Shutdown(sctx); err != nil {
					t.Errorf("Shutdown = %v: a call is still counted in flight", err)
				}
				s.srv.Close()
				stopRun()
				checkNoLeaks(t, ignore)
			})
		}
	}
}

// TestMCPServerDisconnectsMidCall: our client-side tool (mcpbridge.Tools on
// a ClientSession, run through a local executor as an agent would) calls a
// tool of our MCP server, and the server goes away mid-call. The call ends
// in an error result within a bounded time and never hangs; later calls
// fail at once; the local executor serves the next call; the server's tool
// saw its ctx cancelled; no goroutine is left.
func TestMCPServerDisconnectsMidCall(t *testing.T) {
	type mode int
	const (
		killed      mode = iota // the server's process dies: its end of the transport closes
		serverClose             // mcpbridge.Server.Close
		runCancel               // the host cancels the ctx given to Server.Run
		stalls                  // the server stays connected and never answers: ctx bounds the call
		callTimeout             // the same, bounded by ClientOptions.CallTimeout
	)
	const closedMsg = "Tool 'remote_Block' is not available: the connection to its MCP server is closed."
	modes := []struct {
		name string
		mode mode
		// want lists the answers accepted: when the server closes its
		// sessions itself, its own answer to the cancelled call may win the
		// race with the closing connection.
		want []string
		// after is what a later call answers.
		after string
	}{
		{"killed", killed, []string{closedMsg}, closedMsg},
		{"server-close", serverClose, []string{closedMsg, "Block was cancelled."}, closedMsg},
		{"run-ctx-cancelled", runCancel, []string{closedMsg, "Block was cancelled."}, closedMsg},
		{"stalls", stalls, []string{"Tool 'remote_Block' did not finish: the deadline passed."}, ""},
		{"call-timeout", callTimeout, []string{"Tool 'remote_Block' timed out after 300ms: its MCP server did not answer in time."}, ""},
	}
	// The cases run at once, each from a goroutine of its own (t.Run may be
	// called from several): six of them wait out a 300 ms bound, and
	// t.Parallel would hold them to -parallel, two at a time on two cores.
	// So the goroutines are counted once, when every case has ended: a
	// goroutine any case left behind is still one too many.
	ignore := goleak.IgnoreCurrent()
	var cases sync.WaitGroup
	for _, tr := range transports {
		for _, m := range modes {
			run := func(t *testing.T) {
				s := newMCPServer(t)
				runCtx, stopRun := context.WithCancel(context.Background())
				defer stopRun()
				l := tr.open(t)
				sessionDone := s.serve(runCtx, l.server)
				cs := connectClient(t, l.client)
				defer cs.Close()

				var opts mcpbridge.ClientOptions
				opts.Prefix = "remote_"
				if m.mode == callTimeout {
					opts.CallTimeout = 300 * time.Millisecond
				}
				local := tool.NewRegistry()
				if _, err := mcpbridge.Register(context.Background(), local, cs, &opts); err != nil {
					t.Fatal(err)
				}
				if err := local.Register(echoTool); err != nil {
					t.Fatal(err)
				}
				exec := tool.NewExecutor(local, tool.WithLogger(discard))

				// Every call is bounded by ctx; in the stall case that bound
				// is the answer, elsewhere it is only a backstop.
				bound := waitBound(t)
				if m.mode == stalls {
					bound = 300 * time.Millisecond
				}
				ctx, cancel := context.WithTimeout(context.Background(), bound)
				defer cancel()
				answered := make(chan tool.Result, 1)
				start := time.Now()
				go func() {
					answered <- exec.Execute(ctx, tool.Call{Name: "remote_Block", Input: tool.NewInput(nil)}, tool.NewContext())
				}()
				s.b.waitStarted(t)

				fault := time.Now()
				switch m.mode {
				case killed:
					l.killServer()
				case serverClose:
					go s.srv.Close()
				case runCancel:
					stopRun()
				}
				res := within(t, answered, "the client-side call")
				took := time.Since(fault)
				if m.mode == stalls || m.mode == callTimeout {
					took = time.Since(start)
				}
				t.Logf("answered %v after the fault: %q", took.Round(time.Microsecond), res.Content)
				if !res.IsError || !contains(m.want, res.Content) {
					t.Errorf("got %q (IsError=%v), want an error result, one of %q", res.Content, res.IsError, m.want)
				}
				if limit := bound + cancelBound; m.mode != stalls && m.mode != callTimeout && took > cancelBound || took > limit {
					t.Errorf("the call answered %v after the fault", took)
				}
				served(t, exec)

				// The server's tool does not run on for nobody.
				runEnded := false
				if m.mode != stalls && m.mode != callTimeout {
					s.b.waitCancelled(t, fault)
					within(t, sessionDone, "the server's Run")
					runEnded = true
				}
				if m.after != "" {
					ctx2, cancel2 := context.WithTimeout(context.Background(), waitBound(t))
					defer cancel2()
					start := time.Now()
					res := exec.Execute(ctx2, tool.Call{Name: "remote_Block", Input: tool.NewInput(nil)}, tool.NewContext())
					if diff := cmp.Diff(m.after, res.Content); diff != "" || !res.IsError {
						t.Errorf("a later call (IsError=%v, -want +got):\n%s", res.IsError, diff)
					}
					if d := time.Since(start); d > cancelBound {
						t.Errorf("a later call took %v", d)
					}
				}
				// After a stall the session is still good.
				if m.mode == stalls || m.mode == callTimeout {
					s.b.waitCancelled(t, start)
					res := exec.Execute(context.Background(), tool.Call{Name: "remote_Echo", Input: tool.NewInput(map[string]any{"s": "again"})}, tool.NewContext())
					if res.IsError || res.Content != "echo again" {
						t.Errorf("remote Echo after the stall: %+v", res)
					}
				}
				cs.Close()
				s.srv.Close()
				stopRun()
				if !runEnded {
					within(t, sessionDone, "the server's Run")
				}
			}
			cases.Go(func() { t.Run(tr.name+"/"+m.name, run) })
		}
	}
	cases.Wait()
	checkNoLeaks(t, ignore)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
