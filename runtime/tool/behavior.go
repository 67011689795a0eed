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

// ConcurrencyDeclarer is implemented by tools that declare their concurrency.
type ConcurrencyDeclarer interface{ Concurrency() Concurrency }

// ConcurrencyOf returns t's declared concurrency, Sequential by default.
func ConcurrencyOf(t Tool) Concurrency {
	d, _ := safeDefinition(t)
	return concurrencyOf(d, t)
}

// concurrencyOf is ConcurrencyOf for a definition already read.
func concurrencyOf(d Definition, t Tool) Concurrency {
	if d.Concurrency != Sequential {
		return d.Concurrency
	}
	if d, ok := t.(ConcurrencyDeclarer); ok {
		return d.Concurrency()
	}
	return Sequential
}

// Interrupt says how a tool reacts when its call is cancelled.
type Interrupt int

const (
	// Cooperative tools watch ctx and return soon after it is cancelled;
	// the default.
	Cooperative Interrupt = iota
	// NonInterruptible tools run to completion whatever ctx says.
	NonInterruptible
	// ThreadInterrupt tools need their worker interrupted to stop, so they
	// get a worker of their own.
	ThreadInterrupt
	// ExternallyTerminated tools are stopped from outside (a process killed),
	// so they get a worker of their own.
	ExternallyTerminated
)

func (i Interrupt) String() string {
	switch i {
	case NonInterruptible:
		return "non-interruptible"
	case ThreadInterrupt:
		return "thread-interrupt"
	case ExternallyTerminated:
		return "externally-terminated"
	}
	return "cooperative"
}

// SharesWorker reports whether a tool with this behaviour can run on a
// shared worker of a parallel batch.
func (i Interrupt) SharesWorker() bool { return i == Cooperative || i == NonInterruptible }

// InterruptDeclarer is implemented by tools that declare their interrupt
// behaviour.
type InterruptDeclarer interface{ Interrupt() Interrupt }

// InterruptOf returns t's declared interrupt behaviour, Cooperative by
// default.
func InterruptOf(t Tool) Interrupt {
	d, _ := safeDefinition(t)
	return interruptOf(d, t)
}

// interruptOf is InterruptOf for a definition already read.
func interruptOf(d Definition, t Tool) Interrupt {
	if d.Interrupt != Cooperative {
		return d.Interrupt
	}
	if d, ok := t.(InterruptDeclarer); ok {
		return d.Interrupt()
	}
	return Cooperative
}

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

// SideEffectDeclarer is implemented by tools that declare their side-effect
// level.
type SideEffectDeclarer interface{ SideEffect() SideEffect }

// SideEffectOf returns t's declared side-effect level, Mutating by default
// (and for any value out of range).
func SideEffectOf(t Tool) SideEffect {
	d, _ := safeDefinition(t)
	return sideEffectOf(d, t)
}

// sideEffectOf is SideEffectOf for a definition already read.
func sideEffectOf(d Definition, t Tool) SideEffect {
	if d.SideEffect.Valid() {
		return d.SideEffect
	}
	if d, ok := t.(SideEffectDeclarer); ok {
		if s := d.SideEffect(); s.Valid() {
			return s
		}
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

// LoadingDeclarer is implemented by tools that declare their loading.
type LoadingDeclarer interface{ Loading() Loading }

// LoadingOf returns t's declared loading, Eager by default.
func LoadingOf(t Tool) Loading {
	if d, err := safeDefinition(t); err == nil && d.Loading != Eager {
		return d.Loading
	}
	if d, ok := t.(LoadingDeclarer); ok {
		return d.Loading()
	}
	return Eager
}

// Subject is what the permission system judges a call by; see package
// permission.
type Subject = permission.Subject

// SubjectKind is the kind of a Subject.
type SubjectKind = permission.Kind

// The subject kinds.
const (
	CommandSubject = permission.Command
	PathSubject    = permission.Path
)

// SubjectDeclarer is implemented by tools that can be judged by one input
// field. PermissionSubject returns false when the call cannot be judged (the
// field is missing, mistyped or blank); it must not panic.
type SubjectDeclarer interface {
	PermissionSubject(in Input) (Subject, bool)
}

// RuleDeclarer is implemented by tools that judge allow-list patterns
// themselves (for example an "action:url" pattern). PermissionRule reports
// whether the call matches pattern.
type RuleDeclarer interface {
	PermissionRule(pattern string, in Input, tc Context) bool
}

// StringSubject reads the string field key of in as a subject of the given
// kind. A missing, mistyped or blank value cannot be judged. An Input made
// from bytes is read by scanning its top-level members, without decoding it
// into a map, so that the permission check costs no decode.
func StringSubject(in Input, key string, kind SubjectKind) (Subject, bool) {
	v, present, ok := subjectField(in, key)
	if !present || !ok || strings.TrimSpace(v) == "" {
		return Subject{}, false
	}
	return Subject{Kind: kind, Value: v}, true
}

// StringSubjectOr is StringSubject for a field with a default: when key is
// absent (or null) the subject is def, the value the tool will use. A
// mistyped or blank value still cannot be judged.
func StringSubjectOr(in Input, key string, kind SubjectKind, def string) (Subject, bool) {
	v, present, ok := subjectField(in, key)
	switch {
	case !present:
		v = def
	case !ok:
		return Subject{}, false
	}
	if strings.TrimSpace(v) == "" {
		return Subject{}, false
	}
	return Subject{Kind: kind, Value: v}, true
}

// subjectField reads the top-level field key: present is false when it is
// absent or null, ok false when it is not a string. An Input made from bytes
// is scanned, not decoded.
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

// StrictBinder is implemented by tools whose Execute binds the arguments
// with a binder that reports at least every violation the schema gate
// reports for the tool's own schema, in the gate's sentences: the tools
// toolgen generates. BindsStrictly reporting true lets the Executor skip the
// gate for an Input made from bytes (see Executor), so that the call is
// never decoded into a map.
type StrictBinder interface {
	BindsStrictly() bool
}

// checksInput reports whether the tool checks its own input (see
// Definition.ChecksInput and Executor), from d or, for code generated
// before the field existed, t's StrictBinder.
func checksInput(d Definition, t Tool) (ok bool) {
	if d.ChecksInput {
		return true
	}
	b, isBinder := t.(StrictBinder)
	if !isBinder {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return b.BindsStrictly()
}

// subjectOf reads t's permission subject: declared reports whether t declares
// one at all, ok whether this call's could be read.
func subjectOf(d Definition, t Tool, in Input) (s Subject, declared, ok bool) {
	if d.Subject.Declared() {
		s, ok = d.Subject.Read(in)
		return s, true, ok
	}
	sd, isDeclarer := t.(SubjectDeclarer)
	if !isDeclarer {
		return Subject{}, false, false
	}
	if o, isOptional := t.(interface{ declaresSubject() bool }); isOptional && !o.declaresSubject() {
		return Subject{}, false, false
	}
	defer func() {
		if recover() != nil {
			s, ok = Subject{}, false
		}
	}()
	s, ok = sd.PermissionSubject(in)
	return s, true, ok
}

// ruleOf returns t's custom permission rule bound to this call, or nil.
func ruleOf(d Definition, t Tool, in Input, tc Context) func(string) bool {
	if d.Rule != nil {
		return func(pattern string) (match bool) {
			defer func() {
				if recover() != nil {
					match = false
				}
			}()
			return d.Rule(pattern, in, tc)
		}
	}
	rd, isDeclarer := t.(RuleDeclarer)
	if !isDeclarer {
		return nil
	}
	if o, isOptional := t.(interface{ declaresRule() bool }); isOptional && !o.declaresRule() {
		return nil
	}
	return func(pattern string) (match bool) {
		defer func() {
			if recover() != nil {
				match = false
			}
		}()
		return rd.PermissionRule(pattern, in, tc)
	}
}
