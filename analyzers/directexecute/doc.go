// Package directexecute defines an Analyzer that keeps every tool call
// going through the executor.
//
// # Analyzer directexecute
//
// directexecute: check that no code calls a tool's Execute method directly
//
// The executor of github.com/toolgen/toolgen/runtime/tool is the one gate
// every call passes: name normalisation, permission check, schema gate,
// hooks, then Execute. Code that calls a tool's Execute itself skips the
// permission check and the gate, so a denied tool runs and a malformed call
// reaches the tool. This analyzer reports every selection of a method named
// Execute on the interface tool.Tool, on an interface that embeds it, on a
// type parameter constrained by it, or on a type T such that T or *T
// implements it: a call (t.Execute(ctx, in, tc)), a method value
// (f := t.Execute) and a method expression ((*T).Execute) alike.
// Executor.Execute is a different method (Executor does not implement
// tool.Tool) and is what callers should use.
//
// The allow-list is deliberately short; each entry says why it may call
// Execute itself:
//
//   - package github.com/toolgen/toolgen/runtime/tool: it is the
//     executor; its pipeline is where Execute is meant to be called, and
//     its never-panics wrapper (tool.New) is defined there.
//   - generated files (go/ast.IsGenerated): their code is reviewed once,
//     in the generator that writes it, and cannot be edited by hand.
//   - _test.go files: a unit test of a tool calls it in isolation, where
//     no model and no allow-list are involved; test code never ships in
//     a program that serves a model.
//
// Not on the list, on purpose: runtime/mcpbridge (it serves tools/call
// through Executor.Execute, and a remote client is exactly who must not
// bypass the permission check) and wrappers that delegate from their own
// Execute to an inner tool's (the wrapper would launder the inner tool's
// permission subject). A further entry must be argued for in this comment
// and added to allowedPackages.
package directexecute
