package permission

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestSpecExamples: every spec with examples (programs and subcommands)
// carries lines that Bash(<program>:*) must allow and deny, checked
// through Entry's must-allow and must-deny (paths judged lexically: no
// working directory), in strict and in compound mode.
func TestSpecExamples(t *testing.T) {
	seen := map[*spec]bool{}
	n := 0
	var walk func(name string, s *spec)
	walk = func(name string, s *spec) {
		if seen[s] {
			return
		}
		seen[s] = true
		if len(s.allow)+len(s.deny) > 0 {
			n += len(s.allow) + len(s.deny)
			for _, compound := range []bool{false, true} {
				var opts []Option
				if compound {
					opts = append(opts, WithCompoundCommands())
				}
				if _, err := New([]Entry{{Rule: "Bash(" + name + ":*)", MustAllow: s.allow, MustDeny: s.deny}}, opts...); err != nil {
					t.Errorf("%s (compound %v): %v", name, compound, err)
				}
			}
		}
		for _, sub := range s.subs {
			walk(name, sub)
		}
	}
	names := make([]string, 0, len(specTable()))
	for name := range specTable() {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		// Aliases (egrep, gunzip, python) share a spec whose examples use
		// the program's own name.
		s := specTable()[name]
		if len(s.allow) > 0 {
			name, _, _ = strings.Cut(s.allow[0], " ")
		}
		walk(name, s)
	}
	// The programs the issue names carry examples of both kinds.
	for _, name := range []string{"ls", "cat", "head", "tail", "wc", "grep", "rg", "find", "sed", "awk", "sort", "uniq", "date",
		"tree", "jq", "git", "go", "gofmt", "npm", "node", "python3", "pytest", "cargo", "make", "tar", "gzip", "zip", "unzip"} {
		if s := specTable()[name]; s == nil || len(s.deny) == 0 || len(s.allow) == 0 {
			t.Errorf("%s has no spec with allow and deny examples", name)
		}
	}
	t.Logf("%d programs with a spec, %d examples", len(specTable()), n)
}

// corpusLine is one line of a corpus under testdata/spec: an entry and a
// command.
type corpusLine struct {
	entry, cmd string
	line       int
}

func readCorpus(t *testing.T, name string) []corpusLine {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "spec", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		entry, cmd, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("%s:%d: want entry<TAB>command", name, n)
		}
		out = append(out, corpusLine{entry, cmd, n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// workspace makes a working directory with a link that leads out of it.
func workspace(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{"ws/src", "ws/sub", "outside"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(ws, "escape")); err != nil {
		t.Skip(err)
	}
	return ws
}

func specReq(cmd, workDir string) Request {
	r := cmdReq("Bash", cmd)
	r.WorkDir = workDir
	return r
}

// TestSpecEveryday is the false-denial corpus: everyday agent commands,
// each allowed by the entry a user writes for it, in a workspace.
func TestSpecEveryday(t *testing.T) {
	ws := workspace(t)
	lines := readCorpus(t, "everyday.txt")
	for _, c := range lines {
		for _, compound := range []bool{false, true} {
			var opts []Option
			if compound {
				opts = append(opts, WithCompoundCommands())
			}
			l, err := ParseWith([]string{c.entry}, opts...)
			if err != nil {
				t.Fatalf("everyday.txt:%d: %v", c.line, err)
			}
			if d := l.Decide(specReq(c.cmd, ws)); !d.Allowed {
				t.Errorf("everyday.txt:%d: %s refuses %q (compound %v): %s [%s]", c.line, c.entry, c.cmd, compound, d.Reason, d.Detail)
			}
		}
	}
	if len(lines) < 80 {
		t.Errorf("the corpus has %d commands; keep at least 80", len(lines))
	}
	t.Logf("%d everyday commands allowed", len(lines))
}

// TestSpecRefused is the red-team corpus: lines that reach beyond their
// entry, each refused, with a sentence that names no path.
func TestSpecRefused(t *testing.T) {
	ws := workspace(t)
	lines := readCorpus(t, "refused.txt")
	for _, c := range lines {
		l, err := Parse(c.entry)
		if err != nil {
			t.Fatalf("refused.txt:%d: %v", c.line, err)
		}
		d := l.Decide(specReq(c.cmd, ws))
		if d.Allowed {
			t.Errorf("refused.txt:%d: %s allows %q", c.line, c.entry, c.cmd)
			continue
		}
		if strings.Contains(d.Reason, ws) || strings.Contains(d.Reason, "/etc/") || strings.Contains(d.Reason, "/tmp") {
			t.Errorf("refused.txt:%d: the sentence names a path: %s", c.line, d.Reason)
		}
	}
	t.Logf("%d lines refused", len(lines))
}

// TestSpecTypedPaths: typed operands are judged against the workspace
// (links followed), the directory a leading cd moved into, and the list's
// Read and Write patterns; hidden files are not written.
func TestSpecTypedPaths(t *testing.T) {
	ws := workspace(t)
	outside := filepath.Join(filepath.Dir(ws), "outside")
	tests := []struct {
		entries  []string
		compound bool
		cmd      string
		want     bool
	}{
		{[]string{"Bash(cat:*)"}, false, "cat src/a.go", true},
		{[]string{"Bash(cat:*)"}, false, "cat " + ws + "/src/a.go", true},
		{[]string{"Bash(cat:*)"}, false, "cat escape/secret", false}, // a link inside leads out
		{[]string{"Bash(cat:*)"}, false, "cat " + outside + "/x", false},
		{[]string{"Bash(cat:*)", "Read(" + outside + "/**)"}, false, "cat " + outside + "/x", true},
		// As for the Read tool, the path as written and where it leads must
		// both be allowed.
		{[]string{"Bash(cat:*)", "Read(" + outside + "/**)"}, false, "cat escape/x", false},
		{[]string{"Bash(cat:*)", "Read(" + outside + "/**)", "Read(" + ws + "/escape/**)"}, false, "cat escape/x", true},
		{[]string{"Bash(cat:*)", "Read"}, false, "cat /etc/hostname", true}, // Read of anything
		{[]string{"Bash(sort:*)"}, false, "sort -o out.txt a.txt", true},
		{[]string{"Bash(sort:*)"}, false, "sort -o " + outside + "/out.txt a.txt", false},
		{[]string{"Bash(sort:*)", "Read(" + outside + "/**)"}, false, "sort -o " + outside + "/out.txt a.txt", false},
		{[]string{"Bash(sort:*)", "Write(" + outside + "/**)"}, false, "sort -o " + outside + "/out.txt a.txt", true},
		{[]string{"Bash(sort:*)", "Edit(" + outside + "/**)"}, false, "sort -o " + outside + "/out.txt a.txt", true},
		{[]string{"Bash(sort:*)"}, false, "sort -o .git/config a.txt", false},
		{[]string{"Bash(sort:*)"}, false, "sort -o src/.env a.txt", false},
		{[]string{"Bash(sort:*)"}, false, "sort -o escape/out.txt a.txt", false},
		{[]string{"Bash(git:*)"}, false, "git -C sub status", true},
		{[]string{"Bash(git:*)"}, false, "git -C escape status", false},
		{[]string{"Bash(git:*)"}, false, "git -C .. status", false},
		{[]string{"Bash(git:*)", "Read(" + outside + "/**)"}, false, "git -C " + outside + " status", false}, // works there: read and write
		{[]string{"Bash(git:*)", "Read(" + outside + "/**)", "Write(" + outside + "/**)"}, false, "git -C " + outside + " status", true},
		// After a leading cd, relative paths are the directory's.
		{[]string{"Bash(cat:*)"}, true, "cd sub && cat ../src/a.go", true},
		{[]string{"Bash(cat:*)"}, true, "cd sub && cat ../../outside/x", false},
		// The entry's own words are the user's: not judged.
		{[]string{"Bash(cat " + outside + "/x:*)"}, false, "cat " + outside + "/x", true},
		{[]string{"Bash(cat " + outside + "/x:*)"}, false, "cat " + outside + "/x " + outside + "/y", false},
		// A named option lifts a refusal of code, not the judging of paths.
		{[]string{"Bash(sort --compress-program=gzip:*)"}, false, "sort --compress-program=gzip -o " + outside + "/o a", false},
		{[]string{"Bash(go test -exec:*)"}, false, "go test -exec sh ./...", true},
		{[]string{"Bash(npm run test --:*)"}, false, "npm run test -- --watch", true},
	}
	for _, tt := range tests {
		var opts []Option
		if tt.compound {
			opts = append(opts, WithCompoundCommands())
		}
		l, err := ParseWith(tt.entries, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if d := l.Decide(specReq(tt.cmd, ws)); d.Allowed != tt.want {
			t.Errorf("%v %q: allowed %v, want %v (%s; %s)", tt.entries, tt.cmd, d.Allowed, tt.want, d.Reason, d.Detail)
		}
	}
}

// TestSpecSentences: a refusal by a spec says what was refused and how to
// allow it, and never echoes a path.
func TestSpecSentences(t *testing.T) {
	ws := workspace(t)
	const denied = "Tool 'Bash' is not allowed to run this command. "
	tests := []struct{ entry, cmd, want string }{
		{"Bash(git diff:*)", "git diff --frobnicate",
			denied + "The judge does not know the option '--frobnicate' of git diff; an entry that names it, Bash(git diff --frobnicate:*), would allow it."},
		{"Bash(git:*)", "git frob",
			denied + "The judge does not know 'git frob'; an entry that names it, Bash(git frob:*), would allow it."},
		{"Bash(make test:*)", "make test --eval=x",
			denied + "'--eval' of make evaluates make code given on the command line, which may run programs ($(shell ...)); only an entry that names it allows it."},
		{"Bash(make test:*)", "make test CC=evil",
			denied + "An operand of make assigns a variable, whose value may run a program; only an entry that names the assignment allows it."},
		{"Bash(sort:*)", "sort -o /etc/x a",
			denied + "The path given to '-o' is outside the working directory: sort may write only inside the working directory, and not in its hidden files and directories (.git, .bashrc, ...)."},
		{"Bash(cat:*)", "cat /etc/passwd",
			denied + "A path among the operands is outside the working directory: cat may read only inside the working directory."},
		{"Bash(go:*)", "go run .",
			denied + "'go run' builds and runs a program; only an entry that names it allows it."},
		{"Bash(sed:*)", "sed 1e a.txt",
			denied + "The sed script runs a command (sed e); only sed scripts that edit their output are allowed."},
		{"Bash(go build:*)", "go build -ldflags=-extld=sh .",
			denied + "The linker flag '-extld=sh' in -ldflags is not one the judge allows (-s, -w, -X name=value, -buildid=...); only an entry that names -ldflags allows it."},
	}
	for _, tt := range tests {
		l := mustParse(t, tt.entry)
		d := l.Decide(specReq(tt.cmd, ws))
		if d.Allowed || d.Reason != tt.want {
			t.Errorf("%s %q:\n got %q\nwant %q", tt.entry, tt.cmd, d.Reason, tt.want)
		}
	}
}

// FuzzSpecJudge: every program's spec reads any command line without
// panicking, and a line its entry's words already cover is allowed.
func FuzzSpecJudge(f *testing.F) {
	for _, name := range []string{"git", "go", "tar", "find", "sed", "npm", "python3", "cargo", "make", "jq"} {
		s := specTable()[name]
		for _, ex := range append(append([]string{}, s.allow...), s.deny...) {
			f.Add(ex)
		}
	}
	f.Add("git -c")
	f.Add("tar xfC")
	f.Add("find . -exec")
	f.Add("jq --arg x")
	f.Add("python3 -m")
	f.Fuzz(func(t *testing.T, cmd string) {
		cmds, why := readLine(cmd, false)
		if why != "" || len(cmds) != 1 {
			return
		}
		args := cmds[0].args
		s := specOf(args[0])
		if s == nil {
			return
		}
		_ = judgeSpec(s, args, 1, map[string]bool{}, &specEnv{})
		if r := judgeSpec(s, args, len(args), specNamed(s, args), &specEnv{}); r != nil {
			t.Errorf("%q: the entry's own words refused: %s", cmd, r.detail)
		}
	})
}
