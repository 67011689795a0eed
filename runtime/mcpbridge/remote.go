package mcpbridge

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// remoteMetadata copies what a remote tool says of itself to hosts into
// def: its title (the annotations' title when the tool has none of its
// own), its output schema, and the annotations the side-effect level (see
// behaviours) does not carry: idempotent, and open-world (MCP's default
// when left out). The tool's hints are derived from them, as every tool's
// are (tool.Hints).
func remoteMetadata(def *tool.Definition, t *mcp.Tool) {
	def.Title = t.Title
	if def.Title == "" && t.Annotations != nil {
		def.Title = t.Annotations.Title
	}
	if t.OutputSchema != nil {
		if m, err := schemaMap(t.OutputSchema); err == nil {
			def.OutputSchema = m
		}
	}
	def.OpenWorld = true
	if a := t.Annotations; a != nil {
		def.Idempotent = a.IdempotentHint
		if a.OpenWorldHint != nil {
			def.OpenWorld = *a.OpenWorldHint
		}
	}
}

// remoteParts turns a remote result's content into parts, or nil when it
// is text alone (the result's Content then says everything).
func remoteParts(content []mcp.Content) []tool.Part {
	rich := false
	parts := make([]tool.Part, 0, len(content))
	for _, c := range content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, tool.Part{Kind: tool.TextPart, Text: c.Text})
		case *mcp.ImageContent:
			rich = true
			parts = append(parts, tool.Part{Kind: tool.ImagePart, Data: c.Data, MIMEType: c.MIMEType})
		case *mcp.AudioContent:
			rich = true
			parts = append(parts, tool.Part{Kind: tool.AudioPart, Data: c.Data, MIMEType: c.MIMEType})
		case *mcp.ResourceLink:
			rich = true
			parts = append(parts, tool.Part{Kind: tool.ResourceLinkPart, URI: c.URI, Name: c.Name, MIMEType: c.MIMEType,
				Title: c.Title, Description: c.Description})
		case *mcp.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			rich = true
			if c.Resource.Blob != nil {
				parts = append(parts, tool.Part{Kind: tool.ResourcePart, URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Data: c.Resource.Blob})
			} else {
				parts = append(parts, tool.Part{Kind: tool.ResourcePart, URI: c.Resource.URI, MIMEType: c.Resource.MIMEType, Text: c.Resource.Text})
			}
		}
	}
	if !rich {
		return nil
	}
	return parts
}
