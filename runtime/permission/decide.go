package permission

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

// Denial sentences. Each is a format with one %s, the tool's name; a hint
// may follow after a space. They name the tool and the kind of subject,
// never a pattern and never another tool, so a denial tells the model
// nothing about what else exists.
const (
	// ReasonNotAllowed: the tool is not on the list, or is above the
	// list's side-effect ceiling. The same sentence answers a call to a
	// tool that does not exist, so "unknown" and "not allowed" look alike.
	ReasonNotAllowed = "Tool '%s' is not allowed."
	// ReasonCommand: a COMMAND subject matched no pattern, or was refused.
	ReasonCommand = "Tool '%s' is not allowed to run this command."
	// ReasonPath: a PATH subject matched no pattern, or was refused.
	ReasonPath = "Tool '%s' is not allowed to access this path."
	// ReasonCall: the tool's own rule denied the call, or the call could
	// not be judged by any subject or rule.
	ReasonCall = "Tool '%s' is not allowed to make this call."
)

// Hints appended to a denial sentence when the model can fix the call.
const (
	HintSimpleCommand  = "Run one simple command, without shell operators, expansions or control characters."
	HintCompound       = "Run simple commands joined by &&, ||, ; or |, without substitutions, variables, eval, functions or redirections to files."
	HintAbsolutePath   = "Give an absolute path."
	HintPathCharacters = "The path contains characters that are not allowed."
	HintMissingCommand = "Give the command to run."
	HintMissingPath    = "Give the path."
)

// Request is one call to be judged. The tool package fills it from the
// tool's declared behaviours and the run's tool.Context.
//
// The subject: a tool that declares a subject kind sets HasSubject; when
// its value was read (present, a string, not blank) it sets Subject and
// Judged too. A call is judged by its subject only when Subject is non-nil
// and Judged is true; HasSubject or a non-nil Subject without Judged means
// "declared but cannot be judged", which denies wherever patterns exist.
type Request struct {
	// Tool is the tool's name as the registry normalised it (a leading
	// "functions." already stripped). Names are case-sensitive.
	Tool string
	// Subject is the value the tool hands out, with its kind; nil when the
	// tool declares none or its value could not be read.
	Subject *Subject
	// Judged reports that Subject was read from the input.
	Judged bool
	// HasSubject reports that the tool declares a subject at all.
	HasSubject bool
	// Rule is the tool's own rule, asked once per pattern (the pattern's
	// text between the outer parentheses); nil when the tool has none. It
	// is consulted only when the tool declares no subject. A panic in Rule
	// denies.
	Rule func(pattern string) bool
	// WorkDir is the run's working directory, against which relative PATH
	// subjects are made absolute; "" when the context carries none.
	WorkDir string
	// Level is the tool's side-effect level, checked against the list's
	// ceiling; Unknown exceeds every ceiling.
	Level SideEffect
}

// Decision is the answer to a Request.
type Decision struct {
	// Allowed reports whether the call may run.
	Allowed bool
	// Reason, when denied, is the sentence for the model: one of the
	// Reason* formats filled with the tool's name, maybe with a Hint*.
	Reason string
	// Detail, when denied, says why for the operator's log. It may name
	// patterns and paths; never send it to the model.
	Detail string
}

var allowed = Decision{Allowed: true}

func deny(format, tool, hint, detail string) Decision {
	r := fmt.Sprintf(format, schema.Echo(tool))
	if hint != "" {
		r += " " + hint
	}
	return Decision{Reason: r, Detail: detail}
}

// NotAllowed returns the sentence a call to a tool the list does not offer
// is answered with. Callers answering for tools they did not find use it
// too, so that the wording never tells a present tool from an absent one.
func NotAllowed(tool string) string { return fmt.Sprintf(ReasonNotAllowed, schema.Echo(tool)) }

func reasonFor(k Kind) string {
	switch k {
	case Command:
		return ReasonCommand
	case Path:
		return ReasonPath
	}
	return ReasonCall
}

// ReadsCall reports whether Decide's answer for a call to tool can depend
// on the call itself (its subject or the tool's rule): false when the list
// does not name the tool, or names it without patterns, so that a caller
// may leave Request.Subject and Request.Rule unset and save reading the
// input.
func (l List) ReadsCall(tool string) bool {
	rule := l.tools[tool]
	return rule != nil && len(rule.groups) > 0
}

// Decide answers whether the call may run. In order: a restricted list
// denies a tool it does not name; a ceiling denies a tool above it; a tool
// named without patterns is allowed; otherwise every group of patterns
// (one per list the tool is bound by) must be satisfied, by the subject
// when the tool declares one, else by the tool's rule. Everything that
// cannot be judged denies. Decide never panics.
func (l List) Decide(r Request) Decision {
	if !l.restricted && l.ceiling == Unknown {
		return allowed
	}
	var rule *toolRule
	if l.restricted {
		rule = l.tools[r.Tool]
		if rule == nil {
			return deny(ReasonNotAllowed, r.Tool, "", "the tool is not on the allow-list")
		}
	}
	if !r.Level.within(l.ceiling) {
		return deny(ReasonNotAllowed, r.Tool, "", fmt.Sprintf("the tool's side effect (%s) is above the ceiling (%s)", r.Level, l.ceiling))
	}
	if rule == nil || len(rule.groups) == 0 {
		return allowed
	}
	return l.decideRule(r, rule, true)
}

// decide judges r by the patterns of its tool only (no ceiling). With fs
// false, PATH subjects are judged lexically only.
func (l List) decide(r Request, fs bool) Decision {
	rule := l.tools[r.Tool]
	if rule == nil {
		return deny(ReasonNotAllowed, r.Tool, "", "the tool is not on the allow-list")
	}
	if len(rule.groups) == 0 {
		return allowed
	}
	return l.decideRule(r, rule, fs)
}

func (l List) decideRule(r Request, rule *toolRule, fs bool) (d Decision) {
	if r.HasSubject || r.Subject != nil {
		return l.decideSubject(r, rule, fs)
	}
	if r.Rule == nil {
		return deny(ReasonCall, r.Tool, "", "patterns are configured but the tool gives neither a subject nor a rule")
	}
	defer func() {
		if v := recover(); v != nil {
			d = deny(ReasonCall, r.Tool, "", fmt.Sprintf("the tool's rule panicked: %v", v))
		}
	}()
	for _, g := range rule.groups {
		ok := false
		for _, p := range g {
			if r.Rule(p.text) {
				ok = true
				break
			}
		}
		if !ok {
			return deny(ReasonCall, r.Tool, "", "the tool's rule allowed no pattern of "+groupString(g))
		}
	}
	return allowed
}

func (l List) decideSubject(r Request, rule *toolRule, fs bool) Decision {
	kind := patternKind(rule)
	if r.Subject != nil && r.Subject.Kind.valid() {
		kind = r.Subject.Kind
	}
	if r.Subject == nil || !r.Judged || strings.TrimSpace(r.Subject.Value) == "" {
		hint := ""
		switch kind {
		case Command:
			hint = HintMissingCommand
		case Path:
			hint = HintMissingPath
		}
		return deny(reasonFor(kind), r.Tool, hint, "the subject is missing, mistyped or blank")
	}
	if !r.Subject.Kind.valid() {
		return deny(ReasonCall, r.Tool, "", fmt.Sprintf("the subject has an invalid kind (%s)", r.Subject.Kind))
	}
	c, p := prepare(*r.Subject, r.WorkDir, l.compound)
	if !p.ok() {
		return deny(reasonFor(kind), r.Tool, p.hint, p.detail)
	}
	if fs && c.kind == Command {
		c.env = &specEnv{list: &l, workDir: r.WorkDir, cache: &wsCache{}}
		// A pipe runs its commands at once: any of them may act before
		// another starts (specEnv.others).
		c.piped = len(c.cmds) > 1 && strings.Contains(r.Subject.Value, "|")
	}
	for _, g := range rule.groups {
		if !c.matchGroup(g, false) {
			if c.refused != nil {
				return deny(reasonFor(kind), r.Tool, c.refused.hint, fmt.Sprintf("%q: %s", r.Subject.Value, c.refused.detail))
			}
			return deny(reasonFor(kind), r.Tool, "", fmt.Sprintf("%q matches no pattern of %s", r.Subject.Value, groupString(g)))
		}
	}
	if kind != Path || !fs {
		return allowed
	}
	// The tool opens the cleaned path, so that is the one whose links must
	// be followed; the path as written is followed too (a ".." after a
	// link climbs out of the link's target), and both must match.
	raws := []string{c.lexical}
	if c.raw != c.lexical {
		raws = append(raws, c.raw)
	}
	for _, raw := range raws {
		phys, err := resolve(raw)
		if err != nil {
			return deny(ReasonPath, r.Tool, "", "the path cannot be resolved: "+err.Error())
		}
		if phys == c.lexical {
			continue
		}
		c.physical = phys
		for _, g := range rule.groups {
			if !c.matchGroup(g, true) {
				return deny(ReasonPath, r.Tool, "", fmt.Sprintf("%q resolves through a symbolic link to %q, which matches no pattern of %s", c.lexical, phys, groupString(g)))
			}
		}
	}
	return allowed
}

// patternKind returns the kind the tool's patterns were declared with, or 0.
func patternKind(rule *toolRule) Kind {
	for _, g := range rule.groups {
		for _, p := range g {
			if p.kind.valid() {
				return p.kind
			}
		}
	}
	return 0
}

func groupString(g []*pattern) string {
	s := make([]string, len(g))
	for i, p := range g {
		s[i] = p.entry
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// problem is why a subject cannot be judged; the zero problem is none.
type problem struct {
	hint, detail string
}

func (p problem) ok() bool { return p.detail == "" }

// candidate is a subject prepared for matching.
type candidate struct {
	kind     Kind
	cmds     []simpleCommand // COMMAND: the simple commands, each must match
	piped    bool            // COMMAND: the line has more than one command and a '|'
	raw      string          // PATH: absolute, as given (for symlink resolution)
	lexical  string          // PATH: absolute and clean
	physical string          // PATH: symlinks resolved, once the lexical path matched
	workDir  string          // PATH: the request's working directory, the workspace
	env      *specEnv        // COMMAND: what typed arguments are judged against; nil: lexically
	refused  *refusal        // COMMAND: why a spec refused an argument of a command whose words matched
}

func prepare(s Subject, workDir string, compound bool) (candidate, problem) {
	c := candidate{kind: s.Kind}
	switch s.Kind {
	case Command:
		cmds, why := readLine(s.Value, compound)
		switch {
		case why != "" && compound:
			return c, problem{HintCompound, "the command is refused: " + why}
		case why != "":
			return c, problem{HintSimpleCommand, "the command contains " + why}
		}
		for _, cmd := range cmds {
			if cmd.dir != "" {
				if why := cdInside(cmd.dir, workDir); why != "" {
					return c, problem{HintCompound, "the command is refused: " + why}
				}
				break
			}
		}
		c.cmds = cmds
	case Path:
		lex, err := AbsPath(s.Value, workDir)
		switch {
		case errors.Is(err, errRelative):
			return c, problem{HintAbsolutePath, "a relative path without a working directory"}
		case err != nil:
			return c, problem{HintPathCharacters, err.Error()}
		}
		c.lexical = lex
		c.raw = s.Value
		if workDir != "" && strings.HasPrefix(workDir, "/") {
			c.workDir = path.Clean(workDir)
		}
		if !strings.HasPrefix(c.raw, "/") {
			c.raw = workDir + "/" + c.raw
		}
	}
	return c, problem{}
}

// cdInside returns why a leading "cd dir &&" leaves the working directory
// workDir (the workspace), or "": dir must lie inside it as written (no
// "..") and where its links lead. A dir that does not exist is fine: cd
// fails, and && runs nothing after it.
func cdInside(dir, workDir string) string {
	if workDir == "" || !strings.HasPrefix(workDir, "/") {
		return "cd without a working directory to judge it against"
	}
	for _, seg := range strings.Split(dir, "/") {
		if seg == ".." {
			return fmt.Sprintf("cd %s, which climbs out with ..", dir)
		}
	}
	ws := path.Clean(workDir)
	abs := dir
	if !strings.HasPrefix(abs, "/") {
		abs = path.Join(ws, dir)
	}
	abs = path.Clean(abs)
	if abs != ws && !strings.HasPrefix(abs, strings.TrimSuffix(ws, "/")+"/") {
		return fmt.Sprintf("cd %s, outside the working directory", dir)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return fmt.Sprintf("cd %s, which cannot be resolved", dir)
	}
	realWS, err := filepath.EvalSymlinks(ws)
	if err != nil {
		realWS = ws
	}
	if real != realWS && !strings.HasPrefix(real, strings.TrimSuffix(realWS, "/")+"/") {
		return fmt.Sprintf("cd %s, whose links lead outside the working directory", dir)
	}
	return ""
}

// matchGroup reports whether the candidate satisfies one group: for a
// command, every simple command matches one of its patterns; for a path,
// the lexical (or, with physical, the resolved) path matches one.
func (c *candidate) matchGroup(g []*pattern, physical bool) bool {
	switch c.kind {
	case Command:
		for i, cmd := range c.cmds {
			if c.env != nil {
				c.env.others = i > 0 || c.piped
			}
			if !c.anyCommand(g, cmd) {
				return false
			}
		}
		return len(c.cmds) > 0
	case Path:
		p := c.lexical
		if physical {
			p = c.physical
		}
		for _, pat := range g {
			if pat.judgesPaths() && pat.path.match(p) {
				return true
			}
		}
		if physical {
			for _, pat := range g {
				if pat.judgesPaths() && pat.path.matchResolved(p, c.workDir) {
					return true
				}
			}
		}
	}
	return false
}

// judgesPaths reports whether p is a PATH pattern: declared so, or of a
// tool of undeclared kind and valid as one.
func (p *pattern) judgesPaths() bool { return (p.kind == Path || p.kind == 0) && p.pathOK }

func (c *candidate) anyCommand(g []*pattern, cmd simpleCommand) bool {
	for _, pat := range g {
		if (pat.kind == Command || pat.kind == 0) && pat.cmdOK {
			ok, r := pat.cmd.judge(cmd, c.env)
			if ok {
				return true
			}
			if r != nil && c.refused == nil {
				c.refused = r
			}
		}
	}
	return false
}
