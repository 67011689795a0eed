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
// analyzer runs toolgen's load and emit stages (internal/generate) in
// memory on the package's directory and compares the result with the
// disk. It writes nothing. It reports:
//
//   - a stale or missing generated file at the name of each input struct
//     of its source file, with the first line that differs;
//   - an orphaned generated file (its source declares no tools any more)
//     at that file's package clause;
//   - an annotation mistake (what makes toolgen exit 2) at its position.
//
// go vet analyzes one package at a time from its compiled files, but
// toolgen must see the package without its generated files (it loads with
// the build tag toolgen). So the analyzer loads the package's directory
// again with golang.org/x/tools/go/packages, once per vetted package that
// declares tools, and only reports what lies in the files of the package
// being vetted: a directory whose tests declare tools is loaded for the
// test variant and for the external test package, and each reports its own
// structs. Packages without directives or generated files cost nothing.
//
// The inner load uses the go command's environment (GOFLAGS and so on);
// build tags given to go vet with -tags are not passed on.
package toolgencheck
