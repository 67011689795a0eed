package permission

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRiskTableExamples: every command of the table, and every subcommand
// with examples, carries lines that Bash(<its words>:*) must deny and
// allow, checked through the must-deny and must-allow examples of Entry
// (so the list is also built the way a user's list is).
func TestRiskTableExamples(t *testing.T) {
	var walk func(words []string, r *commandRisk)
	n := 0
	seen := map[*commandRisk]bool{}
	walk = func(words []string, r *commandRisk) {
		if seen[r] { // gawk shares awk's entry, more less's
			return
		}
		seen[r] = true
		if len(r.deny)+len(r.allow) > 0 {
			rules := []string{"Bash(" + words[0] + ":*)"}
			if len(words) > 1 && r.whole == "" {
				rules = append(rules, "Bash("+strings.Join(words, " ")+":*)")
			}
			n += len(r.deny) + len(r.allow)
			for _, rule := range rules {
				for _, compound := range []bool{false, true} {
					var opts []Option
					if compound {
						opts = append(opts, WithCompoundCommands())
					}
					if _, err := New([]Entry{{Rule: rule, MustAllow: r.allow, MustDeny: r.deny}}, opts...); err != nil {
						t.Errorf("compound %v: %v", compound, err)
					}
				}
			}
		}
		names := make([]string, 0, len(r.subs))
		for s := range r.subs {
			names = append(names, s)
		}
		sort.Strings(names)
		for _, s := range names {
			walk(append(words[:len(words):len(words)], s), r.subs[s])
		}
	}
	var names []string
	for name := range risks {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		walk([]string{name}, risks[name])
	}
	// The commands the review named must carry examples.
	for _, name := range []string{"less", "man", "env"} {
		if r := risks[name]; len(r.deny) == 0 {
			t.Errorf("%s has no deny examples", name)
		}
	}
	t.Logf("%d table examples", n)
}

// TestRiskNamedOption: an entry that names a risky option allows it, and
// only it.
func TestRiskNamedOption(t *testing.T) {
	l, err := Parse("Bash(sort -o out.txt:*)", "Bash(git grep -O:*)", "Bash(find . -name:*)", "Bash(git config --get:*)", "Bash(python3 tools/check.py:*)")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cmd  string
		want bool
	}{
		{"sort -o out.txt data.txt", true},
		{"sort -o out.txt -o other.txt data.txt", true}, // the entry names -o
		{"sort -o out.txt --compress-program=sh data.txt", false},
		{"git grep -O x", true},
		{"git grep -O x --no-index", true}, // the spec knows --no-index: the files it reads are inside
		{"git grep -O x --no-index /outside/secret", false},
		{"find . -name x.go", true},
		{"find . -name x.go -delete", false},
		{"git config --get user.name", true},
		{"python3 tools/check.py -c x", true}, // options after the script are the script's
		{"python3 other.py", false},
	}
	for _, tt := range tests {
		if got := l.Decide(cmdReq("Bash", tt.cmd)).Allowed; got != tt.want {
			t.Errorf("%q: allowed %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestLintRiskTable: Lint reports every ":*" entry of a command in the
// table, with what makes it broad, and of a program with a spec what
// project code it runs or what refused argument the entry names.
func TestLintRiskTable(t *testing.T) {
	entries := []string{"Bash(git grep:*)", "Bash(sort:*)", "Bash(git log:*)", "Bash(git diff:*)", "Bash(date:*)",
		"Bash(npm run test:*)", "Bash(go test:*)", "Bash(rg:*)", "Bash(tar:*)", "Bash(sed:*)", "Bash(awk:*)", "Bash(less:*)",
		"Bash(man:*)", "Bash(xargs:*)", "Bash(env:*)", "Bash(git config:*)", "Bash(make test:*)", "Bash(npx:*)",
		"Bash(sort --compress-program=gzip:*)", "Bash(git status:*)", "Bash(ls:*)", "Bash(date -u)"}
	l, err := Parse(entries...)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range Lint(l) {
		got[f.Entry] += f.Message
	}
	const reach = "reaches beyond its name through "
	const denies = "; the judge denies a call that uses one of these unless the entry names it"
	const exec = "allows arbitrary execution in practice: "
	const exact = "; allow the exact commands needed instead"
	const project = "runs the project's own code ("
	const sandbox = "): what that code does is the sandbox's to contain, not the judge's"
	// Programs with a spec (git, sort, date, npm, go, rg, tar, sed, awk,
	// make) refuse what their spec does not list: Lint says only what
	// runs the project's code, or what the entry itself names.
	want := map[string]string{
		"Bash(npm run test:*)":                 project + "npm run runs the project's package.json scripts" + sandbox,
		"Bash(go test:*)":                      project + "go test runs the project's tests, which are its own code" + sandbox,
		"Bash(make test:*)":                    project + "make runs the recipes of the project's Makefile" + sandbox,
		"Bash(less:*)":                         reach + "-o, --log-file, -O, --LOG-FILE (writes a file); -k, --lesskey-file, --lesskey-src, --lesskey-content (runs a program); +command (runs a program)" + denies,
		"Bash(man:*)":                          reach + "-P, --pager, -H, --html (runs a program); -l, --local-file, -C, --config-file, -M, --manpath (reads files outside the workspace)" + denies,
		"Bash(xargs:*)":                        exec + "xargs runs the command given in its arguments" + exact,
		"Bash(env:*)":                          exec + "env runs the command given in its arguments" + exact,
		"Bash(npx:*)":                          exec + "the entry names npx, which runs recipes and scripts the agent can write" + exact,
		"Bash(date -u)":                        "is redundant: Bash(date:*) already allows it",
		"Bash(sort --compress-program=gzip:*)": exec + "the entry names --compress-program=gzip, which runs a program to compress its temporary files" + exact,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}
