package mcpbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lastEventIDHeader is the header with which a client resumes an SSE
// stream.
const lastEventIDHeader = "Last-Event-ID"

// maxCancelledPerSession bounds the request ids a session's client may
// have cancelled that are remembered (the oldest are forgotten first).
const maxCancelledPerSession = 256

// front is what the HTTP handlers of Server and SessionServer put before
// the SDK's streamable handler, for the session lifecycle MCP asks of a
// server and the SDK leaves to its callers:
//
//   - the idle timeout: a session that has no request in flight (no POST,
//     no resumed stream) for timeout is closed, its calls in flight
//     cancelled first (the SDK's own timeout waits for them, and pauses
//     only while a POST is open, not while a client waits on a resumed
//     stream);
//   - a DELETE of a session cancels its calls in flight before the SDK
//     closes it (the SDK waits for them);
//   - notifications/cancelled: the answer to a request the client
//     cancelled is not sent, as MCP asks, neither on the stream it was
//     made on nor when the client resumes that stream (the SDK answers
//     every request it handled).
//
// Only the sessions the SDK opened through this front are tracked (their
// ids are read from the initialize answer), so that requests naming other
// ids cost no memory.
type front struct {
	timeout time.Duration
	// initTimeout closes a session whose client sent nothing after its
	// initialize request for this long (zero: the idle timeout applies).
	initTimeout time.Duration
	// cancelCalls cancels the calls in flight of the session with this id;
	// closeSession does too, then closes the session.
	cancelCalls, closeSession func(id string)
	// version returns the protocol version the session with this id
	// negotiated.
	version func(id string) string

	mu       sync.Mutex
	sessions map[string]*frontSession
}

// frontSession is what the front knows of one session.
type frontSession struct {
	version string      // the protocol version negotiated
	fresh   bool        // no request since initialize: initTimeout applies
	busy    int         // requests in flight that keep the session from idling
	timer   *time.Timer // the idle timer, stopped while busy
	// cancelled holds the ids of requests the client cancelled, in the
	// order cancelled.
	cancelled []jsonrpc.ID
}

func newFront(timeout time.Duration, cancelCalls, closeSession func(string), version func(string) string) *front {
	return &front{timeout: timeout, cancelCalls: cancelCalls, closeSession: closeSession, version: version, sessions: make(map[string]*frontSession)}
}

// serve serves r through h with the session lifecycle above. limit bounds
// the body read to look for cancellations (negative: no bound).
func (f *front) serve(w http.ResponseWriter, r *http.Request, h http.Handler, limit int64) {
	id := r.Header.Get(sessionIDHeader)
	if id == "" {
		// A session opened by this request: its id is in the answer's
		// header. It is tracked before the answer leaves, since the client
		// may send the session's next requests before this handler returns.
		ow := &openWriter{ResponseWriter: w, front: f}
		h.ServeHTTP(ow, r)
		ow.note()
		return
	}
	if r.Method == http.MethodDelete {
		// The SDK's DELETE waits for the session's calls in flight: cancel
		// them first, so that the session ends at once.
		f.forget(id)
		f.cancelCalls(id)
		h.ServeHTTP(w, r)
		return
	}
	version, ok := f.known(id)
	if !ok {
		h.ServeHTTP(w, r)
		return
	}
	// A request's protocol version header that is older than the version
	// its session negotiated does not downgrade the session: the SDK reads
	// the header for what a stream carries (a priming event to resume
	// from, from 2025-11-25), and the client negotiated the newer one. The
	// conformance suite sends 2025-03-26 on a 2025-11-25 session.
	//
	// Only a version the SDK supports is served so: any other header
	// ("0", "1999-01-01") is answered 400, as MCP says.
	if v := r.Header.Get(protocolVersionHeader); v != "" && v < version && version < resumableUntil {
		if !slices.Contains(mcp.SupportedProtocolVersions(), v) {
			http.Error(w, fmt.Sprintf("Bad Request: unsupported protocol version %q in the %s header; this session negotiated %s (supported versions: %s)",
				v, protocolVersionHeader, version, strings.Join(mcp.SupportedProtocolVersions(), ", ")), http.StatusBadRequest)
			return
		}
		r.Header.Set(protocolVersionHeader, version)
	}
	if r.Method == http.MethodPost {
		if buf, ok := peekBody(r, limit); ok {
			f.noteCancelled(id, buf)
		}
	}
	// A POST holds the session busy while it is answered, and so does a
	// GET resuming a stream (Last-Event-ID): its client waits for a call's
	// answer. A GET opening the session's standalone stream does not: a
	// client keeps that open whether or not it is still working.
	holds := r.Method == http.MethodPost || (r.Method == http.MethodGet && r.Header.Get(lastEventIDHeader) != "")
	f.touch(id, holds)
	if holds {
		defer f.release(id)
	}
	fw := &filterWriter{ResponseWriter: w, front: f, session: id}
	h.ServeHTTP(fw, r)
	fw.finish()
	if fw.status == http.StatusNotFound {
		f.forget(id) // the SDK no longer knows the session
	}
}

// open starts tracking a session the SDK opened, idle from now.
func (f *front) open(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.sessions[id]; ok {
		return
	}
	s := &frontSession{version: f.version(id)}
	switch {
	case f.initTimeout > 0:
		s.fresh = true
		s.timer = time.AfterFunc(f.initTimeout, func() { f.expire(id) })
	case f.timeout > 0:
		s.timer = time.AfterFunc(f.timeout, func() { f.expire(id) })
	}
	f.sessions[id] = s
}

// tracks reports whether the session is tracked: this replica opened it.
func (f *front) tracks(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.sessions[id]
	return ok
}

// known reports whether the session is tracked, and the protocol version
// it negotiated.
func (f *front) known(id string) (version string, ok bool) {
	f.mu.Lock()
	s, ok := f.sessions[id]
	if ok {
		version = s.version
	}
	f.mu.Unlock()
	if !ok || version != "" {
		return version, ok
	}
	// Not known yet when the session was opened.
	version = f.version(id)
	f.mu.Lock()
	if s, ok := f.sessions[id]; ok && s.version == "" {
		s.version = version
	}
	f.mu.Unlock()
	return version, true
}

// touch records a request of the session; one that holds the session busy
// stops its idle timer until release. Any request restarts the timer.
func (f *front) touch(id string, holds bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return
	}
	if holds {
		s.busy++
	}
	if s.fresh {
		// The client came back after initialize: the idle timeout applies
		// from now.
		s.fresh = false
		if f.timeout <= 0 && s.timer != nil {
			s.timer.Stop()
			s.timer = nil
		}
	}
	if s.timer == nil {
		return
	}
	s.timer.Stop()
	if s.busy == 0 {
		s.timer.Reset(f.timeout)
	}
}

// release ends a request that held the session busy.
func (f *front) release(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return
	}
	s.busy--
	if s.busy == 0 && s.timer != nil {
		s.timer.Reset(f.timeout)
	}
}

// expire closes a session whose idle timer fired, unless a request came
// in meanwhile.
func (f *front) expire(id string) {
	f.mu.Lock()
	s, ok := f.sessions[id]
	if !ok || s.busy > 0 {
		f.mu.Unlock()
		return
	}
	delete(f.sessions, id)
	f.mu.Unlock()
	f.closeSession(id)
}

// forget stops tracking a session.
func (f *front) forget(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.sessions[id]; ok {
		if s.timer != nil {
			s.timer.Stop()
		}
		delete(f.sessions, id)
	}
}

// stop stops every idle timer, once the server is closed.
func (f *front) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, s := range f.sessions {
		if s.timer != nil {
			s.timer.Stop()
		}
		delete(f.sessions, id)
	}
}

// noteCancelled records the requests a POST body of the session cancels.
// It runs before the SDK reads the body, so the id is known before the
// call's context is cancelled and its answer written.
func (f *front) noteCancelled(id string, body []byte) {
	if !bytes.Contains(body, []byte(methodCancelled)) {
		return
	}
	ids := cancelledIDs(body)
	if len(ids) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return
	}
	s.cancelled = append(s.cancelled, ids...)
	if n := len(s.cancelled) - maxCancelledPerSession; n > 0 {
		s.cancelled = append(s.cancelled[:0], s.cancelled[n:]...)
	}
}

// hasCancelled reports whether the session's client cancelled any request.
func (f *front) hasCancelled(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	return ok && len(s.cancelled) > 0
}

// isCancelled reports whether the session's client cancelled request rid.
func (f *front) isCancelled(id string, rid jsonrpc.ID) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[id]
	if !ok {
		return false
	}
	for _, c := range s.cancelled {
		if c == rid {
			return true
		}
	}
	return false
}

// methodCancelled is the notification with which a client cancels a
// request.
const methodCancelled = "notifications/cancelled"

// cancelledIDs returns the request ids that the notifications/cancelled
// of body (one JSON-RPC message or a batch) name.
func cancelledIDs(body []byte) []jsonrpc.ID {
	body = bytes.TrimLeft(body, " \t\r\n")
	var raws []json.RawMessage
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &raws) != nil {
			return nil
		}
	} else {
		raws = []json.RawMessage{body}
	}
	var ids []jsonrpc.ID
	for _, raw := range raws {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(raw, &m) != nil || m.Method != methodCancelled {
			continue
		}
		if id, ok := cancelledID(m.Params); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// peekBody reads the body of r, at most limit bytes (negative: no
// bound), and leaves it to be read again. ok is false when the body is
// absent, could not be read or is larger than limit (the SDK refuses it).
func peekBody(r *http.Request, limit int64) (buf []byte, ok bool) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, false
	}
	var lr io.Reader = r.Body
	if limit >= 0 {
		lr = io.LimitReader(r.Body, limit+1)
	}
	buf, err := io.ReadAll(lr)
	r.Body = readCloser{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
	if err != nil || (limit >= 0 && int64(len(buf)) > limit) {
		return nil, false
	}
	return buf, true
}

// openWriter is the ResponseWriter of a request without a session id: the
// first time the answer's header is written, a session id the SDK put in
// it is tracked.
type openWriter struct {
	http.ResponseWriter
	front *front
	noted bool
}

func (w *openWriter) note() {
	if w.noted {
		return
	}
	w.noted = true
	if id := w.Header().Get(sessionIDHeader); id != "" {
		w.front.open(id)
	}
}

func (w *openWriter) WriteHeader(code int) {
	w.note()
	w.ResponseWriter.WriteHeader(code)
}

func (w *openWriter) Write(p []byte) (int, error) {
	w.note()
	return w.ResponseWriter.Write(p)
}

// Flush implements http.Flusher.
func (w *openWriter) Flush() {
	w.note()
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *openWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// filterWriter is the ResponseWriter of one request of a tracked session:
// it drops the answers to requests the session's client cancelled, from
// an SSE stream (the event) and from a JSON answer (the body). The SDK
// writes each SSE event with one Write; a Write holding part of an event
// is kept until the event is whole.
type filterWriter struct {
	http.ResponseWriter
	front   *front
	session string
	status  int
	pending []byte // the start of an SSE event not yet whole
}

func (w *filterWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *filterWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if len(w.pending) == 0 && !w.front.hasCancelled(w.session) && !bytes.Contains(p, codeZero) {
		return w.ResponseWriter.Write(p)
	}
	ct := w.Header().Get("Content-Type")
	if !strings.HasPrefix(ct, "text/event-stream") {
		if strings.HasPrefix(ct, "application/json") {
			if w.dropMessage(p) {
				return len(p), nil
			}
			if fixed := fixErrorCode(p); len(fixed) != len(p) || !bytes.Equal(fixed, p) {
				if _, err := w.ResponseWriter.Write(fixed); err != nil {
					return 0, err
				}
				return len(p), nil
			}
		}
		return w.ResponseWriter.Write(p)
	}
	w.pending = append(w.pending, p...)
	for {
		i := bytes.Index(w.pending, []byte("\n\n"))
		if i < 0 {
			break
		}
		event := w.pending[:i+2]
		if !w.dropMessage(eventData(event)) {
			if _, err := w.ResponseWriter.Write(fixEvent(event)); err != nil {
				w.pending = nil
				return 0, err
			}
		}
		w.pending = w.pending[i+2:]
	}
	if len(w.pending) == 0 {
		w.pending = nil
	}
	return len(p), nil
}

// finish writes what is left of an event the handler did not end.
func (w *filterWriter) finish() {
	if len(w.pending) > 0 {
		_, _ = w.ResponseWriter.Write(w.pending)
		w.pending = nil
	}
}

// Flush implements http.Flusher.
func (w *filterWriter) Flush() {
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *filterWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// dropMessage reports whether data is the answer to a request the
// session's client cancelled.
func (w *filterWriter) dropMessage(data []byte) bool {
	if len(data) == 0 || !bytes.Contains(data, []byte(`"id"`)) {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return false
	}
	resp, ok := msg.(*jsonrpc.Response)
	return ok && w.front.isCancelled(w.session, resp.ID)
}

// fixEvent returns event, one SSE event, with a code for an error response
// it carries without one (fixErrorCode).
func fixEvent(event []byte) []byte {
	if !bytes.Contains(event, codeZero) {
		return event
	}
	data := eventData(event)
	fixed := fixErrorCode(data)
	if bytes.Equal(fixed, data) {
		return event
	}
	var out []byte
	wrote := false
	for line := range bytes.SplitSeq(bytes.TrimSuffix(event, []byte("\n\n")), []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSuffix(line, []byte("\r")), []byte("data:")) {
			if !wrote {
				out = append(append(append(out, "data: "...), fixed...), '\n')
				wrote = true
			}
			continue
		}
		out = append(append(out, line...), '\n')
	}
	return append(out, '\n')
}

// eventData returns the data of one SSE event, its data lines joined.
func eventData(event []byte) []byte {
	var data []byte
	n := 0
	for line := range bytes.SplitSeq(event, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		rest, ok := bytes.CutPrefix(line, []byte("data:"))
		if !ok {
			continue
		}
		rest = bytes.TrimPrefix(rest, []byte(" "))
		if n > 0 {
			data = append(data, '\n')
		}
		data = append(data, rest...)
		n++
	}
	return data
}

// sdkOptions returns the SDK's options for a handler behind a front: the
// idle timeout is the front's, not the SDK's, and an event store keeps
// what a stream carried so that a client can resume it (Last-Event-ID)
// after the stream broke or the server closed it (CloseStream).
func sdkOptions(o mcp.StreamableHTTPOptions) (mcp.StreamableHTTPOptions, time.Duration) {
	timeout := o.SessionTimeout
	o.SessionTimeout = 0
	if o.EventStore == nil && !o.Stateless {
		o.EventStore = mcp.NewMemoryEventStore(nil)
	}
	return o, timeout
}
