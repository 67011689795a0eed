package tool

import (
	"context"
	"log/slog"
	"testing"

	"github.com/toolgen/toolgen/runtime/schema"
)

var (
	discard     = slog.New(slog.DiscardHandler)
	schemaModes = []schema.Mode{schema.Off, schema.Warn, schema.Enforce}
)

// BenchmarkExecutor measures the executor's per-call overhead around a tool
// that does nothing, side by side with calling the tool directly.
func BenchmarkExecutor(b *testing.B) {
	nop := New(Definition{Name: "Read", InputSchema: readSchema}, func(context.Context, Input, Context) Result {
		return Success("ok")
	})
	r := NewRegistry()
	if err := r.Register(nop); err != nil {
		b.Fatal(err)
	}
	in := NewInput(map[string]any{"file_path": "/a", "limit": 10.0, "mode": "text"})
	call := Call{ID: "c", Name: "Read", Input: in}
	ctx := context.Background()
	tc := NewContext()
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nop.Execute(ctx, in, tc)
		}
	})
	for _, mode := range schemaModes {
		e := NewExecutor(r, WithSchemaMode(mode), WithLogger(discard))
		b.Run("executor/"+mode.String(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e.Execute(ctx, call, tc)
			}
		})
	}
	// A tool that checks its own input, as generated tools do: the gate
	// does not run, and the Input is made strict under Enforce.
	checks := New(Definition{Name: "Read", InputSchema: readSchema, ChecksInput: true}, func(context.Context, Input, Context) Result {
		return Success("ok")
	})
	rc := NewRegistry()
	if err := rc.Register(checks); err != nil {
		b.Fatal(err)
	}
	raw, err := DecodeInput([]byte(`{"file_path":"/a","limit":10,"mode":"text"}`))
	if err != nil {
		b.Fatal(err)
	}
	e := NewExecutor(rc, WithSchemaMode(schema.Enforce), WithLogger(discard))
	b.Run("executor/enforce/checks-input", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e.Execute(ctx, Call{ID: "c", Name: "Read", Input: raw}, tc)
		}
	})
}

func BenchmarkDecodeInput(b *testing.B) {
	data := []byte(`{"pattern":"func main","path":"/src","glob":"*.go","output_mode":"content","-i":true,"-n":true,"-A":2,"-B":2,"head_limit":50}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeInput(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewInput measures making an Input from a map of the shapes a
// caller builds by hand (the Grep tool's arguments).
func BenchmarkNewInput(b *testing.B) {
	m := map[string]any{"pattern": "func main", "path": "/src", "glob": "*.go", "output_mode": "content",
		"-i": true, "-n": true, "-A": 2, "-B": 2, "head_limit": 50, "types": []string{"go", "md"}}
	b.ReportAllocs()
	for b.Loop() {
		NewInput(m)
	}
}
