//go:build docs

// Package docdeps imports what docs/genkit.md's program imports, which this
// module's TestGenkitPage compiles: go mod tidy reads every build tag, so it
// keeps their requirements in go.mod; no build includes this file, and no
// package imports this one, so a program that uses genkittool never builds
// them.
package docdeps

import (
	_ "github.com/firebase/genkit/go/ai"
	_ "github.com/firebase/genkit/go/genkit"
	_ "github.com/firebase/genkit/go/plugins/googlegenai"

	_ "github.com/toolgen/toolgen/builtin"
	_ "github.com/toolgen/toolgen/integrations/genkit"
)
