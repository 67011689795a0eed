package otlptest

import (
	"path/filepath"
	"testing"

	"github.com/toolgen/toolgen/internal/docprog"
)

// TestOpenTelemetryPage compiles docs/opentelemetry.md's program in this
// module, which has the OpenTelemetry SDK and the stdout exporter (see
// internal/docdeps).
func TestOpenTelemetryPage(t *testing.T) {
	docprog.Check(t, filepath.Join("..", "..", "..", "docs", "opentelemetry.md"), ".")
}
