// Package funcstale declares two function tools; one parameter's options // want package:`toolgen declarations \(0 types\)`
// changed after their file was generated, which builds: only the analyzer
// (and toolgen -check) see it.
package funcstale

// Echo repeats a message.
//
//tool:name echo
//tool:description Repeats a message back.
//tool:param message minlen=1 The message to repeat.
func Echo(message string) string { // want `generated code of tool echo: funcstale_toolgen.go is stale \(.*message.*\); run go generate`
	return message
}

// Shout repeats a message loudly.
//
//tool:name shout
//tool:description Repeats a message back, loudly.
//tool:param message The message to repeat.
func Shout(message string) string { return message }
