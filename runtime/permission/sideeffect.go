package permission

import "fmt"

// SideEffect is the level of change a tool can make to the world, ordered
// from least to most. It is the one side-effect type of the runtime:
// package tool declares it as tool.SideEffect (an alias), a tool's
// Definition carries it, and an allow-list's ceiling (WithCeiling,
// List.Capped) is one.
//
// The zero value is Unknown. On a List it means "no ceiling"; as a tool's
// level in a Request or a Descriptor it exceeds every ceiling (fail closed).
// A tool's Definition that leaves it zero declares the default, Mutating:
// package tool reads it so (tool.SideEffectOf) before it reaches this
// package.
type SideEffect int

const (
	// Unknown is the zero SideEffect: no ceiling on a List; above every
	// ceiling for a tool.
	Unknown SideEffect = iota
	// ReadOnly tools change nothing (read a file, search).
	ReadOnly
	// Mutating tools change state in ways that add or overwrite what they
	// are given (write a file, edit it); the default for a tool.
	Mutating
	// Destructive tools can change anything, including what cannot be
	// restored (run a shell command, delete).
	Destructive
)

// String returns read-only, mutating, destructive, unknown, or
// SideEffect(n) for a value out of range.
func (s SideEffect) String() string {
	switch s {
	case Unknown:
		return "unknown"
	case ReadOnly:
		return "read-only"
	case Mutating:
		return "mutating"
	case Destructive:
		return "destructive"
	}
	return fmt.Sprintf("SideEffect(%d)", int(s))
}

// Valid reports whether s is ReadOnly, Mutating or Destructive: a level a
// tool can declare.
func (s SideEffect) Valid() bool { return s >= ReadOnly && s <= Destructive }

// within reports whether a tool of level s may be offered under ceiling c.
func (s SideEffect) within(c SideEffect) bool {
	if c == Unknown {
		return true
	}
	return s != Unknown && s <= c
}
