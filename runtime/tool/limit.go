package tool

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxLoggedError bounds the text of a tool's error in the log: a tool can
// fail with its whole output.
const maxLoggedError = 2048

// clipped returns err for the log, its text cut to maxLoggedError bytes
// (at a UTF-8 boundary) with the length it had.
func clipped(err error) any {
	if err == nil {
		return nil
	}
	text := err.Error()
	if len(text) <= maxLoggedError {
		return err
	}
	cut := maxLoggedError
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + fmt.Sprintf("... (%d bytes in all)", len(text))
}

// limit cuts a result's content to the executor's limit, at a UTF-8
// boundary, and says so after the cut.
func (e *Executor) limit(name string, res Result) Result {
	if e.maxResult <= 0 || len(res.Content) <= e.maxResult {
		return res
	}
	cut := e.maxResult
	for cut > 0 && !utf8.RuneStart(res.Content[cut]) {
		cut--
	}
	res.Content = res.Content[:cut] + fmt.Sprintf("\n[Tool '%s' returned %d bytes; the output was cut at %d.]", name, len(res.Content), cut)
	res.Parts = limitParts(res.Parts, e.maxResult, res.Content)
	return res
}

// limitParts bounds the text of parts as limit bounds Content: once the
// text parts reach max bytes, the rest of the text is replaced by one text
// part holding the cut Content's marker; images, audio and blobs are kept
// (their tools bound them).
func limitParts(parts []Part, max int, cutContent string) []Part {
	if len(parts) == 0 {
		return parts
	}
	out := make([]Part, 0, len(parts)+1)
	used, cut := 0, false
	for _, p := range parts {
		isText := p.Kind == TextPart || (p.Kind == ResourcePart && p.Data == nil)
		switch {
		case !isText:
			out = append(out, p)
		case cut:
		case used+len(p.Text) <= max:
			used += len(p.Text)
			out = append(out, p)
		default:
			cut = true
			n := max - used
			for n > 0 && !utf8.RuneStart(p.Text[n]) {
				n--
			}
			p.Text = p.Text[:n]
			used = max
			out = append(out, p)
		}
	}
	if cut {
		if i := strings.LastIndex(cutContent, "\n[Tool '"); i >= 0 {
			out = append(out, Part{Kind: TextPart, Text: cutContent[i+1:]})
		}
	}
	return out
}
