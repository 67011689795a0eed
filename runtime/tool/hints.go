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

// OpenWorldOf returns t's declared open-world behaviour
// (Definition.OpenWorld), false by default and for a definition that
// panics.
func OpenWorldOf(t Tool) bool {
	d, _ := safeDefinition(t)
	return d.OpenWorld
}

// HintsOf derives t's hints from its declared behaviours, unless its
// definition carries its own (Definition.Hints):
//
//   - ReadOnly for the ReadOnly side-effect level; such a tool is
//     Idempotent too, and never Destructive.
//   - Destructive for the Destructive level (a tool that runs commands or
//     deletes); Mutating tools are not destructive: they add or change.
//   - Idempotent for read-only tools only: that a tool may run beside
//     others (Concurrency Safe) says nothing of what a second call with
//     the same arguments does (create_issue is safe to run concurrently,
//     and creates a second issue). A tool that is idempotent says so in
//     its own Hints.
//   - OpenWorld as the tool declares it (Definition.OpenWorld).
func HintsOf(t Tool) Hints {
	if t == nil {
		return Hints{}
	}
	d, _ := safeDefinition(t)
	return hintsOf(d)
}

// hintsOf is HintsOf for a definition already read.
func hintsOf(d Definition) Hints {
	if d.Hints != nil {
		return *d.Hints
	}
	h := Hints{OpenWorld: d.OpenWorld}
	switch sideEffectOf(d) {
	case ReadOnly:
		h.ReadOnly, h.Idempotent = true, true
	case Destructive:
		h.Destructive = true
	}
	return h
}
