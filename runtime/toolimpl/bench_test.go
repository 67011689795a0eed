package toolimpl

import (
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

// BenchmarkBind binds a valid input of every helper from its bytes.
func BenchmarkBind(b *testing.B) {
	data := []byte(`{"name":"abc","mode":"slow","count":3,"size":65535,"ratio":0.5,"clamp":99,"flag":true,"tags":["x","y"],"when":"2026-12-01T10:00:00Z","wait":"1m30s"}`)
	in, err := tool.DecodeInput(data)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bindSample(in); err != nil {
			b.Fatal(err)
		}
	}
}
