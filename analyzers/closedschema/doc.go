// Package closedschema defines an Analyzer that checks that every input
// schema written by hand for a tool is closed.
//
// # Analyzer closedschema
//
// closedschema: check that hand-written tool schemas declare additionalProperties false
//
// The schema gate reports a misspelt parameter ("Unknown parameter
// 'file_paht'. Did you mean 'file_path'?") only when the schema says
// "additionalProperties": false at its top level; an open schema lets the
// typo through and the tool silently uses its default. toolgen's generated
// schemas are closed by construction; this analyzer holds hand-written ones
// to the same rule.
//
// It inspects, found by type information, every composite literal of type
// github.com/toolgen/toolgen/runtime/tool.Definition (wherever it appears:
// an argument of tool.New, the result of a provider passed to
// tool.NewDynamic, a variable) whose InputSchema is a map literal, or a
// variable of this package initialised with one. That map must have the key
// "additionalProperties" with the constant value false. A schema that is
// not a literal (copied from an MCP server, decoded from a file) is not
// ours and is left alone, as is a Definition without an InputSchema (a
// tool that takes no arguments).
//
// Files marked generated (go/ast.IsGenerated) and _test.go files are
// skipped: tests build open schemas on purpose to exercise the gate.
package closedschema
