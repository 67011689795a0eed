package permission

import (
	"path"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Read", "Bash(git:*)", "Read(/tmp/**)", "Read(/data/report(1).csv)", "Bash(", "(x)", "",
		"Bash (git:*)", "Bash(:*)", "Bash(git:*x)", "Read(allowed/**)", "Read(/a/../b/**)", "Read(/a/[b)",
		"Fetch(domain:example.com)", "functions.Read", "Bash(echo 'a b':*)", "Read(/x/{a,b}/**)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		l, err := Parse(entry)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "permission: entry ") {
				t.Fatalf("error without the entry: %v", err)
			}
			return
		}
		again, err := Parse(l.String())
		if err != nil {
			t.Fatalf("Parse(%q) = %q, which does not parse: %v", entry, l.String(), err)
		}
		if again.String() != l.String() {
			t.Fatalf("round trip: %q -> %q -> %q", entry, l.String(), again.String())
		}
		_ = Lint(l)
	})
}

func FuzzMatchCommand(f *testing.F) {
	for _, c := range [][2]string{
		{"git:*", "git status"}, {"git:*", "gitk"}, {"git:*", "git status; rm"}, {"ls -la", "ls -la"},
		{"git:*", "git\nrm"}, {"git:*", "FOO=1 git"}, {"git:*", "git '*'"}, {"git:*", "git \\*"},
		{"git:*", "git \u202e"}, {"echo 'x y':*", "echo 'x y' z"}, {"git:*", "git commit -m 'a;b'"},
		{"git:*", "git commit -m \"fix A & B\""}, {"git:*", "\"git\" status"}, {"git:*", "git diff HEAD~1"},
		{"sort:*", "sort --compress-prog=sh x"}, {"git grep:*", "git grep -Obash x"},
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, pattern, cmd string) {
		ok, err := MatchCommand(pattern, cmd)
		if err != nil || !ok {
			return
		}
		if strings.ContainsAny(cmd, "\n\r\x00\t\u2028\u2029\u202e") {
			t.Fatalf("%q allowed %q with a control or format character", pattern, cmd)
		}
		// An independent look at the line: one simple command, no
		// operator, redirection or expansion.
		file, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
		if err != nil || len(file.Stmts) != 1 {
			t.Fatalf("%q allowed %q, which is not one statement (%v)", pattern, cmd, err)
		}
		st := file.Stmts[0]
		if st.Background || st.Negated || len(st.Redirs) > 0 {
			t.Fatalf("%q allowed %q, which is not a simple command", pattern, cmd)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.ExtGlob,
				*syntax.BinaryCmd, *syntax.Subshell, *syntax.Block, *syntax.FuncDecl:
				t.Fatalf("%q allowed %q with %T", pattern, cmd, n)
			}
			return true
		})
		p, _ := parseCommandPattern(pattern)
		cmds, _ := readLine(cmd, false)
		w := cmds[0].words()
		if len(w) < len(p.words) || !slices.Equal(w[:len(p.words)], p.words) || (!p.prefix && len(w) != len(p.words)) {
			t.Fatalf("%q allowed %q, read as %q", pattern, cmd, w)
		}
	})
}

func FuzzMatchPath(f *testing.F) {
	for _, c := range [][3]string{
		{"/allowed/**", "/allowed/a", ""}, {"/allowed/**", "/allowed/../etc", ""}, {"/allowed/**", "a/b", "/allowed"},
		{"/allowed/**", "../x", "/allowed"}, {"/allowed/*", "/allowed//a/", ""}, {"/allowed/**", "/allowed\x00", ""},
		{"/allowed/**", "/allowed／..／x", ""}, {"/a/{b,c}/*.go", "/a/b/x.go", ""}, {"/allowed/**", "a", ""},
	} {
		f.Add(c[0], c[1], c[2])
	}
	f.Fuzz(func(t *testing.T, pattern, p, wd string) {
		if _, err := MatchPath(pattern, p, wd); err != nil {
			return
		}
		ok, _ := MatchPath("/allowed/**", p, wd)
		if !ok {
			return
		}
		abs, err := AbsPath(p, wd)
		if err != nil {
			t.Fatalf("matched %q (wd %q) but AbsPath fails: %v", p, wd, err)
		}
		if abs != "/allowed" && !strings.HasPrefix(abs, "/allowed/") {
			t.Fatalf("%q (wd %q) is %q, outside /allowed", p, wd, abs)
		}
		if path.Clean(abs) != abs || strings.ContainsAny(p, "\x00\\") {
			t.Fatalf("%q (wd %q): %q", p, wd, abs)
		}
	})
}

func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"git status && git diff", "git log | ls", "git $(rm)", "eval git", "f() { git; }", "git > x",
		"git 2>&1 >/dev/null", "(git; ls) || { ls; }", "GIT=1 git", "$X status", "git status # $(rm)",
		"cat <<EOF\nx\nEOF", "git <(ls)", "git\nls", "git \\\n status", "git status #\\\ntouch x",
		"'git' status", "g\\it log | ls", "git log --grep 'a|b'", "cd x && git status", "printf -v HOME x; git",
	} {
		f.Add(s)
	}
	l, err := ParseWith([]string{"Bash(git:*)", "Bash(ls:*)"}, WithCompoundCommands())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if !l.Decide(cmdReq("Bash", cmd)).Allowed {
			return
		}
		file, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("allowed %q, which does not parse: %v", cmd, err)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ParamExp, *syntax.ArithmExp, *syntax.FuncDecl, *syntax.Assign:
				t.Fatalf("allowed %q with %T", cmd, n)
			case *syntax.Redirect:
				if w := n.Word.Lit(); w != "/dev/null" && !digits(w) && w != "-" {
					t.Fatalf("allowed %q with a redirection to %q", cmd, w)
				}
			case *syntax.CallExpr:
				name, err := expand.Fields(nil, n.Args[0])
				if err != nil || len(name) != 1 || (name[0] != "git" && name[0] != "ls") {
					t.Fatalf("allowed %q running %q (%v)", cmd, name, err)
				}
			case *syntax.DeclClause:
				t.Fatalf("allowed %q with a declaration", cmd)
			}
			return true
		})
	})
}
