package analyzers_test

import (
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/printf"

	"github.com/toolgen/toolgen/analyzers"
)

// A vet tool of your own: toolgen's analyzers beside one of x/tools'
// passes. This is the whole of its main package; build it and pass it to
// go vet -vettool.
func Example_multichecker() {
	multichecker.Main(append(analyzers.All(), printf.Analyzer)...)
}
