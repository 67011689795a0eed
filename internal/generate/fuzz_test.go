package generate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzExplain: Explain never panics, whatever the two files hold, and says
// nothing for two equal files.
func FuzzExplain(f *testing.F) {
	old, err := os.ReadFile(filepath.Join("testdata", "old.go.txt"))
	if err != nil {
		f.Fatal(err)
	}
	cur, err := os.ReadFile(filepath.Join("testdata", "new.go.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(old, cur)
	f.Add([]byte("package p\n"), cur)
	f.Add(cur, []byte("package p\nvar x = 1\n"))
	f.Add([]byte("package p\nvar _ = struct{}(T{})\nvar d = tool.Definition{Name: \"A\", InputSchema: s}\nvar s = map[string]any{\"properties\": 1}\n"),
		[]byte("package p\nvar _ = func(v T) int { return 0 }\nvar d = tool.Definition{Name: \"A\"}\nfunc BindT(tool.Input) (T, error) { d = d; return T{}, nil }\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, tc := range Explain(a, b) {
			if len(tc.Changes) == 0 || strings.TrimSpace(Describe(tc)) == "" {
				t.Errorf("an empty change: %+v", tc)
			}
		}
		if got := Explain(a, a); len(got) != 0 {
			t.Errorf("Explain of equal files: %v", got)
		}
	})
}
