package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolgen/toolgen/internal/redistest"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/store/redisstore"
)

// replica is one toolmcp process of the scale test, served on a loopback
// port until it is killed.
type replica struct {
	name   string
	url    string
	srv    *server
	cancel context.CancelFunc
	served chan error
	dead   atomic.Bool
}

// startReplica serves toolmcp, as -http -store -replica do, on a loopback
// port.
func startReplica(t *testing.T, name string, o options) *replica {
	t.Helper()
	o.replica = name
	discard := slog.New(slog.DiscardHandler)
	srv, err := newServer(o, discard, discard)
	if err != nil {
		t.Fatal(err)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &replica{name: name, url: "http://" + ln.Addr().String(), srv: srv, cancel: cancel, served: make(chan error, 1)}
	go func() { r.served <- srv.serveListener(ctx, ln) }()
	t.Cleanup(r.kill)
	return r
}

// kill stops the replica as a SIGTERM stops toolmcp: it stops listening,
// its sessions end, its background commands are killed.
func (r *replica) kill() {
	if r.dead.Swap(true) {
		return
	}
	r.cancel()
	<-r.served
	_ = r.srv.Close()
}

// roundRobin is the load balancer of the scale test: each request goes to
// the next replica that is up (a replica that refuses the connection is
// skipped), except that a tool call naming a background command (bash_id,
// shell_id "NAME:bash_N") goes to the replica NAME when sticky is set:
// the rule docs/mcp.md shows.
type roundRobin struct {
	replicas []*replica
	sticky   atomic.Bool

	mu     sync.Mutex
	next   int
	served map[string]int // requests per replica
	last   string         // the replica that served the last POST
}

var handleParam = regexp.MustCompile(`"(?:bash_id|shell_id)"\s*:\s*"([A-Za-z0-9._-]+):bash_`)

func (rr *roundRobin) pick(body []byte, skip map[string]bool) *replica {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	if rr.sticky.Load() {
		if m := handleParam.FindSubmatch(body); m != nil {
			for _, r := range rr.replicas {
				if r.name == string(m[1]) && !skip[r.name] {
					return r
				}
			}
		}
	}
	for range rr.replicas {
		r := rr.replicas[rr.next%len(rr.replicas)]
		rr.next++
		if !skip[r.name] {
			return r
		}
	}
	return nil
}

func (rr *roundRobin) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	skip := map[string]bool{}
	for {
		r := rr.pick(body, skip)
		if r == nil {
			http.Error(w, "no replica is up", http.StatusBadGateway)
			return
		}
		out, err := http.NewRequestWithContext(req.Context(), req.Method, r.url+req.URL.RequestURI(), bytes.NewReader(body))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		out.Header = req.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			skip[r.name] = true // down: the next one
			continue
		}
		rr.mu.Lock()
		rr.served[r.name]++
		if req.Method == http.MethodPost {
			rr.last = r.name
		}
		rr.mu.Unlock()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 32<<10)
		for {
			n, err := resp.Body.Read(buf)
			if n > 0 {
				_, _ = w.Write(buf[:n])
				_ = http.NewResponseController(w).Flush()
			}
			if err != nil {
				break
			}
		}
		resp.Body.Close()
		return
	}
}

// lastServed returns the replica that served the last POST.
func (rr *roundRobin) lastServed() string {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	return rr.last
}

// TestReplicasShareState: three toolmcp replicas share one redis-server
// behind a round-robin balancer; one go-sdk client, its requests spread
// over them, writes todos, reads a file on one replica and edits it on
// another, activates Grep through ToolSearch and calls it, and sees the
// same state from every replica; a background command stays on its
// replica (another one says where it runs; the sticky rule reaches it);
// one replica is killed mid-run and the others go on with the state.
func TestReplicasShareState(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server and three servers")
	}
	redis := redistest.Start(t)
	ctx := testContext(t)
	root := workspace(t)
	o := options{root: root, mode: schema.Enforce, deferred: []string{"Grep"}, sandbox: sandboxOff,
		httpAddr: "127.0.0.1:0", storeURL: redis.URL}
	rr := &roundRobin{served: map[string]int{}}
	for _, name := range []string{"r1", "r2", "r3"} {
		rr.replicas = append(rr.replicas, startReplica(t, name, o))
	}
	lb := httptest.NewServer(rr)
	t.Cleanup(lb.Close)
	c := httpClient(ctx, t, lb.URL)
	sid := c.session.ID()
	if sid == "" {
		t.Fatal("no session id")
	}

	// calls counts the tool calls and what each replica served.
	calls := 0
	on := func(name string, args map[string]any) (answer, string) {
		t.Helper()
		calls++
		a := c.call(name, args)
		return a, rr.lastServed()
	}
	todos := func(n int) []any {
		var list []any
		for i := range n {
			list = append(list, map[string]any{"content": fmt.Sprintf("Step %d", i+1), "status": "pending", "activeForm": fmt.Sprintf("Doing step %d", i+1)})
		}
		return list
	}

	// Todos written on one replica are in the store for every replica.
	if a, _ := on("TodoWrite", map[string]any{"todos": todos(2)}); a.IsError {
		t.Fatalf("TodoWrite: %s", a.Text)
	}
	st, err := redisstore.Open(ctx, redis.URL, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stateChecks := 0
	checkTodos := func(n int) {
		t.Helper()
		stateChecks++
		fields, err := st.Load(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(fields[fieldTodos], `"content"`); got != n {
			t.Errorf("the store holds %d todos, want %d: %s", got, n, fields[fieldTodos])
		}
	}
	checkTodos(2)

	// Read on one replica, Edit on the next: the read-before-write rule
	// holds across replicas.
	a, readOn := on("Read", map[string]any{"file_path": filepath.Join(root, "ok/hello.txt")})
	if a.IsError {
		t.Fatalf("Read: %s", a.Text)
	}
	a, editOn := on("Edit", map[string]any{"file_path": filepath.Join(root, "ok/hello.txt"), "old_string": "hello", "new_string": "howdy"})
	if a.IsError || readOn == editOn {
		t.Fatalf("Edit on %s after Read on %s: %+v", editOn, readOn, a)
	}
	stateChecks++
	if b, _ := os.ReadFile(filepath.Join(root, "ok/hello.txt")); string(b) != "howdy from toolmcp\n" {
		t.Errorf("after Edit the file holds %q", b)
	}

	// ToolSearch activates Grep; every replica then lists it and runs it.
	if a, _ := on("ToolSearch", map[string]any{"query": "select:Grep"}); a.IsError {
		t.Fatalf("ToolSearch: %s", a.Text)
	}
	seen := map[string]bool{}
	for range 2 * len(rr.replicas) {
		stateChecks++
		if names := c.toolNames(); !slices.Contains(names, "Grep") {
			t.Errorf("tools/list on %s has no Grep: %v", rr.lastServed(), names)
		}
		a, by := on("Grep", map[string]any{"pattern": "howdy", "path": root})
		stateChecks++
		if a.IsError || !strings.Contains(a.Text, "hello.txt") {
			t.Errorf("Grep on %s: %+v", by, a)
		}
		seen[by] = true
	}
	if len(seen) != 3 {
		t.Errorf("Grep ran on %v, want every replica", seen)
	}

	// A background command stays on its replica: another one says where
	// it runs; with the sticky rule the call reaches it.
	a, bgOn := on("Bash", map[string]any{"command": "echo started; sleep 30", "run_in_background": true})
	id := bgID(t, a)
	if !strings.HasPrefix(id, bgOn+":") {
		t.Fatalf("background ID %q does not name its replica %s", id, bgOn)
	}
	a, by := on("BashOutput", map[string]any{"bash_id": id})
	if by == bgOn {
		a, by = on("BashOutput", map[string]any{"bash_id": id})
	}
	if !a.IsError || !strings.Contains(a.Text, "runs on replica '"+bgOn+"'") {
		t.Errorf("BashOutput of %s on %s: %+v, want a sentence saying it runs on %s", id, by, a, bgOn)
	}
	rr.sticky.Store(true)
	waitUntil(ctx, t, func() bool {
		a, by = on("BashOutput", map[string]any{"bash_id": id})
		if a.IsError || by != bgOn {
			t.Fatalf("BashOutput with the sticky rule on %s: %+v", by, a)
		}
		return strings.Contains(a.Text, "started")
	}, func() string { return "BashOutput never showed the command's output" })
	if a, _ := on("KillShell", map[string]any{"shell_id": id}); a.IsError {
		t.Errorf("KillShell with the sticky rule: %s", a.Text)
	}
	rr.sticky.Store(false)

	// Kill the replica that opened the session: the others go on with
	// the session and its state.
	opener := rr.replicas[0]
	opener.kill()
	if a, _ := on("TodoWrite", map[string]any{"todos": todos(3)}); a.IsError {
		t.Fatalf("TodoWrite after %s was killed: %s", opener.name, a.Text)
	}
	checkTodos(3)
	after := map[string]bool{}
	for range 4 {
		stateChecks++
		if names := c.toolNames(); !slices.Contains(names, "Grep") {
			t.Errorf("tools/list after the kill on %s has no Grep", rr.lastServed())
		}
		after[rr.lastServed()] = true
		a, by := on("Grep", map[string]any{"pattern": "howdy", "path": root})
		if a.IsError {
			t.Errorf("Grep after the kill on %s: %s", by, a.Text)
		}
		after[by] = true
	}
	if after[opener.name] || len(after) != 2 {
		t.Errorf("after killing %s, calls were served by %v, want the two others (tools/list and Grep)", opener.name, after)
	}
	// The client ends the session: its state is gone from the store, and
	// no replica serves the session again.
	if err := c.session.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}
	stateChecks++
	if fields, err := st.Load(ctx, sid); err != nil || len(fields) != 0 {
		t.Errorf("after the session was deleted the store holds %d fields (%v)", len(fields), err)
	}
	rr.mu.Lock()
	t.Logf("3 replicas, 1 redis-server: %d tool calls, %d state checks, requests per replica %v; %s killed after the background step", calls, stateChecks, rr.served, opener.name)
	rr.mu.Unlock()
}
