package mcpbridge

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// shutdownGrace bounds how long ListenAndServe and Serve wait for calls in
// flight once ctx is done.
const shutdownGrace = 5 * time.Second

// listen opens the TCP listener ListenAndServe and ServeEndpoint serve on.
func listen(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mcpbridge: listen: %w", err)
	}
	return ln, nil
}

// serveHTTP serves h on ln until ctx is done or serving fails. When ctx is
// done it calls shutdown with a context bounded by shutdownGrace, then shuts
// the HTTP server down; when serving fails it calls closeNow.
//
// The HTTP shutdown closes the connections that have not sent a request
// yet. net/http waits up to five seconds for those, in case a request is on
// its way; an HTTP client often holds one it dialled and never used, and
// once the MCP server has shut down there is nothing left to answer on it
// but a refusal. Without this, such a client held every shutdown for the
// whole grace.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, shutdown func(context.Context), closeNow func()) error {
	var unused unusedConns
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
		ConnState:         unused.track,
	}
	hs.RegisterOnShutdown(unused.closeAll)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		closeNow()
		return fmt.Errorf("mcpbridge: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	shutdown(sctx)
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	<-errc
	return nil
}

// unusedConns tracks the connections in http.StateNew: accepted, no request
// read yet. From closeAll on, it closes them, and any accepted after.
type unusedConns struct {
	mu      sync.Mutex
	conns   map[net.Conn]struct{}
	closing bool
}

// track is the server's ConnState hook.
func (u *unusedConns) track(c net.Conn, st http.ConnState) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if st != http.StateNew {
		delete(u.conns, c)
		return
	}
	if u.closing {
		_ = c.Close()
		return
	}
	if u.conns == nil {
		u.conns = make(map[net.Conn]struct{})
	}
	u.conns[c] = struct{}{}
}

// closeAll closes the unused connections; it runs when the HTTP server
// begins its shutdown, after the MCP server's.
func (u *unusedConns) closeAll() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.closing = true
	for c := range u.conns {
		_ = c.Close()
	}
	clear(u.conns)
}
