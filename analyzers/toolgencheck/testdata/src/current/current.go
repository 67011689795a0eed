// Package current declares a tool whose generated file the test writes // want package:`toolgen declarations \(1 types\)`
// with toolgen before the analyzer runs: nothing to report.
package current

// EchoInput is the input of the Echo tool.
//
//tool:name Echo
//tool:description Repeats a message back.
type EchoInput struct {
	// The message to repeat.
	Message string `json:"message" tool:"required"`
}
