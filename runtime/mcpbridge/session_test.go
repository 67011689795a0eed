package mcpbridge_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// counterKey holds a run's counter in its tool context.
var counterKey = tool.NewKey[*atomic.Int64]("counter")

// runs makes the run of each session: a registry of its own with Count
// (adds one to the run's counter, kept in the tool context, and answers
// it), Grow (registers Late in the run's registry) and Slow, and counts the
// runs made and released.
type runs struct {
	slow     *slowTool
	made     atomic.Int64
	released atomic.Int64
	// releasedc receives the number of each run released.
	releasedc chan int64
}

func newRuns() *runs {
	return &runs{slow: newSlowTool(), releasedc: make(chan int64, 16)}
}

func (r *runs) newSession(context.Context) (mcpbridge.Session, error) {
	n := r.made.Add(1)
	reg := tool.NewRegistry()
	count := tool.New(tool.Definition{Name: "Count", Description: "Counts.", InputSchema: objectSchema(map[string]any{})},
		func(_ context.Context, _ tool.Input, tc tool.Context) tool.Result {
			c, ok := counterKey.Get(tc)
			if !ok {
				return tool.Failure("no counter")
			}
			return tool.Success(strconv.FormatInt(c.Add(1), 10))
		})
	for _, tl := range []tool.Tool{count, growTool(reg), r.slow.tool()} {
		if err := reg.Register(tl); err != nil {
			return mcpbridge.Session{}, err
		}
	}
	return mcpbridge.Session{
		Executor: tool.NewExecutor(reg),
		Context:  tool.NewContext(counterKey.Bind(new(atomic.Int64))),
		Release: func() {
			r.released.Add(1)
			r.releasedc <- n
		},
	}, nil
}

// testContext is bounded by the test's deadline, when it has one.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Second))
	}
	t.Cleanup(cancel)
	return ctx
}

// httpClient is an SDK client session over streamable HTTP with the
// list_changed notifications it received.
type httpClient struct {
	cs      *mcp.ClientSession
	changed chan struct{}
}

func connectHTTP(ctx context.Context, t *testing.T, url string) *httpClient {
	t.Helper()
	c := &httpClient{changed: make(chan struct{}, 16)}
	client := mcp.NewClient(&mcp.Implementation{Name: "http-client", Version: "v0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case c.changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, sessionful)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	c.cs = cs
	t.Cleanup(func() { _ = cs.Close() })
	return c
}

// serveSessions serves p over a loopback httptest server; the cleanup
// closes p, then the HTTP server.
func serveSessions(t *testing.T, p *mcpbridge.SessionServer, opts *mcp.StreamableHTTPOptions) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(p.HTTPHandler(opts))
	t.Cleanup(func() {
		if err := p.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		ts.Close()
	})
	return ts
}

// waitUntil polls cond until it holds or ctx is done.
func waitUntil(ctx context.Context, t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("%s: %v", what, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestSessionServerHTTP opens two sessions over HTTP: each has its own
// tool context and tool set, a tool set change reaches only its session,
// and ending a session releases its run and only its run.
func TestSessionServerHTTP(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, &mcpbridge.ServerOptions{Name: "test"})
	ts := serveSessions(t, p, nil)

	a := connectHTTP(ctx, t, ts.URL)
	b := connectHTTP(ctx, t, ts.URL)
	if n := p.Sessions(); n != 2 {
		t.Fatalf("Sessions() = %d, want 2", n)
	}
	if got := r.made.Load(); got != 0 {
		t.Errorf("%d runs made by initialize alone, want 0 (runs are made on first use)", got)
	}
	// A session's run, made at its first tools/list, fills its tool set:
	// one notifications/tools/list_changed each, which the client may
	// take to list again.
	for _, c := range []*httpClient{a, b} {
		toolNames(t, c.cs)
		select {
		case <-c.changed:
		case <-ctx.Done():
			t.Fatal("no notifications/tools/list_changed when the run filled the tool set")
		}
	}

	type step struct {
		who  string
		cs   *mcp.ClientSession
		tool string
		want string
	}
	for _, s := range []step{
		{"A", a.cs, "Count", "1"},
		{"A", a.cs, "Count", "2"},
		{"B", b.cs, "Count", "1"}, // B's counter is its own
		{"A", a.cs, "Grow", "grown"},
		{"A", a.cs, "Late", "late"},
		{"B", b.cs, "Late", "-32602 Unknown tool 'Late'."}, // not in B's registry: a JSON-RPC error
		{"B", b.cs, "Count", "2"},
	} {
		if want, ok := strings.CutPrefix(s.want, "-32602 "); ok {
			_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: map[string]any{}})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s calls %s: err = %v, want the JSON-RPC error %q", s.who, s.tool, err, want)
			}
			continue
		}
		if got, _ := callText(t, s.cs, s.tool, map[string]any{}); got != s.want {
			t.Errorf("%s calls %s = %q, want %q", s.who, s.tool, got, s.want)
		}
	}
	select {
	case <-a.changed:
	case <-ctx.Done():
		t.Fatal("A got no notifications/tools/list_changed after Grow")
	}
	if diff := cmp.Diff([]string{"Count", "Grow", "Late", "Slow"}, toolNames(t, a.cs)); diff != "" {
		t.Errorf("A's tools/list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Count", "Grow", "Slow"}, toolNames(t, b.cs)); diff != "" {
		t.Errorf("B's tools/list (-want +got):\n%s", diff)
	}
	select {
	case <-b.changed:
		t.Error("B got notifications/tools/list_changed for A's tool set")
	default:
	}

	// A leaves (the client sends DELETE): its run, the first, is released;
	// B's is not and B keeps working.
	if err := a.cs.Close(); err != nil {
		t.Fatalf("closing A: %v", err)
	}
	select {
	case n := <-r.releasedc:
		if n != 1 {
			t.Errorf("run %d released, want A's (1)", n)
		}
	case <-ctx.Done():
		t.Fatal("A's run was not released after A closed its session")
	}
	if n := p.Sessions(); n != 1 {
		t.Errorf("Sessions() = %d after A left, want 1", n)
	}
	if got, _ := callText(t, b.cs, "Count", map[string]any{}); got != "3" {
		t.Errorf("B's Count after A left = %q, want 3", got)
	}

	// A new session starts from a fresh run.
	c := connectHTTP(ctx, t, ts.URL)
	if got, _ := callText(t, c.cs, "Count", map[string]any{}); got != "1" {
		t.Errorf("a new session's Count = %q, want 1", got)
	}
	if got := r.made.Load(); got != 3 {
		t.Errorf("%d runs made, want 3", got)
	}

	// Close releases the rest.
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if got := r.released.Load(); got != 3 {
		t.Errorf("%d runs released after Close, want 3", got)
	}
	if n := p.Sessions(); n != 0 {
		t.Errorf("Sessions() = %d after Close, want 0", n)
	}
}

// TestSessionServerIdleTimeout: a session idle for SessionTimeout is closed
// and its run released; a busy one is kept.
func TestSessionServerIdleTimeout(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := serveSessions(t, p, &mcp.StreamableHTTPOptions{SessionTimeout: 50 * time.Millisecond})

	c := connectHTTP(ctx, t, ts.URL)
	if _, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "Count", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err) // the run is made on first use
	}
	select {
	case <-r.releasedc:
	case <-ctx.Done():
		t.Fatal("the idle session's run was not released")
	}
	if n := p.Sessions(); n != 0 {
		t.Errorf("Sessions() = %d after the idle timeout, want 0", n)
	}
	// The client's next request finds no session.
	if _, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "Count", Arguments: map[string]any{}}); err == nil {
		t.Error("a call on a timed-out session succeeded")
	}
}

// TestSessionServerCloseCancels: Close cancels a call in flight, ends its
// session and releases the run before it returns; a session opened after
// Close is refused.
func TestSessionServerCloseCancels(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := serveSessions(t, p, nil)
	c := connectHTTP(ctx, t, ts.URL)

	errc := make(chan error, 1)
	go func() {
		_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "Slow", Arguments: map[string]any{}})
		errc <- err
	}()
	<-r.slow.started
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if got := r.released.Load(); got != 1 {
		t.Errorf("%d runs released when Close returned, want 1", got)
	}
	select {
	case <-errc:
	case <-ctx.Done():
		t.Fatal("the client's call hangs after Close")
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "late", Version: "v0"}, nil)
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, sessionful); err == nil {
		cs.Close()
		t.Error("a session opened after Close")
	}
	if got := r.made.Load(); got != 1 {
		t.Errorf("%d runs made, want 1: none after Close", got)
	}
}

// TestSessionServerShutdown: calls in flight finish, new ones are refused.
func TestSessionServerShutdown(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := serveSessions(t, p, nil)
	c := connectHTTP(ctx, t, ts.URL)

	inflight := make(chan string, 1)
	go func() {
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "Slow", Arguments: map[string]any{}})
		if err != nil {
			inflight <- err.Error()
			return
		}
		inflight <- contentText(res)
	}()
	<-r.slow.started
	shut := make(chan error, 1)
	go func() { shut <- p.Shutdown(ctx) }()
	waitUntil(ctx, t, "shutdown to refuse calls", func() bool {
		got, _ := callText(t, c.cs, "Count", map[string]any{})
		return got == "Tool 'Count' was not executed: the server is shutting down."
	})
	close(r.slow.release)
	if got := <-inflight; got != "done" {
		t.Errorf("the call in flight = %q, want done", got)
	}
	if err := <-shut; err != nil {
		t.Errorf("Shutdown = %v", err)
	}
	if got := r.released.Load(); got != 0 {
		t.Errorf("%d runs released by Shutdown, want 0: sessions stay open until Close", got)
	}
}

// TestSessionServerRefused: a session whose run cannot be made is refused
// and nothing is kept for it.
func TestSessionServerRefused(t *testing.T) {
	tests := []struct {
		name string
		fn   mcpbridge.SessionFunc
	}{
		{"error", func(context.Context) (mcpbridge.Session, error) {
			return mcpbridge.Session{}, errors.New("no run today")
		}},
		{"panic", func(context.Context) (mcpbridge.Session, error) { panic("boom") }},
		{"no executor", func(context.Context) (mcpbridge.Session, error) { return mcpbridge.Session{}, nil }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := testContext(t)
			p := mcpbridge.NewSessionServer(tc.fn, &mcpbridge.ServerOptions{Logger: slog.New(slog.DiscardHandler)})
			ts := serveSessions(t, p, nil)
			// The run is made on first use: the session opens, and its
			// first tools/list is an error, its first call an error
			// result saying the session has no tools.
			client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, sessionful)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListTools(ctx, nil); err == nil || !strings.Contains(err.Error(), "could not set up this session's tools") {
				t.Errorf("tools/list of a session whose run could not be made: err = %v", err)
			}
			if got, isErr := callText(t, cs, "Count", map[string]any{}); !isErr || !strings.Contains(got, "could not set up this session's tools") {
				t.Errorf("tools/call of a session whose run could not be made = %q (isError %v)", got, isErr)
			}
			cs.Close()
			waitUntil(ctx, t, "the session released", func() bool { return p.Sessions() == 0 })
			if err := p.Run(ctx, nopTransport{}); err == nil {
				t.Error("Run served a session whose run could not be made")
			}
		})
	}
}

// nopTransport is a transport Run must never connect.
type nopTransport struct{}

func (nopTransport) Connect(context.Context) (mcp.Connection, error) {
	return nil, errors.New("nopTransport: not to be connected")
}

// TestSessionServerRun serves one session in memory, the way stdio is
// served: it has one run, released when the client leaves; Close ends a
// running session cleanly and Run refuses to start after it.
func TestSessionServerRun(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)

	run := func() (*mcp.ClientSession, chan error) {
		st, ct := mcp.NewInMemoryTransports()
		served := make(chan error, 1)
		go func() { served <- p.Run(ctx, st) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "v0"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs, served
	}

	cs, served := run()
	for _, want := range []string{"1", "2"} {
		if got, _ := callText(t, cs, "Count", map[string]any{}); got != want {
			t.Errorf("Count = %q, want %q", got, want)
		}
	}
	cs.Close()
	if err := <-served; err != nil {
		t.Errorf("Run after the client left = %v", err)
	}
	if got := r.released.Load(); got != 1 {
		t.Errorf("%d runs released after Run returned, want 1", got)
	}

	cs, served = run()
	if got, _ := callText(t, cs, "Count", map[string]any{}); got != "1" {
		t.Errorf("the second session's Count = %q, want 1", got)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Errorf("Run ended by Close = %v, want nil", err)
	}
	cs.Close()
	if got := r.released.Load(); got != 2 {
		t.Errorf("%d runs released after Close, want 2", got)
	}
	if err := p.Run(ctx, nopTransport{}); !errors.Is(err, mcpbridge.ErrClosed) {
		t.Errorf("Run after Close = %v, want ErrClosed", err)
	}
}

// TestSessionServerManySessions opens sessions concurrently: each gets its
// own run, and every run is released.
func TestSessionServerManySessions(t *testing.T) {
	if testing.Short() {
		t.Skip("opens many sessions")
	}
	ctx := testContext(t)
	r := newRuns()
	r.releasedc = make(chan int64, 64)
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	ts := serveSessions(t, p, nil)
	const n = 16
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			client := mcp.NewClient(&mcp.Implementation{Name: fmt.Sprint("c", i), Version: "v0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: ts.URL, MaxRetries: -1}, sessionful)
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			for want := 1; want <= 3; want++ {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Count", Arguments: map[string]any{}})
				if err != nil {
					errs <- err
					return
				}
				if got := contentText(res); got != strconv.Itoa(want) {
					errs <- fmt.Errorf("session %d: Count = %q, want %d", i, got, want)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	waitUntil(ctx, t, "every run released", func() bool { return r.released.Load() == n })
	if got := r.made.Load(); got != n {
		t.Errorf("%d runs made, want %d", got, n)
	}
}

// TestSessionServerServe serves over a listener until ctx ends; the runs
// are released when Serve returns.
func TestSessionServerServe(t *testing.T) {
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ln := listen(t)
	served := make(chan error, 1)
	go func() { served <- p.Serve(sctx, ln) }()
	c := connectHTTP(ctx, t, "http://"+ln.Addr().String())
	if got, _ := callText(t, c.cs, "Count", map[string]any{}); got != "1" {
		t.Errorf("Count = %q, want 1", got)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("Serve = %v", err)
	}
	if got := r.released.Load(); got != 1 {
		t.Errorf("%d runs released after Serve returned, want 1", got)
	}
	resp, err := http.Get("http://" + ln.Addr().String())
	if err == nil {
		resp.Body.Close()
		t.Error("the listener still answers after Serve returned")
	}
}
