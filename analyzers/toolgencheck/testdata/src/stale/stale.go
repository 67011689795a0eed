// Package stale declares two tools in one file; their generated file is // want package:`toolgen declarations \(3 types\)`
// out of date.
package stale

// EchoInput is the input of the Echo tool.
//
//tool:name Echo
//tool:description Repeats a message back.
type EchoInput struct { // want `generated code of tool Echo: stale_toolgen.go is stale \(first difference at line 1\); run go generate`
	// The message to repeat.
	Message string `json:"message" tool:"required"`
}

type (
	// ShoutInput is the input of the Shout tool.
	//
	//tool:name Shout
	//tool:description Repeats a message back, loudly.
	ShoutInput struct { // want `generated code of tool Shout: stale_toolgen.go is stale`
		Message string `json:"message" tool:"required"`
	}

	// plain is no tool.
	plain struct{}
)

var _ plain
