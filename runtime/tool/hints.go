package tool

// Hints describe a tool's effect on the world for hosts, as MCP's tool
// annotations do (readOnlyHint, destructiveHint, idempotentHint,
// openWorldHint). They are hints: hosts use them to show a tool or to ask
// before running it; permission is the allow-list's business.
type Hints struct {
	// ReadOnly: the tool changes nothing.
	ReadOnly bool
	// Destructive: the tool may destroy or overwrite what was there (a
	// shell command, a delete). Meaningful only when ReadOnly is false.
	Destructive bool
	// Idempotent: calling the tool again with the same arguments has no
	// further effect.
	Idempotent bool
	// OpenWorld: the tool reaches beyond a closed domain (the network, the
	// web, any program a shell can run).
	OpenWorld bool
}

// OpenWorldDeclarer is implemented by tools that declare whether they reach
// an open world (the network, arbitrary programs), as a generated tool's
// //tool:open-world directive declares it.
type OpenWorldDeclarer interface{ OpenWorld() bool }

// OpenWorldOf returns t's declared open-world behaviour, false by default.
func OpenWorldOf(t Tool) bool {
	if d, err := safeDefinition(t); err == nil && d.OpenWorld {
		return true
	}
	if d, ok := t.(OpenWorldDeclarer); ok {
		return d.OpenWorld()
	}
	return false
}

// HintsOf derives t's hints from its declared behaviours, unless its
// definition carries its own (Definition.Hints):
//
//   - ReadOnly for the ReadOnly side-effect level; such a tool is
//     Idempotent too, and never Destructive.
//   - Destructive for the Destructive level (a tool that runs commands or
//     deletes); Mutating tools are not destructive: they add or change.
//   - Idempotent also for a Mutating tool declared Safe to run beside other
//     tools: its calls do not depend on the order they run in, which a
//     tool whose effect is "make it so" (write this list) gives.
//   - OpenWorld as the tool declares it (OpenWorldDeclarer).
func HintsOf(t Tool) Hints {
	if t == nil {
		return Hints{}
	}
	if d, err := safeDefinition(t); err == nil && d.Hints != nil {
		return *d.Hints
	}
	return hintsFromBehaviours(t)
}

func hintsFromBehaviours(t Tool) Hints {
	level := SideEffectOf(t)
	h := Hints{OpenWorld: OpenWorldOf(t)}
	switch level {
	case ReadOnly:
		h.ReadOnly, h.Idempotent = true, true
	case Destructive:
		h.Destructive = true
	default:
		h.Idempotent = ConcurrencyOf(t) == Safe
	}
	return h
}
