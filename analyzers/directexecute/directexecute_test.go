package directexecute_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/toolgen/toolgen/analyzers/directexecute"
)

func TestAnalyzer(t *testing.T) {
	if testing.Short() {
		t.Skip("loads packages with go/packages, several seconds; run without -short")
	}
	tests := []struct {
		name string
		pkg  string
	}{
		{name: "direct calls and method values are reported", pkg: "direct"},
		{name: "the executor, generated files and tests pass", pkg: "indirect"},
		{name: "the runtime package is the executor", pkg: "github.com/toolgen/toolgen/runtime/tool"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), directexecute.Analyzer, tt.pkg)
		})
	}
}
