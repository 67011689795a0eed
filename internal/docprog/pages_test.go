package docprog

import (
	"path/filepath"
	"testing"
)

// TestGeminiPage compiles docs/gemini.md's program in this module. The
// other pages' programs need the dependencies of nested modules, whose
// tests compile them: runtime/tooltrace/otlptest, integrations/eino and
// integrations/genkit.
func TestGeminiPage(t *testing.T) {
	root := filepath.Join("..", "..")
	Check(t, filepath.Join(root, "docs", "gemini.md"), root)
}
