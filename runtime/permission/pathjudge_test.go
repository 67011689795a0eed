package permission_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission"
)

func TestPathFilter(t *testing.T) {
	type verdict struct{ Allows, MayContain bool }
	tests := []struct {
		name    string
		entries []string
		tool    string
		paths   map[string]verdict
	}{
		{name: "one level", entries: []string{"Grep(/ws/docs/*)"}, tool: "Grep", paths: map[string]verdict{
			"/ws/docs/a.md":                  {true, false},
			"/ws/docs/private":               {true, false},
			"/ws/docs/private/keys/prod.env": {false, false},
			"/ws/docs":                       {false, true},
			"/ws":                            {false, true},
			"/":                              {false, true},
			"/ws/other":                      {false, false},
			"/etc":                           {false, false},
		}},
		{name: "recursive", entries: []string{"Grep(/ws/docs/**)"}, tool: "Grep", paths: map[string]verdict{
			"/ws/docs":                       {true, true},
			"/ws/docs/private/keys/prod.env": {true, true},
			"/ws":                            {false, true},
			"/wsx":                           {false, false},
		}},
		{name: "glob segments", entries: []string{"Grep(/ws/*/src/*.go)"}, tool: "Grep", paths: map[string]verdict{
			"/ws/a/src/x.go": {true, false},
			"/ws/a/src":      {false, true},
			"/ws/a":          {false, true},
			"/ws/a/doc":      {false, false},
			"/ws/a/src/x.md": {false, false},
		}},
		{name: "double star in the middle", entries: []string{"Grep(/ws/**/secret/*)"}, tool: "Grep", paths: map[string]verdict{
			"/ws/a/b/secret/k": {true, true},
			"/ws/a/b":          {false, true},
			"/other":           {false, false},
		}},
		{name: "braces with a slash may contain anything below their directory", entries: []string{"Grep(/ws/{a,b/c}/*)"}, tool: "Grep", paths: map[string]verdict{
			"/ws/b/c/x": {true, true},
			"/ws/a/x":   {true, true},
			"/ws/d/x":   {false, true},
		}},
		{name: "any pattern of the group", entries: []string{"Grep(/a/*)", "Grep(/b/**)"}, tool: "Grep", paths: map[string]verdict{
			"/a/x":   {true, false},
			"/b/x/y": {true, true},
			"/c":     {false, false},
		}},
		{name: "no patterns restrict nothing", entries: []string{"Grep"}, tool: "Grep", paths: map[string]verdict{
			"/etc/passwd": {true, true},
		}},
		{name: "a tool not on the list restricts nothing (Decide denies it)", entries: []string{"Read(/a/*)"}, tool: "Grep", paths: map[string]verdict{
			"/etc/passwd": {true, true},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := permission.Parse(tt.entries...)
			if err != nil {
				t.Fatal(err)
			}
			f := l.PathFilter(tt.tool)
			got := map[string]verdict{}
			for p := range tt.paths {
				got[p] = verdict{f.Allows(p), f.MayContain(p)}
			}
			if diff := cmp.Diff(tt.paths, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// An intersection's filter requires every list's patterns.
func TestPathFilterIntersection(t *testing.T) {
	a, err := permission.Parse("Grep(/ws/**)")
	if err != nil {
		t.Fatal(err)
	}
	b, err := permission.Parse("Grep(/ws/docs/*)")
	if err != nil {
		t.Fatal(err)
	}
	l, err := permission.Intersect(a, b)
	if err != nil {
		t.Fatal(err)
	}
	f := l.PathFilter("Grep")
	got := []bool{f.Allows("/ws/docs/a"), f.Allows("/ws/src/a"), f.MayContain("/ws/docs/private"), f.MayContain("/ws/docs")}
	if diff := cmp.Diff([]bool{true, false, false, true}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if (permission.PathFilter{}).Restricts() || !f.Restricts() {
		t.Error("Restricts: the zero filter must not restrict, the intersection's must")
	}
}

// AllowsResolved accepts a file really under the linked directory a
// pattern names, and nothing a link leads elsewhere.
func TestPathFilterResolved(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	l, err := permission.Parse("Grep(" + filepath.ToSlash(link) + "/docs/*)")
	if err != nil {
		t.Fatal(err)
	}
	f := l.PathFilter("Grep")
	r := filepath.ToSlash(real)
	got := map[string]bool{}
	for _, p := range []string{r + "/docs/a", r + "/docs/private/k", r + "/other", "/etc/passwd"} {
		got[p] = f.AllowsResolved(p)
	}
	want := map[string]bool{r + "/docs/a": true, r + "/docs/private/k": false, r + "/other": false, "/etc/passwd": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func BenchmarkPathFilter(b *testing.B) {
	l, err := permission.Parse("Grep(/ws/docs/*)", "Grep(/ws/src/**/*.go)")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		f := l.PathFilter("Grep")
		if f.Allows("/ws/src/a/b/c.go") == f.MayContain("/ws/docs/private") {
			b.Fatal("wrong verdict")
		}
	}
}

// FuzzPathFilter: MayContain never prunes a directory above an allowed
// path, whatever the pattern: a walk that trusts it loses nothing.
func FuzzPathFilter(f *testing.F) {
	for _, s := range [][2]string{
		{"/ws/docs/*", "/ws/docs/a"},
		{"/ws/**/secret/*", "/ws/a/b/secret/k"},
		{"/ws/{a,b/c}/*", "/ws/b/c/x"},
		{"/ws/*/src/*.go", "/ws/x/src/y.go"},
		{"/a/[bc]?/**", "/a/bd/e/f"},
		{`/a/\*/b`, "/a/*/b"},
		{"/**", "/"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		l, err := permission.Parse("Grep(" + pattern + ")")
		if err != nil {
			return
		}
		clean, err := permission.AbsPath(p, "/")
		if err != nil {
			return
		}
		flt := l.PathFilter("Grep")
		if clean == "/" || !flt.Allows(clean) {
			return // "/" has no directory above it
		}
		for d := filepath.Dir(clean); ; d = filepath.Dir(d) {
			if !flt.MayContain(d) {
				t.Fatalf("pattern %q allows %q but MayContain(%q) is false", pattern, clean, d)
			}
			if d == "/" {
				break
			}
		}
	})
}
