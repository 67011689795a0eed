// Package badannot has an annotation mistake: toolgen would exit 2. // want package:`toolgen declarations \(1 types\)`
package badannot

// want +4 `toolgen: .*nmae`

// EchoInput is the input of the Echo tool.
//
//tool:nmae Echo
type EchoInput struct {
	Message string `json:"message"`
}
