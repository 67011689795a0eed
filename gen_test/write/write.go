// Package write is a fixture shaped like the builtin Write tool (whose
// constructor and binder builtin does not export), for the binder
// benchmark: a long string with escapes.
package write

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// WriteInput is the input of the Write tool.
//
//tool:name Write
//tool:description Writes a file to the local file system, replacing it if it exists.
//tool:concurrency sequential
//tool:side-effect destructive
//tool:subject path file_path
type WriteInput struct {
	// The absolute path of the file to write.
	FilePath string `json:"file_path" tool:"required"`
	// The content to write to the file.
	Content string `json:"content" tool:"required"`
}
