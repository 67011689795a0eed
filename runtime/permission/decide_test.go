package permission

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tree makes a directory tree with symbolic links into and out of an
// allowed directory and returns its resolved root.
//
//	root/allowed/file.txt
//	root/allowed/sub/x.txt
//	root/allowed/in    -> root/allowed/sub   (into the allowed tree)
//	root/allowed/out   -> root/secrets       (out of it, absolute)
//	root/allowed/rel   -> ../secrets         (out of it, relative)
//	root/allowed/loop1 -> loop2 -> loop1
//	root/secrets/key
//	root/link          -> root/allowed/file.txt (from outside into it)
func tree(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root = filepath.ToSlash(root)
	for _, d := range []string{"allowed/sub", "secrets"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"allowed/file.txt", "allowed/sub/x.txt", "secrets/key"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := [][2]string{
		{root + "/allowed/sub", "allowed/in"},
		{root + "/secrets", "allowed/out"},
		{"../secrets", "allowed/rel"},
		{"loop2", "allowed/loop1"},
		{"loop1", "allowed/loop2"},
		{root + "/allowed/file.txt", "link"},
	}
	for _, l := range links {
		if err := os.Symlink(l[0], filepath.Join(root, l[1])); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	return root
}

type verdict struct {
	Allowed bool
	Reason  string
}

func cmdReq(tool, v string) Request {
	return Request{Tool: tool, HasSubject: true, Judged: true, Subject: &Subject{Kind: Command, Value: v}, Level: Destructive}
}

func pathReq(tool, v, wd string) Request {
	return Request{Tool: tool, HasSubject: true, Judged: true, Subject: &Subject{Kind: Path, Value: v}, WorkDir: wd, Level: ReadOnly}
}

func TestDecide(t *testing.T) {
	root := tree(t)
	main, err := ParseWith([]string{
		"Grep",
		"Bash(git:*)",
		"Bash(ls -la)",
		"Bash(npm run test:*)",
		"Read(" + root + "/allowed/**)",
		"Read(/data/report(1).csv)",
		"Write(/tmp/out/*)",
		"Edit(" + root + "/allowed/*.go)",
		"Fetch(domain:example.com)",
		"Custom(/x/**)",
	}, WithKind("Fetch", 0))
	if err != nil {
		t.Fatal(err)
	}
	shadow, err := Parse("Read", "Read(/tmp/**)")
	if err != nil {
		t.Fatal(err)
	}
	capped, err := ParseWith([]string{"Grep", "Write"}, WithCeiling(ReadOnly))
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]List{"": main, "shadow": shadow, "capped": capped, "zero": {}}

	const (
		cmdDenied  = "Tool 'Bash' is not allowed to run this command."
		cmdRefused = cmdDenied + " " + HintSimpleCommand
		readDenied = "Tool 'Read' is not allowed to access this path."
	)
	allow := verdict{Allowed: true}
	notAllowed := func(tool string) verdict { return verdict{Reason: "Tool '" + tool + "' is not allowed."} }
	d := func(reason string) verdict { return verdict{Reason: reason} }
	A := root + "/allowed"

	tests := []struct {
		name string
		list string
		req  Request
		want verdict
	}{
		// Names: case-sensitive, no functions. stripping, unknown is "not allowed".
		{"name only", "", Request{Tool: "Grep"}, allow},
		{"lower case", "", Request{Tool: "grep"}, notAllowed("grep")},
		{"upper case", "", pathReq("READ", A+"/file.txt", ""), notAllowed("READ")},
		{"functions prefix is the registry's", "", pathReq("functions.Read", A+"/file.txt", ""), notAllowed("functions.Read")},
		{"unknown tool", "", Request{Tool: "Delete"}, notAllowed("Delete")},
		{"empty name", "", Request{}, notAllowed("")},
		{"name with newline echoed safely", "", Request{Tool: "Bad\nName"}, notAllowed(`Bad\nName`)},
		{"zero list allows everything", "zero", cmdReq("Bash", "rm -rf /"), allow},

		// COMMAND: exact and prefix.
		{"prefix alone", "", cmdReq("Bash", "git"), allow},
		{"prefix and args", "", cmdReq("Bash", "git status"), allow},
		{"prefix and more args", "", cmdReq("Bash", "git log --oneline -n 3"), allow},
		{"prefix is not a word prefix", "", cmdReq("Bash", "gitk"), d(cmdDenied)},
		{"surrounding spaces trimmed", "", cmdReq("Bash", "  git status  "), allow},
		{"command case", "", cmdReq("Bash", "Git status"), d(cmdDenied)},
		{"exact", "", cmdReq("Bash", "ls -la"), allow},
		{"exact with more", "", cmdReq("Bash", "ls -la /"), d(cmdDenied)},
		{"exact with less", "", cmdReq("Bash", "ls"), d(cmdDenied)},
		{"multi-word prefix", "", cmdReq("Bash", "npm run test --silent"), allow},
		// What follows "--" goes to the script's interpreter, whose options
		// may run code (node --import=data:...): named by an entry, or refused.
		{"multi-word prefix passing arguments on", "", cmdReq("Bash", "npm run test -- --watch"),
			d(cmdDenied + " What follows '--' goes to the command of the script npm run runs, whose options may run code; only an entry that names '--' allows it, such as Bash(npm run --:*).")},
		{"multi-word prefix glued", "", cmdReq("Bash", "npm run test:unit"), d(cmdDenied)},
		{"quoted glob is literal", "", cmdReq("Bash", "git log --grep '*'"), allow},
		{"fullwidth ampersands are arguments", "", cmdReq("Bash", "git status ＆＆ rm"), allow},

		// COMMAND: injection.
		{"semicolon", "", cmdReq("Bash", "git status; rm -rf /"), d(cmdRefused)},
		{"and", "", cmdReq("Bash", "git status && rm -rf /"), d(cmdRefused)},
		{"pipe", "", cmdReq("Bash", "git status | sh"), d(cmdRefused)},
		{"background", "", cmdReq("Bash", "git status & rm x"), d(cmdRefused)},
		{"substitution", "", cmdReq("Bash", "git $(rm -rf /)"), d(cmdRefused)},
		{"backticks", "", cmdReq("Bash", "git `rm -rf /`"), d(cmdRefused)},
		{"quoted semicolon is literal", "", cmdReq("Bash", "git commit -m 'a;b'"), allow},
		{"redirect", "", cmdReq("Bash", "git status > /etc/passwd"), d(cmdRefused)},
		{"input redirect", "", cmdReq("Bash", "git apply < /etc/shadow"), d(cmdRefused)},
		{"subshell parens", "", cmdReq("Bash", "git (x)"), d(cmdRefused)},
		{"newline", "", cmdReq("Bash", "git status\nrm -rf /"), d(cmdRefused)},
		{"carriage return", "", cmdReq("Bash", "git status\rrm -rf /"), d(cmdRefused)},
		{"NUL", "", cmdReq("Bash", "git status\x00rm"), d(cmdRefused)},
		{"tab", "", cmdReq("Bash", "git\tstatus"), d(cmdRefused)},
		{"escape character", "", cmdReq("Bash", "git status \x1b[2J"), d(cmdRefused)},
		{"line separator", "", cmdReq("Bash", "git status\u2028rm"), d(cmdRefused)},
		{"bidi override", "", cmdReq("Bash", "git status \u202e"), d(cmdRefused)},
		{"zero-width space", "", cmdReq("Bash", "git status\u200b"), d(cmdRefused)},
		{"unquoted star", "", cmdReq("Bash", "git add *"), d(cmdRefused)},
		{"unquoted question mark", "", cmdReq("Bash", "git add ?"), d(cmdRefused)},
		{"unquoted bracket", "", cmdReq("Bash", "git add [ab]"), d(cmdRefused)},
		{"braces", "", cmdReq("Bash", "git add {a,b}"), d(cmdRefused)},
		{"tilde", "", cmdReq("Bash", "git -C ~ status"), d(cmdRefused)},
		{"backslash newline", "", cmdReq("Bash", "git sta\\\ntus"), d(cmdRefused)},
		{"trailing backslash", "", cmdReq("Bash", "git status \\"), d(cmdRefused)},
		{"unbalanced quote", "", cmdReq("Bash", "git commit -m 'x"), d(cmdRefused)},
		{"invalid UTF-8", "", cmdReq("Bash", "git \xff"), d(cmdRefused)},
		{"env-var prefix", "", cmdReq("Bash", "FOO=1 git status"), d(cmdDenied)},
		// Harmless variables need no entry (issue 26 item 4); others do.
		{"harmless env-var prefix", "", cmdReq("Bash", "CGO_ENABLED=0 LANG=C git status"), allow},
		{"loading env-var prefix", "", cmdReq("Bash", "GOFLAGS=-toolexec=sh git status"), d(cmdDenied)},
		{"harmless name, odd value", "", cmdReq("Bash", "TZ=a,b git status"), d(cmdDenied)},
		{"PATH override prefix", "", cmdReq("Bash", "PATH=/evil git status"), d(cmdDenied)},

		// Cannot be judged.
		{"blank command", "", cmdReq("Bash", "   "), d(cmdDenied + " " + HintMissingCommand)},
		{"declared, not read", "", Request{Tool: "Bash", HasSubject: true}, d(cmdDenied + " " + HintMissingCommand)},
		{"subject without Judged", "", Request{Tool: "Bash", Subject: &Subject{Kind: Command, Value: "git status"}}, d(cmdDenied + " " + HintMissingCommand)},
		{"no subject, no rule", "", Request{Tool: "Bash"}, d("Tool 'Bash' is not allowed to make this call.")},
		{"path subject for a command tool", "", pathReq("Bash", "/tmp/x", ""), d("Tool 'Bash' is not allowed to access this path.")},
		{"command subject for a path tool", "", cmdReq("Read", "cat "+A+"/file.txt"), d("Tool 'Read' is not allowed to run this command.")},

		// PATH: lexical.
		{"file in tree", "", pathReq("Read", A+"/file.txt", ""), allow},
		{"the directory itself", "", pathReq("Read", A, ""), allow},
		{"trailing slash", "", pathReq("Read", A+"/", ""), allow},
		{"double slashes", "", pathReq("Read", "/"+root+"//allowed//file.txt", ""), allow},
		{"dot segments", "", pathReq("Read", A+"/./sub/./x.txt", ""), allow},
		{"traversal", "", pathReq("Read", A+"/../secrets/key", ""), d(readDenied)},
		{"traversal to /etc", "", pathReq("Read", A+"/../../../../../../etc/passwd", ""), d(readDenied)},
		{"sibling with shared prefix", "", pathReq("Read", A+"x/file.txt", ""), d(readDenied)},
		{"path case", "", pathReq("Read", root+"/Allowed/file.txt", ""), d(readDenied)},
		{"relative with workdir", "", pathReq("Read", "file.txt", A), allow},
		{"relative dot with workdir", "", pathReq("Read", "./sub/x.txt", A), allow},
		{"relative traversal with workdir", "", pathReq("Read", "../secrets/key", A), d(readDenied)},
		{"relative without workdir", "", pathReq("Read", "file.txt", ""), d(readDenied + " " + HintAbsolutePath)},
		{"relative with relative workdir", "", pathReq("Read", "file.txt", "allowed"), d(readDenied + " " + HintPathCharacters)},
		{"blank path", "", pathReq("Read", "", A), d(readDenied + " " + HintMissingPath)},
		{"NUL byte", "", pathReq("Read", A+"/file.txt\x00.png", ""), d(readDenied + " " + HintPathCharacters)},
		{"control character", "", pathReq("Read", A+"/\x1bfile", ""), d(readDenied + " " + HintPathCharacters)},
		{"backslash", "", pathReq("Read", A+`\..\..\secrets\key`, ""), d(readDenied + " " + HintPathCharacters)},
		{"bidi override in path", "", pathReq("Read", A+"/\u202etxt.exe", ""), d(readDenied + " " + HintPathCharacters)},
		{"zero-width joiner in path", "", pathReq("Read", A+"/fi\u200dle.txt", ""), d(readDenied + " " + HintPathCharacters)},
		{"fullwidth solidus is not a separator", "", pathReq("Read", root+"/allowed／..／secrets/key", ""), d(readDenied)},
		{"fullwidth solidus stays inside", "", pathReq("Read", A+"/a／..／..／secrets", ""), allow},
		{"division slash", "", pathReq("Read", root+"/allowed∕file.txt", ""), d(readDenied)},
		{"report(1).csv", "", pathReq("Read", "/data/report(1).csv", ""), allow},
		{"report(2).csv", "", pathReq("Read", "/data/report(2).csv", ""), d(readDenied)},
		{"report1.csv", "", pathReq("Read", "/data/report1.csv", ""), d(readDenied)},
		{"single star one segment", "", pathReq("Write", "/tmp/out/a.txt", ""), allow},
		{"single star not two segments", "", pathReq("Write", "/tmp/out/a/b.txt", ""), d("Tool 'Write' is not allowed to access this path.")},
		{"glob extension", "", pathReq("Edit", A+"/main.go", ""), allow},
		{"glob extension deeper", "", pathReq("Edit", A+"/sub/main.go", ""), d("Tool 'Edit' is not allowed to access this path.")},

		// PATH: symbolic links.
		{"link into the tree", "", pathReq("Read", A+"/in/x.txt", ""), allow},
		{"link out of the tree", "", pathReq("Read", A+"/out/key", ""), d(readDenied)},
		{"the outward link itself", "", pathReq("Read", A+"/out", ""), d(readDenied)},
		{"relative link out", "", pathReq("Read", A+"/rel/key", ""), d(readDenied)},
		{"dot-dot after a link is physical", "", pathReq("Read", A+"/out/../secrets/key", ""), d(readDenied)},
		{"dot-dot after a link back inside", "", pathReq("Read", A+"/out/../allowed/file.txt", ""), allow},
		{"new file under an outward link", "", pathReq("Read", A+"/out/new.txt", ""), d(readDenied)},
		{"new file in the tree", "", pathReq("Read", A+"/new/deep/x.txt", ""), allow},
		{"link from outside into the tree", "", pathReq("Read", root+"/link", ""), d(readDenied)},
		{"link loop", "", pathReq("Read", A+"/loop1/x", ""), d(readDenied)},
		{"relative through outward link", "", pathReq("Read", "out/key", A), d(readDenied)},

		// Rules and unknown kinds.
		{"rule allows", "", Request{Tool: "Fetch", Rule: func(p string) bool { return p == "domain:example.com" }}, allow},
		{"rule denies", "", Request{Tool: "Fetch", Rule: func(string) bool { return false }}, d("Tool 'Fetch' is not allowed to make this call.")},
		{"rule panics", "", Request{Tool: "Fetch", Rule: func(string) bool { panic("boom") }}, d("Tool 'Fetch' is not allowed to make this call.")},
		{"unknown kind judged as path", "", pathReq("Custom", "/x/a/b", ""), allow},
		{"unknown kind path outside", "", pathReq("Custom", "/y", ""), d("Tool 'Custom' is not allowed to access this path.")},
		{"unknown kind judged as command", "", cmdReq("Custom", "/x/a"), d("Tool 'Custom' is not allowed to run this command.")},
		{"subject decides over rule (deny)", "", func() Request {
			r := pathReq("Read", "/etc/passwd", "")
			r.Rule = func(string) bool { return true }
			return r
		}(), d(readDenied)},
		{"subject decides over rule (allow)", "", func() Request {
			r := pathReq("Read", A+"/file.txt", "")
			r.Rule = func(string) bool { return false }
			return r
		}(), allow},

		// A name-only entry beside a pattern means the pattern only.
		{"shadowed name-only entry", "shadow", pathReq("Read", "/etc/passwd", ""), d(readDenied)},
		{"shadowing pattern", "shadow", pathReq("Read", "/tmp/a", ""), allow},

		// Ceiling.
		{"within ceiling", "capped", Request{Tool: "Grep", Level: ReadOnly}, allow},
		{"above ceiling", "capped", Request{Tool: "Write", Level: Mutating}, notAllowed("Write")},
		{"unknown level under ceiling", "capped", Request{Tool: "Grep"}, notAllowed("Grep")},
	}
	if len(tests) < 60 {
		t.Fatalf("only %d decisions", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lists[tt.list].Decide(tt.req)
			if diff := cmp.Diff(tt.want, verdict{got.Allowed, got.Reason}); diff != "" {
				t.Errorf("Decide (-want +got):\n%s\ndetail: %s", diff, got.Detail)
			}
			if !got.Allowed && got.Detail == "" {
				t.Error("a denial has no detail")
			}
		})
	}
}

// TestReadsCall: a call's input matters exactly when the list has patterns
// for its tool; otherwise Decide answers the same for any subject.
func TestReadsCall(t *testing.T) {
	list, err := Parse("Read", "Grep(/src/**)", "Bash(go test:*)")
	if err != nil {
		t.Fatal(err)
	}
	other, err := Parse("Read(/docs/**)", "Grep", "Edit")
	if err != nil {
		t.Fatal(err)
	}
	both, err := Intersect(list, other)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		list List
		tool string
		want bool
	}{
		{list, "Read", false},
		{list, "Grep", true},
		{list, "Bash", true},
		{list, "Write", false},
		{both, "Read", true},
		{both, "Grep", true},
		{both, "Edit", false},
		{List{}, "Read", false},
	}
	for _, tt := range tests {
		if got := tt.list.ReadsCall(tt.tool); got != tt.want {
			t.Errorf("ReadsCall(%q) = %v, want %v", tt.tool, got, tt.want)
		}
		if tt.want {
			continue
		}
		// Decide must not depend on the subject.
		for _, subj := range []*Subject{nil, {Kind: Path, Value: "/etc/passwd"}, {Kind: Command, Value: "rm -rf /"}} {
			r := Request{Tool: tt.tool, Level: ReadOnly, Subject: subj, HasSubject: subj != nil, Judged: subj != nil}
			if got, bare := tt.list.Decide(r), tt.list.Decide(Request{Tool: tt.tool, Level: ReadOnly}); got.Allowed != bare.Allowed {
				t.Errorf("%s with subject %v: allowed %v, without %v", tt.tool, subj, got.Allowed, bare.Allowed)
			}
		}
	}
}
