package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLeadingCd: in compound mode a leading "cd DIR &&" into a directory
// of the workspace (the request's working directory) is allowed without
// an entry for cd, and the rest is judged as before; a cd that leaves the
// workspace (.., an absolute path elsewhere, a link out), one not joined
// by &&, one later in the line, and any cd in strict mode are refused.
func TestLeadingCd(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(ws, "out")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	compound, err := ParseWith([]string{"Bash(git:*)", "Bash(go test:*)"}, WithCompoundCommands())
	if err != nil {
		t.Fatal(err)
	}
	strict, err := Parse("Bash(git:*)", "Bash(go test:*)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line    string
		workDir string
		strict  bool
		want    bool
	}{
		{"cd sub && git status", ws, false, true},
		{"cd sub/deeper && go test ./...", ws, false, true},
		{"cd " + ws + "/sub && git status", ws, false, true},
		{"cd sub && git status && go test ./...", ws, false, true},
		{"cd missing && git status", ws, false, true}, // cd fails; && runs nothing
		{"cd ../x && git status", ws, false, false},
		{"cd sub/../.. && git status", ws, false, false},
		{"cd /etc && git status", ws, false, false},
		{"cd out && git status", ws, false, false},
		{"cd ~ && git status", ws, false, false},
		{"cd -P sub && git status", ws, false, false},
		{"cd sub; git status", ws, false, false},
		{"cd sub || git status", ws, false, false},
		{"git status && cd sub", ws, false, false},
		{"cd sub && cd .. && git status", ws, false, false},
		{"cd sub && rm x", ws, false, false},
		{"cd sub && git status", "", false, false},
		{"cd sub && git status", ws, true, false},
		{"(cd sub && git status)", ws, false, false},
	}
	for _, tt := range tests {
		l := compound
		if tt.strict {
			l = strict
		}
		r := cmdReq("Bash", tt.line)
		r.WorkDir = tt.workDir
		if d := l.Decide(r); d.Allowed != tt.want {
			t.Errorf("%q (workdir %q, strict %v): allowed %v, want %v (%s)", tt.line, tt.workDir, tt.strict, d.Allowed, tt.want, d.Detail)
		}
	}
}
