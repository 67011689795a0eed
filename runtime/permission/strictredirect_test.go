package permission

import "testing"

// TestStrictRedirections: strict mode allows the agent-typical
// redirections of the standard streams (2>&1, to and from /dev/null), each
// a word of its own, and nothing else that writes or reads a file.
func TestStrictRedirections(t *testing.T) {
	l, err := Parse("Bash(go test:*)", "Bash(ls:*)", "Bash(git status)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string
		want bool
	}{
		{"go test ./... 2>&1", true},
		{"ls -la 2>/dev/null", true},
		{"git status >/dev/null", true},
		{"git status >/dev/null 2>&1", true},
		{"ls &>/dev/null", true},
		{"ls </dev/null", true},
		{"ls >/tmp/x", false},
		{"ls 2>&1 >/tmp/x", false},
		{"ls 2>&1>/tmp/x", false},
		{"ls 3>&1", false},
		{"ls >/dev/null; rm x", false},
		{"ls >/dev/nullx", false},
		{"ls '>/dev/null'", true}, // quoted: a word, not a redirection
		{"ls 2>&1 | cat", false},
		{"ls & >/dev/null", false},
	}
	for _, tt := range tests {
		if d := l.Decide(cmdReq("Bash", tt.line)); d.Allowed != tt.want {
			t.Errorf("%q: allowed %v, want %v (%s)", tt.line, d.Allowed, tt.want, d.Detail)
		}
	}
}
