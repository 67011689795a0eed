// Package nested declares a tool whose input nests a struct declared in // want package:`toolgen declarations \(1 types\)`
// another package of the module; its generated file is written when the
// test runs and must be found current.
package nested

import "example.com/vettest/shapes"

// MoveInput is the input of the Move tool.
//
//tool:name Move
//tool:description Moves the cursor to a point.
type MoveInput struct {
	// Where to move the cursor.
	To shapes.Point `json:"to" tool:"required"`
}
