package einotool_test

import (
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/docprog"
)

// TestEinoPage compiles docs/eino.md's program in this module (its
// requirements are kept by internal/docdeps).
func TestEinoPage(t *testing.T) {
	docprog.Check(t, filepath.Join("..", "..", "docs", "eino.md"), ".")
}
