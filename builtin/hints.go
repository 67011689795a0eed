package builtin

import "github.com/toolgen/toolgen/runtime/tool"

// The hints MCP hosts are shown where a builtin's declared behaviours alone
// would say less, or more, than is true (tool.HintsOf derives the rest):
//   - Write and Edit replace what was in a file: destructive, though their
//     side-effect level stays Mutating for allow-lists and ceilings;
//   - BashOutput consumes the output it returns, and its filter discards
//     the lines that do not match: neither read-only nor idempotent, and
//     destructive for the output it drops, though its side-effect level
//     stays ReadOnly (it changes nothing outside this process);
//   - KillShell stops a running command: destructive, and idempotent (a
//     second call finds it stopped);
//   - TodoWrite replaces the list with the one given: idempotent.
func init() {
	writeDefinition.Hints = &tool.Hints{Destructive: true}
	editDefinition.Hints = &tool.Hints{Destructive: true}
	bashOutputDefinition.Hints = &tool.Hints{Destructive: true}
	killShellDefinition.Hints = &tool.Hints{Destructive: true, Idempotent: true}
	todoWriteDefinition.Hints = &tool.Hints{Idempotent: true}
}
