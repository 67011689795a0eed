package analysisutil

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtractDoc(t *testing.T) {
	const src = `// Package x does things.
//
// # Analyzer alpha
//
// alpha checks
// the first thing.
//
// More about alpha.
//
// # Analyzer beta
//
// beta checks the second thing.
package x
`
	tests := []struct {
		name    string
		want    string
		wantErr bool
	}{
		{name: "alpha", want: "alpha: alpha checks the first thing.\n\nMore about alpha."},
		{name: "beta", want: "beta: beta checks the second thing."},
		{name: "gamma", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := extractDoc(src, tt.name)
			if (err != nil) != tt.wantErr {
				t.Fatalf("extractDoc(%q) error = %v, want error %v", tt.name, err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("extractDoc(%q) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}
