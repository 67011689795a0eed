// Package stalefield declares two tools in one file; a field of one's // want package:`toolgen declarations \(3 types\)`
// output was renamed on the wire after generating (the test generates the
// file from stalefield.go.before), so only that tool is reported, with the
// field.
package stalefield

// EchoInput is the input of the Echo tool.
//
//tool:name Echo
//tool:description Repeats a message back.
type EchoInput struct {
	// The message to repeat.
	Message string `json:"message" tool:"required"`
}

// IssueInput is the input of the GetIssue tool.
//
//tool:name GetIssue
//tool:description Shows an issue.
//tool:output Issue
type IssueInput struct { // want `generated code of tool GetIssue: stalefield_toolgen.go is stale \(output field 'headline' added; output field 'title' removed\); run go generate`
	// The issue's number.
	Number int `json:"number" tool:"required"`
}

// Issue is what GetIssue returns.
type Issue struct {
	// The title.
	Title string `json:"headline"`
}
