// Package notools declares no tools and holds no generated files: the // want package:`toolgen declarations \(1 types\)`
// analyzer only exports its declarations for importers, and builds nothing.
package notools

// Input looks like a tool's input but has no directives.
type Input struct {
	Message string `json:"message"`
}
