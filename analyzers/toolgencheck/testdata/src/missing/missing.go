// Package missing declares a tool that was never generated. // want package:`toolgen declarations \(1 types\)`
package missing

// EchoInput is the input of the Echo tool.
//
//tool:name Echo
//tool:description Repeats a message back.
type EchoInput struct { // want `generated code of tool Echo: missing_toolgen.go is missing; run go generate`
	Message string `json:"message" tool:"required"`
}
