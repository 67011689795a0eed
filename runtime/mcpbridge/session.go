package mcpbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Session is the run one MCP session is served from: the executor that
// offers the session's tools and runs its calls, the tool context its calls
// start from, and what to do once it has ended.
type Session struct {
	// Executor offers the session's tools (tools/list) and runs its calls
	// (tools/call). It must not be nil. Give each session an executor over
	// a source of its own (a catalog view, a registry) for its tool set to
	// be its own: a ToolSearch activation then reaches only the session
	// that searched.
	Executor *tool.Executor
	// Context is the tool context every call of the session starts from:
	// the working directory, the session's catalog view, and the read-files
	// set (tool.NewContext makes a fresh one each time), so
	// that a file read in one session does not count in another.
	Context tool.Context
	// Release, when set, is called once, after the session has ended and
	// its last call has returned: close what the session owns (its
	// background commands, say). It runs on a goroutine of the
	// SessionServer; Close waits for it.
	Release func()
	// Load, when set, is called before every tools/list: a run that keeps
	// its state in a store outside the process (replicas sharing it)
	// brings its catalog view up to date, so that the tools another
	// replica activated are listed.
	Load func(ctx context.Context)
	// Call, when set, runs every tools/call of the session in place of
	// Executor.Execute (which it calls itself): a run that keeps its state
	// in a store loads it before the call and saves what changed after.
	Call func(ctx context.Context, call tool.Call, tc tool.Context) tool.Result
}

// stateKey is the context key under which a SessionFunc finds the key of
// the session's state.
type stateKey struct{}

// StateKey returns, in a SessionFunc's ctx, the key the session's state is
// kept under: the MCP session id on the stateful path (revisions up to
// 2025-11-25; over stdio, none), the conversation a stateless request names
// in _meta[MetaConversation] (2026-07-28). It is "" when there is neither:
// the run then has state of its own that no later request finds.
func StateKey(ctx context.Context) string {
	k, _ := ctx.Value(stateKey{}).(string)
	return k
}

// MetaConversation is the _meta key in which a request of the stateless
// revision (2026-07-28, which has no sessions) names the conversation
// whose state it continues: a string the client chose, such as a UUID,
// kept for every request of the conversation. SEP-2567 leaves state to
// handles the server mints; toolgen's builtin tools keep theirs (todos,
// files read, activated tools) per conversation, so a client that wants
// them continued names the conversation.
const MetaConversation = "io.toolgen/conversation"

// DefaultMaxSessions is the number of sessions (and stateless
// conversations) a SessionServer serves at once unless
// ServerOptions.MaxSessions says otherwise.
const DefaultMaxSessions = 1000

// DefaultInitTimeout is how long a session opened by initialize may wait
// for its client's next request before it is released, unless
// ServerOptions.InitTimeout says otherwise.
const DefaultInitTimeout = 10 * time.Second

// SessionFunc makes the run of a new session. ctx is the context of the
// request that opens the session (for HTTP, the initialize request's; it
// ends with that request, so do not keep it) or the ctx given to Run. An
// error refuses the session: over HTTP the client is answered 400 and the
// error is logged.
type SessionFunc func(ctx context.Context) (Session, error)

// ErrClosed is returned by SessionServer.Run once Shutdown or Close has been
// called.
var ErrClosed = errors.New("mcpbridge: the server is closed")

// sessionIDHeader is the HTTP header in which streamable HTTP carries the
// session id.
const sessionIDHeader = "Mcp-Session-Id"

// SessionServer serves MCP with a run of its own for every session: each
// session is served by a Server over the Session its SessionFunc made, so
// that what one client does (the files it read, a todo list, background
// commands, the tools ToolSearch activated for it) is not seen by another,
// and notifications/tools/list_changed reaches only the session whose tool
// set changed. A session's run is released when the session ends: the
// client deletes it, its connection closes, an idle timeout
// (StreamableHTTPOptions.SessionTimeout, ServerOptions.SessionTimeout)
// closes it, or the SessionServer is closed.
//
// Over stdio (Run, ServeStdio) there is one session, so one run.
//
// A SessionServer is safe for concurrent use.
type SessionServer struct {
	newSession SessionFunc
	opts       ServerOptions

	// done is cancelled by Close: it ends the sessions still open.
	done   context.Context
	cancel context.CancelFunc

	// resumable is set once an HTTP handler with an event store serves
	// the sessions (see Server.resumable).
	resumable atomic.Bool

	mu     sync.Mutex
	closed bool
	live   map[*liveSession]struct{}

	// convs are the runs kept for stateless conversations and for
	// sessions other replicas opened, by state key.
	convMu sync.Mutex
	convs  map[string]*conversation
	// wg counts the sessions started and not yet released.
	wg sync.WaitGroup
}

// liveSession is one session's server and its release.
type liveSession struct {
	srv   *Server
	ended sync.Once

	mu      sync.Mutex
	done    bool   // ended: a run made now is released at once
	release func() // the run's Release, once it is made
}

// NewSessionServer returns a server that calls newSession once for every
// session it serves. opts configures each session's Server as it would
// configure NewServer's, except that opts.Context is not used: each
// session's calls start from its Session's Context. opts may be nil.
// NewSessionServer panics if newSession is nil, a programmer's mistake.
func NewSessionServer(newSession SessionFunc, opts *ServerOptions) *SessionServer {
	if newSession == nil {
		panic("mcpbridge.NewSessionServer: nil session func")
	}
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	o.Context = tool.Context{}
	done, cancel := context.WithCancel(context.Background())
	return &SessionServer{
		newSession: newSession,
		opts:       o,
		done:       done,
		cancel:     cancel,
		live:       make(map[*liveSession]struct{}),
		convs:      make(map[string]*conversation),
	}
}

// Sessions returns the number of sessions being served: started, and not
// yet released.
func (p *SessionServer) Sessions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live)
}

// Run serves one session, with a run of its own, over t until the client
// disconnects, ctx is done or the server is closed, then releases the run.
// It returns the session's error: ctx.Err() when ctx ended it, nil when
// Close did, ErrClosed when the server was closed before.
func (p *SessionServer) Run(ctx context.Context, t mcp.Transport) error {
	ls, err := p.start("")
	if err != nil {
		return err
	}
	defer p.end(ls)
	// One session over t: its run is made now, so that a SessionFunc that
	// fails refuses the session before the client is served.
	if _, err := ls.srv.current(ctx, nil); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(p.done, cancel)
	defer stop()
	err = ls.srv.Run(runCtx, t)
	if err != nil && ctx.Err() == nil && p.done.Err() != nil {
		return nil // Close ended the session: a clean end
	}
	return err
}

// ServeStdio serves one session over standard input and output.
func (p *SessionServer) ServeStdio(ctx context.Context) error {
	return p.Run(ctx, &StdioTransport{})
}

// pendingKey is the request context key under which HTTPHandler hands the
// SDK's getServer a session yet to be started.
type pendingKey struct{}

// pending is the run of a session an HTTP request may open, started the
// first time the SDK asks for the request's server.
type pending struct {
	opens bool // the request opens a session: it gets a run
	once  sync.Once
	ls    *liveSession
	bare  *mcp.Server
}

// HTTPHandler returns a streamable HTTP handler that gives every new
// session a run of its own. opts may be nil; its SessionTimeout closes (and
// so releases) a session idle for that long, its calls in flight cancelled
// first. With opts.Stateless every request is a session of its own, and so
// gets a fresh run.
//
// A run is made only for a request that opens a session (a POST without a
// session id holding an initialize request): other requests without a
// session id, such as a client's server/discover probe, are answered by a
// server with no tools and no run.
//
// Requests from an origin ServerOptions.Origins does not accept are
// answered 403, bodies larger than opts.MaxRequestBodyBytes (else
// ServerOptions.MaxBodyBytes) 413, a DELETE of a session cancels its calls
// in flight before the session is closed, and the answer to a request the
// client cancelled (notifications/cancelled) is not sent. Unless opts sets
// an EventStore, the streams are kept in memory for their clients to
// resume (Last-Event-ID), so a tool may close its stream with CloseStream.
func (p *SessionServer) HTTPHandler(opts *mcp.StreamableHTTPOptions) http.Handler {
	limits := limitsOf(p.opts)
	o, timeout := sdkOptions(limits.apply(opts))
	if o.EventStore != nil && !o.JSONResponse {
		p.resumable.Store(true)
	}
	limit := o.MaxRequestBodyBytes
	h := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		// Only a request without a session id carries a pending run; the
		// SDK routes the others to their session itself.
		pe, ok := r.Context().Value(pendingKey{}).(*pending)
		if !ok {
			return nil
		}
		return pe.server(p, r.Context())
	}, &o)
	f := newFront(timeout, p.cancelCalls, p.closeSession, func(id string) string {
		if ls := p.byID(id); ls != nil {
			return ls.srv.negotiated(id)
		}
		return ""
	})
	switch {
	case p.opts.InitTimeout == 0:
		f.initTimeout = DefaultInitTimeout
	case p.opts.InitTimeout > 0:
		f.initTimeout = p.opts.InitTimeout
	}
	context.AfterFunc(p.done, f.stop)
	// The 2026-07-28 revision, served statelessly: each request is a
	// session of the SDK's own, served by the run of the conversation it
	// names (MetaConversation), or by a fresh one.
	stateless := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if ls, ok := r.Context().Value(convKey{}).(*liveSession); ok {
			return ls.srv.sdk
		}
		return nil
	}, statelessOptions(o))
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(sessionIDHeader)
		if id == "" && !o.Stateless && routesStateless(r, limit) {
			p.serveStateless(w, r, stateless, limit)
			return
		}
		if id != "" && p.opts.Store != nil && !f.tracks(id) && p.serveAdopted(w, r, id) {
			return
		}
		if r.Method == http.MethodDelete && id != "" && p.opts.Store != nil {
			// The client ended the session: no replica serves it again.
			h.ServeHTTP(w, r)
			if err := p.opts.Store.Delete(context.WithoutCancel(r.Context()), id); err != nil {
				p.log().Error("mcp session not removed from the store", "err", err)
			}
			return
		}
		if r.Method != http.MethodPost || id != "" {
			h.ServeHTTP(w, r)
			return
		}
		if p.isClosed() {
			http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
			return
		}
		pe := &pending{opens: o.Stateless}
		if !pe.opens {
			pe.opens = peekOpensSession(r, limit)
		}
		if pe.opens && p.full() {
			tooMany(w, p.maxSessions())
			return
		}
		// The session is recorded before the first byte of the answer
		// leaves: a client that sends its next request to another replica
		// as soon as it has the answer finds the session there.
		recorded := false
		record := func() {
			if ls := pe.started(); ls != nil && !recorded {
				recorded = p.record(r.Context(), ls)
			}
		}
		h.ServeHTTP(&beforeAnswer{ResponseWriter: w, before: record}, r.WithContext(context.WithValue(r.Context(), pendingKey{}, pe)))
		record()
		if ls := pe.started(); ls != nil {
			p.watch(ls)
		}
	})
	return guardHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.serve(w, r, inner, limit)
	}), limits.origins)
}

// beforeAnswer is a ResponseWriter that calls before whenever the handler
// writes the status or the body or flushes: before the client may act on
// the answer (the SDK may send the status before it has read the request,
// so before is called again until it has done its work).
type beforeAnswer struct {
	http.ResponseWriter
	before func()
}

func (b *beforeAnswer) call() { b.before() }

func (b *beforeAnswer) WriteHeader(code int) {
	b.call()
	b.ResponseWriter.WriteHeader(code)
}

func (b *beforeAnswer) Write(p []byte) (int, error) {
	b.call()
	return b.ResponseWriter.Write(p)
}

// Flush passes a flush on, so that streamed answers keep streaming.
func (b *beforeAnswer) Flush() {
	b.call()
	if f, ok := b.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (b *beforeAnswer) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// tooMany answers a request that would open a session beyond the cap.
func tooMany(w http.ResponseWriter, max int) {
	w.Header().Set("Retry-After", "10")
	http.Error(w, fmt.Sprintf("Service Unavailable: this server serves at most %d sessions at once and has no room for another; retry later, or end a session you no longer use (DELETE it)", max), http.StatusServiceUnavailable)
}

// full reports whether the server serves as many sessions as it may.
func (p *SessionServer) full() bool {
	max := p.maxSessions()
	if max <= 0 {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.live) >= max
}

// byID returns the session with this id, if one is live.
func (p *SessionServer) byID(id string) *liveSession {
	if id == "" {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for ls := range p.live {
		for ss := range ls.srv.sdk.Sessions() {
			if ss.ID() == id {
				return ls
			}
		}
	}
	return nil
}

// cancelCalls stops the server of the session with this id, if one is
// live: its calls in flight are cancelled, new ones refused.
func (p *SessionServer) cancelCalls(id string) {
	if ls := p.byID(id); ls != nil {
		ls.srv.beginClose()
		ls.srv.cancel()
	}
}

// closeSession cancels the calls in flight of the session with this id and
// closes it; its run is then released.
func (p *SessionServer) closeSession(id string) {
	if ls := p.byID(id); ls != nil {
		ls.srv.beginClose()
		ls.srv.cancel()
		ls.srv.closeSessions()
	}
}

// server returns the SDK server of the request: the run's, made the first
// time it is asked for, when the request opens a session; a server with no
// tools otherwise, or when the run could not be made (the SDK then has no
// session to route the client's next requests to).
func (pe *pending) server(p *SessionServer, ctx context.Context) *mcp.Server {
	pe.once.Do(func() {
		if pe.opens {
			ls, err := p.start("")
			switch {
			case err == nil:
				pe.ls = ls
				return
			case !errors.Is(err, ErrClosed) && !errors.Is(err, errTooManySessions):
				p.log().Error("mcp session refused", "err", err)
			}
			return
		}
		pe.bare = p.bareServer()
	})
	if pe.ls != nil {
		return pe.ls.srv.sdk
	}
	return pe.bare
}

// started returns the run the request started, if any.
func (pe *pending) started() *liveSession {
	pe.once.Do(func() {}) // the SDK may not have asked for a server
	return pe.ls
}

// bareServer returns an SDK server with no tools, for requests that open no
// session.
func (p *SessionServer) bareServer() *mcp.Server {
	name, version := p.opts.Name, p.opts.Version
	if name == "" {
		name = "toolgen"
	}
	if version == "" {
		version = "devel"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, &mcp.ServerOptions{
		Instructions: p.opts.Instructions,
		Logger:       p.opts.Logger,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	addDeclared(srv, p.opts.Resources, p.opts.Prompts)
	return srv
}

// peekOpensSession reports whether the body of r, a POST, holds an
// initialize request, and leaves the body to be read again. A body larger
// than limit (negative: no limit) is not looked at; the SDK refuses it.
func peekOpensSession(r *http.Request, limit int64) bool {
	buf, ok := peekBody(r, limit)
	return ok && hasInitialize(buf)
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }

// hasInitialize reports whether body, a JSON-RPC message or batch, holds an
// initialize request. It errs towards yes: a name matched without regard to
// case opens a session (a run is made, and released if the SDK opens none).
func hasInitialize(body []byte) bool {
	type message struct {
		Method string `json:"method"`
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	if len(body) > 0 && body[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) != nil {
			return false
		}
		for _, raw := range batch {
			var m message
			if json.Unmarshal(raw, &m) == nil && m.Method == methodInitialize {
				return true
			}
		}
		return false
	}
	var m message
	return json.Unmarshal(body, &m) == nil && m.Method == methodInitialize
}

// methodInitialize is the JSON-RPC method that opens an MCP session.
const methodInitialize = "initialize"

// ListenAndServe serves streamable HTTP on addr (host:port) until ctx is
// done, then shuts down as Server.ListenAndServe does and releases every
// session's run. It returns nil after a shutdown caused by ctx.
func (p *SessionServer) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := listen(ctx, addr)
	if err != nil {
		return err
	}
	return p.Serve(ctx, ln)
}

// Serve is ListenAndServe on a listener the caller opened; it closes ln.
func (p *SessionServer) Serve(ctx context.Context, ln net.Listener) error {
	h := p.HTTPHandler(&mcp.StreamableHTTPOptions{SessionTimeout: p.opts.SessionTimeout})
	return serveHTTP(ctx, ln, h, func(sctx context.Context) {
		_ = p.Shutdown(sctx)
		_ = p.Close() // ends the sessions' open event streams
	}, func() { _ = p.Close() })
}

// Shutdown stops the server gracefully: no new session is started, new
// tools/call requests are answered with an error result saying the server
// is shutting down, and calls in flight may finish until ctx is done (then
// they are cancelled). It returns ctx.Err() when it had to cancel calls.
// The sessions stay open, so that the answers of the last calls reach their
// clients; Close ends them.
func (p *SessionServer) Shutdown(ctx context.Context) error {
	all := p.beginClose()
	idle := make([]<-chan struct{}, len(all))
	for i, ls := range all {
		idle[i] = ls.srv.beginClose()
	}
	var err error
	for _, c := range idle {
		if err != nil {
			break
		}
		select {
		case <-c:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	for _, ls := range all {
		ls.srv.cancel()
	}
	return err
}

// Close stops the server at once: no new session is started, calls in
// flight are cancelled, every session is closed, and Close returns once
// each session's run has been released. It may be called more than once.
func (p *SessionServer) Close() error {
	all := p.beginClose()
	p.cancel()
	for _, ls := range all {
		_ = ls.srv.Close()
	}
	p.wg.Wait()
	return nil
}

func (p *SessionServer) beginClose() []*liveSession {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	all := make([]*liveSession, 0, len(p.live))
	for ls := range p.live {
		all = append(all, ls)
	}
	return all
}

func (p *SessionServer) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// errTooManySessions refuses a session beyond ServerOptions.MaxSessions.
var errTooManySessions = errors.New("mcpbridge: too many sessions")

// maxSessions is the cap on sessions served at once; 0 is none.
func (p *SessionServer) maxSessions() int {
	switch n := p.opts.MaxSessions; {
	case n == 0:
		return DefaultMaxSessions
	case n < 0:
		return 0
	default:
		return n
	}
}

// start begins a new session: its Server, whose run is made the first
// time a request needs it (tools/list, tools/call), with the state key
// key ("" takes the MCP session's id then). It refuses when the server is
// closed (ErrClosed) or serves MaxSessions already (errTooManySessions).
func (p *SessionServer) start(key string) (*liveSession, error) {
	o := p.opts
	ls := &liveSession{srv: newServer(&o)}
	ls.srv.key = key
	ls.srv.makeRun = func(ctx context.Context, key string) (*runState, error) { return p.makeRun(ctx, key, ls) }
	ls.srv.resumable.Store(p.resumable.Load())

	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if max := p.maxSessions(); max > 0 && len(p.live) >= max {
		p.mu.Unlock()
		return nil, errTooManySessions
	}
	p.wg.Add(1)
	p.live[ls] = struct{}{}
	n := len(p.live)
	p.mu.Unlock()
	p.log().Debug("mcp session started", "sessions", n)
	return ls, nil
}

// makeRun calls the SessionFunc for ls, with key in its ctx (StateKey),
// and keeps the run's Release for the session's end; a session that has
// ended meanwhile has its run released at once.
func (p *SessionServer) makeRun(ctx context.Context, key string, ls *liveSession) (*runState, error) {
	s, err := p.makeSession(context.WithValue(ctx, stateKey{}, key))
	if err == nil && s.Executor == nil {
		err = errors.New("mcpbridge: the session func returned no executor")
	}
	if err != nil {
		if s.Release != nil {
			s.Release()
		}
		return nil, err
	}
	ls.mu.Lock()
	if ls.done {
		ls.mu.Unlock()
		if s.Release != nil {
			s.Release()
		}
		return nil, ErrClosed
	}
	ls.release = s.Release
	ls.mu.Unlock()
	return &runState{exec: s.Executor, tc: s.Context, load: s.Load, call: s.Call}, nil
}

// makeSession calls the SessionFunc; a panic in it is an error, so that a
// bad factory refuses sessions instead of stopping the server.
func (p *SessionServer) makeSession(ctx context.Context) (s Session, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = Session{}, fmt.Errorf("mcpbridge: the session func panicked: %v", r)
		}
	}()
	return p.newSession(ctx)
}

// watch waits, on a goroutine, for the SDK sessions of ls to end (they
// have, or were never opened, when there are none), then releases ls.
// Close ends them.
func (p *SessionServer) watch(ls *liveSession) {
	sessions := slices.Collect(ls.srv.sdk.Sessions())
	if len(sessions) == 0 {
		p.end(ls)
		return
	}
	go func() {
		stop := context.AfterFunc(p.done, func() {
			for _, ss := range sessions {
				_ = ss.Close()
			}
		})
		for _, ss := range sessions {
			_ = ss.Wait()
		}
		stop()
		p.end(ls)
	}()
}

// end stops the server of ls, waits for its calls to return and releases
// its run, once.
func (p *SessionServer) end(ls *liveSession) {
	ls.ended.Do(func() {
		_ = ls.srv.Close()
		<-ls.srv.idle
		// No longer counted once its release begins, so that whoever sees
		// the release sees Sessions without it; Close still waits for the
		// release through wg.
		p.mu.Lock()
		delete(p.live, ls)
		n := len(p.live)
		p.mu.Unlock()
		p.releaseRun(ls)
		p.log().Debug("mcp session ended", "sessions", n)
		p.wg.Done()
	})
}

// releaseRun calls the Release of ls; a panic in it is logged, so that one
// bad release neither stops the server nor keeps Close waiting.
func (p *SessionServer) releaseRun(ls *liveSession) {
	ls.mu.Lock()
	ls.done = true
	release := ls.release
	ls.mu.Unlock()
	if release == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			p.log().Error("mcp session release panicked", "panic", r)
		}
	}()
	release()
}

func (p *SessionServer) log() *slog.Logger {
	if p.opts.Logger != nil {
		return p.opts.Logger
	}
	return slog.Default()
}
