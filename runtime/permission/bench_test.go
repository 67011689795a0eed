package permission

import (
	"fmt"
	"testing"
)

// benchList is a list of 50 entries: 25 COMMAND and 25 PATH patterns.
func benchList(b *testing.B, opts ...Option) List {
	b.Helper()
	var entries []string
	for i := range 25 {
		entries = append(entries, fmt.Sprintf("Bash(tool%d sub:*)", i))
		entries = append(entries, fmt.Sprintf("Read(/srv/data%d/**/*.csv)", i))
	}
	l, err := ParseWith(entries, opts...)
	if err != nil {
		b.Fatal(err)
	}
	return l
}

func BenchmarkDecide(b *testing.B) {
	l := benchList(b)
	compound := benchList(b, WithCompoundCommands())
	root := tree(b)
	withFS, err := Parse("Read(" + root + "/allowed/**)")
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		list List
		req  Request
	}{
		{"command/allow-last", l, cmdReq("Bash", "tool24 sub --flag value")},
		{"command/deny-nomatch", l, cmdReq("Bash", "rm -rf /")},
		{"command/deny-metachar", l, cmdReq("Bash", "tool1 sub; rm -rf /")},
		{"command/compound-allow", compound, cmdReq("Bash", "tool1 sub a && tool24 sub b | tool3 sub")},
		{"path/allow-last", l, pathReq("Read", "/srv/data24/a/b/c.csv", "")},
		{"path/deny-nomatch", l, pathReq("Read", "/etc/passwd", "")},
		{"path/relative", l, pathReq("Read", "a/b.csv", "/srv/data24")},
		{"path/allow-symlink-check", withFS, pathReq("Read", root+"/allowed/in/x.txt", "")},
		{"name-not-listed", l, Request{Tool: "Write"}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = c.list.Decide(c.req)
			}
		})
	}
}

// BenchmarkJudgeSpec: the cost of judging by a program's spec against
// the deny table's scan, in one run: the same shape of line for a program
// the table knows (man, whose entry is scanned for risky options) and for
// programs with a spec (git log, cat, sort), allowed and refused, typed
// paths judged lexically and against a workspace (links followed), strict
// and compound.
func BenchmarkJudgeSpec(b *testing.B) {
	ws := b.TempDir()
	list := func(opts []Option, entries ...string) List {
		l, err := ParseWith(entries, opts...)
		if err != nil {
			b.Fatal(err)
		}
		return l
	}
	strict := list(nil, "Bash(man:*)", "Bash(git log:*)", "Bash(cat:*)", "Bash(sort:*)")
	compound := list([]Option{WithCompoundCommands()}, "Bash(man:*)", "Bash(git log:*)", "Bash(cat:*)", "Bash(sort:*)")
	req := func(cmd, wd string) Request {
		r := cmdReq("Bash", cmd)
		r.WorkDir = wd
		return r
	}
	cases := []struct {
		name string
		list List
		req  Request
	}{
		{"table/allow", strict, req("man -a -S 1 ls", "")},
		{"table/deny", strict, req("man -P sh ls", "")},
		{"spec/allow-lexical", strict, req("git log --oneline -n 20 -- src/a.go", "")},
		{"spec/allow-workspace", strict, req("git log --oneline -n 20 -- src/a.go", ws)},
		{"spec/deny-option", strict, req("git log --frobnicate -n 20", ws)},
		{"spec/deny-path", strict, req("cat /etc/passwd", ws)},
		{"spec/allow-write", strict, req("sort -o out.txt -t, -k2 data.csv", ws)},
		{"spec/compound-allow", compound, req("git log -n 3 && cat a.txt | sort -u", ws)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = c.list.Decide(c.req)
			}
		})
	}
}
