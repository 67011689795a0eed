//go:build docs

// Package docdeps imports what docs/opentelemetry.md's program imports,
// which this module's TestOpenTelemetryPage compiles: go mod tidy reads
// every build tag, so it keeps their requirements in go.mod; no build
// includes this file.
package docdeps

import (
	_ "go.opentelemetry.io/otel/exporters/stdout/stdouttrace"

	_ "github.com/toolgen/toolgen/builtin"
)
