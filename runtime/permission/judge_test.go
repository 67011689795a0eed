package permission

import (
	"testing"
)

func TestCompoundJudge(t *testing.T) {
	l, err := ParseWith([]string{"Bash(git:*)", "Bash(grep:*)", "Bash(wc -l)", "Bash(cd /repo)", "Bash(eval:*)"}, WithCompoundCommands())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want bool
	}{
		{"git status", true},
		{"git status && git diff", true},
		{"git status || git diff", true},
		{"git status; git diff", true},
		{"git status\ngit diff", true},
		{"git log | grep fix | wc -l", true},
		{"git log |& grep fix", true},
		{"cd /repo && git status", false}, // cd changes what git reads
		{"cd /repo", true},
		{"(git status) && { git diff; }", true},
		{"! git diff --quiet", true},
		{"git status >/dev/null 2>&1", true},
		{"git status 2>/dev/null", true},
		{"git status &>/dev/null", true},
		{"git log --grep 'a;b'", true}, // quoted operators are literal text
		{`git commit -m "fix"`, true},
		{"git status # a comment", true},
		{"git status && rm -rf /", false},
		{"git status | sh", false},
		{"git $(rm -rf /)", false},
		{"git `rm -rf /`", false},
		{"git status > out.txt", false},
		{"git status >> /etc/passwd", false},
		{"git apply < patch", false},
		{"git diff <(ls)", false},
		{"git log > >(cat)", false},
		{"cat <<EOF\nx\nEOF", false},
		{"git log <<< x", false},
		{"eval git status", false},
		{"source x.sh", false},
		{". x.sh", false},
		{"exec git status", false},
		{"command git status", false},
		{"$GIT status", false},
		{"${GIT} status", false},
		{`git "$HOME"`, false},
		{"g$(echo it) status", false},
		{"FOO=1 git status", false},
		{"f() { git status; }; f", false},
		{"function f { git status; }", false},
		{"git status &", false},
		{"for x in a; do git status; done", false},
		{"if git diff; then git status; fi", false},
		{"export X=1; git status", false},
		{"git add *.go", false},
		{"git add {a,b}", false},
		{"git -C ~ status", false},
		{"git status >&3-", false},
		{"git status 3>&-", false}, // bash may hold 3 itself (BASH_XTRACEFD)
		{"git status 2>&-", true},
		{"git status {fd}>/dev/null", false},
		{"git status\r", false},
		{"git status \u202e", false},
		{"git status &&", false}, // does not parse
		{"", false},
		{";", false},
		{"gitk && git status", false},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			d := l.Decide(cmdReq("Bash", tt.cmd))
			if d.Allowed != tt.want {
				t.Errorf("Decide(%q) = %v, want %v (%s)", tt.cmd, d.Allowed, tt.want, d.Detail)
			}
			if !d.Allowed && d.Reason != "Tool 'Bash' is not allowed to run this command." &&
				d.Reason != "Tool 'Bash' is not allowed to run this command. "+HintCompound &&
				d.Reason != "Tool 'Bash' is not allowed to run this command. "+HintMissingCommand {
				t.Errorf("reason %q", d.Reason)
			}
		})
	}
	strict := mustParse(t, "Bash(git:*)")
	if strict.Decide(cmdReq("Bash", "git status && git diff")).Allowed {
		t.Error("the judge must be off by default")
	}
}
