package tool

import (
	"fmt"
	"strings"
)

// PartKind is the kind of one piece of a result's content.
type PartKind int

const (
	// TextPart is text: Text.
	TextPart PartKind = iota + 1
	// ImagePart is an image: Data, of type MIMEType (image/png,
	// image/jpeg, image/gif, image/webp).
	ImagePart
	// AudioPart is audio: Data, of type MIMEType (audio/wav, ...).
	AudioPart
	// ResourcePart is an embedded resource: the contents of URI, as Text or
	// as Data (a blob), of type MIMEType.
	ResourcePart
	// ResourceLinkPart points at a resource the client may read: URI, with
	// Name, Title, Description and MIMEType describing it.
	ResourceLinkPart
)

func (k PartKind) String() string {
	switch k {
	case TextPart:
		return "text"
	case ImagePart:
		return "image"
	case AudioPart:
		return "audio"
	case ResourcePart:
		return "resource"
	case ResourceLinkPart:
		return "resource_link"
	}
	return fmt.Sprintf("PartKind(%d)", int(k))
}

// Part is one piece of a result's content, richer than text: an image Read
// returned, a resource a tool points at. Its Kind says which fields it
// uses:
//
//	tool.Part{Kind: tool.TextPart, Text: "a pixel:"}
//	tool.Part{Kind: tool.ImagePart, Data: png, MIMEType: "image/png"}
//	tool.Part{Kind: tool.ResourcePart, URI: "file:///a.txt", MIMEType: "text/plain", Text: "..."}
//	tool.Part{Kind: tool.ResourceLinkPart, URI: "https://example.com/r", Name: "r"}
type Part struct {
	Kind PartKind
	// Text is a text part's text, or an embedded text resource's contents.
	Text string
	// Data is an image's or audio's bytes (raw, not base64), or an
	// embedded binary resource's contents.
	Data []byte
	// MIMEType is the media type of Data, of a resource or of a link's
	// target.
	MIMEType string
	// URI names a resource or a link's target.
	URI string
	// Name, Title and Description describe a link's target.
	Name, Title, Description string
}

// TextForm returns the part as the text a model or a log reads: text as it
// is, an embedded text resource by its text, and anything else as a short
// bracketed note naming its type and size ("[image: image/png, 1234
// bytes]").
func (p Part) TextForm() string {
	switch p.Kind {
	case TextPart:
		return p.Text
	case ImagePart, AudioPart:
		return fmt.Sprintf("[%s: %s, %d bytes]", p.Kind, orUnknownType(p.MIMEType), len(p.Data))
	case ResourcePart:
		if p.Data == nil {
			return p.Text
		}
		return fmt.Sprintf("[resource: %s, %s, %d bytes]", p.URI, orUnknownType(p.MIMEType), len(p.Data))
	case ResourceLinkPart:
		if p.Name != "" && p.Name != p.URI {
			return fmt.Sprintf("[resource: %s (%s)]", p.URI, p.Name)
		}
		return fmt.Sprintf("[resource: %s]", p.URI)
	}
	return ""
}

func orUnknownType(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

// partsText returns the text form of parts: each part's TextForm, one per
// line.
func partsText(parts []Part) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.TextForm())
	}
	return b.String()
}

// SuccessParts returns a successful result made of parts; its Content is
// their text form.
func SuccessParts(parts ...Part) Result {
	return Result{Content: partsText(parts), Parts: parts}
}

// ContentParts returns the parts a client is sent for r: r.Parts when there
// are any, else one text part holding r.Content.
func (r Result) ContentParts() []Part {
	if len(r.Parts) > 0 {
		return r.Parts
	}
	return []Part{{Kind: TextPart, Text: r.Content}}
}
