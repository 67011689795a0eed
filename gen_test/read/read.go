// Package read is a 3-parameter fixture shaped like the builtin Read tool,
// for the binder benchmark.
package read

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// ReadInput is the input of the Read tool.
//
//tool:name Read
//tool:description Reads a file.
//tool:concurrency safe
//tool:side-effect read-only
//tool:subject path file_path
type ReadInput struct {
	// Absolute path of the file.
	FilePath string `json:"file_path" tool:"required" mapstructure:"file_path"`
	// Line to start at.
	Offset int `json:"offset,omitempty" tool:"min=0" mapstructure:"offset"`
	// Most lines to read.
	Limit int `json:"limit,omitempty" tool:"min=1,default=2000" mapstructure:"limit"`
}
