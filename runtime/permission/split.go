package permission

import "strings"

// SplitEntries splits a comma-separated allow-list ("Read, Bash(git:*)")
// into entries, trimming spaces. Commas inside parentheses do not split,
// so "Bash(echo a,b), Read" is two entries. A blank string gives none.
func SplitEntries(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
