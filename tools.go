//go:build tools

// This file pins the tools the Makefile runs, so that `go run` uses the
// versions in go.mod. Downstream repositories copy the same pattern to pin
// toolgen itself:
//
//	//go:build tools
//
//	package yourmodule
//
//	import _ "github.com/toolgen/toolgen/cmd/toolgen"
//
// (With Go 1.24 or later, `go get -tool github.com/toolgen/toolgen/cmd/toolgen`
// records it as a tool directive in go.mod instead.)
package toolgen

import _ "github.com/toolgen/toolgen/cmd/toolgen"
