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
	for _, name := range []string{"git", "sort", "date", "npm", "go", "rg", "find", "tar", "sed", "awk", "less", "man", "env"} {
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
		{"git grep -O x --no-index", false},
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
// table, with what makes it broad.
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
	want := map[string]string{
		"Bash(git grep:*)": reach + "-O, --open-files-in-pager (runs a program); --no-index (reads files outside the workspace)" + denies,
		"Bash(sort:*)":     reach + "--compress-program (runs a program); -o, --output, -T, --temporary-directory (writes a file)" + denies,
		"Bash(git log:*)":  reach + "--output (writes a file); --ext-diff (runs a program)" + denies,
		"Bash(git diff:*)": reach + "--output (writes a file); --ext-diff (runs a program); --no-index (reads files outside the workspace)" + denies,
		"Bash(date:*)":     reach + "-f, --file (reads files outside the workspace); -s, --set (sets the clock)" + denies,
		"Bash(npm run test:*)": reach + "--prefix, -C, --workspace, -w, --workspaces, -ws (works in another directory); --node-options, --script-shell (runs a program); " +
			"--userconfig, --globalconfig (sets configuration that runs programs)" + denies,
		"Bash(go test:*)": reach + "-toolexec, -ldflags, -gcflags, -asmflags, -exec, -vettool, -args (runs a program); -C, -overlay, -modfile, -pgo (works in another directory); -o, -coverprofile, -cpuprofile, " +
			"-memprofile, -blockprofile, -mutexprofile, -trace, -outputdir, -test.coverprofile, -test.cpuprofile, -test.memprofile, -test.blockprofile, " +
			"-test.mutexprofile, -test.trace, -test.outputdir (writes a file)" + denies,
		"Bash(rg:*)": reach + "--pre, --hostname-bin (runs a program)" + denies,
		"Bash(tar:*)": reach + "-I, --use-compress-program, --to-command, --checkpoint-action, -F, --info-script, --new-volume-script, --rsh-command, " +
			"--rmt-command (runs a program); -P, --absolute-names (writes a file); -C, --directory (works in another directory)" + denies,
		"Bash(sed:*)":        reach + "-i, --in-place (writes a file); -f, --file (runs a program); commands in its script" + denies,
		"Bash(awk:*)":        reach + "-f, --file, -i, --include, -l, --load, -E, --exec, -W (runs a program); commands in its script" + denies,
		"Bash(less:*)":       reach + "-o, --log-file, -O, --LOG-FILE (writes a file); -k, --lesskey-file, --lesskey-src, --lesskey-content (runs a program); +command (runs a program)" + denies,
		"Bash(man:*)":        reach + "-P, --pager, -H, --html (runs a program); -l, --local-file, -C, --config-file, -M, --manpath (reads files outside the workspace)" + denies,
		"Bash(xargs:*)":      exec + "xargs runs the command given in its arguments" + exact,
		"Bash(env:*)":        exec + "env runs the command given in its arguments" + exact,
		"Bash(git config:*)": exec + "the entry names config, which sets configuration that runs programs" + exact,
		"Bash(make test:*)": exec + "make runs recipes and scripts the agent can write" + exact + reach + "--eval, -E, -f, --file, --makefile, -I, --include-dir (runs a program); " +
			"-C, --directory (works in another directory); -o, --old-file, -W, --what-if, --new-file, --assume-new, --assume-old (writes a file)" + denies,
		"Bash(npx:*)":                          exec + "the entry names npx, which runs recipes and scripts the agent can write" + exact,
		"Bash(date -u)":                        "is redundant: Bash(date:*) already allows it",
		"Bash(sort --compress-program=gzip:*)": exec + "the entry names --compress-program=gzip, which runs a program" + exact,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint (-want +got):\n%s", diff)
	}
}
