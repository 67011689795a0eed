package permission

import "fmt"

// The bounds a command line must keep before it is parsed. The parser
// recurses once per nesting level and once per operator of a chain, and a
// stack overflow in Go cannot be recovered: without these bounds 150 KB of
// nested parentheses, or 4 MB of "git status &&", ends the whole process.
// They are far above what an agent writes (a long commit message is a few
// kilobytes; a compound line a handful of commands) and keep the judge's
// worst line within a few milliseconds and a few megabytes
// (BenchmarkWorstLine).
const (
	// MaxLineBytes bounds a command line's length in bytes.
	MaxLineBytes = 16 << 10
	// MaxLineStructure bounds the bytes that open a level of nesting
	// ( { [ and backquotes) and the reserved words that do (if, while,
	// until, for, case, select, function, elif), counted wherever they
	// stand, quoted or not.
	MaxLineStructure = 1024
	// MaxLineOperators bounds the bytes that join or negate commands
	// (& | ; ! and newlines), counted wherever they stand, quoted or not.
	MaxLineOperators = 1024
)

// checkBounds refuses a line longer than MaxLineBytes, or with more
// nesting or operator bytes than MaxLineStructure or MaxLineOperators
// allow. It counts bytes without reading quotes, so that no quoting can
// hide a level of nesting from it: the counts are upper bounds of what the
// parser will recurse into.
func checkBounds(s string) string {
	if len(s) > MaxLineBytes {
		return fmt.Sprintf("a line of %d bytes, longer than the %d a command line may have (write long text to a file and pass the file)", len(s), MaxLineBytes)
	}
	structure, operators := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{', '[', '`':
			structure++
		case '&', '|', ';', '!', '\n':
			operators++
		default:
			// A reserved word opens a level too (if, while, until, for,
			// case, select, function): the parser recurses into each.
			if 'a' <= c && c <= 'z' && (i == 0 || !isWordByte(s[i-1])) {
				j := i
				for j < len(s) && isWordByte(s[j]) {
					j++
				}
				switch s[i:j] {
				case "if", "while", "until", "for", "case", "select", "function", "elif":
					structure++
				}
				i = j - 1
			}
		}
	}
	switch {
	case structure > MaxLineStructure:
		return fmt.Sprintf("%d parentheses, braces, brackets or backquotes, more than the %d a command line may have", structure, MaxLineStructure)
	case operators > MaxLineOperators:
		return fmt.Sprintf("%d of the characters & | ; !, more than the %d a command line may have", operators, MaxLineOperators)
	}
	return ""
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
