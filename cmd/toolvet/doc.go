// Command toolvet checks that a module's LLM-agent tools keep toolgen's
// contract. It is a multichecker of the analyzers of package
// github.com/toolgen/toolgen/analyzers, which a vet tool of your own can
// add to its own (see that package):
//
//   - closedschema: every hand-written tool schema declares
//     "additionalProperties": false at its top level;
//   - directexecute: no code calls a tool's Execute directly instead of
//     going through a tool.Executor (a short, documented allow-list
//     excepted);
//   - toolgencheck: toolgen's generated files are current (the check of
//     toolgen -check, reported at the input struct).
//
// Usage, as a vet tool (what CI runs; "make vet" does this):
//
//	go build -o /tmp/toolvet github.com/toolgen/toolgen/cmd/toolvet
//	go vet -vettool=/tmp/toolvet ./...
//
// or installed:
//
//	go install github.com/toolgen/toolgen/cmd/toolvet
//	go vet -vettool=$(go env GOPATH)/bin/toolvet ./...
//
// or standalone, which loads the packages itself:
//
//	toolvet ./...
//
// Each analyzer can be turned off or on by name, as with go vet:
// toolvet -toolgencheck=false ./..., or go vet -vettool=... -directexecute ./...
// to run one alone. "toolvet help" lists the analyzers and
// "toolvet help NAME" prints one's documentation.
//
// toolvet is built with golang.org/x/tools/go/analysis/multichecker, which
// speaks go vet's unitchecker protocol when go vet invokes it with a .cfg
// file and runs as a standalone checker otherwise, so one binary serves
// both uses.
package main
