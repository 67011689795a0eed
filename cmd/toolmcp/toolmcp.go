package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/mcpbridge"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/store"
	"github.com/toolgen/toolgen/runtime/store/redisstore"
	"github.com/toolgen/toolgen/runtime/tool"
)

// serverName is the name toolmcp gives itself in the MCP handshake.
const serverName = "toolmcp"

// sessionIdleTimeout is how long an HTTP session may send no request before
// it is closed and its run (files read, todo list, background commands,
// tool activations) released, unless -idle-timeout says otherwise.
const sessionIdleTimeout = 10 * time.Minute

// options is what the command line asks for.
type options struct {
	root     string
	allow    []string // nil: no allow-list, every builtin tool
	mode     schema.Mode
	deferred []string
	httpAddr string // empty: stdio
	sandbox  sandboxMode
	passEnv  []string // the variables Bash's commands inherit besides the minimal set
	sockets  []string // the host unix sockets sandboxed commands may connect to
	origins  []string // the browser origins HTTP serves; nil: loopback origins
	storeURL string   // where the sessions' state is kept: "" in memory, redis://…
	replica  string   // this replica's name among those sharing the store
	// maxSessions caps the HTTP sessions served at once.
	maxSessions int

	// idleTimeout is -idle-timeout; zero means sessionIdleTimeout.
	idleTimeout time.Duration
	// initTimeout replaces mcpbridge.DefaultInitTimeout when set (tests).
	initTimeout time.Duration
}

// sandboxMode is the value of -sandbox: whether Bash runs its commands in
// the bubblewrap sandbox.
type sandboxMode string

const (
	sandboxAuto sandboxMode = "auto" // the sandbox when this machine can run it, else the local shell
	sandboxOn   sandboxMode = "on"   // the sandbox, or toolmcp does not start
	sandboxOff  sandboxMode = "off"  // the local shell
)

func (m *sandboxMode) String() string { return string(*m) }

func (m *sandboxMode) Set(s string) error {
	switch v := sandboxMode(strings.ToLower(s)); v {
	case sandboxAuto, sandboxOn, sandboxOff:
		*m = v
		return nil
	}
	return errors.New("want auto, on or off")
}

// errUsage reports a command line the flag set refused; the flag set has
// already said why.
var errUsage = errors.New("usage")

// usageError is a flag value toolmcp cannot use (exit status 2).
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// repeated is a flag that may be given several times; each value is kept.
type repeated []string

func (r *repeated) String() string { return strings.Join(*r, " ") }

func (r *repeated) Set(s string) error {
	*r = append(*r, s)
	return nil
}

const synopsis = "usage: toolmcp -root DIR [-allow ENTRY]... [-schema-mode off|warn|enforce] [-defer NAME]... [-sandbox auto|on|off] [-allow-socket PATH]... [-pass-env NAME]... [-http ADDR [-origin ORIGIN]... [-store URL] [-replica NAME] [-max-sessions N] [-idle-timeout D]]\n"

// parseFlags reads the command line. It returns flag.ErrHelp for -h,
// errUsage when the flag set refused the line (and printed why) and a
// *usageError for a missing -root or stray arguments.
func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet(serverName, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, synopsis)
		fmt.Fprint(stderr, "\ntoolmcp serves the builtin tools over MCP (stdio, or streamable HTTP with -http),\nconfined to DIR. See https://pkg.go.dev/github.com/toolgen/toolgen/cmd/toolmcp.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	o := options{mode: schema.Warn, sandbox: sandboxAuto}
	var allow, deferred, passEnv, origins, sockets repeated
	fs.StringVar(&o.root, "root", "", "the `dir`ectory the file tools are confined to and every call's working directory; must be set")
	fs.Var(&allow, "allow", "an allow-list `entry`, Name or Name(pattern); repeatable; none allows every builtin tool")
	fs.Var(&o.mode, "schema-mode", "the schema gate's `mode`: off, warn (the default) or enforce")
	fs.Var(&deferred, "defer", "a builtin tool `name` to offer only once ToolSearch finds it; repeatable")
	fs.Var(&o.sandbox, "sandbox", "where Bash's commands run, by `mode`: auto (the bubblewrap sandbox when this machine can run it, else the local shell), on (the sandbox, or do not start) or off (the local shell)")
	fs.Var(&passEnv, "pass-env", "an environment variable `name` Bash's commands inherit besides the minimal set (PATH, HOME, LANG, ...); NAME* passes a prefix; repeatable")
	fs.Var(&sockets, "allow-socket", "a host unix socket `path` sandboxed commands may connect to though the network is off (a database the tests need); repeatable")
	fs.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP on `addr` (host:port) instead of stdio")
	fs.Var(&origins, "origin", "a browser `origin` (scheme://host[:port]) the HTTP endpoint serves, or * for every one; repeatable; none serves loopback origins only (requests from other origins are answered 403; clients that send no Origin are always served)")
	fs.StringVar(&o.storeURL, "store", "", "keep the sessions' state (todos, files read, activated tools, background commands' replicas) at `url`: redis://host:port/db, rediss://… or unix:///path/to/socket, shared by every replica serving one endpoint; in memory by default")
	fs.StringVar(&o.replica, "replica", "", "this replica's `name` among those sharing -store (letters, digits, - . _); it starts the IDs of the background commands it runs; default: host name and process id")
	fs.IntVar(&o.maxSessions, "max-sessions", mcpbridge.DefaultMaxSessions, "the most HTTP sessions served at once (`n`); an initialize beyond it is answered 503")
	fs.DurationVar(&o.idleTimeout, "idle-timeout", sessionIdleTimeout, "release an HTTP session that sent no request for this `duration`")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return options{}, err
		}
		return options{}, errUsage
	}
	if fs.NArg() > 0 {
		return options{}, usagef("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if o.root == "" {
		return options{}, usagef("-root is required")
	}
	if len(origins) > 0 && o.httpAddr == "" {
		return options{}, usagef("-origin applies to -http only: stdio has no origins")
	}
	if _, err := mcpbridge.NewOriginPolicy(origins...); err != nil {
		return options{}, usagef("-origin: %v", err)
	}
	if o.storeURL != "" && o.httpAddr == "" {
		return options{}, usagef("-store applies to -http only: a stdio server has one session, in its own process")
	}
	if o.replica != "" && strings.Trim(o.replica, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._") != "" {
		return options{}, usagef("-replica %q: use letters, digits, '-', '.' and '_' only", o.replica)
	}
	if o.maxSessions <= 0 {
		return options{}, usagef("-max-sessions %d: want at least 1", o.maxSessions)
	}
	if o.idleTimeout <= 0 {
		return options{}, usagef("-idle-timeout %s: want a positive duration, such as 10m", o.idleTimeout)
	}
	if len(sockets) > 0 && o.sandbox == sandboxOff {
		return options{}, usagef("-allow-socket applies to the sandbox: with -sandbox off every socket is reachable")
	}
	o.allow, o.deferred, o.passEnv, o.origins, o.sockets = allow, deferred, passEnv, origins, sockets
	return o, nil
}

// run is the whole command: it parses args, builds the server, serves until
// the client leaves or ctx is done, and returns the exit status.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "toolmcp: %v\n", err)
		fmt.Fprint(stderr, synopsis)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	quiet := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := newServer(o, logger, quiet)
	if err != nil {
		fmt.Fprintf(stderr, "toolmcp: %v\n", err)
		var ue *usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	defer srv.Close()
	if err := srv.serve(ctx, o.httpAddr); err != nil {
		logger.Error("serving failed", "err", err)
		return 1
	}
	if ctx.Err() != nil {
		logger.Info("stopped by a signal")
	} else {
		logger.Info("the client closed the connection")
	}
	return 0
}

// server is toolmcp's MCP server. Every MCP session is served from a run
// of its own (see newRun); the background commands of a session's Bash tool
// live as long as the session.
type server struct {
	mcp    *mcpbridge.SessionServer
	logger *slog.Logger

	// what every run is built from
	root     string
	shell    shell.Shell
	passEnv  []string
	deferred []string
	runOpts  []catalog.RunOption
	execOpts []tool.Option
	st       store.Store
	shared   bool   // st is shared with other replicas (Redis)
	replica  string // this replica's name when shared

	// closing is set when shutdown begins: the end of the sessions is
	// ours, and the MCP server's logs are muted (the SDK reports a session
	// we close as an error).
	closing atomic.Bool
}

// muteHandler passes records on to h until muted is set.
type muteHandler struct {
	h     slog.Handler
	muted *atomic.Bool
}

func (m *muteHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return !m.muted.Load() && m.h.Enabled(ctx, l)
}

func (m *muteHandler) Handle(ctx context.Context, r slog.Record) error {
	if m.muted.Load() {
		return nil
	}
	return m.h.Handle(ctx, r)
}

func (m *muteHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &muteHandler{h: m.h.WithAttrs(attrs), muted: m.muted}
}

func (m *muteHandler) WithGroup(name string) slog.Handler {
	return &muteHandler{h: m.h.WithGroup(name), muted: m.muted}
}

// newServer builds the server o describes: each session gets the builtin
// tools in a catalog of its own (deferred ones included), a background
// manager on the shell -sandbox chose, an executor with o's allow-list and schema
// mode, and one tool context for all its calls, whose working directory is
// the root and whose catalog view ToolSearch activates tools in. One run is
// built at once, to check o and log what is offered. Errors in o are
// *usageError.
//
// logger receives toolmcp's and the executor's records; the MCP server's
// (ours and the SDK's, which logs every connection at INFO) go to quiet.
func newServer(o options, logger, quiet *slog.Logger) (*server, error) {
	root, err := rootDir(o.root)
	if err != nil {
		return nil, err
	}
	var list permission.List
	if o.allow != nil {
		if list, err = permission.Parse(o.allow...); err != nil {
			return nil, usagef("-allow: %v", err)
		}
		for _, f := range permission.Lint(list) {
			logger.Warn("allow-list: " + f.String())
		}
	}

	origins, err := mcpbridge.NewOriginPolicy(o.origins...)
	if err != nil {
		return nil, usagef("-origin: %v", err)
	}
	sh, err := newShell(o.sandbox, shell.SandboxOptions{Root: root, AllowUnixSockets: o.sockets}, logger)
	if err != nil {
		return nil, err
	}
	st, shared, err := openStore(o)
	if err != nil {
		return nil, err
	}
	replica := ""
	if shared {
		replica = cmp.Or(o.replica, defaultReplica())
	}
	s := &server{
		st:       st,
		shared:   shared,
		replica:  replica,
		logger:   logger,
		root:     root,
		shell:    sh,
		passEnv:  o.passEnv,
		deferred: o.deferred,
		execOpts: []tool.Option{tool.WithSchemaMode(o.mode), tool.WithLogger(slog.New(mcpbridge.ClientLogs(logger.Handler())))},
	}
	if o.allow != nil {
		// A search never activates, and so never reveals, a tool the
		// allow-list leaves out.
		s.runOpts = append(s.runOpts, catalog.Restrict(list.Offers))
		s.execOpts = append(s.execOpts, tool.WithAllowList(list))
	}

	first, err := s.newRun(context.Background())
	if err != nil {
		return nil, &usageError{err}
	}
	var offered []string
	for _, d := range first.Executor.Definitions() {
		offered = append(offered, d.Name)
	}
	first.Release()
	if len(o.deferred) > 0 && o.allow != nil && !list.Offers(builtin.ToolSearchName) {
		logger.Warn("the deferred tools can never be offered: the allow-list leaves out ToolSearch", "deferred", o.deferred)
	}
	logger.Info("builtin tools ready", "root", root, "offered", offered, "deferred", o.deferred,
		"schema_mode", o.mode, "allow", list, "store", st, "replica", replica)

	so := &mcpbridge.ServerOptions{
		Name:           serverName,
		Version:        version(),
		Logger:         slog.New(&muteHandler{h: quiet.Handler(), muted: &s.closing}),
		SessionTimeout: cmp.Or(o.idleTimeout, sessionIdleTimeout),
		Origins:        origins,
		MaxSessions:    cmp.Or(o.maxSessions, mcpbridge.DefaultMaxSessions),
		InitTimeout:    o.initTimeout,
		Replica:        replica,
	}
	if shared {
		so.Store = st
	}
	s.mcp = mcpbridge.NewSessionServer(s.newRun, so)
	return s, nil
}

// newRun builds the run of one MCP session: the builtin tools, with a todo
// list and a background manager of their own, in a catalog of their own;
// the executor over a fresh view of it; and the tool context, with a fresh
// read-files set. Its Release stops the session's background commands.
func (s *server) newRun(ctx context.Context) (mcpbridge.Session, error) {
	bg := builtin.NewBackgroundManager(s.shell, builtin.BackgroundLimits{})
	if s.shared {
		bg.SetIDPrefix(s.replica + ":")
	}
	// The state is kept under the session's key; a run with none (stdio, a
	// stateless request naming no conversation) gets one of its own.
	key := mcpbridge.StateKey(ctx)
	if key == "" {
		key = "run-" + rand.Text()
	}
	// One catalog whether or not anything is deferred: with nothing
	// deferred its view offers exactly what a registry would, and
	// ToolSearch always finds the view it needs in the context.
	cat := catalog.New()
	err := builtin.RegisterCatalog(cat, builtin.Options{
		Root: s.root, Shell: s.shell, PassEnv: s.passEnv, Background: bg, Deferred: s.deferred,
	})
	if err != nil {
		_ = bg.Close()
		return mcpbridge.Session{}, err
	}
	view := cat.NewRun(s.runOpts...)
	todos := builtin.NewTodoStore()
	tc := tool.NewContext(tool.WorkDirKey.Bind(s.root),
		catalog.ViewKey.Bind(view), builtin.TodosKey.Bind(todos))
	exec := tool.NewExecutor(view, s.execOpts...)
	rs := &runState{st: s.st, key: key, replica: s.replica, logger: s.logger,
		exec: exec, todos: todos, read: tc.ReadFiles(), view: view, bg: bg}
	return mcpbridge.Session{
		Executor: exec,
		Context:  tc,
		Load:     rs.load,
		Call:     rs.call,
		Release: func() {
			if !s.shared {
				// In memory, the state lives as long as the session; a
				// shared store keeps it for the other replicas, until
				// its time-to-live.
				_ = s.st.Delete(context.Background(), key)
			}
			n := bg.Running()
			if err := bg.Close(); err != nil {
				s.logger.Warn("stopping a session's background commands", "err", err)
			}
			if n > 0 && !s.closing.Load() {
				s.logger.Info("session ended; its background commands were stopped", "stopped", n)
			}
		},
	}, nil
}

// newShell returns the shell Bash runs its commands with, as -sandbox
// asks: the bubblewrap sandbox confined to root, or the local shell. Under
// auto a machine that cannot run the sandbox gets the local shell and one
// warning saying so; under on it is an error.
func newShell(mode sandboxMode, so shell.SandboxOptions, logger *slog.Logger) (shell.Shell, error) {
	if mode == sandboxOff {
		logger.Info("bash runs commands on the local shell, not sandboxed (-sandbox off)")
		return shell.NewLocal(), nil
	}
	sb, err := shell.NewSandbox(so)
	switch {
	case err == nil:
		logger.Info("bash runs commands in the sandbox", "containment", sb.Containment())
		return sb, nil
	case !errors.Is(err, shell.ErrSandboxUnavailable):
		return nil, fmt.Errorf("-sandbox %s: %w", mode, err)
	case mode == sandboxOn:
		return nil, fmt.Errorf("-sandbox on: %w (-sandbox off runs commands on the local shell)", err)
	}
	logger.Warn("the sandbox is unavailable, so bash runs commands on the local shell, not sandboxed; -sandbox on refuses to start without it, -sandbox off chooses the local shell", "reason", err)
	return shell.NewLocal(), nil
}

// rootDir checks the -root directory and makes it absolute.
func rootDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", usagef("-root: %v", err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", usagef("-root: %v", err)
	}
	if !fi.IsDir() {
		return "", usagef("-root %s: not a directory", abs)
	}
	return abs, nil
}

// serve serves over stdio, or over streamable HTTP on addr when it is set,
// until the client leaves or ctx is done. Both are clean ends: it returns
// nil.
func (s *server) serve(ctx context.Context, addr string) error {
	if addr == "" {
		return s.serveEndpoint(ctx, mcpbridge.Endpoint{})
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("-http: %w", err)
	}
	return s.serveEndpoint(ctx, mcpbridge.Endpoint{Listener: ln})
}

// serveTransport serves one session, so one run, over t.
func (s *server) serveTransport(ctx context.Context, t mcp.Transport) error {
	return s.serveEndpoint(ctx, mcpbridge.Endpoint{Transport: t})
}

// serveListener serves streamable HTTP on ln, which it closes.
func (s *server) serveListener(ctx context.Context, ln net.Listener) error {
	return s.serveEndpoint(ctx, mcpbridge.Endpoint{Listener: ln})
}

// serveEndpoint serves at e as mcpbridge.Serve does; where it serves is
// logged to the operator here, since the MCP server's own logger passes
// warnings only.
func (s *server) serveEndpoint(ctx context.Context, e mcpbridge.Endpoint) error {
	if e.Listener != nil {
		addr := e.Listener.Addr().String()
		s.logger.Info("serving MCP", "transport", "streamable-http", "addr", addr, "url", "http://"+addr+"/")
	} else {
		s.logger.Info("serving MCP", "transport", "stdio")
	}
	// Once ctx is done the end of the sessions is ours: the SDK, which
	// reports a session we close as an error, is muted before the server
	// sees ctx end.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		s.closing.Store(true)
		cancel()
	})
	defer stop()
	return s.mcp.ServeEndpoint(sctx, e)
}

// Close stops the server: calls in flight are cancelled, sessions closed,
// and every session's background commands killed and waited for. It may be
// called more than once.
func (s *server) Close() error {
	s.closing.Store(true)
	err := s.mcp.Close()
	if c, ok := s.st.(io.Closer); ok {
		_ = c.Close()
	}
	return err
}

// version is the module version toolmcp was built from, "devel" for a
// build from a working tree.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// openStore opens the store -store names: in memory by default (shared by
// nothing), Redis for a redis://, rediss:// or unix:// URL (shared by the
// replicas that name it). Its time-to-live is the idle timeout: state no
// call touched for that long is gone, as its session is.
func openStore(o options) (store.Store, bool, error) {
	ttl := cmp.Or(o.idleTimeout, sessionIdleTimeout)
	switch u := o.storeURL; {
	case u == "" || u == "memory":
		return store.NewMemory(ttl), false, nil
	case strings.HasPrefix(u, "redis://"), strings.HasPrefix(u, "rediss://"), strings.HasPrefix(u, "unix://"):
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, err := redisstore.Open(ctx, u, ttl)
		if err != nil {
			return nil, false, fmt.Errorf("-store: %w", err)
		}
		return st, true, nil
	}
	return nil, false, usagef("-store %q: want redis://host:port/db, rediss://host:port/db or unix:///path/to/socket (or nothing, for memory)", o.storeURL)
}

// defaultReplica names this process among replicas: its host name and
// process id, in the characters -replica allows.
func defaultReplica() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "replica"
	}
	host = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' || r == '_' {
			return r
		}
		return '-'
	}, host)
	return host + "-" + strconv.Itoa(os.Getpid())
}
