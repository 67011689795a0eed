package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

var update = flag.Bool("update", false, "rewrite testdata/session.golden")

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestSession connects an MCP client to the server in memory, lists the
// tools and makes good and bad calls; the transcript is compared with
// testdata/session.golden.
func TestSession(t *testing.T) {
	// Bounded by the test's deadline, not a fixed time a loaded machine
	// could exceed.
	ctx, cancel := context.Background(), context.CancelFunc(func() {})
	if d, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Second))
	}
	defer cancel()

	srv, err := newServer(slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	serverT, clientT := mcp.NewInMemoryTransports()
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx, serverT) }()

	client := mcp.NewClient(&mcp.Implementation{Name: "example-test", Version: "v0.0.1"}, nil)
	session, err := client.Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := transcript(ctx, session, &buf); err != nil {
		t.Fatal(err)
	}
	if err := session.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-served; err != nil {
		t.Errorf("server: %v", err)
	}
	srv.Close()

	golden := filepath.Join("testdata", "session.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("session changed (-golden +got); run go test ./examples/mcpserver -update:\n%s", diff)
	}
}

// transcript is what an MCP host sees: the tools and their schemas, then
// the answer to each call.
func transcript(ctx context.Context, session *mcp.ClientSession, w io.Writer) error {
	init := session.InitializeResult()
	fmt.Fprintf(w, "server %s %s: %s\n\n", init.ServerInfo.Name, init.ServerInfo.Version, init.Instructions)
	tools, err := session.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	for _, tl := range tools.Tools {
		schema, err := json.MarshalIndent(tl.InputSchema, "   ", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "tool %s: %s\n   %s\n", tl.Name, tl.Description, schema)
	}
	calls := []struct{ name, args string }{
		{"AddNote", `{"title":"groceries","body":"eggs, flour","tags":["home","shopping"]}`},
		{"AddNote", `{"title":"standup","body":"demo the MCP server","tags":["work"]}`},
		{"AddNote", `{"title":"groceries","body":"eggs, flour, milk","tags":["home"]}`},
		{"FindNotes", `{}`},
		{"FindNotes", `{"tag":"work","limit":500}`},
		{"AddNote", `{"title":"","body":"no title","tags":["a","b","c","d","e","f"]}`},
		{"AddNote", `{"titel":"typo","body":"x"}`},
		{"FindNotes", `{"tag":"Not A Tag"}`},
		{"DeleteNote", `{"title":"standup"}`},
	}
	fmt.Fprintln(w)
	for i, c := range calls {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			// An unknown tool: the JSON-RPC error MCP names, the gate's
			// sentence its message.
			fmt.Fprintf(w, "%d. %s %s\n   -> [JSON-RPC error %d] %s\n", i+1, c.name, c.args, je.Code, je.Message)
			continue
		}
		if err != nil {
			return err
		}
		status := "ok"
		if res.IsError {
			status = "error"
		}
		var text strings.Builder
		for _, content := range res.Content {
			if tc, ok := content.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		fmt.Fprintf(w, "%d. %s %s\n   -> [%s] %s\n", i+1, c.name, c.args, status, strings.ReplaceAll(text.String(), "\n", "\n      "))
	}
	return nil
}
