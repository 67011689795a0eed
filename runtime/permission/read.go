package permission

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// simpleCommand is one simple command of a command line as bash runs it:
// its environment assignments (NAME=value) and its words, each after quote
// removal. A COMMAND pattern matches the assignments followed by the words.
type simpleCommand struct {
	assigns []string
	args    []string
	// globs, when not nil, marks the arguments that are workspace globs
	// (see globWord): bash expands them to file names.
	globs []bool
	// dir is the directory a leading "cd DIR &&" of a compound line moved
	// into, as written, or "": the command runs there, and Decide allows
	// the line only when dir is inside the request's working directory.
	dir string
}

// words returns the assignments followed by the arguments.
func (c simpleCommand) words() []string {
	if len(c.assigns) == 0 {
		return c.args
	}
	return append(append(make([]string, 0, len(c.assigns)+len(c.args)), c.assigns...), c.args...)
}

// opaque are command names the compound judge always refuses: they run
// code it cannot see (eval, source, exec, command, builtin), or change how
// later commands are read (alias, shopt, set, trap, enable, hash).
var opaque = map[string]bool{
	"eval": true, "source": true, ".": true, "exec": true, "command": true,
	"builtin": true, "enable": true, "trap": true, "alias": true,
	"unalias": true, "shopt": true, "set": true, "hash": true, "fc": true,
	"coproc": true, "bind": true,
}

// stateful are the builtins that change the shell's state for the commands
// after them on the same line: the working directory (cd, pushd, popd),
// variables such as PATH and HOME (read, mapfile, readarray, getopts,
// unset, export, declare, typeset, local, readonly; printf -v), and limits
// (umask, ulimit). A compound line with one of them is refused whatever the
// entries say; alone on its line each is an ordinary command.
var stateful = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "read": true, "mapfile": true,
	"readarray": true, "getopts": true, "unset": true, "export": true,
	"declare": true, "typeset": true, "local": true, "readonly": true,
	"umask": true, "ulimit": true, "shift": true, "let": true,
}

// reserved are bash's reserved words: at the start of a command they are
// syntax, not a command name.
var reserved = map[string]bool{
	"!": true, "case": true, "coproc": true, "do": true, "done": true, "elif": true,
	"else": true, "esac": true, "fi": true, "for": true, "function": true, "if": true,
	"in": true, "select": true, "then": true, "until": true, "while": true, "{": true,
	"}": true, "time": true, "[[": true, "]]": true,
}

// declarations are the builtins bash parses as declarations: their
// arguments are assignments, with tilde expansion after '=' and ':'.
var declarations = map[string]bool{
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true, "let": true,
}

// readLine reads a command line as bash would run it and returns its
// simple commands in order, or a phrase saying why the line is refused.
// Strict mode (compound false) accepts one simple command without
// operators or redirections; compound mode accepts simple commands joined
// by &&, ||, ;, |, |&, newlines, ( ) and { }, with redirections to and from
// /dev/null and duplications of numbered descriptors. In both modes a word
// may hold quotes: text in single quotes, and in double quotes without $
// or backquotes, is literal (awk '{print $1}' is fine). Refused: every
// expansion bash would perform (globs, brace expansion, a tilde where bash
// expands it), $ and backquotes outside single quotes, even escaped,
// control and format characters, comments with a backslash, and any line
// whose parse does not account for every byte.
// A line beyond the bounds of checkBounds (its length, its nesting and
// operator bytes) is refused before it is parsed, so that no line can make
// the parser recurse without end.
func readLine(src string, compound bool) ([]simpleCommand, string) {
	src = strings.Trim(src, " ")
	if why := checkBounds(src); why != "" {
		return nil, why
	}
	if cmd, ok := plainLine(src); ok {
		if compound && opaque[cmd.args[0]] {
			return nil, fmt.Sprintf("the command %q", cmd.args[0])
		}
		return []simpleCommand{cmd}, ""
	}
	return parseLine(src, compound)
}

// parseLine is readLine without the plainLine shortcut.
func parseLine(src string, compound bool) ([]simpleCommand, string) {
	if why := checkBounds(src); why != "" {
		return nil, why
	}
	// In strict mode a newline may stand only inside quotes (a multi-line
	// commit message) or a here-document literal; strictOperators refuses
	// one anywhere else.
	if why := checkChars(src, true); why != "" {
		return nil, why
	}
	if !compound {
		if why := strictOperators(src); why != "" {
			return nil, why
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		if strings.Contains(err.Error(), "without closing quote") {
			return nil, "an unbalanced quote"
		}
		return nil, "a command line that does not parse: " + err.Error()
	}
	r := reader{src: src, compound: compound, covered: make([]bool, len(src))}
	if !compound && len(f.Stmts) > 1 {
		return nil, "more than one command"
	}
	for _, st := range f.Stmts {
		if why := r.stmt(st); why != "" {
			return nil, why
		}
	}
	if why := r.comments(f); why != "" {
		return nil, why
	}
	if why := r.accounted(); why != "" {
		return nil, why
	}
	if len(r.cmds) == 0 {
		return nil, "no command"
	}
	if compound && len(r.cmds) > 1 && r.cmds[0].globs == nil && leadingCd(f, r.cmds[0]) {
		// cd DIR && ...: the rest runs in DIR; cd itself needs no entry,
		// DIR is judged against the working directory by Decide.
		dir := r.cmds[0].args[1]
		r.cmds = r.cmds[1:]
		for i := range r.cmds {
			r.cmds[i].dir = dir
		}
	}
	if len(r.cmds) > 1 || len(r.cmds) == 1 && r.cmds[0].dir != "" {
		for _, c := range r.cmds {
			if changesState(c.args) {
				return nil, fmt.Sprintf("the command %q, which changes the shell's state for the commands after it", c.args[0])
			}
		}
	}
	return r.cmds, ""
}

// leadingCd reports whether the line is one statement whose first simple
// command, first is "cd DIR" (a plain directory, no option, no
// assignment, no redirection), joined to what follows by &&: then nothing
// after it runs unless the cd succeeded.
func leadingCd(f *syntax.File, first simpleCommand) bool {
	if len(f.Stmts) != 1 || len(first.assigns) != 0 || len(first.args) != 2 || first.args[0] != "cd" {
		return false
	}
	if d := first.args[1]; d == "" || d[0] == '-' || d[0] == '~' {
		return false
	}
	st, op := f.Stmts[0], syntax.BinCmdOperator(0)
	for {
		b, ok := st.Cmd.(*syntax.BinaryCmd)
		if !ok || len(st.Redirs) > 0 || st.Negated {
			break
		}
		st, op = b.X, b.Op
	}
	_, call := st.Cmd.(*syntax.CallExpr)
	return call && op == syntax.AndStmt && len(st.Redirs) == 0 && !st.Negated
}

// changesState reports whether a simple command changes the shell's state
// for the commands after it.
func changesState(args []string) bool {
	if stateful[args[0]] {
		return true
	}
	// printf -v NAME assigns NAME; bash's printf has no other option.
	return args[0] == "printf" && len(args) > 1 && strings.HasPrefix(args[1], "-") && args[1] != "--"
}

// plainLine reads the common line that needs no parser: words of letters,
// digits and - _ . / : , @ + % ^ = separated by single or repeated spaces,
// the first without '='. Bash splits such a line at its spaces and expands
// nothing in it. The differential test checks that it reads what the
// parser reads.
func plainLine(s string) (simpleCommand, bool) {
	if s == "" {
		return simpleCommand{}, false
	}
	if w, _, _ := strings.Cut(s, " "); reserved[w] || declarations[w] {
		return simpleCommand{}, false
	}
	n := 1
	first := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if s[i-1] != ' ' {
				n++
			}
			first = false
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '=':
			if first {
				return simpleCommand{}, false
			}
		case strings.IndexByte("-_./:,@+%^", c) >= 0:
		default:
			return simpleCommand{}, false
		}
	}
	args := make([]string, 0, n)
	for f := range strings.SplitSeq(s, " ") {
		if f != "" {
			args = append(args, f)
		}
	}
	return simpleCommand{args: args}, true
}

// checkChars refuses invalid UTF-8, control characters (newline only in
// compound mode), U+2028, U+2029 and Unicode format characters.
func checkChars(s string, newline bool) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == '\n' && newline {
			continue
		}
		if why := badRune(r, size); why != "" {
			return why
		}
	}
	return ""
}

// strictOperators names the first shell operator character outside quotes
// (; | & > < ( )), or $ or a backquote outside single quotes, so that strict
// mode says which character refused a line. The parser decides the rest.
func strictOperators(s string) string {
	const (
		none = iota
		single
		double
	)
	state := none
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch state {
		case single:
			if c == '\'' {
				state = none
			}
			continue
		case double:
			switch c {
			case '"':
				state = none
			case '\\':
				i++
			case '$', '`':
				if c == '$' && i+1 < len(s) && (s[i+1] == '"' || literalAfterDollar(s[i+1])) {
					continue
				}
				if end := heredocLiteral(s, i); end > 0 {
					i = end - 1
					continue
				}
				return fmt.Sprintf("'%c'", c)
			}
			continue
		}
		switch c {
		case '\'':
			state = single
		case '"':
			state = double
		case '\\':
			if i+1 < len(s) && s[i+1] == '\n' {
				return "a line continuation"
			}
			i++
		case '&', '>', '<', '1', '2':
			if n := strictRedirect(s, i); n > 0 {
				i += n - 1
				continue
			}
			if c == '1' || c == '2' {
				continue
			}
			return fmt.Sprintf("'%c'", c)
		case '$':
			if i+1 < len(s) && literalAfterDollar(s[i+1]) {
				continue
			}
			return fmt.Sprintf("'%c'", c)
		case ';', '|', '(', ')', '`':
			return fmt.Sprintf("'%c'", c)
		case '\n':
			return "a newline outside quotes"
		}
	}
	return ""
}

// heredocLiteral returns the index after a command substitution at s[i:]
// that only prints a here-document with a quoted delimiter, written the
// way agents write a commit message:
//
//	"$(cat <<'EOF'
//	text
//	EOF
//	)"
//
// or 0 when s[i:] is not one. The reader checks the same shape in the
// syntax tree and reads the text as the literal it is.
func heredocLiteral(s string, i int) int {
	rest, ok := strings.CutPrefix(s[i:], "$(cat <<")
	if !ok {
		return 0
	}
	dash := strings.HasPrefix(rest, "-")
	if dash {
		rest = rest[1:]
	}
	rest = strings.TrimLeft(rest, " ")
	if rest == "" || (rest[0] != '\'' && rest[0] != '"') {
		return 0
	}
	q := rest[0]
	end := strings.IndexByte(rest[1:], q)
	if end <= 0 {
		return 0
	}
	delim := rest[1 : 1+end]
	for j := 0; j < len(delim); j++ {
		if c := delim[j]; !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return 0
		}
	}
	rest = strings.TrimLeft(rest[2+end:], " ")
	body, ok := strings.CutPrefix(rest, "\n")
	if !ok {
		return 0
	}
	for {
		line, after, found := strings.Cut(body, "\n")
		if !found {
			return 0
		}
		if dash {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim {
			after = strings.TrimLeft(after, " \n")
			if !strings.HasPrefix(after, ")") {
				return 0
			}
			return len(s) - len(after) + 1
		}
		body = after
	}
}

// strictRedirects are the redirections strict mode allows, each a word of
// its own: the standard streams joined or sent to /dev/null, and stdin
// from it. The parser's reading of them is checked again by redirect.
var strictRedirects = []string{"2>&1", "1>&2", ">&2", ">/dev/null", "1>/dev/null", "2>/dev/null", "&>/dev/null", "</dev/null"}

// strictRedirect returns the length of the redirection of strictRedirects
// that stands at s[i] as a word of its own (after a blank or at the start,
// before a blank or at the end), or 0.
func strictRedirect(s string, i int) int {
	if i > 0 && s[i-1] != ' ' {
		return 0
	}
	for _, r := range strictRedirects {
		if strings.HasPrefix(s[i:], r) && (i+len(r) == len(s) || s[i+len(r)] == ' ') {
			return len(r)
		}
	}
	return 0
}

// reader walks the syntax tree of one line.
type reader struct {
	src      string
	compound bool
	cmds     []simpleCommand
	// covered marks the bytes the tree accounts for: words, comments and
	// descriptor numbers. Every other byte must be blank or an operator.
	covered []bool
}

func (r *reader) cover(n syntax.Node) {
	for i := n.Pos().Offset(); i < n.End().Offset() && int(i) < len(r.covered); i++ {
		r.covered[i] = true
	}
}

func (r *reader) stmt(st *syntax.Stmt) string {
	if st.Background || st.Coprocess || st.Disown {
		return "a background command ('&')"
	}
	if !r.compound {
		if st.Negated {
			return "'!'"
		}
		// Redirections are read by redirect below: strictOperators let
		// through only those of strictRedirects.
		switch st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.DeclClause, nil:
		default:
			return fmt.Sprintf("a compound command (%T)", st.Cmd)
		}
	}
	for _, rd := range st.Redirs {
		if why := r.redirect(rd); why != "" {
			return why
		}
	}
	switch c := st.Cmd.(type) {
	case nil:
		return "a redirection without a command"
	case *syntax.CallExpr:
		return r.call(c)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
		default:
			return "the operator " + c.Op.String()
		}
		if why := r.stmt(c.X); why != "" {
			return why
		}
		return r.stmt(c.Y)
	case *syntax.Subshell:
		return r.stmts(c.Stmts)
	case *syntax.Block:
		return r.stmts(c.Stmts)
	case *syntax.FuncDecl:
		return "a function declaration"
	case *syntax.DeclClause:
		return r.decl(c)
	}
	return fmt.Sprintf("a compound command the judge does not read (%T)", st.Cmd)
}

func (r *reader) stmts(sts []*syntax.Stmt) string {
	for _, st := range sts {
		if why := r.stmt(st); why != "" {
			return why
		}
	}
	return ""
}

func (r *reader) call(c *syntax.CallExpr) string {
	if len(c.Args) == 0 {
		return "an assignment without a command"
	}
	var cmd simpleCommand
	for _, a := range c.Assigns {
		if a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Name == nil {
			return "an environment assignment the judge does not read"
		}
		value := ""
		if a.Value != nil {
			if a.Value.Pos().Offset() != a.Name.End().Offset()+1 {
				return "an environment assignment the judge does not read"
			}
			v, why := r.word(a.Value, true)
			if why != "" {
				return why
			}
			value = v
			r.cover(a.Value)
		}
		if r.src[a.Name.Pos().Offset():a.Name.End().Offset()] != a.Name.Value {
			return "an environment assignment the judge does not read"
		}
		r.cover(a)
		cmd.assigns = append(cmd.assigns, a.Name.Value+"="+value)
	}
	for i, w := range c.Args {
		v, why := r.word(w, false)
		if why != "" && i > 0 {
			if raw := r.src[w.Pos().Offset():w.End().Offset()]; globWord(raw) {
				// A glob bash expands to names inside the directory; which
				// operand may hold one is the program's spec's to say.
				v, why = raw, ""
				if cmd.globs == nil {
					cmd.globs = make([]bool, len(c.Args))
				}
				cmd.globs[i] = true
			}
		}
		if why != "" {
			return why
		}
		if i == 0 && reserved[r.src[w.Pos().Offset():w.End().Offset()]] {
			return fmt.Sprintf("the reserved word %q", v)
		}
		r.cover(w)
		cmd.args = append(cmd.args, v)
	}
	if name := cmd.args[0]; name == "" || (r.compound && opaque[name]) {
		return fmt.Sprintf("the command %q", name)
	}
	r.cmds = append(r.cmds, cmd)
	return ""
}

// decl reads a declaration (export, declare, local, readonly, typeset) as
// a simple command: its name, then each argument, NAME=value after quote
// removal. In a compound line it is refused as a state change.
func (r *reader) decl(c *syntax.DeclClause) string {
	if r.src[c.Variant.Pos().Offset():c.Variant.End().Offset()] != c.Variant.Value {
		return "a declaration the judge does not read"
	}
	r.cover(c.Variant)
	cmd := simpleCommand{args: []string{c.Variant.Value}}
	for _, a := range c.Args {
		if a.Append || a.Index != nil || a.Array != nil {
			return "a declaration the judge does not read"
		}
		switch {
		case a.Naked && a.Name != nil && a.Value == nil:
			if r.src[a.Name.Pos().Offset():a.Name.End().Offset()] != a.Name.Value {
				return "a declaration the judge does not read"
			}
			cmd.args = append(cmd.args, a.Name.Value)
		case a.Naked && a.Name == nil && a.Value != nil:
			v, why := r.word(a.Value, false)
			if why != "" {
				return why
			}
			cmd.args = append(cmd.args, v)
		case !a.Naked && a.Name != nil:
			if r.src[a.Name.Pos().Offset():a.Name.End().Offset()] != a.Name.Value {
				return "a declaration the judge does not read"
			}
			value := ""
			if a.Value != nil {
				if a.Value.Pos().Offset() != a.Name.End().Offset()+1 {
					return "a declaration the judge does not read"
				}
				v, why := r.word(a.Value, true)
				if why != "" {
					return why
				}
				value = v
			}
			cmd.args = append(cmd.args, a.Name.Value+"="+value)
		default:
			return "a declaration the judge does not read"
		}
		r.cover(a)
	}
	r.cmds = append(r.cmds, cmd)
	return ""
}

// word returns the value of a word after quote removal, or why it is
// refused: every expansion bash would perform on it, and any word whose
// parts do not spell its source exactly.
func (r *reader) word(w *syntax.Word, assign bool) (string, string) {
	var b strings.Builder
	// braces holds the word's brace characters with their quoting, for the
	// brace-expansion check: '{' and '}' unquoted, '_' for either quoted.
	var braces []byte
	var braceText strings.Builder
	at := w.Pos().Offset()
	lastUnquoted := byte(0)
	for _, part := range w.Parts {
		if part.Pos().Offset() != at {
			return "", "a word the judge cannot read"
		}
		raw := r.src[part.Pos().Offset():part.End().Offset()]
		at = part.End().Offset()
		switch p := part.(type) {
		case *syntax.Lit:
			if raw != p.Value {
				return "", "a line continuation inside a word"
			}
			for i := 0; i < len(raw); i++ {
				c := raw[i]
				if c == '\\' {
					if i+1 == len(raw) {
						return "", "a trailing backslash"
					}
					i++
					b.WriteByte(raw[i])
					braceText.WriteByte('_')
					lastUnquoted = 0
					continue
				}
				switch {
				case strings.IndexByte(" \t\n|&;()<>", c) >= 0:
					return "", fmt.Sprintf("an unquoted '%c' the parser read as part of a word", c)
				case c == '$' && literalDollar(raw, i, false):
				case c == '$' || c == '`':
					return "", fmt.Sprintf("'%c'", c)
				case c == '*' || c == '?' || c == '[':
					return "", fmt.Sprintf("an unquoted '%c'", c)
				case c == '~' && (b.Len() == 0 || lastUnquoted == '=' || lastUnquoted == ':'):
					return "", "an unquoted '~'"
				case c == '{' || c == '}':
					braces = append(braces, c)
				}
				b.WriteByte(c)
				braceText.WriteByte(c)
				lastUnquoted = c
			}
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", "an ANSI-C quoted string ($'...')"
			}
			if raw != "'"+p.Value+"'" {
				return "", "a word the judge cannot read"
			}
			b.WriteString(p.Value)
			braceText.WriteString(strings.Repeat("_", len(p.Value)))
			lastUnquoted = 0
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", "a locale quoted string ($\"...\")"
			}
			if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
				return "", "a word the judge cannot read"
			}
			inner := part.Pos().Offset() + 1
			for _, q := range p.Parts {
				if cs, ok := q.(*syntax.CmdSubst); ok && !r.compound {
					text, why := r.heredocText(cs)
					if why != "" {
						return "", why
					}
					b.WriteString(text)
					braceText.WriteString(strings.Repeat("_", len(text)))
					inner = cs.End().Offset()
					continue
				}
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", "an expansion inside double quotes"
				}
				if l.Pos().Offset() != inner || r.src[inner:l.End().Offset()] != l.Value {
					return "", "a line continuation inside a word"
				}
				inner = l.End().Offset()
				for i := 0; i < len(l.Value); i++ {
					c := l.Value[i]
					switch {
					case c == '$' && literalDollar(l.Value, i, true):
					case c == '$', c == '`':
						return "", fmt.Sprintf("'%c'", c)
					case c == '\\' && i+1 < len(l.Value) && (l.Value[i+1] == '$' || l.Value[i+1] == '`'):
						return "", fmt.Sprintf("'%c'", l.Value[i+1])
					case c == '\\' && i+1 < len(l.Value) && l.Value[i+1] == '\n':
						return "", "a line continuation inside a word"
					case c == '\\':
						if i+1 < len(l.Value) && strings.IndexByte("\"\\", l.Value[i+1]) >= 0 {
							i++
							c = l.Value[i]
						}
					}
					b.WriteByte(c)
					braceText.WriteByte('_')
				}
			}
			if inner != part.End().Offset()-1 {
				return "", "a word the judge cannot read"
			}
			lastUnquoted = 0
		case *syntax.ParamExp:
			return "", "a variable or parameter expansion"
		case *syntax.CmdSubst:
			return "", "a command substitution"
		case *syntax.ArithmExp:
			return "", "an arithmetic expansion"
		case *syntax.ProcSubst:
			return "", "a process substitution"
		case *syntax.ExtGlob:
			return "", "an extended glob"
		default:
			return "", fmt.Sprintf("an expansion (%T)", part)
		}
	}
	if at != w.End().Offset() {
		return "", "a word the judge cannot read"
	}
	if len(braces) > 0 && braceExpands(braceText.String()) {
		return "", "an unquoted '{'"
	}
	return b.String(), ""
}

// braceExpands reports whether bash would brace-expand a word, given with
// its quoted characters replaced by '_': an unquoted '{' whose matching
// '}' encloses a ',' or "..". It errs on the side of yes.
func braceExpands(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				inner := s[i+1 : j]
				if strings.Contains(inner, ",") || strings.Contains(inner, "..") {
					return true
				}
				break
			}
		}
	}
	return false
}

// redirect accepts only redirections that touch no file: to or from
// /dev/null, and duplications and closings of the standard descriptors 0,
// 1 and 2 (2>&1, >&2, <&-). Other descriptors are refused: bash may hold
// one open for itself (BASH_XTRACEFD, a coprocess), and redirecting it
// changes what bash does.
func (r *reader) redirect(rd *syntax.Redirect) string {
	if rd.N != nil {
		if !stdFD(rd.N.Value) || r.src[rd.N.Pos().Offset():rd.N.End().Offset()] != rd.N.Value {
			return "a redirection of a descriptor other than 0, 1 and 2"
		}
		r.cover(rd.N)
	}
	if rd.Word == nil || rd.Hdoc != nil {
		return "a here-document"
	}
	target, why := r.word(rd.Word, false)
	if why != "" {
		return why
	}
	if raw := r.src[rd.Word.Pos().Offset():rd.Word.End().Offset()]; raw != target {
		return "a quoted redirection target"
	}
	r.cover(rd.Word)
	switch rd.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrIn, syntax.RdrClob:
		if target == "/dev/null" {
			return ""
		}
		return "a redirection to a file"
	case syntax.DplOut, syntax.DplIn:
		if stdFD(target) || target == "-" {
			return ""
		}
		return "a redirection to a file"
	}
	return "a here-document or here-string"
}

// comments refuses comments with a backslash (mvdan.cc/sh continues a
// comment over a backslash-newline, bash ends it at the newline) and marks
// the others as accounted for.
func (r *reader) comments(f *syntax.File) string {
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && why == "" {
			if strings.Contains(c.Text, `\`) || strings.Contains(c.Text, "\n") {
				why = "a comment with a backslash"
				return false
			}
			r.cover(c)
		}
		return why == ""
	})
	return why
}

// accounted checks that the tree accounts for every byte of the line:
// what no word, comment or descriptor number covers must be a blank, a
// newline, a backslash-newline or an operator character. A byte the parser
// read some other way is a byte bash may read differently.
func (r *reader) accounted() string {
	for i := 0; i < len(r.src); i++ {
		if r.covered[i] {
			continue
		}
		c := r.src[i]
		switch {
		case c == ' ' || c == '\n':
		case c == '\\' && i+1 < len(r.src) && r.src[i+1] == '\n' && !r.covered[i+1]:
			i++
		case strings.IndexByte(";&|()!{}<>", c) >= 0:
		default:
			return fmt.Sprintf("a part of the line the parser did not account for (%q at byte %d)", c, i)
		}
	}
	return ""
}

// stdFD reports whether s names descriptor 0, 1 or 2.
func stdFD(s string) bool { return s == "0" || s == "1" || s == "2" }

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// literalDollar reports whether the '$' at s[i] is a literal dollar sign
// to bash: followed, in the same literal, by a byte that starts no
// expansion (sed -n "1,/^$/p", grep 'a$' written "a$"), or, inside double
// quotes, by the closing quote. Anything else ($x, ${, $(, $', $", a $
// before another part of the word) is an expansion or may be one.
func literalDollar(s string, i int, quoted bool) bool {
	if i+1 == len(s) {
		return quoted
	}
	return literalAfterDollar(s[i+1])
}

// literalAfterDollar reports whether a '$' before c is literal: c starts
// no expansion.
func literalAfterDollar(c byte) bool {
	return strings.IndexByte("/.,:;])}%+=^~ ", c) >= 0
}

// heredocText returns the text a command substitution inside double
// quotes prints when it is exactly cat reading a here-document whose
// delimiter is quoted (so its body is literal), with the trailing newlines
// a substitution removes; anything else is refused. Only strict mode reads
// it: compound mode refuses every substitution.
func (r *reader) heredocText(cs *syntax.CmdSubst) (string, string) {
	const refused = "a command substitution"
	if len(cs.Stmts) != 1 || heredocLiteral(r.src, int(cs.Pos().Offset())) == 0 {
		return "", refused
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(call.Assigns) != 0 || len(call.Args) != 1 || len(st.Redirs) != 1 {
		return "", refused
	}
	if name := call.Args[0].Lit(); name != "cat" {
		return "", refused
	}
	rd := st.Redirs[0]
	if (rd.Op != syntax.Hdoc && rd.Op != syntax.DashHdoc) || rd.N != nil || rd.Hdoc == nil || len(rd.Word.Parts) != 1 {
		return "", refused
	}
	switch rd.Word.Parts[0].(type) {
	case *syntax.SglQuoted, *syntax.DblQuoted:
	default:
		return "", refused
	}
	var body strings.Builder
	for _, part := range rd.Hdoc.Parts {
		l, ok := part.(*syntax.Lit)
		if !ok {
			return "", refused
		}
		body.WriteString(l.Value)
	}
	text := body.String()
	if rd.Op == syntax.DashHdoc {
		lines := strings.Split(text, "\n")
		for i, line := range lines {
			lines[i] = strings.TrimLeft(line, "\t")
		}
		text = strings.Join(lines, "\n")
	}
	return strings.TrimRight(text, "\n"), ""
}

// globWord reports whether the source text of a word is a glob the judge
// reads: unquoted * and ? only (no brackets, braces, quotes or escapes),
// relative, starting with a letter, digit, '_' or "./" (so that no name
// it expands to reads as an option), without ".." and without a segment
// that starts with a dot and holds a glob character (in bash before 5.2
// .* matches ..).
func globWord(raw string) bool {
	if raw == "" || !strings.ContainsAny(raw, "*?") {
		return false
	}
	if c := raw[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || strings.HasPrefix(raw, "./")) {
		return false
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_./*?-+,:@%", c) >= 0) {
			return false
		}
	}
	for _, seg := range strings.Split(raw, "/") {
		if seg == ".." || strings.HasPrefix(seg, ".") && strings.ContainsAny(seg, "*?") {
			return false
		}
	}
	return true
}

// hasGlob reports whether any argument of c from index from on is a glob.
func (c simpleCommand) hasGlob(from int) bool {
	for i := from; i < len(c.globs); i++ {
		if c.globs[i] {
			return true
		}
	}
	return false
}
