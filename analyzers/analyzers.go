package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/toolgen/toolgen/analyzers/closedschema"
	"github.com/toolgen/toolgen/analyzers/directexecute"
	"github.com/toolgen/toolgen/analyzers/toolgencheck"
)

// All returns toolgen's analyzers, in name order: closedschema,
// directexecute and toolgencheck. Each call returns a new slice of the
// same analyzers, so a caller may append its own.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		closedschema.Analyzer,
		directexecute.Analyzer,
		toolgencheck.Analyzer,
	}
}
