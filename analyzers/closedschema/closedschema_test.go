package closedschema_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen/toolgen/analyzers/closedschema"
)

func TestAnalyzer(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with go/packages, several seconds; run without -short")
	}
	tests := []struct {
		name string
		pkg  string
	}{
		{name: "open schemas are reported", pkg: "open"},
		{name: "closed, absent and foreign schemas pass", pkg: "closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), closedschema.Analyzer, tt.pkg)
		})
	}
}
