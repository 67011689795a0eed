package mcpbridge

import (
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// toCallToolResult answers a tool's result over MCP: its parts as MCP
// content (text, image, audio, embedded resource, resource link; a result
// without parts as one text block of its Content), isError for an error
// result, and its structured content as structuredContent. MCP asks that a
// tool returning structured content also give it as text: the result's
// Content, which toolgen's rendering makes the JSON of the same value, is
// that text.
func toCallToolResult(r tool.Result) *mcp.CallToolResult {
	parts := r.ContentParts()
	out := &mcp.CallToolResult{Content: make([]mcp.Content, 0, len(parts)), IsError: r.IsError}
	for _, p := range parts {
		out.Content = append(out.Content, partContent(p))
	}
	if r.Structured != nil && !r.IsError {
		if sc, err := structuredObject(r.Structured); err == nil {
			out.StructuredContent = sc
		}
	}
	return out
}

// partContent returns the MCP content block of one part. A part of a kind
// this version does not know is sent as its text form.
func partContent(p tool.Part) mcp.Content {
	switch p.Kind {
	case tool.ImagePart:
		return &mcp.ImageContent{Data: p.Data, MIMEType: p.MIMEType}
	case tool.AudioPart:
		return &mcp.AudioContent{Data: p.Data, MIMEType: p.MIMEType}
	case tool.ResourcePart:
		rc := &mcp.ResourceContents{URI: p.URI, MIMEType: p.MIMEType}
		if p.Data != nil {
			rc.Blob = p.Data
		} else {
			rc.Text = p.Text
		}
		return &mcp.EmbeddedResource{Resource: rc}
	case tool.ResourceLinkPart:
		name := p.Name
		if name == "" {
			name = p.URI // MCP requires a name
		}
		return &mcp.ResourceLink{URI: p.URI, Name: name, Title: p.Title, Description: p.Description, MIMEType: p.MIMEType}
	}
	return &mcp.TextContent{Text: p.TextForm()}
}

// structuredObject returns v as the JSON object MCP's structuredContent
// must be; a value that does not encode to an object is an error (and is
// not sent: the text content still carries it).
func structuredObject(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("structured content is not a JSON object: %.40s", data)
	}
	return json.RawMessage(data), nil
}

// mcpTool returns the MCP tool metadata of a definition whose input schema
// is schema: name, title, description, the schemas, and the annotations
// its hints give (every hint said, so that a host does not fall back on
// MCP's defaults, which take a tool for destructive and open-world).
func mcpTool(d tool.Definition, schema map[string]any) *mcp.Tool {
	t := &mcp.Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: schema}
	if d.OutputSchema != nil {
		if out, err := objectSchema(d.OutputSchema); err == nil {
			t.OutputSchema = out
		}
	}
	if d.Hints != nil {
		t.Annotations = annotations(*d.Hints, d.Title)
	}
	return t
}

// annotations returns the MCP annotations of h.
func annotations(h tool.Hints, title string) *mcp.ToolAnnotations {
	a := &mcp.ToolAnnotations{
		ReadOnlyHint:   h.ReadOnly,
		IdempotentHint: h.Idempotent,
		OpenWorldHint:  new(h.OpenWorld),
		Title:          title,
	}
	if !h.ReadOnly {
		a.DestructiveHint = new(h.Destructive)
	}
	return a
}

// buildVersion is the version of the program serving MCP, as its build
// info gives it (a module version, or a pseudo-version from version
// control); "devel" when the build records none.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "devel-" + rev
}
