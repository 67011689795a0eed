package permission

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Finding is one thing Lint reports about an entry.
type Finding struct {
	// Entry is the entry as written.
	Entry string
	// Message says what is wrong and what to do.
	Message string
}

// String returns "entry: message".
func (f Finding) String() string { return f.Entry + ": " + f.Message }

// Lint reports entries that allow more than they seem to or can never
// match: every ":*" COMMAND entry of a command in the command table (see
// risky.go) with the arguments that make it broad (Bash(find:*) and -exec,
// Bash(sort:*) and --compress-program, Bash(git:*) and -c, hooks and
// aliases), and those of runners and interpreters (env, xargs, timeout,
// sudo, shells, python, node, make, ...) as arbitrary execution; patterns
// that can never match (a path pattern requiring a backslash, a command
// the compound judge refuses); patterns only a tool's own rule can judge;
// names that differ only in case from a known tool; redundant and shadowed
// entries. Lint reads the file system to check the fixed directories of
// PATH patterns. Findings come in list order.
func Lint(l List) []Finding {
	out := append([]Finding(nil), l.notes...)
	for _, name := range l.order {
		if _, known := l.kinds[name]; !known {
			for k := range l.kinds {
				if strings.EqualFold(k, name) {
					out = append(out, Finding{Entry: name, Message: fmt.Sprintf("tool names are case-sensitive; did you mean %s?", k)})
				}
			}
		}
		for _, g := range l.tools[name].groups {
			for _, p := range g {
				out = append(out, lintPattern(l, p, g)...)
			}
		}
	}
	return out
}

func lintPattern(l List, p *pattern, group []*pattern) []Finding {
	var out []Finding
	add := func(format string, args ...any) {
		out = append(out, Finding{Entry: p.entry, Message: fmt.Sprintf(format, args...)})
	}
	isCmd := p.kind == Command || (p.kind == 0 && p.cmdOK && !p.pathOK)
	isPath := p.kind == Path || (p.kind == 0 && p.pathOK)
	if p.kind == 0 && !p.cmdOK && !p.pathOK {
		add("the pattern is neither a COMMAND nor a PATH pattern; only the tool's own rule can match it")
	}
	if isCmd {
		out = append(out, lintCommand(l, p, group)...)
	}
	if isPath {
		if strings.Contains(p.path.glob, `\\`) {
			add("can never match: paths with backslashes are refused")
		}
		// A fixed directory reached through a link is fine: the judge
		// follows the pattern's own directory too (see matchResolved).
		base, _ := doublestar.SplitPattern(p.path.glob)
		if _, err := filepath.EvalSymlinks(base); err != nil && !os.IsNotExist(err) {
			add("cannot be checked: %v", err)
		}
	}
	return out
}

func lintCommand(l List, p *pattern, group []*pattern) []Finding {
	var out []Finding
	add := func(format string, args ...any) {
		out = append(out, Finding{Entry: p.entry, Message: fmt.Sprintf(format, args...)})
	}
	args := p.cmd.words[p.cmd.assigns:]
	name := p.cmd.firstWord()
	if s := p.cmd.spec; s != nil {
		for _, m := range lintSpec(s, args) {
			add("%s", m)
		}
	} else if r := riskOf(name); r != nil && p.cmd.prefix {
		base := path.Base(name)
		node, open := reach(r, args)
		var named *hit
		for i, h := range p.cmd.named {
			if h.does != runsArgs && h.does != runsScript {
				named = &p.cmd.named[i]
				break
			}
		}
		switch {
		case node != nil && open && node.operand != "":
			add("allows arbitrary execution in practice: %s %s; allow the exact commands needed instead", base, node.operand)
		case named != nil:
			add("allows arbitrary execution in practice: the entry names %s, which %s; allow the exact commands needed instead", args[named.at], named.does)
		case node == nil || !open:
		case node.whole != "":
			add("allows arbitrary execution in practice: %s %s; allow the exact commands needed instead", base, node.whole)
		default:
			if node.note != "" {
				add("allows arbitrary execution in practice: %s %s; allow the exact commands needed instead", base, node.note)
			}
			if list := node.riskList(); list != "" {
				add("reaches beyond its name through %s; the judge denies a call that uses one of these unless the entry names it", list)
			}
		}
	}
	if p.cmd.prefix && p.cmd.spec == nil && riskOf(name) == nil && len(args) > 0 && !strings.Contains(name, "/") {
		add("the judge has no spec of %s: any option and operand is allowed after the entry's words", path.Base(name))
	}
	if l.compound && opaque[name] {
		add("can never match: the compound-command judge refuses %s", name)
	}
	self := simpleCommand{assigns: p.cmd.words[:p.cmd.assigns], args: args}
	for _, q := range group {
		if q != p && q.cmdOK && q.cmd.prefix && (q.kind == Command || q.kind == 0) && q.cmd.match(self) && !(p.cmd.prefix && slices.Equal(p.cmd.words, q.cmd.words)) {
			add("is redundant: %s already allows it", q.entry)
			break
		}
	}
	return out
}

// reach follows a pattern's words through the command table and returns
// the (sub)command they reach and whether more arguments would still be
// read as its options or operands: false when the words already hold the
// operand after which the command's options end (an interpreter's script).
func reach(r *commandRisk, args []string) (*commandRisk, bool) {
	value := false
	operands := 0
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case value:
			value = false
			continue
		case a == "--" || (len(a) > 1 && a[0] == '-'):
			value = r.option(a, i, nil, new([]hit))
			continue
		case r.assignOperands && strings.Contains(a, "=") && operands == 0:
			continue
		}
		operands++
		if r.subs != nil && operands == 1 {
			if sub := r.subs[a]; sub != nil {
				return reach(sub, args[i:])
			}
			if !r.inherit {
				return nil, false
			}
		}
		if r.endAtOperand && operands > r.skip {
			return r, false
		}
	}
	return r, true
}

// riskList lists a command's risky options and subcommands for Lint:
// options grouped by what they do, subcommands that are risky whatever
// their arguments, and subcommands with risky options.
func (r *commandRisk) riskList() string {
	var parts []string
	var order []string
	byDoes := map[string][]string{}
	for _, o := range r.opts {
		if byDoes[o.does] == nil {
			order = append(order, o.does)
		}
		byDoes[o.does] = append(byDoes[o.does], o.name)
	}
	for _, d := range order {
		parts = append(parts, strings.Join(byDoes[d], ", ")+" ("+d+")")
	}
	if r.plus != "" {
		parts = append(parts, "+command ("+r.plus+")")
	}
	if r.script != nil {
		parts = append(parts, "commands in its script")
	}
	var whole, withOpts []string
	for name, s := range r.subs {
		switch {
		case s.whole != "":
			whole = append(whole, name)
		case len(s.opts) > 0 || s.script != nil:
			withOpts = append(withOpts, name)
		}
		for sn, ss := range s.subs {
			if ss.whole != "" {
				whole = append(whole, name+" "+sn)
			}
		}
	}
	sort.Strings(whole)
	sort.Strings(withOpts)
	if len(whole) > 0 {
		parts = append(parts, "the subcommands "+strings.Join(whole, ", "))
	}
	if len(withOpts) > 0 {
		parts = append(parts, "options of "+strings.Join(withOpts, ", "))
	}
	return strings.Join(parts, "; ")
}

// lintSpec reports what a ":*" entry of a program with a spec allows
// beyond its words: a refused argument the entry names itself, scripts
// the agent can write, and the project's code the program runs.
func lintSpec(s *spec, args []string) (out []string) {
	p := parseSpec(s, args)
	defer func() {
		if len(out) > 0 {
			return // arbitrary execution says more than the project's code
		}
		for _, n := range p.notes {
			out = append(out, fmt.Sprintf("runs the project's own code (%s %s): what that code does is the sandbox's to contain, not the judge's", strings.Join(p.chain, " "), n))
		}
	}()
	for _, a := range p.args {
		if a.unknown || (a.typ == tCode && a.key != "--") {
			does := "is not in the judge's spec"
			if !a.unknown {
				does = "runs code given on the command line"
				if a.opt != nil && a.opt.does != "" {
					does = a.opt.does
				}
			}
			out = append(out, fmt.Sprintf("allows arbitrary execution in practice: the entry names %s, which %s; allow the exact commands needed instead", args[a.at], does))
			break
		}
		if a.key == "--" && a.typ == tLit && p.last.dashDashType == tCode {
			out = append(out, fmt.Sprintf("allows arbitrary execution in practice: the entry names --, after which %s passes every argument to the script's interpreter; allow the exact commands needed instead", strings.Join(p.chain, " ")))
			break
		}
	}
	switch {
	case p.whole != "":
		out = append(out, fmt.Sprintf("allows arbitrary execution in practice: the entry names %s, which %s; allow the exact commands needed instead", strings.Join(p.chain, " "), p.whole))
	case p.stop >= 0:
		out = append(out, fmt.Sprintf("the judge has no spec of %s: any option and operand is allowed after the entry's words", strings.Join(p.chain, " ")))
	case len(p.last.operands) > 0 && p.last.operands[0] == tProject && p.operands == 0:
		out = append(out, fmt.Sprintf("allows arbitrary execution in practice: %s runs any script inside the working directory, and the agent may write one; allow the exact commands needed instead", strings.Join(p.chain, " ")))
	}
	return out
}
