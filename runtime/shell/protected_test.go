package shell

import "testing"

func TestProtectedBy(t *testing.T) {
	tests := []struct {
		rel  string
		want string // the entry's Path, "" for none
	}{
		{".git/config", ".git/config"},
		{"./.git/config", ".git/config"},
		{"/.git/config", ".git/config"},
		{".git/hooks", ".git/hooks/"},
		{".git/hooks/pre-commit", ".git/hooks/"},
		{".git/objects/ab/cd", ""},
		{".git/HEAD", ""},
		{".git/configx", ""},
		{".git/config.worktree", ".git/config.worktree"},
		{".git/commondir", ".git/commondir"},
		{".git/modules/lib/config", ".git/modules/"},
		{".git/worktrees/wt/commondir", ".git/worktrees/"},
		{".git/index", ""},
		{".git/refs/heads/main", ""},
		{".gitmodules", ".gitmodules"},
		{".bashrc", ".bashrc"},
		{"sub/.bashrc", ""},
		{".envrc", ".envrc"},
		{".vscode/tasks.json", ".vscode/"},
		{".vscode", ".vscode/"},
		{".vscodex", ""},
		{".idea/workspace.xml", ".idea/"},
		{".mcp.json", ".mcp.json"},
		{".claude/settings.json", ".claude/"},
		{"src/../.git/config", ".git/config"},
		{"../.git/config", ""},
		{".", ""},
		{"README.md", ""},
	}
	for _, tt := range tests {
		got, ok := ProtectedBy(tt.rel)
		if ok != (tt.want != "") || got.Path != tt.want {
			t.Errorf("ProtectedBy(%q) = %q, %v; want %q", tt.rel, got.Path, ok, tt.want)
		}
	}
}

func TestMandatoryReadOnlyHasReasons(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range MandatoryReadOnly {
		if p.Reason == "" || p.Path == "" || p.Path[0] == '/' {
			t.Errorf("entry %+v: want a relative path and a reason", p)
		}
		if seen[p.Path] {
			t.Errorf("entry %q twice", p.Path)
		}
		seen[p.Path] = true
	}
}
