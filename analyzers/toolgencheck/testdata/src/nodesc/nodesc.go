// Package nodesc declares a tool without //tool:description; its // want package:`toolgen declarations \(1 types\)`
// generated file is written when the test runs, so only the warning is
// reported, at the directives.
package nodesc

// want +4 `toolgen: tool Echo has no //tool:description and its doc comment only restates the type's name \("EchoInput is the input of the Echo tool."\), so the model will see no description; add //tool:description with what the tool does and when to use it`

// EchoInput is the input of the Echo tool.
//
//tool:name Echo
type EchoInput struct {
	// The message to repeat.
	Message string `json:"message" tool:"required"`
}
