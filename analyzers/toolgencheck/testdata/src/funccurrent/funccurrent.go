// Package funccurrent declares a function tool whose generated file the // want package:`toolgen declarations \(0 types\)`
// test writes with toolgen before the analyzer runs: nothing to report.
package funccurrent

import "context"

// Add adds two digits.
//
//tool:name add
//tool:description Adds two digits.
//tool:param a min=0,max=9 The first digit.
//tool:param b min=0,max=9 The second digit.
func Add(ctx context.Context, a, b int) (int, error) { return a + b, ctx.Err() }
