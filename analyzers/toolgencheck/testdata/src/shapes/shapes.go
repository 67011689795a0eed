// Package shapes declares types that another package's tool binds: the
// doc comments of Point's fields become the tool's schema descriptions,
// and Unit's constants its enum, though the tool's package never sees
// this file's syntax (go vet gives it through the analyzer's facts).
package shapes

// A Point is a place on the plane.
type Point struct {
	// The distance from the left edge.
	X int `json:"x" tool:"min=0"`
	// The distance from the top edge.
	Y int `json:"y" tool:"min=0"`
	// The unit both are given in.
	Unit Unit `json:"unit,omitempty"`
}

// Unit is a length unit.
//
//tool:enum
type Unit string

const (
	Pixels Unit = "px"
	Points Unit = "pt"
)
