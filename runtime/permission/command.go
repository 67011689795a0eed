package permission

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// wildcard ends a COMMAND pattern that matches a prefix.
const wildcard = ":*"

// commandPattern is a parsed COMMAND pattern: a simple command, read as
// bash reads it, matched exactly or (written with a trailing ":*") as a
// prefix of a candidate's words.
type commandPattern struct {
	text   string
	prefix bool
	// words are the pattern's assignments and words after quote removal.
	words []string
	// assigns is how many of words are assignments.
	assigns int
	// named are the risky arguments (see risky.go) the pattern's own words
	// use; a candidate may repeat them after the pattern.
	named []hit
	// spec is the program's spec (see spec.go) for a prefix pattern of a
	// program the judge knows, and specNamed what the pattern's own words
	// name of it: the arguments after the pattern's words are judged by
	// the spec instead of the risk table.
	spec      *spec
	specNamed map[string]bool
}

// parseCommandPattern validates p as a COMMAND pattern. Its errors are
// clauses completed by the caller with the entry they belong to.
func parseCommandPattern(p string) (commandPattern, error) {
	text, prefix := strings.CutSuffix(p, wildcard)
	if strings.Contains(text, wildcard) {
		return commandPattern{}, errors.New(`":*" may only end the pattern, as in git:*`)
	}
	if prefix && text == "" {
		return commandPattern{}, errors.New(`the command prefix before ":*" is empty; write a command before it, as in git:*`)
	}
	if strings.TrimSpace(text) != text {
		return commandPattern{}, errors.New("the command has leading or trailing spaces; remove them")
	}
	cmds, why := readLine(text, false)
	if why != "" {
		return commandPattern{}, fmt.Errorf("a COMMAND pattern may not contain %s; allow each simple command in an entry of its own", why)
	}
	c := cmds[0]
	if c.hasGlob(0) {
		return commandPattern{}, errors.New("a COMMAND pattern may not contain an unquoted '*' or '?'; quote it to match it literally")
	}
	cp := commandPattern{text: text, prefix: prefix, words: c.words(), assigns: len(c.assigns), named: scanRisks(c.args)}
	if s := specOf(c.args[0]); s != nil && prefix {
		cp.spec, cp.specNamed = s, specNamed(s, c.args)
	}
	return cp, nil
}

// harmlessEnv are the environment variables an assignment before a command
// may set without an entry naming it: they choose a build's target, a
// mode, a locale, a time zone or colours, and load no code. GOFLAGS,
// NODE_OPTIONS, PYTHONPATH, LD_PRELOAD, PATH and every other name still
// need an entry that names the assignment.
var harmlessEnv = map[string]bool{
	"GOOS": true, "GOARCH": true, "CGO_ENABLED": true, "NODE_ENV": true, "RUST_BACKTRACE": true,
	"LC_ALL": true, "LANG": true, "TZ": true, "NO_COLOR": true, "CI": true,
}

// harmlessAssigns returns the assignments that are not harmless, and true
// when every assignment was harmless and so nothing remains; a value is
// harmless when it is a plain word (letters, digits and . _ - / : +).
func harmlessAssigns(assigns []string) ([]string, bool) {
	for _, a := range assigns {
		name, value, _ := strings.Cut(a, "=")
		if !harmlessEnv[name] || strings.IndexFunc(value, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("._-/:+", r))
		}) >= 0 {
			return assigns, false
		}
	}
	return nil, true
}

// String returns the pattern as written.
func (p commandPattern) String() string {
	if p.prefix {
		return p.text + wildcard
	}
	return p.text
}

// match reports whether the simple command, as read by readLine, matches
// the pattern, judging paths lexically and without the list (see judge).
func (p commandPattern) match(c simpleCommand) bool {
	ok, _ := p.judge(c, nil)
	return ok
}

// judge reports whether the simple command, as read by readLine, matches
// the pattern: its words equal the pattern's, or, for a prefix pattern,
// begin with them, and the arguments after them are allowed: by the
// program's spec where the judge has one (see spec.go), typed paths
// judged against env (nil: lexically, without a list), or else by using
// no risky argument (see risky.go) that the pattern does not name. When
// the words match and the spec refuses an argument, the refusal says why.
func (p commandPattern) judge(c simpleCommand, env *specEnv) (bool, *refusal) {
	if p.assigns == 0 && len(c.assigns) > 0 {
		// A pattern without assignments ignores the harmless ones
		// (CGO_ENABLED=0 go build matches go build:*).
		if rest, ok := harmlessAssigns(c.assigns); ok {
			c.assigns = rest
		}
	}
	n := len(c.assigns) + len(c.args)
	if n < len(p.words) || (!p.prefix && n != len(p.words)) {
		return false, nil
	}
	for i, w := range p.words {
		if i < len(c.assigns) {
			if c.assigns[i] != w {
				return false, nil
			}
		} else if j := i - len(c.assigns); c.args[j] != w || j < len(c.globs) && c.globs[j] {
			return false, nil
		}
	}
	if len(c.assigns) != p.assigns {
		return false, nil
	}
	if n == len(p.words) {
		return true, nil
	}
	if p.spec == nil && c.hasGlob(0) {
		return false, &refusal{
			hint:   "A glob ('*' or '?') is expanded only among the file operands of a program the judge knows; quote it to pass it literally.",
			detail: "a glob in the arguments of a program without a spec",
		}
	}
	if p.spec != nil {
		e := specEnv{dir: c.dir, globs: c.globs}
		if env != nil {
			e.list, e.workDir, e.cache, e.others = env.list, env.workDir, env.cache, env.others
		}
		if r := judgeSpec(p.spec, c.args, len(p.words)-p.assigns, p.specNamed, &e); r != nil {
			return false, r
		}
		return true, nil
	}
	return p.allowsRisks(c.args), nil
}

// allowsRisks reports whether the risky arguments of args beyond the
// pattern's own words are all named by the pattern.
func (p commandPattern) allowsRisks(args []string) bool {
	own := len(p.words) - p.assigns
	for _, h := range scanRisks(args) {
		if h.at < own {
			continue
		}
		if h.key == "" || !slices.ContainsFunc(p.named, func(n hit) bool { return n.key == h.key }) {
			return false
		}
	}
	return true
}

// firstWord returns the command name of the pattern, after quote removal.
func (p commandPattern) firstWord() string {
	return p.words[p.assigns]
}

// MatchCommand reports whether the command line cmd is allowed by the
// COMMAND pattern pattern under the strict rule (one simple command). The
// error is for a pattern that is not a valid COMMAND pattern.
func MatchCommand(pattern, cmd string) (bool, error) {
	p, err := parseCommandPattern(pattern)
	if err != nil {
		return false, fmt.Errorf("permission: pattern %q: %w", pattern, err)
	}
	cmds, why := readLine(cmd, false)
	return why == "" && p.match(cmds[0]), nil
}
