package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/schema"
)

// TestStatelessConversation: a 2026-07-28 client (the go-sdk's default) is
// served statelessly, with no session; the requests that name one
// conversation in _meta["io.toolgen/conversation"] share its state (a
// file read in one request may be edited in the next), and a request that
// names none starts from a fresh state.
func TestStatelessConversation(t *testing.T) {
	ctx := testContext(t)
	root := workspace(t)
	_, url := serveHTTP(t, options{root: root, mode: schema.Enforce, sandbox: sandboxOff})
	client := mcp.NewClient(&mcp.Implementation{Name: "stateless", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; v != "2026-07-28" || cs.ID() != "" {
		t.Fatalf("negotiated %s with session %q, want 2026-07-28 and none", v, cs.ID())
	}
	file := filepath.Join(root, "ok/hello.txt")
	call := func(conv, name string, args map[string]any) (string, bool) {
		t.Helper()
		p := &mcp.CallToolParams{Name: name, Arguments: args}
		if conv != "" {
			p.Meta = mcp.Meta{"io.toolgen/conversation": conv}
		}
		res, err := cs.CallTool(ctx, p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), res.IsError
	}
	if text, isErr := call("conv-1", "Read", map[string]any{"file_path": file}); isErr {
		t.Fatalf("Read: %s", text)
	}
	// Another conversation, and no conversation, have not read the file.
	for _, conv := range []string{"conv-2", ""} {
		if text, isErr := call(conv, "Edit", map[string]any{"file_path": file, "old_string": "hello", "new_string": "howdy"}); !isErr {
			t.Errorf("Edit in conversation %q without a Read succeeded: %s", conv, text)
		}
	}
	if text, isErr := call("conv-1", "Edit", map[string]any{"file_path": file, "old_string": "hello", "new_string": "howdy"}); isErr {
		t.Errorf("Edit in the conversation that read the file: %s", text)
	}
}
