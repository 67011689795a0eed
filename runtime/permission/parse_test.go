package permission

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		entry string
		want  string
	}{
		{"", `permission: entry 1 is empty; write a tool name such as Read, or Name(pattern) such as Bash(git:*)`},
		{"   ", `permission: entry 1 is empty; write a tool name such as Read, or Name(pattern) such as Bash(git:*)`},
		{"Bash(", `permission: entry "Bash(" has no closing ")"; write Bash(pattern)`},
		{"(x)", `permission: entry "(x)" has no tool name before "("; write Name(pattern)`},
		{"Bash (git:*)", `permission: entry "Bash (git:*)" has a space before "("; write Bash(git:*)`},
		{"Bash()", `permission: entry "Bash()" has an empty pattern; write Bash to allow every call, or Bash(pattern)`},
		{"Bash( )", `permission: entry "Bash( )" has an empty pattern; write Bash to allow every call, or Bash(pattern)`},
		{"Bash(git)x", `permission: entry "Bash(git)x" has text after the closing ")"; end the entry with the pattern's ")"`},
		{"Bash(:*)", `permission: entry "Bash(:*)": the command prefix before ":*" is empty; write a command before it, as in git:*`},
		{"Bash(git:*status)", `permission: entry "Bash(git:*status)": ":*" may only end the pattern, as in git:*`},
		{"Bash(git:*:*)", `permission: entry "Bash(git:*:*)": ":*" may only end the pattern, as in git:*`},
		{"Bash(git status; rm)", `permission: entry "Bash(git status; rm)": a COMMAND pattern may not contain ';'; allow each simple command in an entry of its own`},
		{"Bash(git && rm:*)", `permission: entry "Bash(git && rm:*)": a COMMAND pattern may not contain '&'; allow each simple command in an entry of its own`},
		{"Bash(ls *)", `permission: entry "Bash(ls *)": a COMMAND pattern may not contain an unquoted '*'; allow each simple command in an entry of its own`},
		{"Bash(echo 'x:*)", `permission: entry "Bash(echo 'x:*)": a COMMAND pattern may not contain an unbalanced quote; allow each simple command in an entry of its own`},
		{"Bash( git:*)", `permission: entry "Bash( git:*)": the command has leading or trailing spaces; remove them`},
		{"Bash(git :*)", `permission: entry "Bash(git :*)": the command has leading or trailing spaces; remove them`},
		{"Read(allowed/**)", `permission: entry "Read(allowed/**)": a PATH pattern must be absolute; start it with "/"`},
		{"Read(/a/../b/**)", `permission: entry "Read(/a/../b/**)": a PATH pattern must be in clean form; write Read(/b/**)`},
		{"Read(/tmp/)", `permission: entry "Read(/tmp/)": a PATH pattern must be in clean form; write Read(/tmp)`},
		{"Read(//tmp)", `permission: entry "Read(//tmp)": a PATH pattern must be in clean form; write Read(/tmp)`},
		{"Read(/a/[b)", `permission: entry "Read(/a/[b)": the pattern is not a valid glob; close every [ and {`},
		{"Read(/a/{b)", `permission: entry "Read(/a/{b)": the pattern is not a valid glob; close every [ and {`},
		{"Read(/a\x00b)", `permission: entry "Read(/a\x00b)": a PATH pattern may not contain a NUL byte`},
		{"Read File", `permission: entry "Read File": the tool name "Read File" may not contain ' '; a tool name has no spaces, parentheses, commas or control characters`},
		{"Read)", `permission: entry "Read)": the tool name "Read)" may not contain ')'; a tool name has no spaces, parentheses, commas or control characters`},
		{"functions.Read", `permission: entry "functions.Read": tool names are matched without the "functions." prefix; write Read`},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			_, err := Parse(tt.entry)
			if err == nil {
				t.Fatalf("Parse(%q): no error", tt.entry)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.entry, diff)
			}
		})
	}
}

func TestParseAllErrorsAtOnce(t *testing.T) {
	_, err := Parse("Bash(", "Read", "(x)")
	if err == nil || strings.Count(err.Error(), "\n") != 1 {
		t.Fatalf("want two errors, got %v", err)
	}
}

func TestParseAccepts(t *testing.T) {
	l, err := Parse(" Read ", "Bash(git:*)", "Read(/tmp/**)", "Read(/data/report(1).csv)", "mcp__slack__send", "Fetch(domain:example.com)", "Bash(git status)", "Read(/)")
	if err != nil {
		t.Fatal(err)
	}
	want := "Read(/tmp/**), Read(/data/report(1).csv), Read(/), Bash(git:*), Bash(git status), mcp__slack__send, Fetch(domain:example.com)"
	if diff := cmp.Diff(want, l.String()); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bash", "Fetch", "Read", "mcp__slack__send"}, l.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	for name, want := range map[string]bool{"Read": true, "Bash": true, "read": false, "functions.Read": false, "Write": false} {
		if got := l.Offers(name); got != want {
			t.Errorf("Offers(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEmptyAndZeroLists(t *testing.T) {
	empty, err := Parse()
	if err != nil {
		t.Fatal(err)
	}
	if !empty.Restricted() || empty.Offers("Read") || empty.Decide(Request{Tool: "Read"}).Allowed {
		t.Error("Parse() must allow nothing")
	}
	var zero List
	if zero.Restricted() || !zero.Offers("Anything") || !zero.Decide(cmdReq("Bash", "rm -rf /")).Allowed {
		t.Error("the zero List must allow everything")
	}
}

func TestWithKind(t *testing.T) {
	if _, err := ParseWith([]string{"Shell(ls *)"}, WithKind("Shell", Command)); err == nil {
		t.Error("a declared COMMAND tool must validate its pattern")
	}
	l, err := ParseWith([]string{"Shell(ls:*)"}, WithKind("Shell", Command))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Decide(cmdReq("Shell", "ls -l")).Allowed {
		t.Error("Shell(ls:*) must allow ls -l")
	}
	if _, err := ParseWith([]string{"Bash(ls *)"}, WithKind("Bash", 0)); err != nil {
		t.Errorf("an undeclared kind keeps its pattern: %v", err)
	}
	for s, want := range map[string]Kind{"command": Command, "PATH": Path, " Path ": Path} {
		if got, err := ParseKind(s); err != nil || got != want {
			t.Errorf("ParseKind(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseKind("url"); err == nil {
		t.Error("ParseKind(url): no error")
	}
}

func TestExamples(t *testing.T) {
	_, err := New([]Entry{
		{Rule: "Bash(git:*)", MustAllow: []string{"git", "git status"}, MustDeny: []string{"gitk", "git status; rm -rf /", "FOO=1 git status"}},
		{Rule: "Read(/srv/**)", MustAllow: []string{"/srv/a/b"}, MustDeny: []string{"/srv/../etc/passwd", "/srvx"}},
	})
	if err != nil {
		t.Fatalf("good examples: %v", err)
	}
	_, err = New([]Entry{
		{Rule: "Bash(git:*)", MustAllow: []string{"gitk"}},
		{Rule: "Bash(git status:*)", MustDeny: []string{"git status"}},
		{Rule: "Read", MustAllow: []string{"/x"}},
		{Rule: "Fetch(domain:x)", MustAllow: []string{"x"}},
	})
	want := strings.Join([]string{
		`permission: entry "Bash(git:*)" must allow "gitk", but does not`,
		`permission: entry "Bash(git status:*)" must deny "git status", but the list allows it`,
		`permission: entry "Read" carries examples but has no pattern; examples test a pattern, such as Read(pattern)`,
		`permission: entry "Fetch(domain:x)" carries examples but the subject kind of Fetch is not declared; declare it with WithKind`,
	}, "\n")
	if err == nil {
		t.Fatal("bad examples: no error")
	}
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
