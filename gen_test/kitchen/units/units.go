// Package units declares types the kitchen fixture uses from another
// package: a //tool:enum type and a struct.
package units

// Unit is a unit of length.
//
//tool:enum
type Unit string

// The units, in the order the schema lists them.
const (
	Metre Unit = "m"
	Inch  Unit = "in"
	Foot  Unit = "ft"
)

// Point is a point on a plane.
type Point struct {
	// Horizontal position.
	X float64 `json:"x" tool:"required"`
	// Vertical position.
	Y float64 `json:"y" tool:"required"`
	// Unit of both coordinates.
	Unit Unit `json:"unit,omitempty" tool:"default=m"`
}
