package frontmatter_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission/frontmatter"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, src  string
		want       string // List.String()
		restricted bool
	}{
		{"list", "---\nname: reviewer\nallowed-tools:\n  - Read\n  - Bash(git:*)\n---\n# Body\n", "Read, Bash(git:*)", true},
		{"comma string", "---\nallowed-tools: Read, Grep, Bash(git status:*)\n---\n", "Read, Grep, Bash(git status:*)", true},
		{"commas inside parentheses", "---\nallowed-tools: \"Bash(echo a,b), Read(/data/report(1).csv), Grep\"\n---\n", "Bash(echo a,b), Read(/data/report(1).csv), Grep", true},
		{"flow list", "---\nallowed-tools: [Read, \"Bash(git:*)\"]\n---\n", "Read, Bash(git:*)", true},
		{"examples", "---\nallowed-tools:\n  - rule: Bash(git:*)\n    must-allow: [git status]\n    must-deny: [gitk]\n---\n", "Bash(git:*)", true},
		{"empty list allows nothing", "---\nallowed-tools: []\n---\n", "(nothing)", true},
		{"empty string allows nothing", "---\nallowed-tools: \"\"\n---\n", "(nothing)", true},
		{"no key", "---\nname: x\n---\nbody", "(unrestricted)", false},
		{"no front matter", "# Title\nallowed-tools: Read\n", "(unrestricted)", false},
		{"empty front matter", "---\n---\n", "(unrestricted)", false},
		{"CRLF and BOM", "\ufeff---\r\nallowed-tools: Read\r\n---\r\n", "Read", true},
		{"dots close", "---\nallowed-tools: Read\n...\n", "Read", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := frontmatter.Parse([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, l.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if l.Restricted() != tt.restricted {
				t.Errorf("Restricted = %v", l.Restricted())
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"camel case", "---\nallowedTools: [Read]\n---\n", `permission: front matter line 2: key "allowedTools" is not read; name the key "allowed-tools"`},
		{"snake case", "---\nallowed_tools: Read\n---\n", `permission: front matter line 2: key "allowed_tools" is not read; name the key "allowed-tools"`},
		{"pascal case", "---\nAllowedTools: Read\n---\n", `permission: front matter line 2: key "AllowedTools" is not read; name the key "allowed-tools"`},
		{"upper kebab", "---\nAllowed-Tools: Read\n---\n", `permission: front matter line 2: key "Allowed-Tools" is not read; name the key "allowed-tools"`},
		{"tools", "---\ntools: Read\n---\n", `permission: front matter line 2: key "tools" is not read; name the key "allowed-tools"`},
		{"twice", "---\nallowed-tools: Read\nallowed-tools: Grep\n---\n", `permission: front matter line 3: key "allowed-tools" is given twice; give it once`},
		{"null", "---\nallowed-tools:\n---\n", `permission: front matter line 2: allowed-tools has no value; write a list of entries, or [] to allow no tool`},
		{"number", "---\nallowed-tools: 5\n---\n", `permission: front matter line 2: allowed-tools must be a list or a comma-separated string, not 5`},
		{"mapping", "---\nallowed-tools: {a: b}\n---\n", `permission: front matter line 2: allowed-tools must be a list or a comma-separated string`},
		{"non-string item", "---\nallowed-tools: [Read, 3]\n---\n", `permission: front matter line 2: an entry must be a string such as Read or Bash(git:*), not "3"`},
		{"bad entry", "---\nallowed-tools: Read, Bash(\n---\n", `permission: entry "Bash(" has no closing ")"; write Bash(pattern)`},
		{"misspelt example key", "---\nallowed-tools:\n  - rule: Bash(git:*)\n    mustAllow: [git]\n---\n", `permission: front matter line 4: key "mustAllow" is not read; write must-allow`},
		{"not_match", "---\nallowed-tools:\n  - rule: Bash(git:*)\n    not_match: [git]\n---\n", `permission: front matter line 4: key "not_match" is not read; write must-deny`},
		{"no rule", "---\nallowed-tools:\n  - must-allow: [git]\n---\n", `permission: front matter line 3: an entry with examples needs rule, such as rule: Bash(git:*)`},
		{"failing example", "---\nallowed-tools:\n  - rule: Bash(git:*)\n    must-allow: [gitk]\n---\n", `permission: entry "Bash(git:*)" must allow "gitk", but does not`},
		{"unclosed", "---\nallowed-tools: Read\n", `permission: front matter has no closing "---" line`},
		{"not a mapping", "---\n- Read\n---\n", "permission: front matter is not a mapping of keys to values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := frontmatter.Parse([]byte(tt.src))
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNotYAML(t *testing.T) {
	_, err := frontmatter.Parse([]byte("---\nallowed-tools: [Read\n---\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "permission: front matter is not valid YAML: ") {
		t.Errorf("got %v", err)
	}
}
