package permission

import (
	"path"
	"strings"
)

// hit is one risky argument of a command line: its index among the
// arguments, the option it uses ("" for an operand, a subcommand or a
// script) and what it does.
type hit struct {
	at   int
	key  string
	does string
}

// riskOf returns the table entry of a command name: its base name, so that
// /usr/bin/find is find.
func riskOf(name string) *commandRisk {
	if r := risks[name]; r != nil {
		return r
	}
	if strings.Contains(name, "/") {
		return risks[path.Base(name)]
	}
	return nil
}

// scanRisks returns the risky arguments of a simple command's arguments
// (args[0] is the command name), by the command table.
func scanRisks(args []string) []hit {
	r := riskOf(args[0])
	if r == nil {
		return nil
	}
	var hits []hit
	r.scan(args, 1, nil, &hits)
	return hits
}

// scan appends the risky arguments of args[i:] to hits, for the command r
// named by args[i-1]. inherited are options in force from a parent command.
func (r *commandRisk) scan(args []string, i int, inherited []riskyOption, hits *[]hit) {
	if r.whole != "" {
		*hits = append(*hits, hit{at: i - 1, does: r.whole})
	}
	if r.script != nil {
		for _, h := range r.script(args[i:]) {
			h.at += i
			*hits = append(*hits, h)
		}
	}
	options := r.opts
	if len(inherited) > 0 {
		options = append(append([]riskyOption(nil), inherited...), r.opts...)
	}
	done, value := false, false
	operands := 0
	for first := i; i < len(args); i++ {
		a := args[i]
		switch {
		case value:
			value = false
			continue
		case done:
		case a == "--" && !r.noDashDash:
			done = true
			if r.afterDashDash != "" && i+1 < len(args) {
				*hits = append(*hits, hit{at: i, key: "--", does: r.afterDashDash})
			}
			continue
		case r.plus != "" && strings.HasPrefix(a, "+"):
			*hits = append(*hits, hit{at: i, key: "+", does: r.plus})
			continue
		case len(a) > 1 && a[0] == '-':
			value = r.option(a, i, options, hits)
			continue
		case i == first && r.firstCluster:
			value = r.option("-"+a, i, options, hits)
			continue
		}
		// An operand.
		if r.assignOperands && strings.Contains(a, "=") && operands == 0 {
			continue
		}
		if r.assignRuns != "" && strings.Contains(a, "=") {
			*hits = append(*hits, hit{at: i, does: r.assignRuns})
			continue
		}
		if r.pathOperands != "" && reachesOut(a) {
			*hits = append(*hits, hit{at: i, does: r.pathOperands})
		}
		operands++
		if r.subs != nil && operands == 1 {
			if sub := r.subs[a]; sub != nil {
				var keep []riskyOption
				if r.inherit {
					keep = options
				}
				sub.scan(args, i+1, keep, hits)
				return
			}
			if !r.inherit {
				return
			}
		}
		if r.operand != "" && operands == r.skip+1 {
			*hits = append(*hits, hit{at: i, does: r.operand})
		}
		if r.endAtOperand && operands > r.skip {
			return
		}
	}
}

// option records the risky options in the option argument a and reports
// whether the next argument is its value.
func (r *commandRisk) option(a string, i int, options []riskyOption, hits *[]hit) bool {
	add := func(o riskyOption) { *hits = append(*hits, hit{at: i, key: o.name, does: o.does}) }
	if strings.HasPrefix(a, "--") && !r.singleDash {
		name, _, eq := strings.Cut(a[2:], "=")
		if name == "" {
			return false
		}
		for _, o := range options {
			if long, ok := strings.CutPrefix(o.name, "--"); ok && (long == name || (r.abbrev && strings.HasPrefix(long, name))) {
				add(o)
			}
		}
		return !eq && matchesAny(r.longValues, "--"+name, r.abbrev)
	}
	name, _, eq := strings.Cut(a, "=")
	if r.singleDash {
		name = "-" + strings.TrimLeft(name, "-")
	}
	for _, o := range options {
		if !strings.HasPrefix(o.name, "--") && (len(o.name) > 2 || r.singleDash) && o.name == name {
			add(o)
		}
	}
	if r.singleDash {
		return !eq && matchesAny(r.longValues, name, false)
	}
	for j := 1; j < len(a); j++ {
		c := a[j]
		for _, o := range options {
			if len(o.name) == 2 && o.name[0] == '-' && o.name[1] == c {
				add(o)
			}
		}
		if strings.IndexByte(r.values, c) >= 0 {
			return j == len(a)-1
		}
	}
	return false
}

// reachesOut reports whether an operand, read as a path, may lie outside
// the working directory's tree: absolute, from a home directory, or
// climbing out with "..".
func reachesOut(a string) bool {
	return strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~") || a == ".." ||
		strings.HasPrefix(a, "../") || strings.Contains(a, "/../") || strings.HasSuffix(a, "/..")
}

func matchesAny(names []string, name string, abbrev bool) bool {
	for _, n := range names {
		if n == name || (abbrev && strings.HasPrefix(n, name)) {
			return true
		}
	}
	return false
}

// sedScript returns what a sed script does beyond editing its output (runs
// a command, reads or writes a file), or "" when it does none of that. A
// script it cannot read is treated as doing the worst.
func sedScript(s string) string {
	const unread = "is a sed script the judge cannot read"
	i, n := 0, len(s)
	skip := func(set string) {
		for i < n && strings.IndexByte(set, s[i]) >= 0 {
			i++
		}
	}
	// toEnd skips to the next byte in stop. A backslash escapes the next
	// byte only in the text of a, i and c (escaped is true there): GNU sed
	// ends a comment or a label at the newline whatever precedes it, so a
	// backslash must not hide that newline and the command after it.
	toEnd := func(stop string, escaped bool) {
		for i < n && strings.IndexByte(stop, s[i]) < 0 {
			if escaped && s[i] == '\\' {
				i++
			}
			i++
		}
	}
	for {
		skip(" \t\n;")
		if i >= n {
			return ""
		}
		for k := 0; k < 2; k++ {
			if i = sedAddress(s, i); i < 0 {
				return unread
			}
			if k == 0 && i < n && s[i] == ',' {
				i++
				continue
			}
			break
		}
		skip(" \t")
		if i < n && s[i] == '!' {
			i++
			skip(" \t")
		}
		if i >= n {
			return unread
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			skip(" \t0123456789")
		case ':', 'b', 't', 'T', 'v':
			skip(" \t")
			toEnd(";\n", false)
		case '#':
			toEnd("\n", false)
		case 'a', 'i', 'c':
			toEnd("\n", true)
		case 'r', 'R':
			return "reads a file (sed r)"
		case 'w', 'W':
			return "writes a file (sed w)"
		case 'e':
			return "runs a command (sed e)"
		case 's', 'y':
			if i >= n || s[i] == '\\' || s[i] == '\n' {
				return unread
			}
			d := s[i]
			i++
			for part := 0; part < 2; part++ {
				if i = sedDelimited(s, i, d); i < 0 {
					return unread
				}
			}
			if c == 'y' {
				break
			}
			for i < n && strings.IndexByte(" \t\n;}", s[i]) < 0 {
				switch f := s[i]; {
				case f == 'e':
					return "runs a command (sed s///e)"
				case f == 'w':
					return "writes a file (sed s///w)"
				case strings.IndexByte("gpiImM0123456789", f) < 0:
					return unread
				}
				i++
			}
		default:
			return unread
		}
	}
}

// sedAddress skips an address at s[i:] and returns where it ends, or -1.
func sedAddress(s string, i int) int {
	n := len(s)
	switch {
	case i >= n:
		return i
	case s[i] >= '0' && s[i] <= '9', s[i] == '+', s[i] == '~':
		i++
		for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
			i++
		}
		return i
	case s[i] == '$':
		return i + 1
	case s[i] == '/', s[i] == '\\':
		d := byte('/')
		if s[i] == '\\' {
			if i+1 >= n {
				return -1
			}
			i++
			d = s[i]
		}
		if i = sedDelimited(s, i+1, d); i < 0 {
			return -1
		}
		for i < n && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
	}
	return i
}

// sedDelimited skips a regular expression or replacement ended by d and
// returns the index after d, or -1 when it does not end, or when d appears
// inside a bracket expression (sed implementations disagree there).
func sedDelimited(s string, i int, d byte) int {
	bracket := false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case bracket && c == ']':
			bracket = false
		case bracket && c == d:
			return -1
		case c == d:
			return i + 1
		case c == '[':
			bracket = true
			if i+1 < len(s) && s[i+1] == '^' {
				i++
			}
			if i+1 < len(s) && s[i+1] == ']' {
				i++
			}
		case c == '\n':
			return -1
		}
	}
	return -1
}

// awkProgram returns what an awk program does beyond reading its input and
// printing (runs a command, reads or writes a file, loads code), or "".
// A '|' is a pipe only outside string and regular expression literals
// (awk '/a|b/' matches a or b); a program whose literals the judge cannot
// read is treated as doing the worst.
func awkProgram(p string) string {
	code, ok := awkCode(p)
	switch {
	case !ok:
		return "is an awk program the judge cannot read"
	case strings.Contains(p, "system"):
		return "runs a command (awk system)"
	case strings.Contains(code, "|"):
		return "runs a command (awk |)"
	case strings.Contains(p, "getline"):
		return "reads a file (awk getline)"
	case strings.Contains(p, "@"):
		return "loads code (gawk @load, @include)"
	case strings.Contains(p, "ARGV"), strings.Contains(p, "ARGC"), strings.Contains(p, "SYMTAB"):
		// Assigning ARGV (or reaching it through gawk's SYMTAB) names the
		// files awk reads next: any file, outside the workspace too.
		return "chooses the files it reads (awk ARGV, ARGC)"
	}
	if at := strings.Index(p, "print"); at >= 0 && strings.Contains(p[at:], ">") {
		return "writes a file (awk print >)"
	}
	return ""
}

// awkCode returns the awk program p with the text of its string and
// regular expression literals blanked, or false when a literal does not
// end on its line or a regular expression holds its delimiter inside a
// bracket expression (awk implementations disagree there). A '/' starts a
// regular expression where an operand is expected: not after a name, a
// number, a closing ')' or ']', a literal or '$'; after '++' or '--',
// which may end an operand, it is read as a division, so that the text
// after it is looked at, not skipped.
func awkCode(p string) (string, bool) {
	b := []byte(p)
	operand := false // whether the last token may end an operand
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '"':
			j := i + 1
			for ; j < len(b) && b[j] != '"'; j++ {
				if b[j] == '\\' {
					j++
				} else if b[j] == '\n' {
					return "", false
				}
			}
			if j >= len(b) {
				return "", false
			}
			for k := i + 1; k < j; k++ {
				b[k] = ' '
			}
			i, operand = j, true
		case c == '/' && !operand:
			j, bracket := i+1, false
			for ; j < len(b); j++ {
				d := b[j]
				if d == '\\' {
					j++
					continue
				}
				if d == '\n' {
					return "", false
				}
				if bracket {
					switch {
					case d == ']':
						bracket = false
					case d == '/':
						return "", false
					case d == '[' && j+1 < len(b) && strings.IndexByte(":.=", b[j+1]) >= 0:
						// A class [:alpha:], [.x.] or [=x=] inside the
						// bracket expression.
						end := strings.Index(string(b[j+2:]), string(b[j+1])+"]")
						if end < 0 || strings.ContainsAny(string(b[j+2:j+2+end]), "/\n") {
							return "", false
						}
						j += 2 + end + 1
					}
					continue
				}
				if d == '/' {
					break
				}
				if d == '[' {
					bracket = true
					if j+1 < len(b) && b[j+1] == '^' {
						j++
					}
					if j+1 < len(b) && b[j+1] == ']' {
						j++
					}
				}
			}
			if j >= len(b) {
				return "", false
			}
			for k := i + 1; k < j; k++ {
				b[k] = ' '
			}
			i, operand = j, true
		case c == '#':
			// A comment, to the end of its line: its text is left as it
			// is (a '|' there is still looked at), and no literal starts
			// in it.
			for i+1 < len(b) && b[i+1] != '\n' {
				i++
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			// A newline keeps the state: after an operand a '/' on the
			// next line is read as a division, the careful reading.
		case c == '\\' && i+1 < len(b) && b[i+1] == '\n':
			i++ // a continued line
		case c == '_' || c == '$' || c == '.' || c == ')' || c == ']' ||
			c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			operand = true
		case (c == '+' || c == '-') && i+1 < len(b) && b[i+1] == c:
			i++
			operand = true
		default:
			operand = false
		}
	}
	return string(b), true
}
