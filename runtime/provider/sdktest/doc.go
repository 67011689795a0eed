// Package sdktest proves the wire shapes of package provider against the
// official Anthropic and OpenAI Go SDKs by round-tripping through their
// types. It is a module of its own so that a build of toolgen never pulls
// those SDKs in; run it with
//
//	cd runtime/provider/sdktest && go test ./...
package sdktest
