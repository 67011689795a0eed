// Package orphan once declared a tool; its generated file is left over.
package orphan

// EchoInput was a tool's input; its directives are gone.
type EchoInput struct {
	Message string `json:"message"`
}
