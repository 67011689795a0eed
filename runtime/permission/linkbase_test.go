package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPatternBehindALink: a pattern whose directory is reached through a
// link (macOS's /tmp, a home directory linked to another disk) allows the
// files really in that directory, and only those.
func TestPatternBehindALink(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "real")
	sibling := filepath.Join(base, "realother")
	for _, d := range []string{real, sibling, filepath.Join(real, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	// Inside the real directory, links out of it and to its sibling.
	if err := os.Symlink(sibling, filepath.Join(real, "toSibling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(real, "toRoot")); err != nil {
		t.Fatal(err)
	}
	list, err := Parse("Read("+link+"/**)", "Edit("+link+"/sub/*.go)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool, path string
		want       bool
	}{
		{"Read", link + "/a.go", true},
		{"Read", link, true},
		{"Read", link + "/sub/new/file.txt", true},
		{"Read", real + "/a.go", false}, // the pattern names the link, not the real path
		{"Read", link + "/toSibling/x", false},
		{"Read", link + "/toRoot/etc/passwd", false},
		{"Read", link + "/../realother/x", false},
		{"Edit", link + "/sub/a.go", true},
		{"Edit", link + "/sub/a.txt", false},
		{"Edit", link + "/a.go", false},
	}
	for _, tt := range tests {
		d := list.Decide(Request{Tool: tt.tool, Subject: &Subject{Kind: Path, Value: tt.path}, HasSubject: true, Judged: true, Level: ReadOnly})
		if d.Allowed != tt.want {
			t.Errorf("%s %s: allowed %v, want %v (%s)", tt.tool, tt.path, d.Allowed, tt.want, d.Detail)
		}
	}
}
