// Package funcmissing declares a function tool that was never generated. // want package:`toolgen declarations \(0 types\)`
package funcmissing

// Echo repeats a message.
//
//tool:name echo
//tool:description Repeats a message back.
//tool:param message The message to repeat.
func Echo(message string) string { // want `generated code of tool echo: funcmissing_toolgen.go is missing; run go generate`
	return message
}
