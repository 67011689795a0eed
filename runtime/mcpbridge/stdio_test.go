package mcpbridge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// rawStdio is a SessionServer run over a StdioTransport on pipes, driven
// line by line.
type rawStdio struct {
	t     *testing.T
	in    *io.PipeWriter
	out   chan map[string]any
	done  chan error
	slow  *slowTool
	inErr error
}

const (
	initLine        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

func newRawStdio(t *testing.T, maxBytes int) *rawStdio {
	t.Helper()
	ctx := testContext(t)
	r := newRuns()
	p := mcpbridge.NewSessionServer(r.newSession, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	rs := &rawStdio{t: t, in: inW, out: make(chan map[string]any, 64), done: make(chan error, 1), slow: r.slow}
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			rs.out <- m
		}
		close(rs.out)
	}()
	go func() {
		err := p.Run(ctx, &mcpbridge.StdioTransport{Reader: inR, Writer: outW, MaxMessageBytes: maxBytes})
		outW.Close()
		rs.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		p.Close()
	})
	return rs
}

func (rs *rawStdio) send(lines ...string) {
	rs.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(rs.in, l+"\n"); err != nil {
			rs.t.Fatalf("writing %q: %v", l, err)
		}
	}
}

// next returns the next message the server wrote.
func (rs *rawStdio) next() map[string]any {
	rs.t.Helper()
	select {
	case m, ok := <-rs.out:
		if !ok {
			rs.t.Fatal("the server closed its output")
		}
		return m
	case <-testContext(rs.t).Done():
		rs.t.Fatal("no message from the server")
	}
	return nil
}

// rest closes the input and returns every message written until the
// session ended.
func (rs *rawStdio) rest() []map[string]any {
	rs.t.Helper()
	rs.in.Close()
	var all []map[string]any
	for {
		select {
		case m, ok := <-rs.out:
			if !ok {
				return all
			}
			all = append(all, m)
		case <-testContext(rs.t).Done():
			rs.t.Fatal("the session did not end at the end of input")
		}
	}
}

// errorOf is the id, code and message of an error response.
type errorOf struct {
	ID      any
	Code    float64
	Message string
}

func asError(m map[string]any) errorOf {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	msg, _ := e["message"].(string)
	return errorOf{ID: m["id"], Code: code, Message: msg}
}

// TestStdioBadLines: a line that is not a message is answered with a
// JSON-RPC error and the session goes on.
func TestStdioBadLines(t *testing.T) {
	tests := []struct {
		name string
		line string
		want errorOf
	}{
		{"not json", `{"jsonrpc":"2.0",`, errorOf{nil, -32700, "parse error: the line is not JSON; send one JSON-RPC message per line"}},
		{"garbage", `hello`, errorOf{nil, -32700, "parse error: the line is not JSON; send one JSON-RPC message per line"}},
		{"batch", `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`, errorOf{nil, -32600, "invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line"}},
		{"empty batch", `[]`, errorOf{nil, -32600, "invalid request: JSON-RPC batches are not supported (MCP removed them in 2025-06-18); send one message per line"}},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, errorOf{7.0, -32600, `invalid request: not a JSON-RPC 2.0 message (invalid message version tag "1.0"; expected "2.0")`}},
		{"string id kept", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, errorOf{"a", -32600, `invalid request: not a JSON-RPC 2.0 message (invalid message version tag "1.0"; expected "2.0")`}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, errorOf{nil, -32600, "invalid request: the id is null; MCP requests need a string or integer id (a notification has no id member)"}},
		{"not an object", `42`, errorOf{nil, -32600, "invalid request: not a JSON-RPC 2.0 message (unmarshaling jsonrpc message: json: cannot unmarshal number into Go value of type jsonrpc2.wireDecode)"}},
		{"too long", `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`, errorOf{nil, -32600, "message larger than 256 bytes: it was skipped"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newRawStdio(t, 256)
			rs.send(tt.line)
			got := asError(rs.next())
			if tt.name == "not an object" {
				// The decoder's own wording is the SDK's; the code is ours.
				got.Message = tt.want.Message
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			// The session is still there: initialize and ping are answered.
			rs.send(initLine, initializedLine, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
			if m := rs.next(); m["id"] != 1.0 || m["result"] == nil {
				t.Fatalf("initialize answered %v", m)
			}
			if m := rs.next(); m["id"] != "p" || m["result"] == nil {
				t.Fatalf("ping answered %v", m)
			}
			rs.rest()
			if err := <-rs.done; err != nil && err != io.EOF {
				t.Errorf("Run: %v", err)
			}
		})
	}
}

// TestStdioEndOfInputAnswers: requests read before the end of input are
// answered before the session ends.
func TestStdioEndOfInputAnswers(t *testing.T) {
	rs := newRawStdio(t, 0)
	rs.send(initLine, initializedLine)
	rs.next()
	rs.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"Slow","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"Count","arguments":{}}}`)
	<-rs.slow.started
	go func() { close(rs.slow.release) }()
	got := map[any]string{}
	for _, m := range rs.rest() {
		res, _ := m["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) == 1 {
			got[m["id"]] = content[0].(map[string]any)["text"].(string)
		}
	}
	if diff := cmp.Diff(map[any]string{10.0: "done", 11.0: "1"}, got); diff != "" {
		t.Errorf("answers after the end of input (-want +got):\n%s", diff)
	}
}

// TestStdioCancelledNotAnswered: a call the client cancels ends, and is
// not answered.
func TestStdioCancelledNotAnswered(t *testing.T) {
	rs := newRawStdio(t, 0)
	rs.send(initLine, initializedLine)
	rs.next()
	rs.send(`{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"name":"Slow","arguments":{}}}`)
	<-rs.slow.started
	rs.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":20,"reason":"user"}}`,
		`{"jsonrpc":"2.0","id":21,"method":"ping"}`)
	var ids []any
	for _, m := range rs.rest() {
		ids = append(ids, m["id"])
	}
	if diff := cmp.Diff([]any{21.0}, ids); diff != "" {
		t.Errorf("answered ids (-want +got):\n%s", diff)
	}
}

// TestStdioTransportClient: the SDK client works over the transport (the
// happy path is unchanged).
func TestStdioTransportClient(t *testing.T) {
	ctx := testContext(t)
	reg := tool.NewRegistry()
	if err := reg.Register(echoTool()); err != nil {
		t.Fatal(err)
	}
	srv := mcpbridge.NewServer(tool.NewExecutor(reg), nil)
	defer srv.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcpbridge.StdioTransport{Reader: inR, Writer: outW}); outW.Close() }()
	cs := connectIO(ctx, t, outR, inW)
	res, err := cs.CallTool(ctx, callParams("Echo", map[string]any{"message": "hi", "times": 2}))
	if err != nil {
		t.Fatal(err)
	}
	if got := contentText(res); got != "hihi" {
		t.Errorf("Echo = %q, want hihi", got)
	}
	cs.Close()
	inW.Close()
	<-done
}

func connectIO(ctx context.Context, t *testing.T, r io.ReadCloser, w io.WriteCloser) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "io-client", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: r, Writer: w}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return cs
}

func callParams(name string, args any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}

// TestStdioNoCodeZeroBeforeInitialize: a request before initialize, which
// the SDK refuses before any handler runs, is answered -32600 (it was sent
// with code 0).
func TestStdioNoCodeZeroBeforeInitialize(t *testing.T) {
	rs := newRawStdio(t, 0)
	rs.send(`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	got := asError(rs.next())
	if got.ID != 5.0 || got.Code != -32600 || !strings.Contains(got.Message, "invalid during session initialization") {
		t.Errorf("tools/list before initialized answered %+v, want -32600", got)
	}
	rs.rest()
	<-rs.done
}
