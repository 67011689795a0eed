// Package analyzers holds toolgen's go/analysis analyzers, for go vet, gopls,
// golangci-lint or a multichecker of your own:
//
//   - [closedschema.Analyzer]: every hand-written tool schema declares
//     "additionalProperties": false at its top level;
//   - [directexecute.Analyzer]: no code calls a tool's Execute directly
//     instead of going through a tool.Executor;
//   - [toolgencheck.Analyzer]: toolgen's generated files are current (the
//     check of toolgen -check, reported at the input struct).
//
// Each works from the pass alone (its type-checked files and package
// facts): none runs the go command or reads other packages' files. [All]
// returns the three; cmd/toolvet is a multichecker of them, and a program
// of your own can add them to its own analyzers:
//
//	package main
//
//	import (
//		"golang.org/x/tools/go/analysis/multichecker"
//		"golang.org/x/tools/go/analysis/passes/printf"
//
//		"github.com/toolgen/toolgen/analyzers"
//	)
//
//	func main() {
//		multichecker.Main(append(analyzers.All(), printf.Analyzer)...)
//	}
//
// Build it and run it as go vet's tool:
//
//	go build -o /tmp/myvet ./cmd/myvet
//	go vet -vettool=/tmp/myvet ./...
//
// Unlike the runtime packages, this package links toolgen's generator
// (its loader and emitter, with github.com/dave/jennifer), which
// toolgencheck runs in memory.
package analyzers
