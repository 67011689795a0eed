package mcpbridge

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// Sync brings the SDK server's tool set in line with the executor's offered
// definitions: new tools are added, changed ones replaced, vanished ones
// removed. Any change makes the SDK send notifications/tools/list_changed to
// the connected sessions (debounced by the SDK).
//
// The server calls Sync after every tools/call and before every tools/list,
// which covers a catalog whose ToolSearch activates tools. Call it yourself
// when the source changes by other means (a tool registered while serving).
// It is cheap when nothing changed.
func (s *Server) Sync() {
	run := s.run.Load()
	if run == nil {
		return // no run yet: nothing is offered
	}
	defs := run.exec.Definitions()
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	seen := make(map[string]bool, len(defs))
	for _, d := range defs {
		if seen[d.Name] {
			continue // a source that repeats a name: the first one is offered
		}
		seen[d.Name] = true
		s.offer(d)
	}
	var gone []string
	for name, o := range s.offered {
		if seen[name] {
			continue
		}
		delete(s.offered, name)
		if !o.rejected {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		s.sdk.RemoveTools(gone...)
		s.log().Debug("mcp tools removed", "tools", gone)
	}
}

// offer adds or replaces one tool in the SDK server when its definition
// changed since the last sync. The caller holds syncMu.
func (s *Server) offer(d tool.Definition) {
	id := mapID(d.InputSchema)
	meta := metaKey(d)
	cur, known := s.offered[d.Name]
	if known && cur.description == d.Description && cur.schemaID == id && cur.meta == meta {
		return
	}
	data, err := json.Marshal(d.InputSchema)
	if err != nil {
		s.reject(d, id, "", known, fmt.Errorf("input schema cannot be encoded as JSON: %w", err))
		return
	}
	if known && cur.description == d.Description && cur.schemaJSON == string(data) && cur.meta == meta {
		cur.schemaID = id
		s.offered[d.Name] = cur
		return
	}
	schema, err := objectSchema(d.InputSchema)
	if err != nil {
		s.reject(d, id, string(data), known, err)
		return
	}
	t := mcpTool(d, schema)
	if err := s.addTool(t); err != nil {
		s.reject(d, id, string(data), known, err)
		return
	}
	s.offered[d.Name] = offeredTool{description: d.Description, schemaID: id, schemaJSON: string(data), meta: meta}
	if known {
		s.log().Debug("mcp tool replaced", "tool", d.Name)
	} else {
		s.log().Debug("mcp tool added", "tool", d.Name)
	}
}

// reject records a definition the SDK cannot take and logs it once; a tool
// offered before under that name is withdrawn.
func (s *Server) reject(d tool.Definition, id uintptr, data string, known bool, err error) {
	if known && !s.offered[d.Name].rejected {
		s.sdk.RemoveTools(d.Name)
	}
	s.offered[d.Name] = offeredTool{description: d.Description, schemaID: id, schemaJSON: data, meta: metaKey(d), rejected: true}
	s.log().Error("tool not offered over mcp", "tool", d.Name, "err", err)
}

// addTool calls the SDK's AddTool, which panics on a schema it refuses.
func (s *Server) addTool(t *mcp.Tool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the mcp sdk refused the tool: %v", p)
		}
	}()
	s.sdk.AddTool(t, s.handler)
	return nil
}

// objectSchema returns the schema MCP is sent: the tool's own when it says
// "type": "object", a copy with that type added when it names no type (a
// schema with only properties means an object), and an error for any other
// type.
func objectSchema(m map[string]any) (map[string]any, error) {
	typ, has := m["type"]
	switch {
	case !has:
		c := maps.Clone(m)
		if c == nil {
			c = make(map[string]any, 1)
		}
		c["type"] = "object"
		return c, nil
	case typ == "object":
		return m, nil
	}
	return nil, fmt.Errorf("%w; the schema's type is %v", errNotObjectSchema, typ)
}

// metaSig sums up what a definition gives MCP besides its description and
// input schema (title, hints, output schema), so that a change of any of
// them replaces the tool. It is comparable and costs no allocation.
type metaSig struct {
	title    string
	outputID uintptr
	hints    tool.Hints
	hasHints bool
}

func metaKey(d tool.Definition) metaSig {
	m := metaSig{title: d.Title, outputID: mapID(d.OutputSchema)}
	if d.Hints != nil {
		m.hints, m.hasHints = *d.Hints, true
	}
	return m
}

// mapID identifies a schema map, so that an unchanged definition costs no
// encoding.
func mapID(m map[string]any) uintptr {
	if m == nil {
		return 0
	}
	return reflect.ValueOf(m).Pointer()
}
