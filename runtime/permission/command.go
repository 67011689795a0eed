package permission

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wildcard ends a COMMAND pattern that matches a prefix.
const wildcard = ":*"

// commandPattern is a parsed COMMAND pattern: an exact command line, or a
// prefix (written with a trailing ":*") that matches the prefix alone or
// followed by a space and anything.
type commandPattern struct {
	text   string
	prefix bool
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
	if _, why := checkCommand(text, false); why != "" {
		return commandPattern{}, fmt.Errorf("a COMMAND pattern may not contain %s; allow each simple command in an entry of its own", why)
	}
	return commandPattern{text: text, prefix: prefix}, nil
}

// String returns the pattern as written.
func (p commandPattern) String() string {
	if p.prefix {
		return p.text + wildcard
	}
	return p.text
}

// match reports whether the candidate, already checked by checkCommand and
// trimmed, matches the pattern.
func (p commandPattern) match(cmd string) bool {
	if !p.prefix {
		return cmd == p.text
	}
	rest, ok := strings.CutPrefix(cmd, p.text)
	return ok && (rest == "" || rest[0] == ' ')
}

// firstWord returns the first space-separated word of the pattern.
func (p commandPattern) firstWord() string {
	w, _, _ := strings.Cut(p.text, " ")
	return w
}

// checkCommand decides whether a command line can be judged by a COMMAND
// pattern at all. It returns the line without surrounding spaces and, when
// the line is refused, a phrase naming what refused it (for logs and parse
// errors), such as "';'" or "an unquoted '*'".
//
// Refused anywhere, quoted or not: the shell metacharacters ; | & ` $ > < ( ),
// newline (unless newline is true, for the compound judge, which parses
// lines itself), every other control character (tab, CR, NUL, DEL, C1),
// U+2028, U+2029, Unicode format characters (bidirectional overrides and
// isolates, zero-width characters, the byte-order mark) and invalid UTF-8.
// Refused outside quotes: the characters the shell expands, * ? [ { } ~.
// A backslash outside single quotes escapes the next character; a trailing
// backslash and an unbalanced quote are refused.
func checkCommand(s string, newline bool) (string, string) {
	s = strings.Trim(s, " ")
	const (
		none = iota
		single
		double
	)
	state := none
	escaped := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == utf8.RuneError && size == 1 {
			return s, "invalid UTF-8"
		}
		switch {
		case r == '\n' && newline:
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return s, fmt.Sprintf("a control character (%U)", r)
		case r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r):
			return s, fmt.Sprintf("a Unicode format character (%U)", r)
		case strings.ContainsRune(";|&`$><()", r):
			return s, fmt.Sprintf("'%c'", r)
		}
		if escaped {
			escaped = false
			continue
		}
		switch state {
		case single:
			if r == '\'' {
				state = none
			}
		case double:
			switch r {
			case '"':
				state = none
			case '\\':
				escaped = true
			}
		default:
			switch r {
			case '\'':
				state = single
			case '"':
				state = double
			case '\\':
				escaped = true
			case '*', '?', '[', '{', '}', '~':
				return s, fmt.Sprintf("an unquoted '%c'", r)
			}
		}
	}
	switch {
	case escaped:
		return s, "a trailing backslash"
	case state != none:
		return s, "an unbalanced quote"
	}
	return s, ""
}

// MatchCommand reports whether the command line cmd is allowed by the
// COMMAND pattern pattern under the strict rule (no compound commands).
// The error is for a pattern that is not a valid COMMAND pattern.
func MatchCommand(pattern, cmd string) (bool, error) {
	p, err := parseCommandPattern(pattern)
	if err != nil {
		return false, fmt.Errorf("permission: pattern %q: %w", pattern, err)
	}
	c, why := checkCommand(cmd, false)
	return why == "" && c != "" && p.match(c), nil
}
