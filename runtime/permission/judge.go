package permission

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// opaque are command names the compound judge always refuses: they run
// code it cannot see (eval, source, exec, command, builtin), or change how
// later commands are read (alias, shopt, set, trap, enable, hash).
var opaque = map[string]bool{
	"eval": true, "source": true, ".": true, "exec": true, "command": true,
	"builtin": true, "enable": true, "trap": true, "alias": true,
	"unalias": true, "shopt": true, "set": true, "hash": true, "fc": true,
	"coproc": true, "bind": true,
}

// splitCompound parses a command line with the bash grammar and returns
// its simple commands, each rebuilt from its words (as written, joined by
// single spaces) for the COMMAND matcher, or a phrase saying what it
// refused. It refuses anything it cannot see through; see the package
// documentation.
func splitCompound(src string) ([]string, string) {
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			return nil, "invalid UTF-8"
		case r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return nil, fmt.Sprintf("a control character (%U)", r)
		case r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r):
			return nil, fmt.Sprintf("a Unicode format character (%U)", r)
		}
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return nil, "a command line that does not parse: " + err.Error()
	}
	j := judge{src: src}
	for _, st := range f.Stmts {
		if why := j.stmt(st); why != "" {
			return nil, why
		}
	}
	if len(j.cmds) == 0 {
		return nil, "no command"
	}
	return j.cmds, ""
}

type judge struct {
	src  string
	cmds []string
}

func (j *judge) stmt(st *syntax.Stmt) string {
	if st.Background || st.Coprocess || st.Disown {
		return "a background command"
	}
	for _, rd := range st.Redirs {
		if why := redirect(rd); why != "" {
			return why
		}
	}
	switch c := st.Cmd.(type) {
	case nil:
		return "a redirection without a command"
	case *syntax.CallExpr:
		return j.call(c)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
		default:
			return "the operator " + c.Op.String()
		}
		if why := j.stmt(c.X); why != "" {
			return why
		}
		return j.stmt(c.Y)
	case *syntax.Subshell:
		return j.stmts(c.Stmts)
	case *syntax.Block:
		return j.stmts(c.Stmts)
	case *syntax.FuncDecl:
		return "a function declaration"
	case *syntax.DeclClause:
		return "a declaration (" + c.Variant.Value + ")"
	}
	return fmt.Sprintf("a compound command the judge does not read (%T)", st.Cmd)
}

func (j *judge) stmts(sts []*syntax.Stmt) string {
	for _, st := range sts {
		if why := j.stmt(st); why != "" {
			return why
		}
	}
	return ""
}

func (j *judge) call(c *syntax.CallExpr) string {
	if len(c.Assigns) > 0 {
		return "an environment assignment"
	}
	words := make([]string, len(c.Args))
	for i, w := range c.Args {
		if why := plainWord(w); why != "" {
			return why
		}
		words[i] = j.src[w.Pos().Offset():w.End().Offset()]
	}
	if name := unquote(c.Args[0]); opaque[name] || name == "" {
		return fmt.Sprintf("the command %q", name)
	}
	line := strings.Join(words, " ")
	if _, why := checkCommand(line, false); why != "" {
		return why
	}
	j.cmds = append(j.cmds, line)
	return ""
}

// plainWord accepts a word made of literals and quotes without expansions.
func plainWord(w *syntax.Word) string {
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
		case *syntax.SglQuoted:
			if p.Dollar {
				return "an ANSI-C quoted string ($'...')"
			}
		case *syntax.DblQuoted:
			if p.Dollar {
				return "a locale quoted string ($\"...\")"
			}
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return "an expansion inside double quotes"
				}
			}
		case *syntax.ParamExp:
			return "a variable or parameter expansion"
		case *syntax.CmdSubst:
			return "a command substitution"
		case *syntax.ArithmExp:
			return "an arithmetic expansion"
		case *syntax.ProcSubst:
			return "a process substitution"
		case *syntax.ExtGlob:
			return "an extended glob"
		default:
			return fmt.Sprintf("an expansion (%T)", part)
		}
	}
	return ""
}

// unquote returns the value of a plain word with its quotes removed.
func unquote(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

// redirect accepts only redirections that touch no file: to or from
// /dev/null, and duplications of numbered descriptors (2>&1, >&2, <&-).
func redirect(rd *syntax.Redirect) string {
	if rd.N != nil && !digits(rd.N.Value) {
		return "a redirection to a named descriptor"
	}
	if rd.Word == nil {
		return "a here-document"
	}
	target := rd.Word.Lit()
	switch rd.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrIn, syntax.RdrClob:
		if target == "/dev/null" {
			return ""
		}
		return "a redirection to a file"
	case syntax.DplOut, syntax.DplIn:
		if digits(target) || target == "-" {
			return ""
		}
		return "a redirection to a file"
	}
	return "a here-document or here-string"
}

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
