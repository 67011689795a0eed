package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// lockedBuffer is a bytes.Buffer safe for the reader's and the test's
// writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// FuzzStdioTransport: whatever the input, the connection hands on only
// messages, answers every request it hands on once, writes only JSON
// lines, and ends at the end of input.
func FuzzStdioTransport(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n",
		"hello\n{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"a\"}\n",
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]` + "\n[]\n",
		`{"jsonrpc":"2.0","id":3,"method":"t"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n",
		`{"jsonrpc":"1.0","id":7}` + "\n\n  \n" + `{"jsonrpc":"2.0","id":8,"result":{}}`,
		"\x00\xff{\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var out lockedBuffer
		tr := &StdioTransport{Reader: bytes.NewReader(data), Writer: &out, MaxMessageBytes: 64}
		conn, err := tr.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ctx := context.Background()
		for range len(data) + 1 {
			msg, err := conn.Read(ctx)
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("Read: %v, want io.EOF at the end of input", err)
				}
				break
			}
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				if err := conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
					t.Fatalf("Write: %v", err)
				}
			}
		}
		out.mu.Lock()
		defer out.mu.Unlock()
		for _, line := range bytes.Split(bytes.TrimSuffix(out.b.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) > 0 && !json.Valid(line) {
				t.Fatalf("wrote a line that is not JSON: %q", line)
			}
		}
	})
}
