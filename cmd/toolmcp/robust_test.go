package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestHTTPOrigin: toolmcp serves loopback origins and those -origin names,
// and answers any other origin 403.
func TestHTTPOrigin(t *testing.T) {
	ctx := testContext(t)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"o","version":"0"}}}`
	tests := []struct {
		name    string
		origins []string
		origin  string
		want    int
	}{
		{"no origin", nil, "", 200},
		{"loopback by default", nil, "http://localhost:6274", 200},
		{"foreign by default", nil, "https://evil.example", 403},
		{"listed", []string{"https://app.example.com"}, "https://app.example.com", 200},
		{"loopback once others are listed", []string{"https://app.example.com"}, "http://127.0.0.1:6274", 403},
		{"star", []string{"*"}, "https://evil.example", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, url := serveHTTP(t, options{root: workspace(t), sandbox: sandboxOff, origins: tt.origins, httpAddr: "127.0.0.1:0"})
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Errorf("Origin %q: %s %s, want %d", tt.origin, resp.Status, body, tt.want)
			}
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				del, _ := http.NewRequestWithContext(ctx, http.MethodDelete, url, nil)
				del.Header.Set("Mcp-Session-Id", id)
				if r, err := http.DefaultClient.Do(del); err == nil {
					r.Body.Close()
				}
			}
		})
	}
}

// TestStdioBadLine: a malformed line on stdin is answered with a JSON-RPC
// parse error and the session goes on; requests read before the end of
// stdin are answered before toolmcp exits 0.
func TestStdioBadLine(t *testing.T) {
	ctx := testContext(t)
	root := workspace(t)
	cmd := exec.CommandContext(ctx, toolmcpBin, "-root", root, "-sandbox", "off")
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"Read","arguments":{"file_path":"ok/hello.txt"}}}`,
	}, "\n") + "\n")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	type line struct {
		ID    any
		Code  float64
		Error bool
	}
	var got []line
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     any    `json:"id"`
			Method string `json:"method"`
			Error  *struct {
				Code float64 `json:"code"`
			} `json:"error"`
			Result *struct {
				IsError bool `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		if m.Method != "" && m.ID == nil {
			// A notification (the tool list settling after the session's
			// run was made, a log record): not an answer, which is what
			// this test counts.
			continue
		}
		l := line{ID: m.ID}
		if m.Error != nil {
			l.Code = m.Error.Code
		}
		if m.Result != nil {
			l.Error = m.Result.IsError
		}
		got = append(got, l)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("toolmcp: %v, want exit status 0", err)
	}
	want := []line{{ID: 1.0}, {Code: -32700}, {Code: -32600}, {ID: 3.0}}
	// The errors are written as the lines are read, so they may overtake
	// the answers of the requests before them.
	byText := cmpopts.SortSlices(func(a, b line) bool { return fmt.Sprint(a) < fmt.Sprint(b) })
	if diff := cmp.Diff(want, got, byText); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
}
