// Package echo is the Echo tool exactly as DESIGN.md shows it, the smallest
// generated tool: examples/quickstart runs it, and gen_test's binder, fuzz and
// differential tests bind it.
package echo

import (
	"context"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// EchoInput is the input of the Echo tool: toolgen reads this struct and
// writes echo_toolgen.go with its schema, BindEchoInput and NewEchoTool.
//
//tool:name Echo
//tool:description Repeats a message back.
//tool:concurrency safe
type EchoInput struct {
	// The message to repeat.
	Message string `json:"message" tool:"required"`
	// How many times to repeat it.
	Times int `json:"times,omitempty" tool:"default=1,min=1,max=100"`
	// How to join the copies.
	Sep string `json:"sep,omitempty" tool:"enum=space|newline|none"`
}

// Echo is the tool's function: it receives the bound, checked input.
func Echo(ctx context.Context, in EchoInput, tc tool.Context) (string, error) {
	sep := map[string]string{"": " ", "space": " ", "newline": "\n", "none": ""}[in.Sep]
	return strings.Repeat(in.Message+sep, in.Times-1) + in.Message, nil
}
