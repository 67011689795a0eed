package genkittool_test

import (
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/docprog"
)

// TestGenkitPage compiles docs/genkit.md's program in this module (its
// requirements are kept by internal/docdeps).
func TestGenkitPage(t *testing.T) {
	docprog.Check(t, filepath.Join("..", "..", "docs", "genkit.md"), ".")
}
