package permission

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLint(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.ToSlash(dir)
	if err := os.Mkdir(dir+"/real", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir+"/real", dir+"/alias"); err != nil {
		t.Skip(err)
	}
	l, err := ParseWith([]string{
		"Bash(find:*)", "Bash(find . -name:*)", "Bash(env:*)", "Bash(xargs:*)", "Bash(timeout:*)",
		"Bash(bash:*)", "Bash(sh -c:*)", "Bash(python3:*)", "Bash(python3 tools/check.py:*)",
		"Bash(sudo:*)", "Bash(nice:*)", "Bash(nohup:*)", "Bash(/usr/bin/env:*)", "Bash(git:*)",
		"Bash(git status:*)", "Bash(git status)", "Bash(ls  -la)", "Bash(eval:*)", "Bash(node --version)",
		"Read", "Read(" + dir + "/alias/**)", "Read(" + dir + "/real/**)", "Read(/x/a\\\\b)",
		"Fetch(https://x.com/*)", "read", "Grep", "Grep",
	}, WithCompoundCommands())
	if err != nil {
		t.Fatal(err)
	}
	exec := func(entry, what string) Finding {
		return Finding{entry, "allows arbitrary execution in practice: " + what + "; allow the exact commands needed instead"}
	}
	const args = "runs the command given in its arguments"
	const interp = "is an interpreter that runs the code given in its arguments"
	want := []Finding{
		{"Grep", "the entry is given more than once"},
		{"Read", "the entry has no effect: the patterns of Read restrict the tool; remove Read, or remove the patterns to allow every call"},
		{"Bash(find . -name:*)", "is redundant: Bash(find:*) already allows it"},
		exec("Bash(env:*)", "env "+args),
		exec("Bash(xargs:*)", "xargs "+args),
		exec("Bash(timeout:*)", "timeout "+args),
		exec("Bash(bash:*)", "bash "+interp),
		exec("Bash(sh -c:*)", "sh "+interp),
		exec("Bash(python3:*)", "python3 runs any script inside the working directory, and the agent may write one"),
		{"Bash(python3 tools/check.py:*)", "runs the project's own code (python3 runs the project's scripts): what that code does is the sandbox's to contain, not the judge's"},
		{"Bash(python3 tools/check.py:*)", "is redundant: Bash(python3:*) already allows it"},
		exec("Bash(sudo:*)", "sudo "+args),
		exec("Bash(nice:*)", "nice "+args),
		exec("Bash(nohup:*)", "nohup "+args),
		exec("Bash(/usr/bin/env:*)", "env "+args),
		{"Bash(git status:*)", "is redundant: Bash(git:*) already allows it"},
		{"Bash(git status)", "is redundant: Bash(git:*) already allows it"},
		exec("Bash(eval:*)", "eval "+args),
		{"Bash(eval:*)", "can never match: the compound-command judge refuses eval"},
		{`Read(/x/a\\b)`, "can never match: paths with backslashes are refused"},
		{"Fetch(https://x.com/*)", "the pattern is neither a COMMAND nor a PATH pattern; only the tool's own rule can match it"},
		{"read", "tool names are case-sensitive; did you mean Read?"},
	}
	if diff := cmp.Diff(want, Lint(l)); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
	if f := Lint(mustParse(t, "Read(/tmp/**)", "Bash(git status:*)", "Bash(ls -la:*)", "Bash(python3 tools/check.py)")); len(f) != 0 {
		t.Errorf("clean list: %v", f)
	}
}
