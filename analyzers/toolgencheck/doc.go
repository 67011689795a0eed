// Package toolgencheck defines an Analyzer that reports generated tool code
// that is out of date, at the struct it was generated from.
//
// # Analyzer toolgencheck
//
// toolgencheck: check that toolgen's generated files are current
//
// This is the check of "toolgen -check", run by go vet: for a package that
// declares tools (a //tool: directive in one of its files) or holds a file
// that toolgen wrote (a *_toolgen.go file with toolgen's header), the
// analyzer builds toolgen's model from the pass itself (its type-checked
// hand-written files, leaving toolgen's files out), runs toolgen's emitter
// in memory and compares the result with the generated files of the pass.
// It writes nothing, and it neither runs the go command nor reads other
// packages' source, so it runs wherever go/analysis does: go vet, gopls,
// a multichecker, unitchecker under another build system. It reports:
//
//   - a stale generated file at the input struct of each tool whose
//     generated code differs, saying what differs (the fields of the input
//     and output schemas, the Go fields the guard records, the definition's
//     fields: "output field 'headline' added"), and not at the tools whose
//     code is current; when the two files cannot be compared (one does not
//     parse), at every tool of the file with the first line that differs;
//   - a missing generated file at the name of each input struct of its
//     source file;
//   - an orphaned generated file (its source declares no tools any more)
//     at that file's package clause;
//   - an annotation mistake (what makes toolgen exit 2) at its position;
//   - what toolgen warns about at its position, such as a tool without
//     //tool:description.
//
// What a tool takes from another package's syntax (the doc comments of a
// struct's fields, which become schema descriptions, and a //tool:enum
// type's constants) comes through a package fact: every package exports
// the declarations of its struct and enum types and its module path, and
// the packages importing it read them.
//
// go vet analyzes a package, its test variant and its external test
// package as separate passes; each reports what lies in its own files. One
// limit follows: toolgen picks the generated file's unexported names
// around every name the package declares, its test files' too, and the
// pass of the package without its tests cannot see those. A _test.go file
// declaring a name toolgen would otherwise take (such as echoInputSchema)
// makes that pass report the file stale; rename the test's declaration.
package toolgencheck
