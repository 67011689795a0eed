// Package genkittool offers the tools of a toolgen executor to Genkit Go
// (github.com/firebase/genkit/go) as its own tool type, ai.Tool, so that
// genkit.Generate calls them through the executor: the allow-list, the
// schema gate, the never-panic contract and the result bounds hold for
// every call.
//
//	tools := genkittool.Tools(exec, tool.NewContext())
//	resp, err := genkit.Generate(ctx, g, ai.WithPrompt("..."), ai.WithTools(genkittool.Refs(tools)...))
//
// Each tool's definition is the executor's (name, description, input schema
// as given). Genkit itself checks a call's input against that schema before
// the tool runs and, on a mismatch, ends the generation with its own error
// (genkit v1.4.0 has no option to leave that to the tool); every call that
// passes it goes through the executor's gate as well. A call's input is re-encoded as JSON and decoded as the
// executor reads model arguments; the answer is the result's text, an error
// result's prefixed "Error: " and returned as the answer rather than as a Go
// error, so that the model reads the sentence and can fix its call. It is a
// module of its own so that Genkit's dependencies stay out of toolgen's
// go.mod.
package genkittool
