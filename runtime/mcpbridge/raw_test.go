package mcpbridge_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// rawSession speaks streamable HTTP by hand, as a client of a given
// protocol version, to see what goes over the wire (events, ids, what is
// not sent).
type rawSession struct {
	t       *testing.T
	ctx     context.Context
	url     string
	version string
	id      string // the session id, once initialized
}

// sseEvent is one server-sent event.
type sseEvent struct {
	Name, ID, Retry, Data string
}

// openRaw initializes a session at version and sends
// notifications/initialized.
func openRaw(ctx context.Context, t *testing.T, url, version string) *rawSession {
	t.Helper()
	s := &rawSession{t: t, ctx: ctx, url: url, version: version}
	resp := s.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`, version), false)
	s.id = resp.Header.Get("Mcp-Session-Id")
	if s.id == "" {
		t.Fatalf("initialize answered %s without a session id", resp.Status)
	}
	readEvents(t, resp)
	resp = s.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true)
	resp.Body.Close()
	t.Cleanup(func() { s.delete() })
	return s
}

// post sends one message; withVersion sets the protocol version header
// (MCP asks for it on every request after initialize).
func (s *rawSession) post(body string, withVersion bool) *http.Response {
	s.t.Helper()
	resp, err := http.DefaultClient.Do(s.newPost(body, withVersion))
	if err != nil {
		s.t.Fatalf("POST %s: %v", body, err)
	}
	return resp
}

// newPost is the request post sends.
func (s *rawSession) newPost(body string, withVersion bool) *http.Request {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
	}
	if withVersion {
		req.Header.Set("Mcp-Protocol-Version", s.version)
	}
	return req
}

// call sends tools/call of name with request id id.
func (s *rawSession) call(id int, name string) *http.Response {
	s.t.Helper()
	resp, err := http.DefaultClient.Do(s.request(id, name))
	if err != nil {
		s.t.Fatalf("tools/call %s: %v", name, err)
	}
	return resp
}

// request is the POST of tools/call of name (no arguments) with request
// id id, for a caller to send aside.
func (s *rawSession) request(id int, name string) *http.Request {
	return s.newPost(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, name), true)
}

// resume opens the GET stream that resumes after lastEventID.
func (s *rawSession) resume(lastEventID string) *http.Response {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodGet, s.url, nil)
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", s.id)
	req.Header.Set("Mcp-Protocol-Version", s.version)
	req.Header.Set("Last-Event-ID", lastEventID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("GET Last-Event-ID %s: %v", lastEventID, err)
	}
	return resp
}

func (s *rawSession) delete() {
	req, err := http.NewRequestWithContext(context.WithoutCancel(s.ctx), http.MethodDelete, s.url, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", s.id)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
}

// readEvents reads the events of an SSE answer until it ends (a JSON
// answer is one event with its body as data) and closes it.
func readEvents(t *testing.T, resp *http.Response) []sseEvent {
	t.Helper()
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("answered %s: %s", resp.Status, b)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		if len(b) == 0 {
			return nil
		}
		return []sseEvent{{Data: string(b)}}
	}
	var events []sseEvent
	var ev sseEvent
	seen := false
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if seen {
				events = append(events, ev)
			}
			ev, seen = sseEvent{}, false
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		seen = true
		switch field {
		case "event":
			ev.Name = value
		case "id":
			ev.ID = value
		case "retry":
			ev.Retry = value
		case "data":
			ev.Data = value
		}
	}
	return events
}

// resultText returns the text of the tools/call answer to request id among
// events, and whether there is one.
func resultText(events []sseEvent, id int) (string, bool) {
	for _, ev := range events {
		var msg struct {
			ID     *int `json:"id"`
			Result *struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(ev.Data), &msg) != nil || msg.ID == nil || *msg.ID != id {
			continue
		}
		if msg.Error != nil {
			return "error: " + msg.Error.Message, true
		}
		var b strings.Builder
		for _, c := range msg.Result.Content {
			b.WriteString(c.Text)
		}
		return b.String(), true
	}
	return "", false
}
