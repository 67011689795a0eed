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

// TestPatternBehindALinkInsideTheWorkspace: a link inside the workspace
// widens nothing. With Read(/ws/**), Write(/ws/src/**) and a repository
// that ships src -> .git, writing src/config would rewrite .git/config;
// only a link above the workspace (macOS's /tmp) widens a pattern.
func TestPatternBehindALinkInsideTheWorkspace(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	realWS := filepath.Join(base, "real-ws")
	if err := os.MkdirAll(filepath.Join(realWS, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(realWS, ".git", "config"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".git", filepath.Join(realWS, "src")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	linkedWS := filepath.Join(base, "ws") // the workspace named through a link above it
	if err := os.Symlink(realWS, linkedWS); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, ws, path string
		want           bool
	}{
		{"link inside the workspace", realWS, realWS + "/src/config", false},
		{"the same through the linked workspace", linkedWS, linkedWS + "/src/config", false},
		{"a file beside it through the link above", linkedWS, linkedWS + "/src2/x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.MkdirAll(filepath.Join(realWS, "src2"), 0o755); err != nil {
				t.Fatal(err)
			}
			list, err := Parse("Read("+tt.ws+"/**)", "Write("+tt.ws+"/src/**)", "Write("+tt.ws+"/src2/**)")
			if err != nil {
				t.Fatal(err)
			}
			d := list.Decide(Request{Tool: "Write", Subject: &Subject{Kind: Path, Value: tt.path}, HasSubject: true, Judged: true, WorkDir: tt.ws, Level: ReadOnly})
			if d.Allowed != tt.want {
				t.Errorf("Write %s in %s: allowed %v, want %v (%s)", tt.path, tt.ws, d.Allowed, tt.want, d.Detail)
			}
			phys, err := filepath.EvalSymlinks(filepath.Dir(tt.path))
			if err != nil {
				t.Fatal(err)
			}
			phys = filepath.Join(phys, filepath.Base(tt.path))
			if got := list.PathFilter("Write").In(tt.ws).AllowsResolved(phys); got != tt.want {
				t.Errorf("PathFilter.In(%s).AllowsResolved(%s): %v, want %v", tt.ws, phys, got, tt.want)
			}
		})
	}
}
