// Package grep is a 13-parameter fixture shaped like the builtin Grep
// tool, for the binder benchmark.
package grep

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// GrepInput is the input of the Grep tool.
//
//tool:name Grep
//tool:description Searches file contents with a regular expression.
//tool:concurrency safe
//tool:side-effect read-only
//tool:subject path path
type GrepInput struct {
	// The regular expression to search for.
	Pattern string `json:"pattern" tool:"required" mapstructure:"pattern"`
	// File or directory to search in.
	Path string `json:"path,omitempty" mapstructure:"path"`
	// Glob that file names must match.
	Glob string `json:"glob,omitempty" mapstructure:"glob"`
	// File type to search.
	Type string `json:"type,omitempty" mapstructure:"type"`
	// What to output.
	OutputMode string `json:"output_mode,omitempty" tool:"enum=content|files_with_matches|count,default=files_with_matches" mapstructure:"output_mode"`
	// Case insensitive.
	I bool `json:"-i,omitempty" mapstructure:"-i"`
	// Show line numbers.
	N bool `json:"-n,omitempty" mapstructure:"-n"`
	// Let . match newlines.
	Multiline bool `json:"multiline,omitempty" mapstructure:"multiline"`
	// Lines after each match.
	A int `json:"-A,omitempty" tool:"min=0" mapstructure:"-A"`
	// Lines before each match.
	B int `json:"-B,omitempty" tool:"min=0" mapstructure:"-B"`
	// Lines around each match.
	C int `json:"-C,omitempty" tool:"min=0" mapstructure:"-C"`
	// Most results.
	HeadLimit int `json:"head_limit,omitempty" tool:"min=0" mapstructure:"head_limit"`
	// Results to skip.
	Offset int `json:"offset,omitempty" tool:"min=0" mapstructure:"offset"`
}
