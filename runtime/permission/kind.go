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

// Level is a side-effect level, used as a ceiling on what a list offers.
// Its values are those of tool.SideEffect, so the tool package converts
// with Level(tool.SideEffectOf(t)).
type Level int

const (
	// Unknown is the zero Level: on a List it means "no ceiling"; on a
	// tool it is above every ceiling (fail closed).
	Unknown Level = iota
	// ReadOnly tools change nothing.
	ReadOnly
	// Mutating tools change state that can be restored.
	Mutating
	// Destructive tools change state that cannot be restored.
	Destructive
)

// String returns read-only, mutating, destructive or unknown.
func (l Level) String() string {
	switch l {
	case Unknown:
		return "unknown"
	case ReadOnly:
		return "read-only"
	case Mutating:
		return "mutating"
	case Destructive:
		return "destructive"
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// within reports whether a tool of level l may be offered under ceiling c.
func (l Level) within(c Level) bool {
	if c == Unknown {
		return true
	}
	return l != Unknown && l <= c
}
