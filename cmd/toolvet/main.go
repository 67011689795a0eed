package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/toolgen/toolgen/internal/analysis/closedschema"
	"github.com/toolgen/toolgen/internal/analysis/directexecute"
	"github.com/toolgen/toolgen/internal/analysis/toolgencheck"
)

func main() {
	multichecker.Main(
		closedschema.Analyzer,
		directexecute.Analyzer,
		toolgencheck.Analyzer,
	)
}
