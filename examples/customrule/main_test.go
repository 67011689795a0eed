package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/demo.golden")

// TestDemo runs the example and compares what it prints with the golden
// file.
func TestDemo(t *testing.T) {
	var buf bytes.Buffer
	if err := run(&buf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "demo.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("output changed (-golden +got); run go test ./examples/customrule -update:\n%s", diff)
	}
}

// TestFetchRule checks the rule alone, pattern by pattern.
func TestFetchRule(t *testing.T) {
	tests := []struct {
		pattern, url string
		want         bool
	}{
		{"domain:example.com", "https://example.com/", true},
		{"domain:example.com", "https://EXAMPLE.com:8443/x", true},
		{"domain:Example.COM", "https://www.example.com/", true},
		{"domain:example.com", "https://badexample.com/", false},
		{"domain:example.com", "https://example.com.evil.test/", false},
		{"domain:example.com", "https://example.com@evil.test/", false},
		{"domain:example.com", "file:///etc/passwd", false},
		{"domain:example.com", "//example.com/", false},
		{"domain:", "https://example.com/", false},
		{"host:example.com", "https://example.com/", false},
		{"example.com", "https://example.com/", false},
		{"url:https://go.dev/doc/*", "https://go.dev/doc/", true},
		{"url:https://go.dev/doc/*", "https://go.dev/docs", false},
		{"url:https://go.dev/", "https://go.dev/", true},
		{"url:https://go.dev/", "https://go.dev/x", false},
		{"url:https://go.dev/doc/*", "https://go.dev/doc/../dl/", false},
		{"url:https://go.dev/doc/*", "https://go.dev/doc/./spec", true},
	}
	for _, tc := range tests {
		in := tool.NewInput(map[string]any{"url": tc.url})
		if got := fetchRule(tc.pattern, in, tool.Context{}); got != tc.want {
			t.Errorf("fetchRule(%q, %q) = %v, want %v", tc.pattern, tc.url, got, tc.want)
		}
	}
	if fetchRule("domain:example.com", tool.NewInput(map[string]any{"url": 7}), tool.Context{}) {
		t.Error("a url that is not a string matched")
	}
}
