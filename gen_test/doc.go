// Package gentest tests toolgen end to end: golden output for the cases
// under testdata, the committed generated code of the fixture packages
// echo and kitchen (kept current by TestGenerated), and binding real
// inputs through that code.
package gentest
