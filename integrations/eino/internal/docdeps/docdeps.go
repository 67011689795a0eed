//go:build docs

// Package docdeps imports what docs/eino.md's program imports, which this
// module's TestEinoPage compiles: go mod tidy reads every build tag, so it
// keeps their requirements in go.mod; no build includes this file, and no
// package imports this one, so a program that uses einotool never builds
// them.
package docdeps

import (
	_ "github.com/cloudwego/eino-ext/components/model/openai"
	_ "github.com/cloudwego/eino/compose"
	_ "github.com/cloudwego/eino/flow/agent/react"
	_ "github.com/cloudwego/eino/schema"

	_ "github.com/toolgen/toolgen/builtin"
	_ "github.com/toolgen/toolgen/integrations/eino"
)
