package toolimpl

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

type outValue struct {
	N int `json:"n"`
}

func TestRenderStructuredValue(t *testing.T) {
	tests := []struct {
		name           string
		in             any
		wantContent    string
		wantStructured any
		wantError      bool
	}{
		{"struct", outValue{N: 2}, `{"n":2}`, outValue{N: 2}, false},
		{"pointer", &outValue{N: 3}, `{"n":3}`, &outValue{N: 3}, false},
		{"string stays text", "hi", "hi", nil, false},
		{"result as it is", tool.Success("r"), "r", nil, false},
		{"error", errString("bad"), "bad", nil, true},
		{"unencodable", func() {}, "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := renderStructuredValue(tt.in)
			if r.IsError != tt.wantError {
				t.Fatalf("IsError = %v, want %v (%q)", r.IsError, tt.wantError, r.Content)
			}
			if tt.wantContent != "" && r.Content != tt.wantContent {
				t.Errorf("Content = %q, want %q", r.Content, tt.wantContent)
			}
			if diff := cmp.Diff(tt.wantStructured, r.Structured); diff != "" {
				t.Errorf("Structured (-want +got):\n%s", diff)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }
