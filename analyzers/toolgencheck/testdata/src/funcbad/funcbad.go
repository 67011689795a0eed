// Package funcbad has a function tool's annotation mistakes: toolgen would // want package:`toolgen declarations \(0 types\)`
// exit 2.
package funcbad

// want +5 `toolgen: //tool:param mesage names no parameter of Echo; its parameters are message`

// Echo repeats a message.
//
//tool:name echo
//tool:param mesage The message to repeat.
func Echo(message string) string { return message } // want `toolgen: tool echo: parameter message has no //tool:param line`
