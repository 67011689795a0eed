package mcpbridge

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Resource is a resource served beside the tools (resources/list,
// resources/templates/list, resources/read), declared in Go: a fixed URI
// or a URI template (RFC 6570, such as "file:///notes/{name}") and the
// function that reads it.
type Resource struct {
	// URI names one resource; URITemplate, instead, names a family of
	// them (listed by resources/templates/list). Exactly one is set.
	URI, URITemplate string
	// Name and Title identify it to a person; Description says what it
	// holds; MIMEType is its contents' type ("text/markdown").
	Name, Title, Description, MIMEType string
	// Read returns the contents of the resource uri names (for a
	// template, any URI it matches): text, or binary data with Blob. A
	// resource that does not exist is ErrResourceNotFound (wrapped or
	// not), answered with the error MCP names for it.
	Read func(ctx context.Context, uri string) (ResourceContents, error)
}

// ResourceContents is what a Resource's Read returns: Text, or Blob for
// binary data. MIMEType, when empty, is the Resource's.
type ResourceContents struct {
	Text     string
	Blob     []byte
	MIMEType string
}

// ErrResourceNotFound is what a Resource's Read returns for a URI it does
// not know.
var ErrResourceNotFound = errors.New("mcpbridge: resource not found")

// Prompt is a prompt template served beside the tools (prompts/list,
// prompts/get): a name, the arguments a client fills in, and the function
// that renders the messages.
type Prompt struct {
	// Name identifies the prompt; Title and Description say what it is for.
	Name, Title, Description string
	// Arguments are what the client fills in, in order.
	Arguments []PromptArgument
	// Render returns the prompt's messages for the arguments given (every
	// required one present: prompts/get refuses a call that lacks one
	// with a sentence naming it, before Render is called).
	Render func(ctx context.Context, args map[string]string) ([]PromptMessage, error)
}

// PromptArgument is one argument of a Prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// PromptMessage is one message of a rendered prompt: its role ("user" or
// "assistant") and its text.
type PromptMessage struct {
	Role, Text string
}

// addDeclared adds the resources and prompts of opts to the SDK server,
// which then declares the resources and prompts capabilities. Invalid
// declarations (no URI, no Read, no name) are reported as errors by
// ValidateDeclarations; here they are skipped.
func addDeclared(srv *mcp.Server, resources []Resource, prompts []Prompt) {
	for _, r := range resources {
		if r.Read == nil {
			continue
		}
		read := r.Read
		mime := r.MIMEType
		h := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			uri := req.Params.URI
			c, err := read(ctx, uri)
			if err != nil {
				if errors.Is(err, ErrResourceNotFound) {
					return nil, mcp.ResourceNotFoundError(uri)
				}
				return nil, err
			}
			rc := &mcp.ResourceContents{URI: uri, MIMEType: c.MIMEType, Text: c.Text, Blob: c.Blob}
			if rc.MIMEType == "" {
				rc.MIMEType = mime
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
		}
		switch {
		case r.URI != "":
			srv.AddResource(&mcp.Resource{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}, h)
		case r.URITemplate != "":
			srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: r.URITemplate, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType}, h)
		}
	}
	for _, p := range prompts {
		if p.Render == nil || p.Name == "" {
			continue
		}
		p := p
		var args []*mcp.PromptArgument
		for _, a := range p.Arguments {
			args = append(args, &mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		srv.AddPrompt(&mcp.Prompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: args},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				given := req.Params.Arguments
				for _, a := range p.Arguments {
					if _, ok := given[a.Name]; a.Required && !ok {
						return nil, fmt.Errorf("prompt %q needs the argument %q", p.Name, a.Name)
					}
				}
				msgs, err := p.Render(ctx, given)
				if err != nil {
					return nil, err
				}
				res := &mcp.GetPromptResult{Description: p.Description}
				for _, m := range msgs {
					role := mcp.Role(m.Role)
					if role == "" {
						role = "user"
					}
					res.Messages = append(res.Messages, &mcp.PromptMessage{Role: role, Content: &mcp.TextContent{Text: m.Text}})
				}
				return res, nil
			})
	}
}

// ValidateDeclarations reports what is wrong with resources and prompts
// before they are served: a resource with neither or both of URI and
// URITemplate or no Read, a prompt with no name or no Render, a name given
// twice.
func ValidateDeclarations(resources []Resource, prompts []Prompt) error {
	var errs []error
	seen := map[string]bool{}
	for i, r := range resources {
		switch {
		case (r.URI == "") == (r.URITemplate == ""):
			errs = append(errs, fmt.Errorf("resource %d (%q): set exactly one of URI and URITemplate", i, r.Name))
		case r.Read == nil:
			errs = append(errs, fmt.Errorf("resource %s: no Read function", r.URI+r.URITemplate))
		case seen["r "+r.URI+r.URITemplate]:
			errs = append(errs, fmt.Errorf("resource %s: declared twice", r.URI+r.URITemplate))
		}
		seen["r "+r.URI+r.URITemplate] = true
	}
	for i, p := range prompts {
		switch {
		case p.Name == "":
			errs = append(errs, fmt.Errorf("prompt %d: no name", i))
		case p.Render == nil:
			errs = append(errs, fmt.Errorf("prompt %q: no Render function", p.Name))
		case seen["p "+p.Name]:
			errs = append(errs, fmt.Errorf("prompt %q: declared twice", p.Name))
		}
		seen["p "+p.Name] = true
	}
	return errors.Join(errs...)
}
