package mcpbridge

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FieldSession is the store field under which a SessionServer with a
// store records an MCP session it opened: the client's initialize
// parameters, as JSON, so that another replica can serve the session.
const FieldSession = "mcp:session"

// convKey is the request context key under which the stateless handler's
// getServer finds the run of the request's conversation.
type convKey struct{}

// conversation is a run kept for a state key between requests that open
// no SDK session of their own: a stateless conversation (2026-07-28), or
// a session another replica opened. It is released once idle for the
// session timeout.
type conversation struct {
	ls    *liveSession
	busy  int
	timer *time.Timer
}

// conversation returns the run of the state key and a func to call once
// the request is done with it. Key "" gets a run of its own, released by
// done. The error is ErrClosed or errTooManySessions.
func (p *SessionServer) conversation(key string) (*liveSession, func(), error) {
	if key == "" {
		ls, err := p.start("")
		if err != nil {
			return nil, nil, err
		}
		return ls, func() { p.end(ls) }, nil
	}
	p.convMu.Lock()
	defer p.convMu.Unlock()
	c, ok := p.convs[key]
	if !ok {
		ls, err := p.start(key)
		if err != nil {
			return nil, nil, err
		}
		c = &conversation{ls: ls}
		p.convs[key] = c
		go func() {
			<-ls.srv.stop.Done() // the server was closed: the conversation ends
			p.dropConversation(key, c)
		}()
	}
	c.busy++
	if c.timer != nil {
		c.timer.Stop()
	}
	return c.ls, func() {
		p.convMu.Lock()
		defer p.convMu.Unlock()
		c.busy--
		if c.busy > 0 {
			return
		}
		timeout := p.opts.SessionTimeout
		if timeout <= 0 {
			timeout = time.Hour
		}
		if c.timer == nil {
			c.timer = time.AfterFunc(timeout, func() { p.expireConversation(key, c) })
		} else {
			c.timer.Reset(timeout)
		}
	}, nil
}

// expireConversation releases an idle conversation's run.
func (p *SessionServer) expireConversation(key string, c *conversation) {
	p.convMu.Lock()
	if p.convs[key] != c || c.busy > 0 {
		p.convMu.Unlock()
		return
	}
	delete(p.convs, key)
	p.convMu.Unlock()
	p.end(c.ls)
}

// dropConversation forgets a conversation whose server was closed, and
// releases its run.
func (p *SessionServer) dropConversation(key string, c *conversation) {
	p.convMu.Lock()
	if p.convs[key] == c {
		delete(p.convs, key)
	}
	if c.timer != nil {
		c.timer.Stop()
	}
	p.convMu.Unlock()
	p.end(c.ls)
}

// serveStateless serves a request of the stateless revision with the run
// of the conversation it names in _meta[MetaConversation].
func (p *SessionServer) serveStateless(w http.ResponseWriter, r *http.Request, h http.Handler, limit int64) {
	key := ""
	if r.Method == http.MethodPost {
		if buf, ok := peekBody(r, limit); ok {
			for _, m := range messagesOf(buf) {
				if k := metaString(m.Params.Meta, MetaConversation); k != "" {
					key = k
					break
				}
			}
		}
	}
	ls, done, err := p.conversation(key)
	if err != nil {
		if err == errTooManySessions {
			tooMany(w, p.maxSessions())
			return
		}
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer done()
	h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), convKey{}, ls)))
}

// record writes the initialize parameters of the sessions ls serves to the
// store, so that the other replicas serve them too. It reports whether it
// found a session to record (false before the SDK has read the initialize
// request).
func (p *SessionServer) record(ctx context.Context, ls *liveSession) bool {
	if p.opts.Store == nil {
		return true
	}
	found := false
	for ss := range ls.srv.sdk.Sessions() {
		ip := ss.InitializeParams()
		if ss.ID() == "" || ip == nil {
			continue
		}
		found = true
		raw, err := json.Marshal(ip)
		if err != nil {
			continue
		}
		if err := p.opts.Store.Update(ctx, ss.ID(), map[string]string{FieldSession: string(raw)}, nil); err != nil {
			p.log().Error("mcp session not shared with the other replicas", "err", err)
		}
	}
	return found
}

// serveAdopted serves a request naming a session this replica does not
// serve, when the store says another replica opened it: the request is
// served here, by a run of this replica's for the session, as the SDK
// serves a stateless request (a session of its own, closed after the
// request, its state from the initialize parameters recorded). It returns
// false when the store does not know the session (the SDK then answers
// 404, as for any unknown session).
func (p *SessionServer) serveAdopted(w http.ResponseWriter, r *http.Request, id string) bool {
	fields, err := p.opts.Store.Load(r.Context(), id)
	if err != nil {
		p.log().Error("mcp session lookup in the store failed", "err", err)
		return false
	}
	raw, ok := fields[FieldSession]
	if !ok {
		return false
	}
	var ip mcp.InitializeParams
	if json.Unmarshal([]byte(raw), &ip) != nil {
		return false
	}
	switch r.Method {
	case http.MethodDelete:
		_ = p.opts.Store.Delete(r.Context(), id)
		p.convMu.Lock()
		c := p.convs[id]
		p.convMu.Unlock()
		if c != nil {
			p.dropConversation(id, c)
		}
		w.WriteHeader(http.StatusNoContent)
		return true
	case http.MethodPost:
	default:
		// The standalone stream lives on the replica that opened the
		// session; here there is none to open.
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "Method Not Allowed: this replica serves the session's requests, not its stream", http.StatusMethodNotAllowed)
		return true
	}
	ls, done, err := p.conversation(id)
	if err != nil {
		if err == errTooManySessions {
			tooMany(w, p.maxSessions())
			return true
		}
		http.Error(w, "the server is shutting down", http.StatusServiceUnavailable)
		return true
	}
	defer done()
	t := &mcp.StreamableServerTransport{SessionID: id, Stateless: true}
	ss, err := ls.srv.sdk.Connect(r.Context(), t, &mcp.ServerSessionOptions{State: &mcp.ServerSessionState{
		InitializeParams:  &ip,
		InitializedParams: &mcp.InitializedParams{},
		LogLevel:          "info",
	}})
	if err != nil {
		http.Error(w, "failed to serve the session on this replica", http.StatusInternalServerError)
		return true
	}
	defer ss.Close()
	t.ServeHTTP(w, r)
	return true
}
