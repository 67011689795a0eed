package permission

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The bash differential: command lines the judge allows are run by the
// real bash, and what bash executes is compared with what the judge read.
//
// bash runs as the Bash tool runs it (bash --norc -c), plus -x, in an empty
// environment (env -i) with a fresh temporary directory as working
// directory and HOME, PATH set to a directory of stub commands and nothing
// else, and stdin from /dev/null. Two observers:
//
//   - xtrace (set -x) written to descriptor 3 (BASH_XTRACEFD) records every
//     simple command bash executes, builtins included, after expansion and
//     quote removal, as shell words (bash quotes a word that needs it), and
//     every environment assignment as a record of its own before its
//     command. The records are read back with mvdan.cc/sh's parser and
//     expand.Literal, not with the judge's reader.
//   - each stub logs the argv it was started with, which checks xtrace for
//     the external commands.
//
// For every allowed line: every command bash executed must be one the judge
// listed (as a multiset: a pipeline's commands run concurrently, and a
// command after || may not run), and must be allowed on its own by the
// list; every stub invocation must appear among the xtrace records. For
// every line the shortcut reader (plainLine) accepts, it must read what the
// parser reads.

// diffEntries is the list the differential judges by: commands with stubs
// (git, ls, grep, wc, sort) and builtins (echo, printf, cd, true, read,
// pwd, test). touch, rm, cat, sh and eval are not allowed.
var diffEntries = []string{
	"Bash(git:*)", "Bash(ls:*)", "Bash(echo:*)", "Bash(printf:*)", "Bash(cd:*)", "Bash(true)",
	"Bash(grep:*)", "Bash(wc -l)", "Bash(sort:*)", "Bash(read:*)", "Bash(pwd)", "Bash(test:*)",
	"Bash(X=1 git status)",
}

// stubs are the commands on the stub PATH.
var stubs = []string{"git", "ls", "grep", "wc", "sort", "head", "cat", "touch", "rm", "sh", "find", "sed", "awk", "tar", "date", "env", "xargs", "python3", "npm", "go", "rg"}

type bashRig struct {
	bash, dir, bin string
	strict, cmpd   List

	// spare is a home made by home that no bash has run in (most lines
	// are allowed by neither list, and the judge only reads a home): the
	// next line is judged in it rather than in a new copy.
	mu    sync.Mutex
	spare string
}

func newBashRig(t testing.TB) *bashRig {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed; the bash differential needs it")
	}
	dir := t.TempDir()
	r := &bashRig{bash: bash, dir: dir, bin: filepath.Join(dir, "bin")}
	if err := os.Mkdir(r.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// Each stub process writes its own file: the stubs of a pipeline run at
	// once, and their printf writes would interleave in a shared one.
	stub := "#!" + bash + "\n{ printf '%s\\0' \"${0##*/}\" \"$@\"; printf '\\2%s\\1' \"$PWD\"; } >> \"$STUBLOG/$$\"\n"
	for _, s := range stubs {
		body := stub
		if s == "cat" {
			// cat without operands copies its input, as the real one does:
			// a here-document literal reaches the command through it.
			body += "[ $# -eq 0 ] && while IFS= read -r l || [ -n \"$l\" ]; do printf '%s\\n' \"$l\"; done\n"
		}
		if err := os.WriteFile(filepath.Join(r.bin, s), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r.strict, err = ParseWith(diffEntries); err != nil {
		t.Fatal(err)
	}
	if r.cmpd, err = ParseWith(diffEntries, WithCompoundCommands()); err != nil {
		t.Fatal(err)
	}
	return r
}

// home returns a fresh home: the spare one, or a new temporary directory
// in r.dir with files for globs to expand to, one named like an option.
func (r *bashRig) home(t testing.TB) string {
	t.Helper()
	r.mu.Lock()
	home := r.spare
	r.spare = ""
	r.mu.Unlock()
	if home != "" {
		return home
	}
	home, err := os.MkdirTemp(r.dir, "home")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"src/a.go", "src/-x.go", "a.txt"} {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// check judges line under both lists and, when either allows it, runs it
// under bash and compares.
func (r *bashRig) check(t testing.TB, line string) {
	for _, compound := range []bool{false, true} {
		if _, ok := plainLine(strings.Trim(line, " ")); ok {
			short, swhy := readLine(line, compound)
			parsed, why := parseLine(strings.Trim(line, " "), compound)
			if why != swhy || keys(short) != keys(parsed) {
				t.Fatalf("%q: the shortcut reads %s (%s), the parser %s (%s)", line, keys(short), swhy, keys(parsed), why)
			}
		}
	}
	// bash runs in a fresh directory, the workspace the judge judges
	// typed paths against. A home that no bash has run in is as fresh
	// as a new one (the judge only reads it): it is kept for the next line.
	home := r.home(t)
	bashRan := false
	defer func() {
		if bashRan {
			os.RemoveAll(home)
			return
		}
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.spare == "" {
			r.spare = home
		} else {
			os.RemoveAll(home)
		}
	}()
	var judged [][]simpleCommand
	var lists []List
	for _, l := range []List{r.strict, r.cmpd} {
		req := cmdReq("Bash", line)
		req.WorkDir = home
		if d := l.Decide(req); d.Allowed {
			cmds, why := readLine(line, l.compound)
			if why != "" {
				t.Fatalf("%q allowed but not read: %s", line, why)
			}
			judged = append(judged, cmds)
			lists = append(lists, l)
		}
	}
	if len(judged) == 0 {
		return
	}
	bashRan = true
	executed, stubbed, pwds, out := r.run(t, line, home)
	checkSpecPaths(t, line, stubbed, pwds, home)
	for i, l := range lists {
		left := map[string]int{}
		for _, c := range judged[i] {
			left[key(expandGlobs(t, c, home))]++
		}
		// What the judge reads without an entry: a leading cd DIR (the
		// rest runs there), and the cat that prints a here-document
		// literal.
		free := map[string]int{}
		if cmds := judged[i]; len(cmds) > 0 && cmds[0].dir != "" {
			free[key(simpleCommand{args: []string{"cd", cmds[0].dir}})]++
		}
		free[key(simpleCommand{args: []string{"cat"}})] += strings.Count(line, "$(cat <<")
		for _, e := range executed {
			if free[key(e)] > 0 {
				free[key(e)]--
				continue
			}
			if left[key(e)] == 0 {
				t.Fatalf("%q (compound %v): bash ran %s, which the judge did not read; it read %s\nbash output: %s", line, l.compound, key(e), keys(judged[i]), out)
			}
			left[key(e)]--
			if !allowedAlone(l, e) {
				t.Fatalf("%q (compound %v): bash ran %s, which the list does not allow on its own", line, l.compound, key(e))
			}
		}
	}
	seen := map[string]int{}
	for _, e := range executed {
		if len(e.args) > 0 {
			seen[strings.Join(append([]string{filepath.Base(e.args[0])}, e.args[1:]...), "\x00")]++
		}
	}
	for _, s := range stubbed {
		k := strings.Join(s, "\x00")
		if seen[k] == 0 {
			t.Fatalf("%q: the stub %q ran without an xtrace record; xtrace: %s", line, s, keys(executed))
		}
		seen[k]--
	}
}

func key(c simpleCommand) string {
	return fmt.Sprintf("%q%q", c.assigns, c.args)
}

func keys(cs []simpleCommand) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = key(c)
	}
	return strings.Join(s, " ")
}

// allowedAlone reports whether one simple command matches a pattern of the
// list's Bash entries.
func allowedAlone(l List, c simpleCommand) bool {
	for _, g := range l.tools["Bash"].groups {
		for _, p := range g {
			if p.cmdOK && p.cmd.match(c) {
				return true
			}
		}
	}
	return false
}

// run runs line under bash and returns the simple commands xtrace recorded
// (assignments attached to the command after them), the argv of every stub
// invocation and the directory it ran in, and bash's output. home is
// bash's working directory and HOME.
func (r *bashRig) run(t testing.TB, line, home string) ([]simpleCommand, [][]string, []string, string) {
	t.Helper()
	trace, err := os.Create(filepath.Join(home, ".trace"))
	if err != nil {
		t.Fatal(err)
	}
	defer trace.Close()
	stubLog, err := os.MkdirTemp(r.dir, "stubs")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(stubLog)
	// The bound only stops a hung bash (stdin is /dev/null, no stub
	// sleeps); it is taken from the test's own deadline when there is one.
	bound := time.Minute
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if dl, ok := d.Deadline(); ok {
			bound = min(bound, time.Until(dl)/2)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.bash, "--norc", "-x", "-c", line)
	cmd.Dir = home
	cmd.Env = []string{"PATH=" + r.bin, "HOME=" + home, "STUBLOG=" + stubLog, "BASH_XTRACEFD=3"}
	cmd.ExtraFiles = []*os.File{trace}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // a failing command line is fine; what ran is what counts
	if ctx.Err() != nil {
		t.Fatalf("%q: bash did not finish within %v", line, bound)
	}
	b, err := os.ReadFile(trace.Name())
	if err != nil {
		t.Fatal(err)
	}
	ran, err := readTrace(string(b))
	if err != nil {
		t.Fatalf("%q: reading the xtrace %q: %v", line, b, err)
	}
	var stubbed [][]string
	var pwds []string
	logs, err := os.ReadDir(stubLog)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range logs {
		logb, err := os.ReadFile(filepath.Join(stubLog, l.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for rec := range strings.SplitSeq(string(logb), "\x01") {
			if rec == "" {
				continue
			}
			argv, pwd, _ := strings.Cut(rec, "\x02")
			stubbed = append(stubbed, strings.Split(strings.TrimSuffix(argv, "\x00"), "\x00"))
			pwds = append(pwds, pwd)
		}
	}
	return ran, stubbed, pwds, out.String()
}

// checkSpecPaths: every stub of a program the judge has a spec of is read
// by that spec as bash started it, and each argument the spec types as a
// path (read, written, a directory worked in, project code) must lie, from
// the directory the stub ran in, inside home, the workspace the judge
// allowed the line for (the differential's list has no Read or Write
// patterns to widen it).
func checkSpecPaths(t testing.TB, line string, stubbed [][]string, pwds []string, home string) {
	t.Helper()
	for i, argv := range stubbed {
		s := specOf(argv[0])
		if s == nil {
			continue
		}
		p := parseSpec(s, argv)
		for _, a := range p.args {
			switch a.typ {
			case tRead, tWrite, tDir, tProject:
			default:
				continue
			}
			v := a.value
			if a.opt != nil && a.opt.arg == twoArgs {
				v = a.extra
			}
			if v == "" || v == "-" {
				continue
			}
			abs := v
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(pwds[i], v)
			}
			if abs = filepath.Clean(abs); abs != home && !strings.HasPrefix(abs, home+"/") {
				t.Fatalf("%q: %s touched %q (from %s), outside the workspace %s, though the judge allowed the line", line, argv[0], v, pwds[i], home)
			}
		}
	}
}

// readTrace reads bash's xtrace records: each is "+ " (one '+' per level
// of nesting) and the words of one command, quoted by bash as needed.
func readTrace(s string) ([]simpleCommand, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(s), "")
	if err != nil {
		return nil, err
	}
	var out []simpleCommand
	var assigns []string
	for _, st := range f.Stmts {
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Assigns) > 0 || len(call.Args) < 2 || strings.Trim(call.Args[0].Lit(), "+") != "" {
			return nil, fmt.Errorf("unexpected record at %s", st.Pos())
		}
		var words []string
		for _, w := range call.Args[1:] {
			v, err := expand.Fields(nil, w)
			if err != nil {
				return nil, err
			}
			if len(v) != 1 {
				return nil, fmt.Errorf("word %d of the record at %s is %d fields", len(words)+1, st.Pos(), len(v))
			}
			words = append(words, v[0])
		}
		if isAssign(words) {
			assigns = append(assigns, words...)
			continue
		}
		out = append(out, simpleCommand{assigns: assigns, args: words})
		assigns = nil
	}
	return out, nil
}

func isAssign(words []string) bool {
	for _, w := range words {
		name, _, ok := strings.Cut(w, "=")
		if !ok || name == "" || !syntax.ValidName(name) {
			return false
		}
	}
	return true
}

// The grammar the generated lines come from.
var (
	genCommands = []string{"git", "ls", "echo", "printf", "cd", "true", "grep", "wc", "sort", "touch", "rm", "cat",
		"read", "pwd", "test", "sh", "eval", "export", "X=1 git", "'git'", "g\\it", "\"ec\"ho", "{", "!", "time", "[", ":"}
	genArgs = []string{"status", "-l", "--oneline", "HEAD~1", "@{u}..HEAD", "stash@{0}", "'a b'", "\"a b\"", "\"fix A & B\"",
		"'a;b'", "a\\;b", "a\\ b", "x", "-n", "'*'", "*", "~", "a~b", "~/x", "a=~", "x:~", "{a,b}", "{a..c}", "{a}", "$X", "\"$X\"",
		"'$X'", "`x`", "$(x)", "#c", "a#b", "\\#x", "''", "\"\"", "\"a'b\"", "'a\"b'", "\\\\", "-v", "HOME", "-o", "--output=x",
		"-c", "=x", "X=1", "'x\ny'", "\\\n", "a\\\nb", "\"a\\\nb\"", "%s", "'%s\\n'", "-", "--", "}", ")", "(", "\\'", "\"\\\"\"", "'\\'",
		"status#", "a}b", "a{b", "{,}", "-vHOME", "'-v'", "/dev/null", "feat(x):", "'feat(x): y'", "!", "a!b"}
	genOps    = []string{" && ", " || ", "; ", " | ", " |& ", "\n", " & ", " #c\\\n", " #\\\n", " \\\n", ";", "&&", "\n#x\n", " # a;b\n", ";;", " ! "}
	genRedirs = []string{" >/dev/null", " 2>&1", " 2>/dev/null", " <&-", " >x", " </dev/null", " >&2", " 2>", " >'/dev/null'", " &>/dev/null", " 3>&-"}
	genRaw    = []string{" ", "\\", "'", "\"", "#", "\n", ";", "&", "|", "(", ")", "{", "}", "~", "=", "$", "*", "\t", "!", "\\\n"}
)

// generate builds a command line from the grammar, each choice read from
// next (which returns 0 when its input is used up).
func generate(next func() int) string {
	var b strings.Builder
	pick := func(list []string) string { return list[next()%len(list)] }
	var command func(depth int)
	simple := func() {
		b.WriteString(pick(genCommands))
		for n := next() % 4; n > 0; n-- {
			b.WriteString(" ")
			b.WriteString(pick(genArgs))
		}
		if next()%5 == 0 {
			b.WriteString(pick(genRedirs))
		}
	}
	command = func(depth int) {
		switch k := next() % 10; {
		case k == 0 && depth < 2:
			b.WriteString("(")
			command(depth + 1)
			b.WriteString(")")
		case k == 1 && depth < 2:
			b.WriteString("{ ")
			command(depth + 1)
			b.WriteString("; }")
		case k == 2:
			b.WriteString("! ")
			simple()
		default:
			simple()
		}
	}
	command(0)
	for n := next() % 4; n > 0; n-- {
		b.WriteString(pick(genOps))
		command(0)
	}
	if next()%4 == 0 {
		s := b.String()
		at := next() % (len(s) + 1)
		return s[:at] + pick(genRaw) + s[at:]
	}
	if next()%6 == 0 {
		b.WriteString(pick([]string{" #c", " # x\\", " \\", "  ", " #", "\n"}))
	}
	return b.String()
}

// diffSeeds are lines from the review and from this judge's own cases.
var diffSeeds = []string{
	"git status #\\\ntouch x", "git status #\\\n\\\ntouch x", "git status # ok\ntouch x",
	"printf -v HOME %s notes && git status", "cd notes && git status", "printf -v PATH %s bin && ls",
	"read PATH < /dev/null || ls", "git diff HEAD~1", "git show HEAD~2", "git log @{u}..HEAD", "git stash show stash@{0}",
	"git commit -m \"feat(parser): x\"", "git commit -m \"fix A & B\"", "git diff HEAD~1 | head", "echo 'a;b' && ls",
	"ec'h'o hi", "''echo hi", "echo a\\ b | wc -l", "X=1 git status", "echo a=~", "echo {a,b}", "echo a \\\n b",
	"git log --grep 'a|b' | sort", "{ echo a; ls; } 2>/dev/null", "(cd x)", "! git diff --quiet", "echo \"a\\\"b\"",
	"echo 'x\ny' | grep x", "echo \\#x #y", "echo a#b", "echo }", "test -n x && echo y", "printf '%s\\n' a b",
	"ls 2>&1", "git status >/dev/null 2>&1", "ls &>/dev/null", "ls </dev/null", "echo a 2>/dev/null b", "CGO_ENABLED=0 ls",
	"git commit -m \"$(cat <<'EOF'\nsubject\n\nbody $(x)\nEOF\n)\"", "git commit -m \"line1\nline2\"", "echo 'a\nb'",
	"grep -n \"1,/^$/p\" a", "echo \"a$\"", "echo \"$/\"", "echo a$/b", "git -C sub status", "cd sub && ls ../x",
	"sort -o out.txt a", "git diff /etc/passwd a", "ls ..", "grep -r x .", "git log --output=x", "sort -T . a",
	"ls src/*.go", "grep -n x src/*.go a.txt", "wc -l src/*", "ls *", "ls .*", "git add src/?.go", "echo src/*",
}

// FuzzBashDifferential: the first byte chooses the mode: even, the rest
// drives the grammar; odd, the rest is the command line itself.
func FuzzBashDifferential(f *testing.F) {
	for _, s := range diffSeeds {
		f.Add(append([]byte{1}, s...))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		b[0] = 0
		f.Add(b)
	}
	r := newBashRig(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		line := string(data[1:])
		if data[0]%2 == 0 {
			rest := data[1:]
			line = generate(func() int {
				if len(rest) == 0 {
					return 0
				}
				v := int(rest[0])
				rest = rest[1:]
				return v
			})
		}
		r.check(t, line)
	})
}

// TestBashDifferentialGrammar runs generated lines through the
// differential: 300 with -short, 3000 without.
func TestBashDifferentialGrammar(t *testing.T) {
	r := newBashRig(t)
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(7, 11))
	allowed := 0
	for range n {
		line := generate(func() int { return rng.IntN(1 << 16) })
		if r.strict.Decide(cmdReq("Bash", line)).Allowed || r.cmpd.Decide(cmdReq("Bash", line)).Allowed {
			allowed++
		}
		r.check(t, line)
	}
	t.Logf("%d generated lines, %d allowed by one list or both and run under bash", n, allowed)
	if allowed < n/20 {
		t.Errorf("only %d of %d generated lines were allowed; the grammar no longer exercises bash", allowed, n)
	}
}

// expandGlobs returns c with its glob arguments expanded as bash expands
// them in home (or the directory a leading cd moved into): the matching
// names in byte order (the C locale), or the word itself when none match.
func expandGlobs(t testing.TB, c simpleCommand, home string) simpleCommand {
	if c.globs == nil {
		return c
	}
	base := home
	if c.dir != "" {
		base = filepath.Join(home, c.dir)
	}
	out := c
	out.args = nil
	for i, a := range c.args {
		if i >= len(c.globs) || !c.globs[i] {
			out.args = append(out.args, a)
			continue
		}
		// A pattern ending in "/" matches directories only, and each
		// name keeps the slash (filepath.Glob matches nothing there).
		pattern, dirsOnly := strings.CutSuffix(a, "/")
		m, err := filepath.Glob(filepath.Join(base, pattern))
		if err != nil {
			t.Fatal(err)
		}
		if dirsOnly {
			m = slices.DeleteFunc(m, func(name string) bool {
				fi, err := os.Stat(name)
				return err != nil || !fi.IsDir()
			})
		}
		if len(m) == 0 {
			out.args = append(out.args, a)
			continue
		}
		for _, name := range m {
			rel, _ := filepath.Rel(base, name)
			if strings.HasPrefix(a, "./") {
				rel = "./" + rel
			}
			if dirsOnly {
				rel += "/"
			}
			out.args = append(out.args, rel)
		}
	}
	out.globs = nil
	return out
}
