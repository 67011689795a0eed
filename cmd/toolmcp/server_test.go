package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// testContext is bounded by the test's deadline, a second before it so that
// a hang is reported by the test, or by testTimeout where the test has none:
// never by a fixed bound that a loaded machine could exceed.
func testContext(t *testing.T) context.Context {
	t.Helper()
	var ctx context.Context
	var cancel context.CancelFunc
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(context.Background(), d.Add(-time.Second))
	} else {
		ctx, cancel = context.WithTimeout(context.Background(), testTimeout)
	}
	t.Cleanup(cancel)
	return ctx
}

// marker returns a process name no other process has: a background command
// started as `exec -a MARKER sleep 300` can be counted in /proc.
func marker(t *testing.T) string {
	t.Helper()
	return "toolgen-test-" + strings.ToLower(rand.Text()[:12])
}

// countProcs counts the processes whose argv[0] is name.
func countProcs(t *testing.T, name string) int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue // the process is gone
		}
		if argv0, _, _ := bytes.Cut(b, []byte{0}); string(argv0) == name {
			n++
		}
	}
	return n
}

// waitProcs waits until countProcs(name) is want.
func waitProcs(ctx context.Context, t *testing.T, name string, want int) {
	t.Helper()
	waitUntil(ctx, t, func() bool { return countProcs(t, name) == want },
		func() string { return fmt.Sprintf("%d processes named %s, want %d", countProcs(t, name), name, want) })
}

// waitUntil polls cond until it holds; when ctx ends first, the test fails
// with what().
func waitUntil(ctx context.Context, t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal(what())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// bgCommand is a background command that prints its marker, then runs as a
// process named after it until killed.
func bgCommand(mark string) map[string]any {
	return map[string]any{"command": "echo " + mark + "; exec -a " + mark + " sleep 300", "run_in_background": true}
}

// output reads the background command id through c's BashOutput until its
// output holds want; it returns what it read.
func (c *client) output(id, want string) string {
	c.t.Helper()
	var all strings.Builder
	waitUntil(c.ctx, c.t, func() bool {
		res := c.call("BashOutput", map[string]any{"bash_id": id})
		if res.IsError {
			c.t.Fatalf("BashOutput %s: %s", id, res.Text)
		}
		all.WriteString(res.Text)
		return strings.Contains(all.String(), want)
	}, func() string {
		return fmt.Sprintf("BashOutput %s never showed %q; it showed:\n%s", id, want, all.String())
	})
	return all.String()
}

// serveHTTP builds the server o describes and serves it on a loopback
// listener the way -http does. The cleanup closes the server and checks
// that serving ended cleanly.
func serveHTTP(t *testing.T, o options) (*server, string) {
	t.Helper()
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
	served := make(chan error, 1)
	go func() { served <- srv.serveListener(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serving: %v", err)
		}
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return srv, "http://" + ln.Addr().String()
}

func httpClient(ctx context.Context, t *testing.T, url string) *client {
	t.Helper()
	c := newClient(ctx, t, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1})
	t.Cleanup(func() { _ = c.session.Close() })
	return c
}

// bgID reads the ID out of Bash's answer for a background command.
func bgID(t *testing.T, a answer) string {
	t.Helper()
	const prefix = "Command running in the background with ID: "
	if a.IsError || !strings.HasPrefix(a.Text, prefix) {
		t.Fatalf("Bash in the background: %+v", a)
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(a.Text, prefix), ".")
	return id
}

// TestHTTPSessionsAreSeparate serves two HTTP sessions from one toolmcp
// server: a file read in A does not count for B's Write or Edit, A's
// background command is not B's, A's ToolSearch activation is not in B's
// tools/list, and ending A stops A's background command and releases its
// run while B's go on.
func TestHTTPSessionsAreSeparate(t *testing.T) {
	if testing.Short() {
		t.Skip("starts shells")
	}
	if runtime.GOOS != "linux" {
		t.Skip("counts processes in /proc")
	}
	ctx := testContext(t)
	root := workspace(t)
	srv, url := serveHTTP(t, options{root: root, mode: schema.Enforce, deferred: []string{"Grep"}})
	a := httpClient(ctx, t, url)
	b := httpClient(ctx, t, url)
	if n := srv.mcp.Sessions(); n != 2 {
		t.Fatalf("%d sessions, want 2", n)
	}

	hello := filepath.Join(root, "ok", "hello.txt")
	notRead := func(verb string) answer {
		return answer{IsError: true, Text: "File has not been read yet: " + hello + ". Read it first before " + verb + " it."}
	}
	// A reads the file; for B it is still unread.
	a.check([]callCase{
		{"A reads", "Read", map[string]any{"file_path": "ok/hello.txt"}, answer{Text: catN(1, "hello from toolmcp")}},
	})
	b.check([]callCase{
		{"B edits a file A read", "Edit", map[string]any{"file_path": hello, "old_string": "hello", "new_string": "bye"}, notRead("editing")},
		{"B writes a file A read", "Write", map[string]any{"file_path": hello, "content": "overwritten\n"}, notRead("writing")},
	})
	// A session's run is made at its first call, which fills its tool set:
	// one notifications/tools/list_changed each.
	a.waitChanged()
	b.waitChanged()
	a.check([]callCase{
		{"A edits the file it read", "Edit", map[string]any{"file_path": hello, "old_string": "hello", "new_string": "hi"},
			answer{Text: "The file " + hello + " was edited: 1 replacement made."}},
	})

	// A's background command is unknown to B.
	markA, markB := marker(t), marker(t)
	idA := bgID(t, a.call("Bash", bgCommand(markA)))
	waitProcs(ctx, t, markA, 1)
	if res := b.call("BashOutput", map[string]any{"bash_id": idA}); !res.IsError || strings.Contains(res.Text, markA) {
		t.Errorf("B's BashOutput of A's command %s: %+v, want an error that does not show it", idA, res)
	}
	if res := b.call("KillShell", map[string]any{"shell_id": idA}); !res.IsError {
		t.Errorf("B's KillShell of A's command %s: %+v, want an error", idA, res)
	}
	if n := countProcs(t, markA); n != 1 {
		t.Errorf("%d processes of A's command after B tried to kill it, want 1", n)
	}
	a.output(idA, markA)
	// B's own command may get the same ID; BashOutput shows B's.
	idB := bgID(t, b.call("Bash", bgCommand(markB)))
	waitProcs(ctx, t, markB, 1)
	if out := b.output(idB, markB); strings.Contains(out, markA) {
		t.Errorf("B's BashOutput of its command %s shows A's output:\n%s", idB, out)
	}

	// A activates Grep; B's tool list does not change.
	eager := []string{"Bash", "BashOutput", "Edit", "Glob", "KillShell", "Read", "TodoWrite", "ToolSearch", "Write"}
	withGrep := []string{"Bash", "BashOutput", "Edit", "Glob", "Grep", "KillShell", "Read", "TodoWrite", "ToolSearch", "Write"}
	var found struct {
		Functions []struct {
			Name string `json:"name"`
		} `json:"functions"`
	}
	// The SDK debounces list_changed by 10 ms from its last change: on a
	// loaded machine the filling of B's run may have been told in two,
	// long before this point. What B hears from now on is A's doing.
	b.drainChanged()
	res := a.call("ToolSearch", map[string]any{"query": "select:Grep"})
	if err := json.Unmarshal([]byte(res.Text), &found); err != nil || len(found.Functions) != 1 || found.Functions[0].Name != "Grep" {
		t.Fatalf("A's ToolSearch: %+v (%v), want Grep", res, err)
	}
	a.waitChanged()
	if diff := cmp.Diff(withGrep, a.toolNames()); diff != "" {
		t.Errorf("A's tools/list after its search (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(eager, b.toolNames()); diff != "" {
		t.Errorf("B's tools/list after A's search (-want +got):\n%s", diff)
	}
	select {
	case <-b.changed:
		t.Error("B was told its tool list changed by A's search")
	default:
	}

	// A leaves: its command stops and its run is released; B's go on.
	if err := a.session.Close(); err != nil {
		t.Fatalf("closing A: %v", err)
	}
	waitProcs(ctx, t, markA, 0)
	waitUntil(ctx, t, func() bool { return srv.mcp.Sessions() == 1 },
		func() string { return fmt.Sprintf("%d sessions after A left, want 1", srv.mcp.Sessions()) })
	if n := countProcs(t, markB); n != 1 {
		t.Errorf("%d processes of B's command after A left, want 1", n)
	}
	if res := b.call("BashOutput", map[string]any{"bash_id": idB}); res.IsError {
		t.Errorf("B's BashOutput after A left: %+v", res)
	}

	// Closing the server stops B's command too.
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countProcs(t, markB); n != 0 {
		t.Errorf("%d processes of B's command after Close, want 0", n)
	}
}

// TestHTTPIdleSession: a session idle past the timeout is closed, and its
// background command stopped.
func TestHTTPIdleSession(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a shell")
	}
	if runtime.GOOS != "linux" {
		t.Skip("counts processes in /proc")
	}
	ctx := testContext(t)
	srv, url := serveHTTP(t, options{root: workspace(t), idleTimeout: 200 * time.Millisecond})
	c := httpClient(ctx, t, url)
	mark := marker(t)
	bgID(t, c.call("Bash", bgCommand(mark)))
	// The session idles out, its command is stopped and its run released.
	waitProcs(ctx, t, mark, 0)
	waitUntil(ctx, t, func() bool { return srv.mcp.Sessions() == 0 },
		func() string { return fmt.Sprintf("%d sessions after the idle timeout, want 0", srv.mcp.Sessions()) })
	if res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": "ok/hello.txt"}}); err == nil {
		t.Errorf("a call on the timed-out session was answered: %+v", res)
	}
}

// TestRunsAreSeparate checks what no tool shows: each run has a todo list
// of its own.
func TestRunsAreSeparate(t *testing.T) {
	discard := slog.New(slog.DiscardHandler)
	srv, err := newServer(options{root: workspace(t), mode: schema.Enforce}, discard, discard)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := testContext(t)
	a, err := srv.newRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	b, err := srv.newRun(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()

	todos := []any{map[string]any{"content": "Run the tests", "activeForm": "Running the tests", "status": "in_progress"}}
	res := a.Executor.Execute(ctx, tool.Call{Name: "TodoWrite", Input: tool.NewInput(map[string]any{"todos": todos})}, a.Context)
	if res.IsError {
		t.Fatalf("TodoWrite: %s", res.Content)
	}
	list := func(r tool.Context) []builtin.Todo {
		s, ok := builtin.TodosKey.Get(r)
		if !ok {
			t.Fatal("a run's context has no todo store")
		}
		return s.List()
	}
	if diff := cmp.Diff([]builtin.Todo{{Content: "Run the tests", ActiveForm: "Running the tests", Status: builtin.TodoInProgress}}, list(a.Context)); diff != "" {
		t.Errorf("A's todos (-want +got):\n%s", diff)
	}
	if got := list(b.Context); len(got) != 0 {
		t.Errorf("B's todos = %v, want none", got)
	}
	if a.Context.ReadFiles() == b.Context.ReadFiles() {
		t.Error("two runs share one read-files set")
	}
}

// TestServerOwnsBackground builds the server in process, serves one session
// over an in-memory transport (as stdio is served), starts a background
// command through Bash, and checks that closing the server ends it.
func TestServerOwnsBackground(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a shell")
	}
	if runtime.GOOS != "linux" {
		t.Skip("counts processes in /proc")
	}
	ctx := testContext(t)
	discard := slog.New(slog.DiscardHandler)
	srv, err := newServer(options{root: workspace(t), mode: schema.Enforce}, discard, discard)
	if err != nil {
		t.Fatal(err)
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.serveTransport(ctx, serverT) }()

	c := newClient(ctx, t, clientT)
	mark := marker(t)
	bgID(t, c.call("Bash", bgCommand(mark)))
	waitProcs(ctx, t, mark, 1)
	if err := srv.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if n := countProcs(t, mark); n != 0 {
		t.Errorf("%d background commands still running after Close", n)
	}
	if err := <-served; err != nil {
		t.Errorf("serving: %v", err)
	}
	_ = c.session.Close()
}
