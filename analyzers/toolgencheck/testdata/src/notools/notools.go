// Package notools declares no tools and holds no generated files: the
// analyzer does not load it.
package notools

// Input looks like a tool's input but has no directives.
type Input struct {
	Message string `json:"message"`
}
