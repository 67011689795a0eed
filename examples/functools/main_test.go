package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

var update = flag.Bool("update", false, "rewrite testdata/out.golden")

// TestRun compares what the example prints with testdata/out.golden.
func TestRun(t *testing.T) {
	var got bytes.Buffer
	if err := run(&got); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("testdata/out.golden", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/out.golden")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), got.String()); diff != "" {
		t.Errorf("output (-want +got); run go test ./examples/functools -update to accept:\n%s", diff)
	}
}

// TestFunctionMatchesStruct: the calculator as a function tool and as a
// struct tool have the same schema and give the same answers to the same
// calls, good and bad.
func TestFunctionMatchesStruct(t *testing.T) {
	fn, st := NewAddTool(), NewSumTool(sum)
	if diff := cmp.Diff(st.Definition().InputSchema, fn.Definition().InputSchema); diff != "" {
		t.Errorf("schemas differ (-struct +function):\n%s", diff)
	}
	for _, args := range []string{
		`{"digit1":3,"digit2":4}`, `{"digit1":12}`, `{}`, `{"digit1":"3","digit2":4}`, `{"digit1":1.5,"digit2":-1}`,
		`{"digit":1,"digit2":2}`, `[1,2]`, `{"digit1":1,"digit2":2,"digit3":3}`,
	} {
		in, err := tool.DecodeInput([]byte(args))
		if err != nil {
			continue
		}
		a := fn.Execute(context.Background(), in, tool.NewContext())
		b := st.Execute(context.Background(), in, tool.NewContext())
		if a.IsError != b.IsError || a.Content != b.Content {
			t.Errorf("%s: function %v %q, struct %v %q", args, a.IsError, a.Content, b.IsError, b.Content)
		}
	}
}
