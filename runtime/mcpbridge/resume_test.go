package mcpbridge_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/tool"
)

// pollTool closes its stream (mcpbridge.CloseStream) and sends whether it
// could on closed, then answers once answer is closed.
type pollTool struct {
	closed chan bool
	answer chan struct{}
}

func newPollTool() *pollTool {
	return &pollTool{closed: make(chan bool, 1), answer: make(chan struct{})}
}

func (p *pollTool) tool() tool.Tool {
	return tool.New(tool.Definition{Name: "Poll", Description: "Closes its stream, then answers.", InputSchema: objectSchema(map[string]any{}), Concurrency: tool.Safe},
		func(ctx context.Context, _ tool.Input, tc tool.Context) tool.Result {
			p.closed <- mcpbridge.CloseStream(tc, 250*time.Millisecond)
			select {
			case <-p.answer:
				return tool.Success("answered after the close")
			case <-ctx.Done():
				return tool.FailureWith("Poll was cancelled.", ctx.Err())
			}
		})
}

// TestCloseStreamResumes: over streamable HTTP at 2025-11-25, a tool that
// closes its stream mid-call ends the POST stream after its priming event
// and a close event with the retry delay; its answer, written after the
// close, reaches the client that resumes the stream with the last event id
// it saw. A request whose version header is older than the session's
// (the conformance suite sends 2025-03-26 on a 2025-11-25 session) is
// served at the session's version. At earlier versions (no priming event,
// so nothing to resume from) CloseStream declines and the answer comes on
// the POST stream.
func TestCloseStreamResumes(t *testing.T) {
	for _, tt := range []struct {
		session, header string
		closes          bool
	}{
		{"2025-11-25", "2025-11-25", true},
		{"2025-11-25", "2025-03-26", true},
		{"2025-06-18", "2025-06-18", false},
		{"2025-03-26", "2025-03-26", false},
	} {
		t.Run(tt.session+"/"+tt.header, func(t *testing.T) {
			ctx := testContext(t)
			poll := newPollTool()
			reg := tool.NewRegistry()
			if err := reg.Register(poll.tool()); err != nil {
				t.Fatal(err)
			}
			srv := mcpbridge.NewServer(tool.NewExecutor(reg), &mcpbridge.ServerOptions{Name: "test", Version: "v0"})
			ts := httptest.NewServer(srv.HTTPHandler(nil))
			t.Cleanup(func() {
				srv.Close()
				ts.Close()
			})
			s := openRaw(ctx, t, ts.URL, tt.session)
			s.version = tt.header

			// Without a priming event the answer's headers wait for the
			// call's first message: send it aside.
			respc := make(chan *http.Response, 1)
			go func() {
				resp, err := http.DefaultClient.Do(s.request(7, "Poll"))
				if err != nil {
					close(respc)
					return
				}
				respc <- resp
			}()
			if got := <-poll.closed; got != tt.closes {
				close(poll.answer)
				t.Fatalf("CloseStream = %v, want %v", got, tt.closes)
			}
			if !tt.closes {
				close(poll.answer)
				text, ok := resultText(readEvents(t, <-respc), 7)
				if !ok || text != "answered after the close" {
					t.Fatalf("the POST stream carried %q (answer %v), want the call's answer", text, ok)
				}
				return
			}
			events := readEvents(t, <-respc)
			if _, ok := resultText(events, 7); ok {
				t.Fatalf("the closed stream carried the answer: %+v", events)
			}
			if len(events) != 2 || events[0].ID == "" || events[0].Data != "" {
				t.Fatalf("POST stream events %+v, want a priming event (an id, no data) and a close event", events)
			}
			if diff := cmp.Diff(sseEvent{Name: "close", Retry: "250"}, events[1]); diff != "" {
				t.Errorf("close event (-want +got):\n%s", diff)
			}
			// The call goes on after the close; its answer waits for the
			// client in the event store.
			close(poll.answer)
			text, ok := resultText(readEvents(t, s.resume(events[0].ID)), 7)
			if !ok || text != "answered after the close" {
				t.Errorf("the resumed stream carried %q (answer %v), want the call's answer", text, ok)
			}
		})
	}
}

// TestCloseStreamElsewhere: a call not served over streamable HTTP (here
// an in-memory transport, as stdio) has no stream to close.
func TestCloseStreamElsewhere(t *testing.T) {
	poll := newPollTool()
	close(poll.answer)
	reg := tool.NewRegistry()
	if err := reg.Register(poll.tool()); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, reg)
	if text, isErr := callText(t, f.cs, "Poll", map[string]any{}); isErr || text != "answered after the close" {
		t.Errorf("Poll = %q (error %v), want its answer", text, isErr)
	}
	if <-poll.closed {
		t.Error("CloseStream closed a stream of an in-memory session")
	}
	if mcpbridge.CloseStream(tool.Context{}, time.Second) {
		t.Error("CloseStream closed a stream for an empty tool context")
	}
}
