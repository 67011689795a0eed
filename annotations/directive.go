package annotations

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Concurrency is the value of //tool:concurrency. The zero value means the
// directive is absent.
type Concurrency int

const (
	ConcurrencyUnset Concurrency = iota
	ConcurrencySafe
	ConcurrencySequential
)

// Interrupt is the value of //tool:interrupt.
type Interrupt int

const (
	InterruptUnset Interrupt = iota
	InterruptCooperative
	InterruptNonInterruptible
	InterruptExternallyTerminated
)

// SideEffect is the value of //tool:side-effect as parsed, with
// SideEffectUnset for a directive not written. It is the grammar's own so
// that this package links no runtime package; the generator's model
// carries the runtime's type (permission.SideEffect, which tool.SideEffect
// aliases), mapped from this one in one place.
type SideEffect int

const (
	SideEffectUnset SideEffect = iota
	SideEffectReadOnly
	SideEffectMutating
	SideEffectDestructive
)

// Loading is the value of //tool:loading.
type Loading int

const (
	LoadingUnset Loading = iota
	LoadingEager
	LoadingDeferred
)

// SubjectKind is the kind named by //tool:subject.
type SubjectKind int

const (
	SubjectUnset SubjectKind = iota
	SubjectCommand
	SubjectPath
)

// Format is the value of the format tag option.
type Format string

// The formats a string field may declare. Each is checked by the binder and
// written to the schema's "format" keyword.
const (
	FormatNone     Format = ""
	FormatDateTime Format = "date-time" // RFC 3339, as time.RFC3339
	FormatDate     Format = "date"      // 2006-01-02
	FormatTime     Format = "time"      // 15:04:05, with an optional fraction and RFC 3339 offset (Z, +02:00)
	FormatDuration Format = "duration"  // Go duration syntax, as time.ParseDuration
	FormatEmail    Format = "email"     // an address net/mail parses
	FormatURI      Format = "uri"       // an absolute URI net/url parses
	FormatUUID     Format = "uuid"      // 8-4-4-4-12 hexadecimal digits
)

// Formats lists every format, in the order the documentation gives them.
var Formats = []Format{FormatDateTime, FormatDate, FormatTime, FormatDuration, FormatEmail, FormatURI, FormatUUID}

// A Comment is one line comment ("//...") with its position.
type Comment struct {
	Pos  Pos
	Text string // the comment including the leading "//"
}

// Directives are the //tool: directives of a type's doc comment.
type Directives struct {
	Pos            Pos    // position of the first directive
	Name           string // //tool:name
	Description    string // //tool:description (joined when repeated)
	HasDescription bool
	Concurrency    Concurrency
	Interrupt      Interrupt
	SideEffect     SideEffect
	Loading        Loading
	Subject        *Subject
	SubjectPos     Pos
	Enum           bool     // //tool:enum on a named string type
	Keywords       []string // //tool:keywords (joined when repeated), in order, without duplicates
	Title          string   // //tool:title
	OpenWorld      bool     // //tool:open-world
	Idempotent     bool     // //tool:idempotent
	Unexported     bool     // //tool:unexported
	Output         string   // //tool:output: the output struct type's name
	OutputPos      Pos
	Timeout        time.Duration // //tool:timeout: the bound on each call; 0 without the directive
	TimeoutPos     Pos
	// Params are the //tool:param lines of a function tool, in order.
	Params []Param
	// Input names a function tool's generated input struct (//tool:input).
	Input    string
	InputPos Pos
}

// Param is one //tool:param line of a function tool: the parameter it
// describes, the options a struct field's tool tag would carry, the wire
// name (wire=, or "" for the parameter's own name) and the description.
type Param struct {
	Pos         Pos
	Name        string
	Options     string // a tool tag's options, e.g. "min=0,max=9"; "" for none
	OptionsPos  Pos    // where the options begin on the line; Pos when there are none
	Wire        string
	Description string
}

// Any reports whether d holds at least one directive.
func (d *Directives) Any() bool { return d.Pos.Line != 0 }

// IsTool reports whether d declares a tool (any directive but //tool:enum).
func (d *Directives) IsTool() bool {
	return d.Name != "" || d.HasDescription || d.Concurrency != 0 || d.Interrupt != 0 ||
		d.SideEffect != 0 || d.Loading != 0 || d.Subject != nil || len(d.Keywords) > 0 ||
		d.Title != "" || d.OpenWorld || d.Idempotent || d.Unexported || d.Output != "" || d.Timeout != 0 ||
		len(d.Params) > 0 || d.Input != ""
}

// DirectivePrefix starts every directive.
const DirectivePrefix = "//tool:"

var directiveNames = []string{"concurrency", "description", "enum", "idempotent", "input", "interrupt", "keywords", "loading", "name", "open-world", "output", "param", "side-effect", "subject", "timeout", "title", "unexported"}

var goIdent = regexp.MustCompile(`^[\pL_][\pL\pN_]*$`)

var toolName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)

// IsDirective reports whether a comment line is a //tool: directive.
func IsDirective(text string) bool { return strings.HasPrefix(text, DirectivePrefix) }

// ParseDirectives parses the //tool: lines among a doc comment's lines and
// reports every mistake. Lines that are not directives are ignored.
func ParseDirectives(lines []Comment) (Directives, ErrorList) {
	var d Directives
	var errs ErrorList
	seen := map[string]bool{}
	for _, c := range lines {
		if !IsDirective(c.Text) {
			continue
		}
		if d.Pos.Line == 0 {
			d.Pos = c.Pos
		}
		rest := strings.TrimPrefix(c.Text, DirectivePrefix)
		verb, arg, _ := strings.Cut(rest, " ")
		arg = strings.TrimSpace(arg)
		if !slices.Contains(directiveNames, verb) {
			msg := fmt.Sprintf("unknown directive //tool:%s; want one of %s", verb, strings.Join(prefixed(directiveNames), ", "))
			if s, ok := closest(verb, directiveNames); ok {
				msg = fmt.Sprintf("unknown directive //tool:%s; did you mean //tool:%s?", verb, s)
			}
			errs.Add(c.Pos, "%s", msg)
			continue
		}
		if seen[verb] && verb != "description" && verb != "keywords" && verb != "param" {
			errs.Add(c.Pos, "//tool:%s given more than once; keep one", verb)
			continue
		}
		seen[verb] = true
		switch verb {
		case "name":
			switch {
			case arg == "":
				errs.Add(c.Pos, "//tool:name needs the tool's name, e.g. //tool:name Echo")
			case !toolName.MatchString(arg):
				errs.Add(c.Pos, "//tool:name %q: a tool name is letters, digits, '_', '-' and '.', starting with a letter or '_'", arg)
			default:
				d.Name = arg
			}
		case "description":
			if arg == "" {
				errs.Add(c.Pos, "//tool:description needs text; drop it to use the doc comment")
				continue
			}
			if d.HasDescription {
				d.Description += " " + arg
			} else {
				d.Description = arg
			}
			d.HasDescription = true
		case "keywords":
			n := 0
			for _, k := range strings.Split(arg, ",") {
				k = strings.Join(strings.Fields(k), " ")
				if k == "" {
					continue
				}
				n++
				if !slices.Contains(d.Keywords, k) {
					d.Keywords = append(d.Keywords, k)
				}
			}
			if n == 0 {
				errs.Add(c.Pos, "//tool:keywords needs words, separated by commas, e.g. //tool:keywords taxi, cab, ride")
			}
		case "title", "open-world", "idempotent", "output":
			parseHostDirective(&d, &errs, c, verb, arg)
		case "timeout":
			parseTimeout(&d, &errs, c, arg)
		case "param":
			if p, ok := parseParam(&errs, c, arg); ok {
				if slices.ContainsFunc(d.Params, func(q Param) bool { return q.Name == p.Name }) {
					errs.Add(c.Pos, "//tool:param %s given more than once; keep one", p.Name)
					continue
				}
				d.Params = append(d.Params, p)
			}
		case "input":
			if !goIdent.MatchString(arg) {
				errs.Add(c.Pos, "//tool:input needs a Go identifier, the name of the generated input struct, e.g. //tool:input AddInput")
				continue
			}
			d.Input, d.InputPos = arg, c.Pos
		case "unexported":
			if arg != "" {
				errs.Add(c.Pos, "//tool:unexported takes no argument; it makes the generated constructor and binder unexported (newXTool, bindXInput)")
				continue
			}
			d.Unexported = true
		case "enum":
			if arg != "" {
				errs.Add(c.Pos, "//tool:enum takes no argument; the values are the type's constants")
				continue
			}
			d.Enum = true
		case "concurrency":
			v, ok := pick(arg, map[string]Concurrency{"safe": ConcurrencySafe, "sequential": ConcurrencySequential})
			if !ok {
				errs.Add(c.Pos, "//tool:concurrency %q: want safe or sequential", arg)
			}
			d.Concurrency = v
		case "interrupt":
			v, ok := pick(arg, map[string]Interrupt{
				"cooperative": InterruptCooperative, "non-interruptible": InterruptNonInterruptible,
				"externally-terminated": InterruptExternallyTerminated,
			})
			switch {
			case arg == "thread-interrupt":
				errs.Add(c.Pos, "//tool:interrupt thread-interrupt: Go has no thread interrupt; a tool stopped from outside, on a worker of its own, says externally-terminated")
			case !ok:
				errs.Add(c.Pos, "//tool:interrupt %q: want cooperative, non-interruptible or externally-terminated", arg)
			}
			d.Interrupt = v
		case "side-effect":
			v, ok := pick(arg, map[string]SideEffect{"read-only": SideEffectReadOnly, "mutating": SideEffectMutating, "destructive": SideEffectDestructive})
			if !ok {
				errs.Add(c.Pos, "//tool:side-effect %q: want read-only, mutating or destructive", arg)
			}
			d.SideEffect = v
		case "loading":
			v, ok := pick(arg, map[string]Loading{"eager": LoadingEager, "deferred": LoadingDeferred})
			if !ok {
				errs.Add(c.Pos, "//tool:loading %q: want eager or deferred", arg)
			}
			d.Loading = v
		case "subject":
			kind, param, _ := strings.Cut(arg, " ")
			param = strings.TrimSpace(param)
			k, ok := pick(kind, map[string]SubjectKind{"command": SubjectCommand, "path": SubjectPath})
			switch {
			case !ok:
				errs.Add(c.Pos, "//tool:subject %q: want command or path, then a field's wire name, e.g. //tool:subject path file_path", arg)
			case param == "" || strings.ContainsAny(param, " \t"):
				errs.Add(c.Pos, "//tool:subject %s needs one wire name of a string field, e.g. //tool:subject %s file_path", kind, kind)
			default:
				d.Subject = &Subject{Kind: k, Param: param}
				d.SubjectPos = c.Pos
			}
		}
	}
	return d, errs
}

// parseHostDirective parses the directives that describe a tool to hosts
// rather than to the model: //tool:title (a short human-readable name),
// //tool:open-world (the tool reaches the network or arbitrary programs;
// MCP's openWorldHint), //tool:idempotent (a second call with the same
// arguments has no further effect; MCP's idempotentHint) and //tool:output
// (the struct type whose schema is the tool's output schema).
func parseHostDirective(d *Directives, errs *ErrorList, c Comment, verb, arg string) {
	switch verb {
	case "title":
		switch {
		case arg == "":
			errs.Add(c.Pos, "//tool:title needs a short human-readable name, e.g. //tool:title Read file")
		case strings.ContainsFunc(arg, unicode.IsControl):
			errs.Add(c.Pos, "//tool:title %q: a title is one line of printable text", arg)
		default:
			d.Title = strings.Join(strings.Fields(arg), " ")
		}
	case "output":
		if !goIdent.MatchString(arg) {
			errs.Add(c.Pos, "//tool:output needs the name of a struct type of this package that the tool's function returns, e.g. //tool:output WeatherReport")
			return
		}
		d.Output, d.OutputPos = arg, c.Pos
	case "open-world":
		if arg != "" {
			errs.Add(c.Pos, "//tool:open-world takes no argument; leave it out for a tool that stays within its own domain")
			return
		}
		d.OpenWorld = true
	case "idempotent":
		if arg != "" {
			errs.Add(c.Pos, "//tool:idempotent takes no argument; leave it out for a tool whose second call with the same arguments does more")
			return
		}
		d.Idempotent = true
	}
}

func pick[T any](s string, m map[string]T) (T, bool) {
	v, ok := m[s]
	return v, ok
}

func prefixed(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = DirectivePrefix + n
	}
	return out
}

// Prose returns a doc comment's text without its directives: the lines
// joined by single spaces within a paragraph and blank lines between
// paragraphs, trimmed. It is the default description of a tool.
func Prose(lines []Comment) string {
	var paras []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			paras = append(paras, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, c := range lines {
		if IsDirective(c.Text) || isOtherDirective(c.Text) {
			continue
		}
		t := c.Text
		switch {
		case strings.HasPrefix(t, "//"):
			t = strings.TrimPrefix(t, "//")
		case strings.HasPrefix(t, "/*"):
			t = strings.TrimSuffix(strings.TrimPrefix(t, "/*"), "*/")
		}
		for _, l := range strings.Split(t, "\n") {
			l = strings.TrimSpace(l)
			if l == "" {
				flush()
				continue
			}
			cur = append(cur, l)
		}
	}
	flush()
	return strings.Join(paras, "\n\n")
}

// isOtherDirective reports lines such as //go:generate or //lint:ignore,
// which go/ast also leaves out of a doc comment's text.
var otherDirective = regexp.MustCompile(`^//[a-z0-9]+:[a-z0-9]`)

func isOtherDirective(t string) bool { return otherDirective.MatchString(t) }

// parseParam reads "NAME [OPTIONS] Description.": the parameter's name, a
// word of tool-tag options when the second word reads as one (each item a
// known option, or wire=NAME), then the description.
func parseParam(errs *ErrorList, c Comment, arg string) (Param, bool) {
	const example = "e.g. //tool:param digit1 min=0,max=9 The first digit to add."
	f := strings.Fields(arg)
	if len(f) == 0 || !goIdent.MatchString(f[0]) {
		errs.Add(c.Pos, "//tool:param needs the parameter's name, then its options and description, %s", example)
		return Param{}, false
	}
	p := Param{Pos: c.Pos, OptionsPos: c.Pos, Name: f[0]}
	rest := strings.TrimSpace(strings.TrimPrefix(arg, f[0]))
	if len(f) > 1 && optionWord(f[1]) {
		var opts []string
		for _, item := range strings.Split(f[1], ",") {
			if w, ok := strings.CutPrefix(item, "wire="); ok {
				p.Wire = w
				continue
			}
			opts = append(opts, item)
		}
		p.Options = strings.Join(opts, ",")
		if i := strings.Index(c.Text, " "+f[1]); i >= 0 {
			p.OptionsPos = c.Pos.Shift(i + 1)
		}
		rest = strings.TrimSpace(strings.TrimPrefix(rest, f[1]))
		if _, tagErrs := ParseTag(p.Options); len(tagErrs) > 0 {
			at := p.OptionsPos
			if p.Wire == "" { // the offsets are into the line's own options
				at = at.Shift(tagErrs[0].Offset)
			}
			errs.Add(at, "//tool:param %s: %s", p.Name, tagErrs[0].Msg)
			// The line still names its parameter, so that no second error
			// says the parameter has none; the error stops generation.
			p.Options = ""
		}
	}
	p.Description = rest
	return p, true
}

// optionWord reports whether w reads as a tool tag's options: items
// separated by commas, each a known option name, with or without a value,
// or wire=NAME.
//
// A word whose every item is a lower-case key with a value (key=value), or
// which holds a comma between such keys, reads as options too, known or
// not, so that a misspelled option (minn=3) is reported rather than taken
// into the description; a description does not begin that way.
func optionWord(w string) bool {
	known, keyed := true, strings.ContainsAny(w, "=,")
	for _, item := range strings.Split(w, ",") {
		key, _, _ := strings.Cut(item, "=")
		if key != "wire" && !slices.Contains(optionNames, key) {
			known = false
		}
		if !optionKey.MatchString(key) {
			keyed = false
		}
	}
	return known || keyed
}

// optionKey is the shape of a tool tag option's name.
var optionKey = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
