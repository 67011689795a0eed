// Package orphan once declared a tool; its generated file is left over. // want package:`toolgen declarations \(1 types\)`
package orphan

// EchoInput was a tool's input; its directives are gone.
type EchoInput struct {
	Message string `json:"message"`
}
