package tool

import (
	"strings"

	"github.com/toolgen/toolgen/runtime/permission"
)

// Concurrency says whether a tool may run beside other tools of the same
// batch.
type Concurrency int

const (
	// Sequential tools run alone; the default.
	Sequential Concurrency = iota
	// Safe tools may run in parallel with other safe tools.
	Safe
)

func (c Concurrency) String() string {
	if c == Safe {
		return "safe"
	}
	return "sequential"
}

// Interrupt says how a tool reacts when its call is cancelled.
type Interrupt int

const (
	// Cooperative tools watch ctx and return soon after it is cancelled;
	// the default.
	Cooperative Interrupt = iota
	// NonInterruptible tools run to completion whatever ctx says.
	NonInterruptible
	// ExternallyTerminated tools are stopped from outside (a process killed),
	// so they get a worker of their own.
	ExternallyTerminated
)

func (i Interrupt) String() string {
	switch i {
	case NonInterruptible:
		return "non-interruptible"
	case ExternallyTerminated:
		return "externally-terminated"
	}
	return "cooperative"
}

// SharesWorker reports whether a tool with this behaviour can run on a
// shared worker of a parallel batch.
func (i Interrupt) SharesWorker() bool { return i == Cooperative || i == NonInterruptible }

// SideEffect is the level of change a tool can make to the world; it is
// permission.SideEffect, the one type shared with the allow-list's
// ceiling. A Definition that leaves it zero declares Mutating.
type SideEffect = permission.SideEffect

// The side-effect levels a tool can declare, least to most.
const (
	// ReadOnly tools change nothing.
	ReadOnly = permission.ReadOnly
	// Mutating tools change state (write a file); the default.
	Mutating = permission.Mutating
	// Destructive tools can change anything (run a command, delete).
	Destructive = permission.Destructive
)

// sideEffectOf returns d's declared side-effect level, Mutating by default
// (zero, any value out of range).
func sideEffectOf(d Definition) SideEffect {
	if d.SideEffect.Valid() {
		return d.SideEffect
	}
	return Mutating
}

// Loading says whether a catalog offers a tool from the start or only once a
// search finds it.
type Loading int

const (
	// Eager tools are always offered; the default.
	Eager Loading = iota
	// Deferred tools are offered once found by tool search.
	Deferred
)

func (l Loading) String() string {
	if l == Deferred {
		return "deferred"
	}
	return "eager"
}

// SubjectKind is the kind of a permission subject (permission.Subject).
type SubjectKind = permission.Kind

// The subject kinds.
const (
	CommandSubject = permission.Command
	PathSubject    = permission.Path
)

// stringSubject reads the string field key of in as a subject of the given
// kind. A missing, mistyped or blank value cannot be judged. The Input's
// bytes are read by scanning their top-level members, without decoding them
// into a map, so that the permission check costs no decode.
func stringSubject(in Input, key string, kind SubjectKind) (permission.Subject, bool) {
	v, present, ok := subjectField(in, key)
	if !present || !ok || strings.TrimSpace(v) == "" {
		return permission.Subject{}, false
	}
	return permission.Subject{Kind: kind, Value: v}, true
}

// stringSubjectOr is stringSubject for a field with a default: when key is
// absent (or null) the subject is def, the value the tool will use. A
// mistyped or blank value still cannot be judged.
func stringSubjectOr(in Input, key string, kind SubjectKind, def string) (permission.Subject, bool) {
	v, present, ok := subjectField(in, key)
	switch {
	case !present:
		v = def
	case !ok:
		return permission.Subject{}, false
	}
	if strings.TrimSpace(v) == "" {
		return permission.Subject{}, false
	}
	return permission.Subject{Kind: kind, Value: v}, true
}

// subjectField reads the top-level field key: present is false when it is
// absent or null, ok false when it is not a string. The bytes are scanned,
// not decoded; only an Input without a Document (see Input.Err) is read from
// its map.
func subjectField(in Input, key string) (s string, present, ok bool) {
	if doc, isDoc := in.Document(); isDoc {
		for m := doc.Members(); m.Next(); {
			if string(m.Key()) != key {
				continue
			}
			if m.Value().IsNull() {
				return "", false, false
			}
			s, ok = m.Value().String()
			return s, true, ok
		}
		return "", false, false
	}
	v, present := in.Get(key)
	if !present {
		return "", false, false
	}
	s, ok = v.(string)
	return s, true, ok
}

// ruleOf returns the tool's custom permission rule bound to this call, or
// nil. A panic in the rule counts as no match.
func ruleOf(d Definition, in Input, tc Context) func(string) bool {
	if d.Rule == nil {
		return nil
	}
	return func(pattern string) (match bool) {
		defer func() {
			if recover() != nil {
				match = false
			}
		}()
		return d.Rule(pattern, in, tc)
	}
}
