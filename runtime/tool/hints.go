package tool

import (
	"fmt"
	"strings"
)

// Hints describe a tool's effect on the world for hosts, as MCP's tool
// annotations do (readOnlyHint, destructiveHint, idempotentHint,
// openWorldHint). They are hints: hosts use them to show a tool or to ask
// before running it; permission is the allow-list's business.
//
// Hints are derived from the behaviours a Definition declares, so that
// they cannot say something else:
//
//   - ReadOnly for the ReadOnly side-effect level;
//   - Destructive for the Destructive level (a tool that runs commands,
//     deletes, or overwrites what was there); Mutating tools only add or
//     change (MCP's "additive updates");
//   - Idempotent for a read-only tool, and for a tool that declares it
//     (Definition.Idempotent, //tool:idempotent): that a tool may run
//     beside others (Concurrency Safe) says nothing of what a second call
//     with the same arguments does;
//   - OpenWorld as the tool declares it (Definition.OpenWorld).
//
// Executor.Definitions fills in Definition.Hints with them. A Definition
// may carry Hints of its own only when they say the same:
// ValidateDefinition (and so Registry.Register) refuses a tool whose hints
// contradict its behaviours.
type Hints struct {
	// ReadOnly: the tool changes nothing.
	ReadOnly bool
	// Destructive: the tool may destroy or overwrite what was there (a
	// shell command, a delete, a file rewritten). Meaningful only when
	// ReadOnly is false.
	Destructive bool
	// Idempotent: calling the tool again with the same arguments has no
	// further effect.
	Idempotent bool
	// OpenWorld: the tool reaches beyond a closed domain (the network, the
	// web, any program a shell can run).
	OpenWorld bool
}

// hintsOf derives the hints of a definition from its declared behaviours.
func hintsOf(d Definition) Hints {
	h := Hints{OpenWorld: d.OpenWorld, Idempotent: d.Idempotent}
	switch sideEffectOf(d) {
	case ReadOnly:
		h.ReadOnly, h.Idempotent = true, true
	case Destructive:
		h.Destructive = true
	}
	return h
}

// checkHints returns an error naming every hint of d.Hints that
// contradicts d's declared behaviours, nil when d carries no hints of its
// own or they agree.
func checkHints(d Definition) error {
	if d.Hints == nil {
		return nil
	}
	want, got := hintsOf(d), *d.Hints
	var errs []string
	check := func(hint string, got, want bool, because string) {
		if got != want {
			errs = append(errs, fmt.Sprintf("Hints.%s is %v, but %s", hint, got, because))
		}
	}
	level := "SideEffect is " + sideEffectOf(d).String()
	check("ReadOnly", got.ReadOnly, want.ReadOnly, level)
	check("Destructive", got.Destructive, want.Destructive, level)
	check("Idempotent", got.Idempotent, want.Idempotent, fmt.Sprintf("Idempotent is %v and %s", d.Idempotent, level))
	check("OpenWorld", got.OpenWorld, want.OpenWorld, fmt.Sprintf("OpenWorld is %v", d.OpenWorld))
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("its hints contradict its declared behaviours (leave Hints nil to have them derived): %s", strings.Join(errs, "; "))
}
