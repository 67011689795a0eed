package permission

import (
	"fmt"
	"strings"
)

// Kind is the kind of subject a tool hands out from its input: the one
// value the allow-list judges a call by.
type Kind int

const (
	// Command is a shell command line, judged by COMMAND patterns.
	Command Kind = iota + 1
	// Path is a file-system path, judged by PATH patterns.
	Path
)

// String returns COMMAND, PATH, or Kind(n) for a value out of range.
func (k Kind) String() string {
	switch k {
	case Command:
		return "COMMAND"
	case Path:
		return "PATH"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// ParseKind reads a subject kind as written in a //tool:subject directive
// or a configuration file: "command" or "path", in any case.
func ParseKind(s string) (Kind, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "command":
		return Command, nil
	case "path":
		return Path, nil
	}
	return 0, fmt.Errorf("permission: unknown subject kind %q; write command or path", s)
}

func (k Kind) valid() bool { return k == Command || k == Path }

// Subject is the value a tool hands out to be judged, with its kind.
type Subject struct {
	Kind  Kind
	Value string
}

// DefaultKinds returns a new map of the subject kinds of the builtin tools:
// Bash gives a COMMAND; Read, Write, Edit, Glob and Grep give a PATH.
// Parse validates the patterns of these tools by their kind. Declare the
// kinds of other tools with WithKind; the patterns of a tool whose kind is
// not declared are kept as written and judged by the subject the tool gives
// at Decide (a pattern that is not valid for that kind matches nothing).
func DefaultKinds() map[string]Kind {
	return map[string]Kind{
		"Bash":  Command,
		"Read":  Path,
		"Write": Path,
		"Edit":  Path,
		"Glob":  Path,
		"Grep":  Path,
	}
}
