package mcpbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/store"
	"github.com/toolgen/toolgen/runtime/tool"
)

// MetaSessionID is the metadata key under which a call served over MCP
// carries the id of its MCP session, when the transport has one (streamable
// HTTP does, stdio does not).
const MetaSessionID = "mcp_session_id"

// ServerOptions configures a Server. The zero value is usable.
type ServerOptions struct {
	// Name and Version identify the server to clients; the defaults are
	// "toolgen" and the serving program's version from its build info (its
	// module version, else "devel-" and the version-control revision, else
	// "devel").
	Name, Version string
	// Instructions are optional instructions for connected clients.
	Instructions string
	// Context is the tool context every call starts from: the working
	// directory, a catalog view, anything a tool reads from its Context.
	Context tool.Context
	// Logger receives the server's own log records (tool set changes,
	// refused schemas) and is given to the SDK server. The default is
	// slog.Default() at call time for ours, and no logging for the SDK's.
	Logger *slog.Logger
	// SessionTimeout closes an HTTP session served by Serve or
	// ListenAndServe that has had no request in flight (no POST, no
	// resumed stream) for this long, its calls in flight cancelled first.
	// Zero keeps idle sessions open until the client ends them.
	// HTTPHandler takes it from its own options
	// (StreamableHTTPOptions.SessionTimeout, which the handler applies
	// itself in the same way rather than hand it to the SDK).
	SessionTimeout time.Duration
	// Origins decides which browser origins the HTTP handlers serve (a
	// request with another Origin header is answered 403, as MCP asks);
	// nil serves loopback origins only. Requests without an Origin header
	// are always served.
	Origins *OriginPolicy
	// MaxBodyBytes bounds the body of one HTTP request (beyond it the
	// answer is 413); zero means DefaultMaxMessageBytes, negative no bound.
	// HTTPHandler's options, when they set one, take precedence.
	MaxBodyBytes int64
	// Completion, Subscribe and Unsubscribe, when set, answer
	// completion/complete, resources/subscribe and resources/unsubscribe
	// for the prompts and resources added to MCPServer (they are the SDK
	// server's CompletionHandler, SubscribeHandler and UnsubscribeHandler,
	// and declare the capabilities).
	Completion func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error)
	// MaxSessions bounds the sessions (and stateless conversations) a
	// SessionServer serves at once; an initialize beyond it is answered
	// 503 with a sentence saying so. Zero means DefaultMaxSessions,
	// negative no bound. A Server does not use it.
	MaxSessions int
	// InitTimeout releases an HTTP session whose client sent nothing after
	// its initialize request for this long; zero means
	// DefaultInitTimeout, negative never.
	InitTimeout time.Duration
	// Store, when set, shares a SessionServer's sessions between replicas
	// serving one endpoint: each session opened here is recorded in it
	// under its id, and a request naming a session another replica
	// opened is served here, by a run of this replica's (whose state the
	// run keeps in the same store: see Session.Load and Session.Call).
	Store store.Store
	// Replica names this process among the replicas sharing Store, in
	// logs and in what a run may tell a client (a background command runs
	// on the replica that started it).
	Replica     string
	Subscribe   func(context.Context, *mcp.SubscribeRequest) error
	Unsubscribe func(context.Context, *mcp.UnsubscribeRequest) error
	// Resources and Prompts are served beside the tools, declared in Go
	// (see Resource and Prompt); the server declares the resources and
	// prompts capabilities only when it has some. Check them first with
	// ValidateDeclarations: one that cannot be served is skipped.
	Resources []Resource
	Prompts   []Prompt
}

// Server serves the tools of a tool.Executor over MCP. tools/list answers the
// definitions the executor offers (Executor.Definitions, re-read before every
// list and after every call); tools/call goes through Executor.Execute, the one
// gate every call passes, and answers its result as MCP content (its parts;
// see the package doc) with isError set for error results. When the offered
// set changes (a ToolSearch call activated tools, a registry grew), the SDK
// sends notifications/tools/list_changed to every connected session.
//
// A Server is safe for concurrent use and may serve many sessions at once.
type Server struct {
	sdk            *mcp.Server
	tc0            tool.Context // ServerOptions.Context
	logger         *slog.Logger
	sessionTimeout time.Duration
	http           httpLimits

	// run is the executor and context the calls run with; a
	// SessionServer's sessions make theirs on first use (makeRun), so that
	// a session that only initializes costs no run.
	run     atomic.Pointer[runState]
	runMu   sync.Mutex
	makeRun func(ctx context.Context, key string) (*runState, error)
	runErr  error
	// key is the state key of a server made for one stateless
	// conversation; "" takes the MCP session's id.
	key string

	syncMu  sync.Mutex
	offered map[string]offeredTool

	life    sync.Mutex
	running int
	closed  bool
	idle    chan struct{} // closed when closed and running reaches 0
	stop    context.Context
	cancel  context.CancelFunc

	// sessions holds a context per SDK session, cancelled when the session
	// is closed through closeSession (an idle timeout, a DELETE) so that
	// its calls in flight end before the SDK waits for them.
	sessMu   sync.Mutex
	sessions map[*mcp.ServerSession]*sessionCalls
	// resumable is set once an HTTP handler with an event store serves
	// the server: a call's stream may then be closed (CloseStream) and
	// resumed by its client.
	resumable atomic.Bool
}

// sessionCalls ends the calls of one session.
type sessionCalls struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// offeredTool is what the SDK server was last given for one tool.
type offeredTool struct {
	description string
	schemaID    uintptr
	schemaJSON  string
	// meta is metaKey of the definition: title, hints, output schema.
	meta metaSig
	// rejected marks a definition the SDK cannot take (a schema that is not
	// an object); it is remembered so that it is reported once, not on
	// every sync.
	rejected bool
}

// NewServer returns a server over exec. It panics if exec is nil, a
// programmer's mistake. The executor's current definitions are offered at
// once.
func NewServer(exec *tool.Executor, opts *ServerOptions) *Server {
	if exec == nil {
		panic("mcpbridge.NewServer: nil executor")
	}
	s := newServer(opts)
	s.run.Store(&runState{exec: exec, tc: s.tc0})
	s.Sync()
	return s
}

// newServer returns a server with no run yet: the caller stores one, or
// sets makeRun.
func newServer(opts *ServerOptions) *Server {
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "toolgen"
	}
	if o.Version == "" {
		o.Version = buildVersion()
	}
	stop, cancel := context.WithCancel(context.Background())
	s := &Server{
		tc0:            o.Context,
		logger:         o.Logger,
		sessionTimeout: o.SessionTimeout,
		http:           limitsOf(o),
		offered:        make(map[string]offeredTool),
		idle:           make(chan struct{}),
		stop:           stop,
		cancel:         cancel,
		sessions:       make(map[*mcp.ServerSession]*sessionCalls),
	}
	s.sdk = mcp.NewServer(&mcp.Implementation{Name: o.Name, Version: o.Version}, &mcp.ServerOptions{
		Instructions:       o.Instructions,
		Logger:             o.Logger,
		CompletionHandler:  o.Completion,
		SubscribeHandler:   o.Subscribe,
		UnsubscribeHandler: o.Unsubscribe,
		// Advertise tools with list_changed even before the first tool is
		// offered: a catalog may start with only deferred tools.
		// Logging: a tool's records reach the client (see callBindings).
		Capabilities: &mcp.ServerCapabilities{
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
			Logging: &mcp.LoggingCapabilities{},
		},
	})
	addDeclared(s.sdk, o.Resources, o.Prompts)
	s.sdk.AddReceivingMiddleware(s.middleware)
	return s
}

// runState is what a server's calls run with.
type runState struct {
	exec *tool.Executor
	tc   tool.Context
	// load and call are the Session's Load and Call, when set.
	load func(context.Context)
	call func(context.Context, tool.Call, tool.Context) tool.Result
}

// current returns the server's run, made now (with the state key of the
// request) when the server makes its run on first use.
func (s *Server) current(ctx context.Context, req mcp.Request) (*runState, error) {
	if r := s.run.Load(); r != nil {
		return r, nil
	}
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.run.Load(); r != nil {
		return r, nil
	}
	if s.runErr != nil {
		return nil, s.runErr
	}
	if s.makeRun == nil {
		return nil, errors.New("mcpbridge: the server has no run")
	}
	key := s.key
	if key == "" && req != nil {
		if ss := req.GetSession(); ss != nil {
			key = ss.ID()
		}
	}
	r, err := s.makeRun(ctx, key)
	if err != nil {
		s.runErr = err
		return nil, err
	}
	s.run.Store(r)
	return r, nil
}

// MCPServer returns the SDK server, to add prompts or resources, to serve it
// over another transport, or to wrap it in the SDK's own HTTP handlers. A
// tool added to it with the SDK's AddTool is called by the SDK (for what a
// tool.Result cannot say yet, such as SEP-2322's input_required results);
// give it a name the executor does not offer, and do not remove the
// executor's tools: the Server keeps those in step with the executor and
// would undo such changes.
func (s *Server) MCPServer() *mcp.Server { return s.sdk }

// Run serves one session over t (a *mcp.StdioTransport, one end of
// mcp.NewInMemoryTransports, ...) until the client disconnects or ctx is
// done, and returns the session's error (ctx.Err() when ctx ended it).
// When ctx is done, the session's calls in flight are cancelled.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	// The SDK closes the session when ctx is done, but its Close waits for
	// the requests in flight, whose contexts do not end with ctx: a tool
	// that runs until cancelled would keep Run from returning. The request
	// contexts carry ctx's values, so requestContext finds ctx under runKey
	// and cancels the request with it.
	return s.sdk.Run(context.WithValue(ctx, runKey{}, ctx), t)
}

// runKey is the context key under which Run hands its ctx to the calls of
// its session.
type runKey struct{}

// ServeStdio serves one session over standard input and output, the way an
// MCP host starts a local server. It returns when the host closes the pipe
// or ctx is done.
func (s *Server) ServeStdio(ctx context.Context) error {
	return s.Run(ctx, &StdioTransport{})
}

// HTTPHandler returns a streamable HTTP handler serving this server to every
// session. opts may be nil. One handler serves every protocol revision the
// SDK speaks: a request of 2026-07-28 or later (its MCP-Protocol-Version
// header, its _meta's protocol version, server/discover) is served
// statelessly, as that revision asks, and the others on the stateful path
// of sessions (initialize, Mcp-Session-Id). All sessions share the executor and the tool
// context, and so share a catalog view's activations and the files read;
// for a run per session, serve a [SessionServer] instead.
//
// Requests from an origin ServerOptions.Origins does not accept are
// answered 403, bodies larger than opts.MaxRequestBodyBytes (else
// ServerOptions.MaxBodyBytes) 413. A session idle for opts.SessionTimeout
// is closed, and so is one its client deletes, with its calls in flight
// cancelled first; the answer to a request the client cancelled
// (notifications/cancelled) is not sent. Unless opts sets an EventStore,
// the streams are kept in memory for their clients to resume
// (Last-Event-ID), so a tool may close its stream with CloseStream.
func (s *Server) HTTPHandler(opts *mcp.StreamableHTTPOptions) http.Handler {
	o, timeout := sdkOptions(s.http.apply(opts))
	if o.EventStore != nil && !o.JSONResponse {
		s.resumable.Store(true)
	}
	limit := o.MaxRequestBodyBytes
	getServer := func(*http.Request) *mcp.Server { return s.sdk }
	h := mcp.NewStreamableHTTPHandler(getServer, &o)
	stateless := h
	if !o.Stateless {
		stateless = mcp.NewStreamableHTTPHandler(getServer, statelessOptions(o))
	}
	f := newFront(timeout, s.cancelSession, s.closeSession, s.negotiated)
	context.AfterFunc(s.stop, f.stop)
	return guardHTTP(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(sessionIDHeader) == "" && routesStateless(r, limit) {
			stateless.ServeHTTP(w, r)
			return
		}
		f.serve(w, r, h, limit)
	}), s.http.origins)
}

// ListenAndServe serves streamable HTTP on addr (host:port) until ctx is
// done, then shuts down: calls in flight get a few seconds to finish, then
// are cancelled. It returns nil after a shutdown caused by ctx.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	ln, err := listen(ctx, addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve is ListenAndServe on a listener the caller opened; it closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	h := s.HTTPHandler(&mcp.StreamableHTTPOptions{SessionTimeout: s.sessionTimeout})
	return serveHTTP(ctx, ln, h, func(sctx context.Context) {
		_ = s.Shutdown(sctx)
		s.closeSessions() // ends the sessions' open event streams
	}, func() { _ = s.Close() })
}

// Shutdown stops the server gracefully: new tools/call requests are answered
// with an error result saying the server is shutting down, and calls in
// flight may finish until ctx is done (then they are cancelled). It returns
// ctx.Err() when it had to cancel calls. The sessions stay open, so that the
// answers of the last calls reach their clients; end them by cancelling the
// ctx given to Run, or with Close.
func (s *Server) Shutdown(ctx context.Context) error {
	idle := s.beginClose()
	var err error
	select {
	case <-idle:
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.cancel()
	return err
}

// Close stops the server at once: calls in flight are cancelled, new calls
// are refused, and the open sessions are closed.
func (s *Server) Close() error {
	s.beginClose()
	s.cancel()
	s.closeSessions()
	return nil
}

func (s *Server) beginClose() <-chan struct{} {
	s.life.Lock()
	defer s.life.Unlock()
	if !s.closed {
		s.closed = true
		if s.running == 0 {
			close(s.idle)
		}
	}
	return s.idle
}

// cancelSession cancels the calls in flight of the session with this id.
func (s *Server) cancelSession(id string) {
	if ss := s.session(id); ss != nil {
		s.sessMu.Lock()
		if sc, ok := s.sessions[ss]; ok {
			sc.cancel()
		}
		s.sessMu.Unlock()
	}
}

// closeSession cancels the calls in flight of the session with this id,
// then closes it.
func (s *Server) closeSession(id string) {
	if ss := s.session(id); ss != nil {
		s.cancelSession(id)
		_ = ss.Close()
	}
}

// negotiated returns the protocol version of the session with this id, or
// "" when it is not live or not initialized.
func (s *Server) negotiated(id string) string {
	if ss := s.session(id); ss != nil {
		if ip := ss.InitializeParams(); ip != nil {
			return ip.ProtocolVersion
		}
	}
	return ""
}

// session returns the live SDK session with this id, or nil.
func (s *Server) session(id string) *mcp.ServerSession {
	for ss := range s.sdk.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	return nil
}

// sessionContext returns the context whose end ends the calls of ss,
// made the first time ss makes a request; it is dropped when ss ends.
func (s *Server) sessionContext(ss *mcp.ServerSession) context.Context {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	if sc, ok := s.sessions[ss]; ok {
		return sc.ctx
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.sessions[ss] = &sessionCalls{ctx: ctx, cancel: cancel}
	go func() {
		_ = ss.Wait()
		s.sessMu.Lock()
		delete(s.sessions, ss)
		s.sessMu.Unlock()
		cancel()
	}()
	return ctx
}

func (s *Server) closeSessions() {
	for ss := range s.sdk.Sessions() {
		_ = ss.Close()
	}
}

// begin registers a call in flight; false means the server is closed.
func (s *Server) begin() bool {
	s.life.Lock()
	defer s.life.Unlock()
	if s.closed {
		return false
	}
	s.running++
	return true
}

func (s *Server) end() {
	s.life.Lock()
	defer s.life.Unlock()
	s.running--
	if s.closed && s.running == 0 {
		close(s.idle)
	}
}

func (s *Server) log() *slog.Logger {
	if s.logger != nil {
		return s.logger
	}
	return slog.Default()
}

// middleware routes tools/call through the executor, for every name (so an
// unknown or denied tool is answered by our gate, as a result the model can
// read, rather than by the SDK's protocol error), and brings the SDK's tool
// set up to date before tools/list.
func (s *Server) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	inner := s.route(next)
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := inner(ctx, method, req)
		return res, withCode(err)
	}
}

// withCode returns err as a JSON-RPC error with a code: the SDK sends an
// error without one (a Go error from a handler, "duplicate initialize")
// with code 0, which JSON-RPC does not define; it becomes -32603
// (internal error) with the same message.
func withCode(err error) error {
	if err == nil {
		return nil
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code != 0 {
		return err
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
}

// route is the middleware's routing, before withCode.
func (s *Server) route(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctx, end := s.requestContext(ctx, req)
		defer end()
		switch method {
		case "prompts/list", "prompts/get", "resources/list", "resources/read", "resources/templates/list":
			if err := declared(ctx, next, req, method); err != nil {
				return nil, err
			}
		case "tools/call":
			if r, ok := req.(*mcp.CallToolRequest); ok {
				if !s.offers(ctx, r) {
					// A tool added to MCPServer directly (the SDK's own
					// handler) is the SDK's to call.
					if res, err := next(ctx, method, req); !sdkUnknownTool(err) {
						return res, err
					}
					// Not offered: the gate judges the name (a deferred
					// tool not activated yet runs; an unknown or denied
					// one is refused, with the JSON-RPC error MCP names).
					res := s.callTool(ctx, r)
					if err := unknownToolError(res); err != nil {
						return nil, err
					}
					return res, nil
				}
				// Through the SDK, which marks the result for the
				// revision the client speaks (resultType from 2026-07-28),
				// to our handler.
			}
		case "tools/list":
			run, err := s.current(ctx, req)
			if err != nil {
				s.log().ErrorContext(ctx, "mcp session has no run", "err", err)
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
					Message: fmt.Sprintf("the server could not set up this session's tools (%v); start a new session", err)}
			}
			if run.load != nil {
				run.load(ctx)
			}
			s.Sync()
		}
		return next(ctx, method, req)
	}
}

// requestContext returns the context a request runs with: the SDK's, also
// cancelled when the server stops (Shutdown, Close), when the Run that
// serves the session ends and when the session is closed through an HTTP
// handler (idle timeout, DELETE). The SDK's Close waits for the requests in
// flight, and some of them wait for their context alone: a tool call, or
// the SDK's own subscriptions/listen stream, which a client keeps open.
func (s *Server) requestContext(ctx context.Context, req mcp.Request) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(s.stop, cancel)
	stopRun := func() bool { return false }
	if run, ok := ctx.Value(runKey{}).(context.Context); ok {
		stopRun = context.AfterFunc(run, cancel)
	}
	stopSession := func() bool { return false }
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil && ss.ID() != "" {
		stopSession = context.AfterFunc(s.sessionContext(ss), cancel)
	}
	return ctx, func() {
		stop()
		stopRun()
		stopSession()
		cancel()
	}
}

// handler is the SDK tool handler given with every tool. The middleware
// answers tools/call before the SDK would reach it; it is here because the
// SDK requires one, and routes to the same gate.
func (s *Server) handler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return s.callTool(ctx, req), nil
}

func (s *Server) callTool(ctx context.Context, req *mcp.CallToolRequest) *mcp.CallToolResult {
	var name string
	var args []byte
	if req.Params != nil {
		name, args = req.Params.Name, req.Params.Arguments
	}
	if !s.begin() {
		return errorResult(fmt.Sprintf("Tool '%s' was not executed: the server is shutting down.", schema.Echo(name)))
	}
	defer s.end()
	run, err := s.current(ctx, req)
	if err != nil {
		s.log().ErrorContext(ctx, "mcp session has no run", "err", err)
		return errorResult(fmt.Sprintf("Tool '%s' was not executed: the server could not set up this session's tools (%v). Start a new session.", schema.Echo(name), err))
	}
	in, err := decodeArguments(args)
	if err != nil {
		s.log().WarnContext(ctx, "tool call refused", "tool", schema.Echo(name), "reason", err)
		return errorResult(fmt.Sprintf("Tool '%s' was not executed: %s.", schema.Echo(name), err))
	}
	call := tool.Call{Name: name, Input: in}
	if req.Params != nil {
		ctx = withTraceMeta(ctx, req.Params.Meta)
	}
	if req.Session != nil {
		if id := req.Session.ID(); id != "" {
			call.Metadata = map[string]string{MetaSessionID: id}
		}
	}
	if req.Session != nil {
		// What the executor logs about the call reaches its client too
		// (ClientLogs).
		ctx = context.WithValue(ctx, clientLogKey{}, slog.Handler(&logHandler{ss: req.Session, logger: name}))
	}
	tc := run.tc.With(append(callBindings(req, name), s.streamBinding(req)...)...)
	var res tool.Result
	if run.call != nil {
		res = run.call(ctx, call, tc)
	} else {
		res = run.exec.Execute(ctx, call, tc)
	}
	// A call may change what is offered (ToolSearch activates tools).
	s.Sync()
	return toCallToolResult(res)
}

// decodeArguments reads the raw arguments of tools/call. Absent arguments and
// null are an empty object, as MCP allows clients to omit them.
func decodeArguments(raw []byte) (tool.Input, error) {
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" {
		return tool.Input{}, nil
	}
	return tool.DecodeInput(raw)
}

func errorResult(msg string) *mcp.CallToolResult {
	return toCallToolResult(tool.Failure(msg))
}

// errNotObjectSchema is reported for a definition whose schema MCP cannot
// carry.
var errNotObjectSchema = errors.New("mcp needs an object input schema")
