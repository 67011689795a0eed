// Package otlptest checks runtime/tooltrace end to end: spans exported with
// the OTLP/HTTP exporter reach a receiver on loopback, which decodes the
// OTLP protobuf. It is a module of its own so that the exporter and the
// protobuf types stay out of toolgen's go.mod. TestOpenTelemetryPage compiles
// docs/opentelemetry.md's program here, where the SDK is.
package otlptest
