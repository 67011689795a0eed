package mcpbridge

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// refreshTimeout bounds a refresh started by a list_changed notification.
const refreshTimeout = 30 * time.Second

// Source is a tool.ToolSource over the tools of an MCP server that follows
// the server's notifications/tools/list_changed. Give an executor the Source
// and the model is offered the server's current tools, re-read every
// iteration of the agent loop:
//
//	src := mcpbridge.NewSource(nil)
//	client := mcp.NewClient(impl, &mcp.ClientOptions{ToolListChangedHandler: src.ToolListChanged})
//	cs, err := client.Connect(ctx, transport, nil)
//	...
//	if err := src.Refresh(ctx, cs); err != nil { ... }
//	exec := tool.NewExecutor(src, tool.WithAllowList(list))
//
// A Source is safe for concurrent use.
type Source struct {
	opts ClientOptions

	mu     sync.RWMutex
	tools  []tool.Tool
	byName map[string]tool.Tool

	wg sync.WaitGroup
}

// NewSource returns an empty source; Refresh fills it. opts may be nil.
func NewSource(opts *ClientOptions) *Source {
	return &Source{opts: opts.orZero()}
}

// Refresh replaces the source's tools with the tools the server behind cs
// lists now. On error the source keeps its tools.
func (s *Source) Refresh(ctx context.Context, cs *mcp.ClientSession) error {
	o := s.opts
	tools, err := Tools(ctx, cs, &o)
	if err != nil {
		return err
	}
	byName := make(map[string]tool.Tool, len(tools))
	kept := tools[:0]
	for _, t := range tools {
		name := t.Definition().Name
		if _, dup := byName[name]; dup {
			continue
		}
		byName[name] = t
		kept = append(kept, t)
	}
	s.mu.Lock()
	s.tools, s.byName = kept, byName
	s.mu.Unlock()
	return nil
}

// ToolListChanged is a handler for mcp.ClientOptions.ToolListChangedHandler:
// it refreshes the source from the notifying session in the background
// (the SDK delivers notifications on the connection's reading goroutine, so
// the refresh must not run on it). Wait waits for such refreshes.
func (s *Source) ToolListChanged(_ context.Context, req *mcp.ToolListChangedRequest) {
	if req == nil || req.Session == nil {
		return
	}
	cs := req.Session
	s.wg.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
		defer cancel()
		if err := s.Refresh(ctx, cs); err != nil {
			s.opts.log().Warn("mcp tool list refresh failed", "err", err)
		}
	})
}

// Wait waits for the refreshes notifications started.
func (s *Source) Wait() { s.wg.Wait() }

// Find returns the tool registered under the normalised name.
func (s *Source) Find(name string) (tool.Tool, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.byName[tool.NormalizeName(name)]
	return t, ok
}

// All returns the server's tools in its order.
func (s *Source) All() []tool.Tool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]tool.Tool(nil), s.tools...)
}
