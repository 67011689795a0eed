package annotations

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDocDescription(t *testing.T) {
	tests := []struct {
		name, prose, typeName, tool string
		want                        string
		restated                    bool
	}{
		{"the Go convention's line alone", "EchoInput is the input of the Echo tool.", "EchoInput", "Echo", "", true},
		{"more after it", "EchoInput is the input of the Echo tool.\n\nRepeats a message back.", "EchoInput", "Echo", "Repeats a message back.", true},
		{"more in the same paragraph", "EchoInput is the input of the Echo tool. It repeats a message.", "EchoInput", "Echo", "It repeats a message.", true},
		{"holds the arguments", "ReadArgs holds the arguments for the read_file tool.", "ReadArgs", "read_file", "", true},
		{"the tool's input", "ReadArgs is the read_file tool's input", "ReadArgs", "read_file", "", true},
		{"a first sentence that says something", "Echo repeats a message back.", "EchoInput", "Echo", "Echo repeats a message back.", false},
		{"no name in it", "Is the input.", "EchoInput", "Echo", "Is the input.", false},
		{"a decimal point is no sentence end", "Echo v1.5 is the input of the Echo tool.", "EchoInput", "Echo", "Echo v1.5 is the input of the Echo tool.", false},
		{"empty", "", "EchoInput", "Echo", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, restated := DocDescription(tt.prose, tt.typeName, tt.tool)
			if diff := cmp.Diff(tt.want, got); diff != "" || restated != tt.restated {
				t.Errorf("DocDescription(%q) restated %v, want %v; description (-want +got):\n%s", tt.prose, restated, tt.restated, diff)
			}
		})
	}
}

// FuzzDocDescription checks that DocDescription never panics, that the
// description is the prose or a trimmed tail of it, and that the prose is
// kept whole exactly when nothing was dropped.
func FuzzDocDescription(f *testing.F) {
	f.Add("EchoInput is the input of the Echo tool.\n\nRepeats a message back.", "EchoInput", "Echo")
	f.Add("Echo repeats. More", "EchoInput", "Echo")
	f.Add("x.\n\n", "x", "x")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, prose, typeName, tool string) {
		got, restated := DocDescription(prose, typeName, tool)
		if !restated {
			if got != prose {
				t.Fatalf("nothing restated, but the description %q is not the prose %q", got, prose)
			}
			return
		}
		if got != strings.TrimSpace(got) || !strings.Contains(prose, got) {
			t.Fatalf("description %q is not a trimmed part of the prose %q", got, prose)
		}
	})
}
