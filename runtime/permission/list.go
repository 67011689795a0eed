package permission

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// List is an allow-list: the tools an agent may be offered and, per tool,
// the patterns a call must satisfy. A List is an immutable value, safe for
// concurrent use; copy it freely.
//
// The zero List is no allow-list: it restricts nothing (and, in Intersect,
// it is the identity). A List from Parse, New or frontmatter.Parse is
// restricted to the tools it names, even when it names none.
type List struct {
	restricted bool
	tools      map[string]*toolRule
	order      []string // tool names, in the order they first appear
	kinds      map[string]Kind
	compound   bool
	ceiling    SideEffect
	notes      []Finding // found while parsing, reported by Lint
}

// toolRule is what a List requires of one tool's calls: every group must
// be satisfied, and a group is satisfied when one of its patterns matches.
// No group means every call of the tool. Parse makes at most one group per
// tool; Intersect adds one per list.
type toolRule struct {
	groups [][]*pattern
}

// pattern is one parsed pattern, compiled for the kinds it can be judged as.
type pattern struct {
	entry  string // the entry as written, such as Bash(git:*)
	text   string // the pattern between the outer parentheses
	kind   Kind   // the tool's declared kind; 0 when not declared
	cmd    commandPattern
	cmdOK  bool
	path   pathPattern
	pathOK bool
}

// Entry is one allow-list entry with the examples it carries. Rule is the
// entry as Parse reads it: Name or Name(pattern). MustAllow and MustDeny
// are subjects (command lines for a COMMAND pattern, absolute paths for a
// PATH pattern) that New verifies when the list is loaded, so that a wrong
// pattern fails at start-up: every MustAllow example must match this
// entry's pattern, and the finished list must deny every MustDeny example
// for this tool. Examples are judged lexically (paths are not resolved
// against the file system) and need a pattern and a tool of known kind.
type Entry struct {
	Rule      string
	MustAllow []string
	MustDeny  []string
}

// Option configures New, ParseWith and frontmatter.Parse.
type Option func(*config)

type config struct {
	kinds    map[string]Kind
	compound bool
	ceiling  SideEffect
}

// WithKind declares the subject kind of a tool, in addition to (or instead
// of) DefaultKinds, so that Parse validates its patterns by that kind. A
// kind of 0 removes the declaration.
func WithKind(tool string, kind Kind) Option {
	return func(c *config) {
		if kind == 0 {
			delete(c.kinds, tool)
			return
		}
		c.kinds[tool] = kind
	}
}

// WithCompoundCommands turns on the compound-command judge for COMMAND
// subjects: a command line made of simple commands joined by &&, ||, ;,
// |, newlines, ( ) and { } is allowed when every simple command in it is
// allowed on its own. See the package documentation for what it refuses.
// It is off by default: then a command with any shell operator is denied.
func WithCompoundCommands() Option {
	return func(c *config) { c.compound = true }
}

// WithCeiling sets the list's side-effect ceiling: tools above level are
// neither offered nor allowed, whatever the entries say.
func WithCeiling(level SideEffect) Option {
	return func(c *config) { c.ceiling = level }
}

func newConfig(opts []Option) *config {
	c := &config{kinds: DefaultKinds()}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// Parse reads allow-list entries, each Name or Name(pattern), with the
// builtin tool kinds of DefaultKinds and no options. Parse with no entries
// returns a restricted list that allows nothing.
func Parse(entries ...string) (List, error) {
	return ParseWith(entries)
}

// ParseWith is Parse with options.
func ParseWith(entries []string, opts ...Option) (List, error) {
	es := make([]Entry, len(entries))
	for i, e := range entries {
		es[i] = Entry{Rule: e}
	}
	return New(es, opts...)
}

// New builds a list from entries with their examples and verifies the
// examples. An error names the entry and what to write instead.
func New(entries []Entry, opts ...Option) (List, error) {
	c := newConfig(opts)
	l := List{
		restricted: true,
		tools:      map[string]*toolRule{},
		kinds:      c.kinds,
		compound:   c.compound,
		ceiling:    c.ceiling,
	}
	nameOnly := map[string]string{}
	seen := map[string]bool{}
	var errs []error
	for i, e := range entries {
		p, name, err := parseEntry(i, e.Rule, c.kinds)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		rule := l.tools[name]
		if rule == nil {
			rule = &toolRule{}
			l.tools[name] = rule
			l.order = append(l.order, name)
		}
		key := name + "\x00" + strings.TrimSpace(e.Rule)
		if seen[key] {
			l.notes = append(l.notes, Finding{Entry: strings.TrimSpace(e.Rule), Message: "the entry is given more than once"})
		}
		seen[key] = true
		if p == nil {
			nameOnly[name] = strings.TrimSpace(e.Rule)
			continue
		}
		if len(rule.groups) == 0 {
			rule.groups = [][]*pattern{nil}
		}
		if !slices.ContainsFunc(rule.groups[0], func(q *pattern) bool { return q.text == p.text }) {
			rule.groups[0] = append(rule.groups[0], p)
		}
	}
	if len(errs) > 0 {
		return List{}, errors.Join(errs...)
	}
	for _, name := range l.order {
		if e, ok := nameOnly[name]; ok && len(l.tools[name].groups) > 0 {
			l.notes = append(l.notes, Finding{Entry: e, Message: fmt.Sprintf("the entry has no effect: the patterns of %s restrict the tool; remove %s, or remove the patterns to allow every call", name, e)})
		}
	}
	for _, e := range entries {
		if err := l.verify(e); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return List{}, errors.Join(errs...)
	}
	return l, nil
}

// parseEntry reads one entry. It returns a nil pattern for a name-only entry.
func parseEntry(i int, raw string, kinds map[string]Kind) (*pattern, string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, "", fmt.Errorf("permission: entry %d is empty; write a tool name such as Read, or Name(pattern) such as Bash(git:*)", i+1)
	}
	open := strings.IndexByte(s, '(')
	name := s
	if open >= 0 {
		name = s[:open]
	}
	switch {
	case open == 0:
		return nil, "", fmt.Errorf("permission: entry %q has no tool name before \"(\"; write Name(pattern)", s)
	case open > 0 && unicode.IsSpace(rune(s[open-1])):
		fixed := strings.TrimRightFunc(name, unicode.IsSpace) + s[open:]
		return nil, "", fmt.Errorf("permission: entry %q has a space before \"(\"; write %s", s, fixed)
	case open > 0 && !strings.HasSuffix(s, ")"):
		if strings.Contains(s[open:], ")") {
			return nil, "", fmt.Errorf("permission: entry %q has text after the closing \")\"; end the entry with the pattern's \")\"", s)
		}
		return nil, "", fmt.Errorf("permission: entry %q has no closing \")\"; write %s(pattern)", s, name)
	}
	if why := checkName(name); why != "" {
		return nil, "", fmt.Errorf("permission: entry %q: %s", s, why)
	}
	if open < 0 {
		return nil, name, nil
	}
	text := s[open+1 : len(s)-1]
	if strings.TrimSpace(text) == "" {
		return nil, "", fmt.Errorf("permission: entry %q has an empty pattern; write %s to allow every call, or %s(pattern)", s, name, name)
	}
	p := &pattern{entry: s, text: text, kind: kinds[name]}
	cp, cerr := parseCommandPattern(text)
	pp, perr := parsePathPattern(text)
	p.cmd, p.cmdOK = cp, cerr == nil
	p.path, p.pathOK = pp, perr == nil
	switch p.kind {
	case Command:
		if cerr != nil {
			return nil, "", fmt.Errorf("permission: entry %q: %w", s, cerr)
		}
	case Path:
		var fe fixErr
		if errors.As(perr, &fe) {
			return nil, "", fmt.Errorf("permission: entry %q: %s; write %s(%s)", s, fe.msg, name, fe.fix)
		}
		if perr != nil {
			return nil, "", fmt.Errorf("permission: entry %q: %w", s, perr)
		}
	}
	return p, name, nil
}

// checkName returns why name is not a valid tool name, or "".
func checkName(name string) string {
	if rest, ok := strings.CutPrefix(name, "functions."); ok {
		return fmt.Sprintf("tool names are matched without the \"functions.\" prefix; write %s", rest)
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || strings.ContainsRune("(),", r) {
			return fmt.Sprintf("the tool name %q may not contain %q; a tool name has no spaces, parentheses, commas or control characters", name, r)
		}
	}
	return ""
}

// verify checks the examples an entry carries against the loaded list.
func (l List) verify(e Entry) error {
	if len(e.MustAllow) == 0 && len(e.MustDeny) == 0 {
		return nil
	}
	p, name, err := parseEntry(0, e.Rule, l.kinds)
	if err != nil {
		return err
	}
	if p == nil {
		return fmt.Errorf("permission: entry %q carries examples but has no pattern; examples test a pattern, such as %s(pattern)", p.entryOr(e.Rule), name)
	}
	if !p.kind.valid() {
		return fmt.Errorf("permission: entry %q carries examples but the subject kind of %s is not declared; declare it with WithKind", p.entry, name)
	}
	var errs []error
	for _, ex := range e.MustAllow {
		if !l.matchOne(p, Subject{Kind: p.kind, Value: ex}) {
			errs = append(errs, fmt.Errorf("permission: entry %q must allow %q, but does not", p.entry, ex))
		}
	}
	for _, ex := range e.MustDeny {
		d := l.decide(Request{Tool: name, HasSubject: true, Judged: true, Subject: &Subject{Kind: p.kind, Value: ex}, Level: Destructive}, false)
		if d.Allowed {
			errs = append(errs, fmt.Errorf("permission: entry %q must deny %q, but the list allows it", p.entry, ex))
		}
	}
	return errors.Join(errs...)
}

func (p *pattern) entryOr(s string) string {
	if p != nil {
		return p.entry
	}
	return strings.TrimSpace(s)
}

// matchOne reports whether one pattern alone allows the subject,
// lexically (examples are not resolved against the file system).
func (l List) matchOne(p *pattern, s Subject) bool {
	c, ok := prepare(s, "", l.compound)
	return ok.ok() && c.matchGroup([]*pattern{p}, false)
}

// Restricted reports whether the list restricts tool names at all; it is
// false for the zero List.
func (l List) Restricted() bool { return l.restricted }

// Ceiling returns the list's side-effect ceiling; Unknown means none.
func (l List) Ceiling() SideEffect { return l.ceiling }

// CompoundCommands reports whether the compound-command judge is on.
func (l List) CompoundCommands() bool { return l.compound }

// Capped returns l with its side-effect ceiling lowered to level (a
// ceiling is never raised: the lower of the two holds; Unknown leaves l as
// it is). Unrestricted lists can be capped too.
func (l List) Capped(level SideEffect) List {
	l.ceiling = minCeiling(l.ceiling, level)
	return l
}

func minCeiling(a, b SideEffect) SideEffect {
	switch {
	case a == Unknown:
		return b
	case b == Unknown:
		return a
	}
	return min(a, b)
}

// Offers reports whether the list names the tool at all (its name only,
// case-sensitive; patterns and the ceiling are not consulted: use Offered
// for the set of tools to show a model). The zero List offers every tool.
func (l List) Offers(tool string) bool {
	if !l.restricted {
		return true
	}
	_, ok := l.tools[tool]
	return ok
}

// Names returns the tool names the list allows, sorted; nil for the zero
// List.
func (l List) Names() []string {
	if !l.restricted {
		return nil
	}
	names := make([]string, 0, len(l.tools))
	for n := range l.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// String renders the list for logs: entries joined by ", " in the order
// they were given. A tool bound by more than one list (after Intersect)
// shows each list's patterns in brackets joined by " & ". The zero List
// is "(unrestricted)"; an empty restricted list is "(nothing)".
func (l List) String() string {
	var b strings.Builder
	if !l.restricted {
		b.WriteString("(unrestricted)")
	} else if len(l.order) == 0 {
		b.WriteString("(nothing)")
	}
	for i, name := range l.order {
		if i > 0 {
			b.WriteString(", ")
		}
		groups := l.tools[name].groups
		if len(groups) == 0 {
			b.WriteString(name)
			continue
		}
		for j, g := range groups {
			if j > 0 {
				b.WriteString(" & ")
			}
			if len(groups) > 1 {
				b.WriteByte('[')
			}
			for k, p := range g {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString(name + "(" + p.text + ")")
			}
			if len(groups) > 1 {
				b.WriteByte(']')
			}
		}
	}
	if l.ceiling != Unknown {
		b.WriteString(" [ceiling: " + l.ceiling.String() + "]")
	}
	if l.compound {
		b.WriteString(" [compound commands]")
	}
	return b.String()
}

// Intersect returns the list that binds a run started by another (a fork,
// a sub-agent, a skill): a call must be allowed by both caller and own.
// A tool is kept when both lists name it, and its patterns survive: Read
// in one list and Read(/tmp/**) in the other give Read(/tmp/**); two
// different patterns for one tool are both kept, and a call must satisfy
// both. The ceiling is the lower one; the compound-command judge stays on
// only when every restricted list has it on.
//
// The zero List is the identity. When both lists are restricted and share
// no tool, Intersect returns an error and the run must be denied: an empty
// intersection never means "no restriction".
func Intersect(caller, own List) (List, error) {
	ceiling := minCeiling(caller.ceiling, own.ceiling)
	switch {
	case !caller.restricted && !own.restricted:
		return List{ceiling: ceiling}, nil
	case !caller.restricted:
		return own.Capped(ceiling), nil
	case !own.restricted:
		return caller.Capped(ceiling), nil
	}
	out := List{
		restricted: true,
		tools:      map[string]*toolRule{},
		kinds:      own.kinds,
		compound:   caller.compound && own.compound,
		ceiling:    ceiling,
	}
	for _, name := range caller.order {
		o, ok := own.tools[name]
		if !ok {
			continue
		}
		r := &toolRule{}
		for _, g := range slices.Concat(caller.tools[name].groups, o.groups) {
			if !slices.ContainsFunc(r.groups, func(h []*pattern) bool { return sameGroup(g, h) }) {
				r.groups = append(r.groups, g)
			}
		}
		out.tools[name] = r
		out.order = append(out.order, name)
	}
	if len(out.order) == 0 {
		return List{}, fmt.Errorf("permission: the lists share no tool (caller allows %s; own allows %s), so the run is denied",
			namesOrNothing(caller), namesOrNothing(own))
	}
	return out, nil
}

func namesOrNothing(l List) string {
	if n := l.Names(); len(n) > 0 {
		return strings.Join(n, ", ")
	}
	return "nothing"
}

func sameGroup(a, b []*pattern) bool {
	return slices.EqualFunc(a, b, func(p, q *pattern) bool { return p.text == q.text })
}
