// Package docprog checks the programs in toolgen's docs/ pages: every page
// about an integration holds one complete program, and a test compiles it
// in the module that has its dependencies.
//
// Programs finds the fenced ```go blocks of a markdown page whose code
// begins with a package main clause; Build compiles one inside a module
// without writing into the source tree (go build -overlay maps a package
// directory that does not exist to a temporary file, and -o writes the
// binary elsewhere); Check does both for a test. Building is slow, so
// Check skips under -short.
package docprog
