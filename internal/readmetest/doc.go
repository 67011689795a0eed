// Package readmetest proves the README's quick start: its test copies the
// README's Go files into a new module that replaces toolgen with this
// repository, runs the README's commands in order and compares what the
// program prints with the output the README shows.
//
// ParseQuickStart reads the section (the files, the commands, the output);
// the test does the rest. Run it with
//
//	go test -run TestQuickStart ./internal/readmetest
//
// It is slow (a fresh module, go mod tidy, go generate, a build), so it
// skips under -short. It needs the module cache to hold toolgen's
// dependencies (any earlier build of this repository fills it) or a
// reachable module proxy.
package readmetest
