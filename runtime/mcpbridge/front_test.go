package mcpbridge

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestCancelledIDs(t *testing.T) {
	mustID := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	tests := []struct {
		name string
		body string
		want []jsonrpc.ID
	}{
		{"number", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`, []jsonrpc.ID{mustID(float64(5))}},
		{"string", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}`, []jsonrpc.ID{mustID("a")}},
		{"batch", `[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}},{"jsonrpc":"2.0","method":"ping","id":2},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}]`, []jsonrpc.ID{mustID(float64(1)), mustID(float64(3))}},
		{"no request id", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`, nil},
		{"another method naming it", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notifications/cancelled"}}`, nil},
		{"not JSON", `notifications/cancelled`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, cancelledIDs([]byte(tt.body)), cmp.Comparer(func(a, b jsonrpc.ID) bool { return a == b })); diff != "" {
				t.Errorf("cancelledIDs (-want +got):\n%s", diff)
			}
		})
	}
}

// filtered writes the chunks through a filterWriter of a session whose
// client cancelled request 5, as an SSE answer, and returns what reached
// the client.
func filtered(chunks [][]byte) string {
	f := newFront(0, func(string) {}, func(string) {}, func(string) string { return "" })
	f.open("s")
	f.noteCancelled("s", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`))
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", "text/event-stream")
	w := &filterWriter{ResponseWriter: rec, front: f, session: "s"}
	for _, c := range chunks {
		if _, err := w.Write(c); err != nil {
			panic(err)
		}
	}
	w.finish()
	return rec.Body.String()
}

func TestFilterWriter(t *testing.T) {
	const (
		prime     = "event: prime\nid: s_0\ndata: \n\n"
		progress  = "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":5,\"progress\":1}}\n\n"
		cancelled = "event: message\nid: s_2\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"content\":[]}}\n\n"
		other     = "event: message\nid: s_3\ndata: {\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}\n\n"
	)
	tests := []struct {
		name   string
		chunks []string
		want   string
	}{
		{"events whole", []string{prime, progress, cancelled, other}, prime + progress + other},
		{"events split across writes", []string{prime[:5], prime[5:] + progress[:20], progress[20:] + cancelled[:30], cancelled[30:], other}, prime + progress + other},
		{"two events in one write", []string{cancelled + other}, other},
		{"an event never ended is written at the end", []string{prime, other[:10]}, prime + other[:10]},
		{"a comment", []string{": ok\n\n", cancelled}, ": ok\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chunks := make([][]byte, len(tt.chunks))
			for i, c := range tt.chunks {
				chunks[i] = []byte(c)
			}
			if diff := cmp.Diff(tt.want, filtered(chunks)); diff != "" {
				t.Errorf("written (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFilterWriterJSON: a JSON answer to a cancelled request is not
// written; another is.
func TestFilterWriterJSON(t *testing.T) {
	f := newFront(0, func(string) {}, func(string) {}, func(string) string { return "" })
	f.open("s")
	f.noteCancelled("s", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x"}}`))
	for _, tt := range []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":"x","result":{}}`, ""},
		{`{"jsonrpc":"2.0","id":"y","result":{}}`, `{"jsonrpc":"2.0","id":"y","result":{}}`},
	} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", "application/json")
		w := &filterWriter{ResponseWriter: rec, front: f, session: "s"}
		if _, err := w.Write([]byte(tt.body)); err != nil {
			t.Fatal(err)
		}
		if got := rec.Body.String(); got != tt.want {
			t.Errorf("body %s written as %q, want %q", tt.body, got, tt.want)
		}
	}
}

// FuzzFilterWriter: whatever bytes an answer holds, however they are cut
// into writes, the filter does not panic, and what reaches the client is
// what was written less whole events answering the cancelled request: the
// same as when the bytes come in one write.
func FuzzFilterWriter(f *testing.F) {
	f.Add([]byte("event: message\nid: s_2\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\nevent: message\ndata: {}\n\n"), uint8(7))
	f.Add([]byte("data: a\ndata: b\n\n: ok\n\n"), uint8(3))
	f.Add([]byte("data: {\"id\":5,\"jsonrpc\":\"2.0\",\"error\":{\"code\":1,\"message\":\"x\"}}\r\n\n\n"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, cut uint8) {
		whole := filtered([][]byte{data})
		var chunks [][]byte
		n := int(cut%16) + 1
		for rest := data; len(rest) > 0; {
			k := min(n, len(rest))
			chunks = append(chunks, rest[:k])
			rest = rest[k:]
		}
		if got := filtered(chunks); got != whole {
			t.Fatalf("cut into %d-byte writes the filter wrote %q, in one write %q", n, got, whole)
		}
		if len(whole) > len(data) {
			t.Fatalf("the filter wrote more than it was given: %q from %q", whole, data)
		}
		// What is dropped is whole events answering request 5.
		for ev := range strings.SplitSeq(string(data), "\n\n") {
			if ev != "" && !strings.Contains(whole, ev) && !bytes.Contains(eventData([]byte(ev+"\n\n")), []byte(`"id"`)) {
				t.Fatalf("event %q without an id was dropped", ev)
			}
		}
	})
}

var _ http.ResponseWriter = (*filterWriter)(nil)

// TestFrontTracksBeforeAnswer: a session opened by a request is tracked
// once its answer's header is written, before the handler returns: the
// client may send the session's next requests (a DELETE) as soon as it
// reads the answer.
func TestFrontTracksBeforeAnswer(t *testing.T) {
	f := newFront(0, func(string) {}, func(string) {}, func(string) string { return "2025-11-25" })
	written := make(chan struct{})
	release := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(sessionIDHeader, "s1")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":0,"result":{}}`))
		close(written)
		<-release
	})
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.serve(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`)), h, -1)
	}()
	<-written
	version, ok := f.known("s1")
	close(release)
	<-done
	if !ok || version != "2025-11-25" {
		t.Errorf("while the answer was out, known(s1) = %q, %v; want the session tracked at 2025-11-25", version, ok)
	}
}

// TestFixErrorCode: an error response without a code, in an SSE event or
// a JSON body, gets -32603 (-32600 for a request before initialize);
// anything else is left as it is.
func TestFixErrorCode(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"event, code 0", "event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":0,\"message\":\"boom\"}}\n\n",
			"event: message\nid: s_1\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"boom\"}}\n\n"},
		{"event, before initialize", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":0,\"message\":\"method \\\"x\\\" is invalid during session initialization\"}}\n\n",
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32600,\"message\":\"method \\\"x\\\" is invalid during session initialization\"}}\n\n"},
		{"event with a code", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"x\"}}\n\n",
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"x\"}}\n\n"},
		{"a result mentioning code 0", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"text\":\"\\\"code\\\":0\"}}\n\n",
			"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"text\":\"\\\"code\\\":0\"}}\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, string(fixEvent([]byte(tt.in)))); diff != "" {
				t.Errorf("fixEvent (-want +got):\n%s", diff)
			}
			body := eventData([]byte(tt.in))
			if diff := cmp.Diff(string(eventData([]byte(tt.want))), string(fixErrorCode(body))); diff != "" {
				t.Errorf("fixErrorCode (-want +got):\n%s", diff)
			}
		})
	}
}
