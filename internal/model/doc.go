// Package model is the generator's model: plain data that the loader
// (internal/load) fills in from type information and the emitter
// (internal/emit) renders. Nothing here refers to go/types or go/ast, so a
// model can be built by hand in tests and compared with go-cmp.
//
// The grammar the model is read from (//tool: directives and tool tags, with
// their positions and errors) is package annotations; the model refers to
// its parse-level values where they pass through unchanged.
package model
