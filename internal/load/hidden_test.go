package load

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDedupeWarnings(t *testing.T) {
	dir := filepath.FromSlash("/m")
	typeErr := filepath.Join(dir, "use", "use.go") + ":13:13: undefined: BindUseInput"
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{
			name: "compiler output repeats a type error",
			in:   []string{"-: # example.com/m/use\nuse/use.go:13:13: undefined: BindUseInput", typeErr},
			want: []string{typeErr},
		},
		{
			name: "compiler output keeps what the type checker did not say",
			in:   []string{"-: # example.com/m/use\nuse/use.go:13:13: undefined: BindUseInput\nuse/use.go:14:2: other", typeErr},
			want: []string{"-: # example.com/m/use\nuse/use.go:14:2: other", typeErr},
		},
		{
			name: "variants report the same error",
			in:   []string{typeErr, typeErr},
			want: []string{typeErr},
		},
		{
			name: "a header alone is dropped",
			in:   []string{"-: # example.com/m/use\n\n"},
			want: nil,
		},
		{
			name: "other warnings are kept, sorted",
			in:   []string{"z: later", "a: first"},
			want: []string{"a: first", "z: later"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := dedupeWarnings(slices.Clone(tt.in), dir)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("dedupeWarnings(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// FuzzDedupeWarnings checks that deduplication never panics, is stable
// (a second pass changes nothing), and only ever drops lines: every line
// it returns was given.
func FuzzDedupeWarnings(f *testing.F) {
	f.Add("-: # example.com/m/use\nuse/use.go:13:13: undefined: X", "/m/use/use.go:13:13: undefined: X")
	f.Add("-: # p\n:1:1: x\n\n", "a")
	f.Add("", "-: ")
	f.Fuzz(func(t *testing.T, a, b string) {
		got := dedupeWarnings([]string{a, b}, "/m")
		if again := dedupeWarnings(slices.Clone(got), "/m"); !cmp.Equal(got, again) {
			t.Fatalf("not stable: %q then %q", got, again)
		}
		given := map[string]bool{}
		for _, w := range []string{a, b} {
			for _, l := range strings.Split(strings.TrimPrefix(w, "-: "), "\n") {
				given[l] = true
			}
		}
		for _, w := range got {
			for _, l := range strings.Split(strings.TrimPrefix(w, "-: "), "\n") {
				if !given[l] {
					t.Fatalf("line %q was not given (in %q, %q)", l, a, b)
				}
			}
		}
	})
}
