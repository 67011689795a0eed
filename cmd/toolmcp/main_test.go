package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/toolgen/toolgen/runtime/schema"
)

// toolmcpBin is the program the tests start as toolmcp: this test binary
// itself, which TestMain turns into toolmcp when beToolmcp is in its
// environment (the pattern of stringer's and testscript's tests). Building
// toolmcp with `go build` for every run linked the MCP SDK a second time,
// the largest part of this package's short run; the test binary already
// holds the same main package, built with the race detector when the tests
// are.
var toolmcpBin string

// beToolmcp names the variable that makes this test binary run toolmcp's
// main instead of the tests. TestMain sets it in its own environment, so
// every toolmcp the tests start inherits it, also where a test passes
// os.Environ() with changes.
const beToolmcp = "TOOLGEN_TEST_BINARY_IS_TOOLMCP"

func TestMain(m *testing.M) {
	if os.Getenv(beToolmcp) == "1" {
		os.Unsetenv(beToolmcp) // not for toolmcp's own children
		main()
		return
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "finding the test binary to run as toolmcp:", err)
		os.Exit(1)
	}
	toolmcpBin = exe
	if err := os.Setenv(beToolmcp, "1"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// testTimeout bounds a test that talks to a toolmcp process where the test
// has no deadline (go test -timeout 0); otherwise the test's own deadline
// does (testContext).
const testTimeout = 10 * time.Minute

// workspace makes the directory toolmcp is confined to:
//
//	ok/hello.txt    "hello from toolmcp\n"
//	secret.txt      "do not read\n"
func workspace(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "ok"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok/hello.txt", "hello from toolmcp\n")
	write("secret.txt", "do not read\n")
	return root
}

// syncBuffer collects a process's stderr; the process writes while the test
// reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// client is a connected MCP client with the list_changed notifications it
// received.
type client struct {
	t       *testing.T
	ctx     context.Context
	session *mcp.ClientSession
	changed chan struct{}
}

func newClient(ctx context.Context, t *testing.T, tr mcp.Transport) *client {
	t.Helper()
	changed := make(chan struct{}, 16)
	c := mcp.NewClient(&mcp.Implementation{Name: "toolmcp-test", Version: "v0.0.1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	// Over HTTP, the last revision with sessions (2025-11-25): from
	// 2026-07-28, the client's default, requests are served statelessly
	// and notifications/tools/list_changed needs subscriptions/listen.
	var opts *mcp.ClientSessionOptions
	if _, ok := tr.(*mcp.StreamableClientTransport); ok {
		opts = &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	session, err := c.Connect(ctx, tr, opts)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return &client{t: t, ctx: ctx, session: session, changed: changed}
}

// startStdio starts toolmcp with args, connected over stdio. The cleanup
// closes the session (which closes toolmcp's stdin) and checks that toolmcp
// exited 0.
func startStdio(t *testing.T, args ...string) (*client, *syncBuffer, *exec.Cmd) {
	t.Helper()
	return startStdioEnv(t, nil, args...)
}

// startStdioEnv is startStdio with env as toolmcp's environment (nil: this
// process's).
func startStdioEnv(t *testing.T, env []string, args ...string) (*client, *syncBuffer, *exec.Cmd) {
	t.Helper()
	ctx := testContext(t)
	stderr := &syncBuffer{}
	cmd := exec.Command(toolmcpBin, args...)
	cmd.Env = env
	cmd.Stderr = stderr
	c := newClient(ctx, t, &mcp.CommandTransport{Command: cmd})
	t.Cleanup(func() {
		_ = c.session.Close()
		if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
			t.Errorf("toolmcp did not exit cleanly after stdin closed: %v; stderr:\n%s", cmd.ProcessState, stderr)
		}
	})
	return c, stderr, cmd
}

// toolNames lists the tools the server offers.
func (c *client) toolNames() []string {
	c.t.Helper()
	res, err := c.session.ListTools(c.ctx, nil)
	if err != nil {
		c.t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names
}

// answer is what a tools/call returned, reduced to what the tests check.
type answer struct {
	Text    string
	IsError bool
}

func (c *client) call(name string, args map[string]any) answer {
	c.t.Helper()
	res, err := c.session.CallTool(c.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code == jsonrpc.CodeInvalidParams {
		// An unknown or denied tool: the JSON-RPC error MCP names.
		return answer{IsError: true, Text: "-32602 " + je.Message}
	}
	if err != nil {
		c.t.Fatalf("tools/call %s: %v", name, err)
	}
	var b strings.Builder
	for _, content := range res.Content {
		text, ok := content.(*mcp.TextContent)
		if !ok {
			c.t.Fatalf("tools/call %s: content %T, want text", name, content)
		}
		b.WriteString(text.Text)
	}
	return answer{Text: b.String(), IsError: res.IsError}
}

// waitChanged waits for a notifications/tools/list_changed.
func (c *client) waitChanged() {
	c.t.Helper()
	select {
	case <-c.changed:
	case <-c.ctx.Done():
		c.t.Fatal("no notifications/tools/list_changed arrived")
	}
}

// drainChanged forgets the notifications/tools/list_changed received so
// far.
func (c *client) drainChanged() {
	for {
		select {
		case <-c.changed:
		default:
			return
		}
	}
}

// catN is a line of Read's output: the line number, an arrow, the line.
func catN(n int, line string) string { return fmt.Sprintf("%6d→%s", n, line) }

type callCase struct {
	name string
	tool string
	args map[string]any
	want answer
}

func (c *client) check(cases []callCase) {
	c.t.Helper()
	for _, tc := range cases {
		c.t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, c.call(tc.tool, tc.args)); diff != "" {
				t.Errorf("%s %v (-want +got):\n%s", tc.tool, tc.args, diff)
			}
		})
	}
}

// TestStdio is the end-to-end test: toolmcp started as a host starts it,
// over stdio, under -schema-mode enforce with Grep deferred. It lists the
// tools, calls one successfully and with schema violations, and finds
// Grep with ToolSearch, which changes the tool list.
func TestStdio(t *testing.T) {
	root := workspace(t)
	c, stderr, _ := startStdio(t, "-root", root, "-schema-mode", "enforce", "-defer", "Grep")

	// The SDK lists tools by name.
	eager := []string{"Bash", "BashOutput", "Edit", "Glob", "KillShell", "Read", "TodoWrite", "ToolSearch", "Write"}
	if diff := cmp.Diff(eager, c.toolNames()); diff != "" {
		t.Fatalf("tools/list before the search (-want +got):\n%s", diff)
	}

	c.check([]callCase{
		{"read absolute", "Read", map[string]any{"file_path": filepath.Join(root, "ok", "hello.txt")},
			answer{Text: catN(1, "hello from toolmcp")}},
		{"read relative to root", "Read", map[string]any{"file_path": "ok/hello.txt"},
			answer{Text: catN(1, "hello from toolmcp")}},
		{"schema: wrong type", "Read", map[string]any{"file_path": 7},
			answer{IsError: true, Text: "Parameter 'file_path' must be a string. The tool was not executed."}},
		{"schema: typo", "Read", map[string]any{"file_paht": "ok/hello.txt"},
			answer{IsError: true, Text: "Parameter 'file_path' is required (string).\n" +
				"Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed."}},
		{"schema: unknown parameter", "Glob", map[string]any{"pattern": "*", "bogus": true},
			answer{IsError: true, Text: "Unknown parameter 'bogus'. The tool was not executed."}},
		{"confined to root", "Read", map[string]any{"file_path": "../outside.txt"},
			answer{IsError: true, Text: "The path ../outside.txt is outside the workspace. Only files inside the workspace can be used."}},
	})

	// Every call starts from one tool context: the Read above counts for
	// the Edit below, and Bash runs in the root.
	hello := filepath.Join(root, "ok", "hello.txt")
	c.check([]callCase{
		{"edit a file not read", "Edit", map[string]any{"file_path": "secret.txt", "old_string": "do not", "new_string": "do"},
			answer{IsError: true, Text: "File has not been read yet: " + filepath.Join(root, "secret.txt") + ". Read it first before editing it."}},
		{"edit a file read by an earlier call", "Edit", map[string]any{"file_path": hello, "old_string": "hello", "new_string": "hi"},
			answer{Text: "The file " + hello + " was edited: 1 replacement made."}},
		{"bash in the root", "Bash", map[string]any{"command": "cat ok/hello.txt"},
			answer{Text: "hi from toolmcp\n"}},
	})

	// Grep is deferred: not listed. ToolSearch finds it, activates it, and
	// the server tells the client the list changed.
	res := c.call("ToolSearch", map[string]any{"query": "grep"})
	if res.IsError {
		t.Fatalf("ToolSearch: %s", res.Text)
	}
	var found struct {
		Functions []struct {
			Name       string         `json:"name"`
			Parameters map[string]any `json:"parameters"`
		} `json:"functions"`
	}
	if err := json.Unmarshal([]byte(res.Text), &found); err != nil {
		t.Fatalf("ToolSearch answer %q: %v", res.Text, err)
	}
	if len(found.Functions) != 1 || found.Functions[0].Name != "Grep" || found.Functions[0].Parameters["type"] != "object" {
		t.Fatalf("ToolSearch answer: %s; want Grep alone, with its schema", res.Text)
	}
	c.waitChanged()
	withGrep := []string{"Bash", "BashOutput", "Edit", "Glob", "Grep", "KillShell", "Read", "TodoWrite", "ToolSearch", "Write"}
	if diff := cmp.Diff(withGrep, c.toolNames()); diff != "" {
		t.Fatalf("tools/list after the search (-want +got):\n%s", diff)
	}
	c.check([]callCase{
		{"grep after activation", "Grep", map[string]any{"pattern": "toolmcp"},
			answer{Text: "Found 1 file\n" + filepath.Join(root, "ok", "hello.txt")}},
	})

	if t.Failed() {
		t.Logf("toolmcp stderr:\n%s", stderr)
	}
}

// TestStdioAllowList runs toolmcp with an allow-list that lets Read see one
// directory only, plus ToolSearch: nothing else is offered, every other call
// is denied before its schema is looked at, and a search does not find the
// deferred Grep, which the list leaves out.
func TestStdioAllowList(t *testing.T) {
	root := workspace(t)
	c, stderr, _ := startStdio(t, "-root", root, "-allow", "Read("+filepath.Join(root, "ok")+"/**)", "-allow", "ToolSearch", "-defer", "Grep")

	if diff := cmp.Diff([]string{"Read", "ToolSearch"}, c.toolNames()); diff != "" {
		t.Fatalf("tools/list (-want +got):\n%s", diff)
	}
	c.check([]callCase{
		{"inside the pattern", "Read", map[string]any{"file_path": filepath.Join(root, "ok", "hello.txt")},
			answer{Text: catN(1, "hello from toolmcp")}},
		{"relative, inside the pattern", "Read", map[string]any{"file_path": "ok/hello.txt"},
			answer{Text: catN(1, "hello from toolmcp")}},
		{"outside the pattern", "Read", map[string]any{"file_path": filepath.Join(root, "secret.txt")},
			answer{IsError: true, Text: "Tool 'Read' is not allowed to access this path."}},
		{"dot-dot out of the pattern", "Read", map[string]any{"file_path": "ok/../secret.txt"},
			answer{IsError: true, Text: "Tool 'Read' is not allowed to access this path."}},
		{"a tool not on the list", "Write", map[string]any{"file_path": "ok/new.txt", "content": "x"},
			answer{IsError: true, Text: "-32602 Tool 'Write' is not allowed."}},
		{"denied before the schema", "Bash", map[string]any{"bogus": 1},
			answer{IsError: true, Text: "-32602 Tool 'Bash' is not allowed."}},
	})
	// Searching never activates, or reveals, a tool the list leaves out.
	c.check([]callCase{
		{"search for a tool not on the list", "ToolSearch", map[string]any{"query": "grep"},
			answer{Text: `{"functions": []}`}},
		{"a deferred tool not on the list", "Grep", map[string]any{"pattern": "x"},
			answer{IsError: true, Text: "-32602 Tool 'Grep' is not allowed."}},
	})
	if diff := cmp.Diff([]string{"Read", "ToolSearch"}, c.toolNames()); diff != "" {
		t.Errorf("tools/list after the search (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(root, "ok", "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the denied Write ran: stat: %v", err)
	}
	if t.Failed() {
		t.Logf("toolmcp stderr:\n%s", stderr)
	}
}

// TestStdioSignal stops toolmcp with SIGTERM while a background command
// runs: it exits 0 without logging an error. (TestServerOwnsBackground
// checks that closing the server ends the command.)
func TestStdioSignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sends SIGTERM")
	}
	root := workspace(t)
	args := []string{"-root", root}
	if testing.Short() {
		// -short starts no sandbox (as in runtime/shell): the local
		// shell; make test takes the sandbox where there is one. Its
		// command once missed the TERM of a stop during bubblewrap's
		// start-up and waited out Bash's one-second kill grace (1.1 s
		// against 0.13 s); runtime/shell's TestSandboxStopDuringStartUp
		// guards that now.
		args = append(args, "-sandbox", "off")
	}
	c, stderr, cmd := startStdio(t, args...)
	res := c.call("Bash", map[string]any{"command": "sleep 30", "run_in_background": true})
	if res.IsError {
		t.Fatalf("Bash: %s", res.Text)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The cleanup of startStdio checks the exit status; wait for the log
	// line here.
	deadline, _ := testContext(t).Deadline()
	for !strings.Contains(stderr.String(), "stopped by a signal") {
		if time.Now().After(deadline) {
			t.Fatalf("toolmcp did not stop; stderr:\n%s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if strings.Contains(stderr.String(), "level=ERROR") {
		t.Errorf("a clean shutdown logged an error; stderr:\n%s", stderr)
	}
}

// TestHTTP serves streamable HTTP on a free loopback port, talks to it with
// the SDK's streamable client, and stops it with SIGTERM.
func TestHTTP(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("stops toolmcp with SIGTERM")
	}
	root := workspace(t)
	ctx := testContext(t)

	cmd := exec.Command(toolmcpBin, "-root", root, "-defer", "Grep", "-http", "127.0.0.1:0")
	stderrPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	var stderr syncBuffer
	urls := make(chan string, 1)
	go func() {
		// Read every line (so that toolmcp never blocks on a full pipe),
		// passing on the URL toolmcp logs once it listens.
		urlRE := regexp.MustCompile(`url=(http://\S+)`)
		sc := bufio.NewScanner(stderrPipe)
		for sc.Scan() {
			fmt.Fprintln(&stderr, sc.Text())
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
		_, _ = io.Copy(io.Discard, stderrPipe)
		exited <- cmd.Wait()
	}()
	waited := false
	defer func() {
		if !waited {
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("toolmcp stderr:\n%s", stderr.String())
		}
	}()

	var url string
	select {
	case url = <-urls:
	case err := <-exited:
		waited = true
		t.Fatalf("toolmcp exited before listening: %v", err)
	case <-ctx.Done():
		t.Fatal("toolmcp did not log its URL")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("url %q: want a loopback address", url)
	}

	c := newClient(ctx, t, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1})
	if diff := cmp.Diff([]string{"Bash", "BashOutput", "Edit", "Glob", "KillShell", "Read", "TodoWrite", "ToolSearch", "Write"}, c.toolNames()); diff != "" {
		t.Errorf("tools/list (-want +got):\n%s", diff)
	}
	c.check([]callCase{
		{"read", "Read", map[string]any{"file_path": "ok/hello.txt"}, answer{Text: catN(1, "hello from toolmcp")}},
	})
	if res := c.call("ToolSearch", map[string]any{"query": "select:Grep"}); res.IsError {
		t.Fatalf("ToolSearch: %s", res.Text)
	}
	c.waitChanged()
	if names := c.toolNames(); !containsName(names, "Grep") {
		t.Errorf("tools/list after the search: %v, want Grep", names)
	}
	if err := c.session.Close(); err != nil {
		t.Errorf("closing the session: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		waited = true
		if err != nil {
			t.Errorf("toolmcp after SIGTERM: %v, want exit status 0", err)
		}
	case <-ctx.Done():
		t.Fatal("toolmcp did not stop after SIGTERM")
	}
	if strings.Contains(stderr.String(), "level=ERROR") {
		t.Errorf("a clean shutdown logged an error")
	}
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// TestUsage runs toolmcp with command lines it must refuse: exit status 2,
// and a message that says what is wrong.
func TestUsage(t *testing.T) {
	root := workspace(t)
	file := filepath.Join(root, "secret.txt")
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no root", nil, "toolmcp: -root is required\nusage: toolmcp -root DIR"},
		{"missing root", []string{"-root", filepath.Join(root, "nope")}, "toolmcp: -root: stat "},
		{"root is a file", []string{"-root", file}, "toolmcp: -root " + file + ": not a directory"},
		{"bad schema mode", []string{"-root", root, "-schema-mode", "strict"}, `invalid value "strict" for flag -schema-mode`},
		{"unknown flag", []string{"-root", root, "-verbose"}, "flag provided but not defined: -verbose"},
		{"stray argument", []string{"-root", root, "extra"}, "toolmcp: unexpected arguments: extra"},
		{"bad allow entry", []string{"-root", root, "-allow", "Read("}, "toolmcp: -allow: "},
		{"unknown deferred tool", []string{"-root", root, "-defer", "Grpe"}, `unknown tool "Grpe"`},
		{"ToolSearch deferred", []string{"-root", root, "-defer", "ToolSearch"}, "ToolSearch is always eager"},
		{"bad sandbox mode", []string{"-root", root, "-sandbox", "maybe"}, `invalid value "maybe" for flag -sandbox: want auto, on or off`},
		{"origin without http", []string{"-root", root, "-origin", "https://app.example.com"}, "toolmcp: -origin applies to -http only: stdio has no origins"},
		{"bad origin", []string{"-root", root, "-http", "127.0.0.1:0", "-origin", "app.example.com"}, `toolmcp: -origin: origin "app.example.com": want scheme://host[:port], such as https://app.example.com or http://localhost:6274`},
		{"bad pass-env entry", []string{"-root", root, "-sandbox", "off", "-pass-env", "NOT A NAME"}, `PassEnv: "NOT A NAME" is not a variable name`},
		{"store without http", []string{"-root", root, "-store", "redis://127.0.0.1:6379/0"}, "toolmcp: -store applies to -http only"},
		{"store not redis", []string{"-root", root, "-sandbox", "off", "-http", "127.0.0.1:0", "-store", "memcached://cache:11211"}, `toolmcp: -store "memcached://cache:11211": want redis://host:port/db`},
		{"bad replica name", []string{"-root", root, "-replica", "web:1"}, `toolmcp: -replica "web:1": use letters, digits`},
		{"socket without sandbox", []string{"-root", root, "-sandbox", "off", "-allow-socket", "/run/db.sock"}, "toolmcp: -allow-socket applies to the sandbox: with -sandbox off every socket is reachable"},
		{"no sessions", []string{"-root", root, "-max-sessions", "0"}, "toolmcp: -max-sessions 0: want at least 1"},
		{"no idle timeout", []string{"-root", root, "-idle-timeout", "0s"}, "toolmcp: -idle-timeout 0s: want a positive duration"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each is a process of its own
			ctx := testContext(t)
			cmd := exec.CommandContext(ctx, toolmcpBin, tc.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			cmd.Stdin = strings.NewReader("") // were it to serve, it would stop at once
			err := cmd.Run()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 2 {
				t.Errorf("toolmcp %q: %v, want exit status 2", tc.args, err)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("toolmcp %q: stderr\n%s\nwant it to contain %q", tc.args, stderr.String(), tc.want)
			}
		})
	}
}

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want options
	}{
		{"defaults", []string{"-root", "dir"}, options{root: "dir", sandbox: sandboxAuto}},
		{"everything", []string{"-root", "dir", "-allow", "Read", "-allow", "Bash(git log:*)", "-schema-mode", "ENFORCE",
			"-defer", "Grep", "-defer", "Glob", "-sandbox", "on", "-allow-socket", "/run/db.sock", "-pass-env", "GOPATH", "-pass-env", "GIT_*", "-http", "127.0.0.1:0",
			"-origin", "https://app.example.com", "-origin", "http://localhost:6274"},
			options{root: "dir", allow: []string{"Read", "Bash(git log:*)"}, mode: schema.Enforce, deferred: []string{"Grep", "Glob"},
				sandbox: sandboxOn, sockets: []string{"/run/db.sock"}, passEnv: []string{"GOPATH", "GIT_*"}, httpAddr: "127.0.0.1:0",
				origins: []string{"https://app.example.com", "http://localhost:6274"}}},
		{"schema off", []string{"-schema-mode=off", "-root=dir"}, options{root: "dir", mode: schema.Off, sandbox: sandboxAuto}},
		{"sandbox off", []string{"-root=dir", "-sandbox=OFF"}, options{root: "dir", sandbox: sandboxOff}},
		{"sandbox auto", []string{"-root=dir", "-sandbox", "auto"}, options{root: "dir", sandbox: sandboxAuto}},
		{"replicas", []string{"-root=dir", "-http", ":8080", "-store", "redis://cache:6379/0", "-replica", "web-2", "-max-sessions", "50", "-idle-timeout", "90s"},
			options{root: "dir", sandbox: sandboxAuto, httpAddr: ":8080", storeURL: "redis://cache:6379/0", replica: "web-2", maxSessions: 50, idleTimeout: 90 * time.Second}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The defaults of the session bounds, where the case sets none.
			if tc.want.maxSessions == 0 {
				tc.want.maxSessions = 1000
			}
			if tc.want.idleTimeout == 0 {
				tc.want.idleTimeout = 10 * time.Minute
			}
			got, err := parseFlags(tc.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(options{})); diff != "" {
				t.Errorf("parseFlags(%q) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
