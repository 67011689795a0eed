package permission

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

// specEnv is what typed arguments are judged against: the workspace (the
// request's working directory), the directory a leading cd moved into, and
// the list whose Read, Write and Edit patterns widen what may be read and
// written outside the workspace.
type specEnv struct {
	list    *List
	workDir string
	dir     string
	// cache, when set, keeps the working directory with its links
	// resolved for the paths of one request.
	cache *wsCache
	// globs marks the arguments that are globs (simpleCommand.globs).
	globs []bool
	// others: in a compound line, a command runs before this one or
	// beside it in a pipe, and may change the file system before it runs.
	others bool
	// alts are the directories, relative to dir or absolute, that options
	// of the command move into before it resolves relative paths (git -C,
	// go -C, make -C, tar -C, git --work-tree): a relative path is judged
	// from dir and from each of them.
	alts []string
}

// wsCache is a working directory resolved once, and what one request has
// spent of the bounds on directory entries read to expand globs and to
// look through the trees programs walk: the bounds hold for the whole
// line, however many globs and operands it holds.
type wsCache struct {
	ws, real string
	// read counts the directory entries read, names the names globs
	// became.
	read, names int
}

// spend adds read entries read and names names to what the request has
// spent and reports whether it stays within globReadMax and
// globExpandMax. Without a cache (no request) nothing is counted.
func (e *specEnv) spend(read, names int) bool {
	if e == nil || e.cache == nil {
		return true
	}
	e.cache.read += read
	e.cache.names += names
	return e.cache.read <= globReadMax && e.cache.names <= globExpandMax
}

// refusal is why a spec refused an argument: a hint for the model and a
// detail for the log.
type refusal struct {
	hint, detail string
}

// specNamed returns what the words of a pattern name for its program's
// spec: the keys of its options (known or not), and the subcommands and
// modules the spec does not know.
func specNamed(s *spec, args []string) map[string]bool {
	p := parseSpec(s, args)
	named := map[string]bool{}
	for _, a := range p.args {
		if a.key != "" {
			named[a.key] = true
		}
	}
	if p.stop >= 0 && p.stop <= len(args) {
		named["\x00"+p.stopName] = true
	}
	if p.whole != "" {
		named["\x00whole"] = true
	}
	return named
}

// judgeSpec judges the arguments of a command line (args[0] is the
// program) beyond the first own words, which the entry wrote itself, by
// the program's spec s; named are what the entry's words name
// (specNamed). It returns nil when every argument is allowed.
func judgeSpec(s *spec, args []string, own int, named map[string]bool, env *specEnv) *refusal {
	p := parseSpec(s, args)
	cmd := strings.Join(p.chain, " ")
	env = env.withAlts(p)
	if p.whole != "" && p.wholeAt >= own && !named["\x00whole"] {
		return &refusal{
			hint:   fmt.Sprintf("'%s' %s; only an entry that names it allows it.", echoWords(p.chain), p.whole),
			detail: fmt.Sprintf("%s %s", cmd, p.whole),
		}
	}
	if p.stop >= 0 && p.stop-1 >= own && !named["\x00"+p.stopName] {
		return &refusal{
			hint:   fmt.Sprintf("The judge does not know '%s'; an entry that names it, Bash(%s:*), would allow it.", echoWords(p.chain), echoWords(p.chain)),
			detail: fmt.Sprintf("%s is not in the spec of %s", p.stopName, args[0]),
		}
	}
	for _, a := range p.args {
		if a.at < own && (a.valAt < own) && (a.extraAt < own) {
			continue // the entry's own words
		}
		if r := judgeArg(p, cmd, a, own, named, env); r != nil {
			return r
		}
	}
	if r := env.walkLinks(s, p, cmd, own, named); r != nil {
		return r
	}
	if r := env.extractHere(p, cmd, own, named); r != nil {
		return r
	}
	if r := env.gitStart(p, cmd, named); r != nil {
		return r
	}
	if p.tooMany && p.tooManyAt >= own {
		return &refusal{
			hint:   fmt.Sprintf("'%s' takes fewer operands than given here; an entry that names the whole command allows it.", echoWords(p.chain)),
			detail: fmt.Sprintf("%s: too many operands for its spec", cmd),
		}
	}
	return nil
}

// judgeArg judges one typed argument.
func judgeArg(p *specParse, cmd string, a specArg, own int, named map[string]bool, env *specEnv) *refusal {
	isNamed := a.key != "" && named[a.key]
	switch {
	case a.unknown && !isNamed:
		return &refusal{
			hint:   fmt.Sprintf("The judge does not know the option '%s' of %s; an entry that names it, Bash(%s %s:*), would allow it.", schema.Echo(a.key), echoWords(p.chain), echoWords(p.chain), schema.Echo(a.key)),
			detail: fmt.Sprintf("%s: unknown option %s", cmd, a.key),
		}
	case a.unknown:
		return nil
	}
	if env.isGlob(a.at) || a.valAt >= 0 && env.isGlob(a.valAt) {
		if !a.globOK() {
			return &refusal{
				hint:   fmt.Sprintf("A glob ('*' or '?') is expanded only among the files %s reads, where every name it becomes is read alike; quote it to pass it literally.", echoWords(p.chain)),
				detail: fmt.Sprintf("%s: the glob %s is not a repeating read operand", cmd, a.value),
			}
		}
	}
	what := a.value
	t := a.typ
	if a.opt != nil && a.opt.arg == twoArgs {
		what = a.extra
	}
	switch t {
	case tLit, tNone, tProgram:
		return nil
	case tCode:
		if isNamed {
			return nil
		}
		does := "runs code given on the command line"
		if a.opt != nil && a.opt.does != "" {
			does = a.opt.does
		}
		name := a.key
		if a.as != "" {
			name = a.as
		}
		if a.opt == nil && a.key == "" {
			return &refusal{
				hint:   fmt.Sprintf("An operand of %s assigns a variable, whose value may run a program; only an entry that names the assignment allows it.", echoWords(p.chain)),
				detail: fmt.Sprintf("%s: the assignment %s", cmd, a.value),
			}
		}
		if a.key == "--" {
			return &refusal{
				hint:   fmt.Sprintf("What follows '--' goes to the command of the script %s runs, whose options may run code; only an entry that names '--' allows it, such as Bash(%s --:*).", echoWords(p.chain), echoWords(p.chain)),
				detail: fmt.Sprintf("%s: %s after -- passes to the script's interpreter", cmd, a.value),
			}
		}
		return &refusal{
			hint:   fmt.Sprintf("'%s' of %s %s; only an entry that names it allows it.", schema.Echo(name), echoWords(p.chain), does),
			detail: fmt.Sprintf("%s: %s %s", cmd, name, does),
		}
	case tSed:
		if does := sedScript(what); does != "" && !isNamed {
			return &refusal{hint: fmt.Sprintf("The sed script %s; only sed scripts that edit their output are allowed.", does), detail: cmd + ": the script " + does}
		}
		return nil
	case tAwk:
		if does := awkProgram(what); does != "" && !isNamed {
			return &refusal{hint: fmt.Sprintf("The awk program %s; only awk programs that read their input and print are allowed.", does), detail: cmd + ": the program " + does}
		}
		return nil
	case tJq:
		if jqLoads(what) && !isNamed {
			return &refusal{hint: "The jq filter imports or includes a module, which reads files the judge cannot check.", detail: cmd + ": a jq filter with import or include"}
		}
		return nil
	case tLdflags:
		if bad := badToolFlag(what, ldflagsSafe); bad != "" && !isNamed {
			return &refusal{hint: fmt.Sprintf("The linker flag '%s' in -ldflags is not one the judge allows (-s, -w, -X name=value, -buildid=...); only an entry that names -ldflags allows it.", schema.Echo(bad)), detail: cmd + ": -ldflags " + bad}
		}
		return nil
	case tGcflags:
		if bad := badToolFlag(what, gcflagsSafe); bad != "" && !isNamed {
			return &refusal{hint: fmt.Sprintf("The compiler flag '%s' in -gcflags is not one the judge allows (-N, -l, -m, -S, -B); only an entry that names -gcflags allows it.", schema.Echo(bad)), detail: cmd + ": -gcflags " + bad}
		}
		return nil
	case tPlugin:
		if !strings.HasPrefix(what, "no:") && !isNamed {
			return &refusal{hint: fmt.Sprintf("'-p %s' of %s loads a plugin, which runs code; only -p no:NAME (disabling one) is allowed.", schema.Echo(what), echoWords(p.chain)), detail: cmd + ": -p " + what}
		}
		return nil
	case tGitDir:
		if !isNamed && !env.ownGitDir(what) {
			return &refusal{
				hint:   fmt.Sprintf("'%s' of %s names a repository other than the working directory's own .git, whose configuration may run programs; only an entry that names it allows it.", schema.Echo(cmpOr(a.as, a.key)), echoWords(p.chain)),
				detail: fmt.Sprintf("%s: %s %s is not the workspace's repository", cmd, a.key, what),
			}
		}
		return nil
	case tRepo:
		var why string
		t, what, why = repoPath(what)
		if why != "" && !isNamed {
			return &refusal{
				hint:   fmt.Sprintf("A repository among the operands of %s %s; only an entry that names the whole command allows it.", echoWords(p.chain), why),
				detail: fmt.Sprintf("%s: the repository %s %s", cmd, what, why),
			}
		}
		if t == tLit {
			return nil
		}
	}
	if what == "" && (a.opt == nil || a.valAt < 0) {
		return nil
	}
	whats := []string{what}
	if env.isGlob(a.at) && a.opt == nil {
		// bash expands the glob before the program runs: every name it
		// becomes is judged as this operand, links followed as for a
		// name written out; a glob that matches nothing stays the word.
		names, ok := env.expandGlob(what)
		if !ok {
			return &refusal{
				hint:   fmt.Sprintf("A glob among the operands of %s becomes more than %d names, or passes a directory the judge cannot read; name the files, or a directory for a program that walks it.", echoWords(p.chain), globExpandMax),
				detail: fmt.Sprintf("%s: the glob %s passes the judge's bounds", cmd, what),
			}
		}
		if len(names) > 0 {
			whats = names
		}
	}
	for _, w := range whats {
		if why := env.judgePath(w, t); why != "" {
			// The sentence names the option or the operand, never the path:
			// a denial does not echo paths.
			which := "A path among the operands"
			if a.opt != nil {
				which = fmt.Sprintf("The path given to '%s'", schema.Echo(cmpOr(a.as, a.key)))
			}
			return &refusal{
				hint:   fmt.Sprintf("%s %s: %s may %s.", which, why, echoWords(p.chain), pathRule(t)),
				detail: fmt.Sprintf("%s: %s %s", cmd, w, why),
			}
		}
	}
	return nil
}

// pathRule says where a program may touch paths of a type.
func pathRule(t argType) string {
	switch t {
	case tWrite:
		return "write only inside the working directory, and not in its hidden files and directories (.git, .bashrc, ...)"
	case tDir:
		return "work only in directories inside the working directory"
	case tProject:
		return "run only files inside the working directory"
	}
	return "read only inside the working directory"
}

// echoWords echoes a command's words for a sentence.
func echoWords(words []string) string { return schema.Echo(strings.Join(words, " ")) }

// judgePath returns why the path p, of type t, may not be touched, or "".
// Relative paths are taken against the directory a leading cd moved into,
// or the working directory. Inside the workspace (its links followed) a
// path may be read; written too unless it lies in a hidden file or
// directory, where configuration that runs code lives (.git/config, .git/hooks,
// .bashrc, .vscode). Outside it, a read path must be allowed by the
// list's Read patterns, a written one by Write's or Edit's, and a
// directory the program works in by both; files of the project's code
// must be inside. Without a working directory, a relative path that does
// not climb out with ".." is inside and nothing else is.
func (e *specEnv) judgePath(p string, t argType) string {
	if p == "-" && (t == tRead || t == tWrite) {
		return "" // standard input or output
	}
	if p == "" {
		return ""
	}
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		if strings.HasPrefix(p, "/") || climbs(p) {
			return "is outside the working directory"
		}
		if protects(t) && hiddenSegment(path.Clean(p)) {
			return "is a hidden file or directory"
		}
		for _, d := range e.alts {
			if strings.HasPrefix(d, "/") || climbs(path.Join(d, p)) {
				return "is outside the working directory"
			}
			if protects(t) && hiddenSegment(path.Join(d, p)) {
				return "is a hidden file or directory"
			}
		}
		return ""
	}
	if len(e.alts) > 0 && !strings.HasPrefix(p, "/") {
		// Judged from the directory the command starts in and from each
		// directory its options move into.
		for _, d := range e.alts {
			alt := *e
			alt.alts = nil
			if strings.HasPrefix(d, "/") {
				alt.dir = d
			} else {
				alt.dir = path.Join(e.dir, d)
			}
			if why := alt.judgePath(p, t); why != "" {
				return why
			}
		}
	}
	ws := path.Clean(e.workDir)
	base := ws
	if e.dir != "" {
		if strings.HasPrefix(e.dir, "/") {
			base = path.Clean(e.dir)
		} else {
			base = path.Join(ws, e.dir)
		}
	}
	abs := p
	if !strings.HasPrefix(abs, "/") {
		abs = base + "/" + p
	}
	if checkPathChars(abs, true) != "" {
		return "has characters the judge cannot check"
	}
	lex := path.Clean(abs)
	phys, err := resolve(abs)
	if err != nil {
		return "cannot be resolved"
	}
	realWS := e.resolvedWS(ws)
	inside := within(lex, ws) && within(phys, realWS)
	if inside {
		if protects(t) {
			rel := strings.TrimPrefix(strings.TrimPrefix(phys, realWS), "/")
			if hiddenSegment(rel) {
				return "is a hidden file or directory"
			}
		}
		return ""
	}
	if t == tProject || e.list == nil {
		return "is outside the working directory"
	}
	var tools []string
	switch t {
	case tRead:
		tools = []string{"Read"}
	case tWrite:
		tools = []string{"Write", "Edit"}
	case tDir:
		if e.listAllows([]string{"Read"}, lex) && e.listAllows([]string{"Write", "Edit"}, lex) {
			return ""
		}
		return "is outside the working directory"
	}
	if e.listAllows(tools, lex) {
		return ""
	}
	return "is outside the working directory"
}

// protects reports whether paths of type t are kept out of hidden files
// and directories: what a program writes, and a directory it works in
// (tar -C, unzip -d, git --work-tree write there).
func protects(t argType) bool { return t == tWrite || t == tDir }

// resolvedWS returns the workspace ws with its links resolved (ws itself
// when it cannot be), once per request.
func (e *specEnv) resolvedWS(ws string) string {
	if e.cache != nil && e.cache.ws == ws {
		return e.cache.real
	}
	real, err := resolve(ws)
	if err != nil {
		real = ws
	}
	if e.cache != nil {
		e.cache.ws, e.cache.real = ws, real
	}
	return real
}

// listAllows reports whether the list lets one of tools touch the absolute
// path p (both as written and where its links lead).
func (e *specEnv) listAllows(tools []string, p string) bool {
	for _, tool := range tools {
		if e.list.tools[tool] == nil {
			continue
		}
		d := e.list.decide(Request{Tool: tool, Subject: &Subject{Kind: Path, Value: p}, Judged: true, HasSubject: true, WorkDir: e.workDir}, true)
		if d.Allowed {
			return true
		}
	}
	return false
}

// within reports whether the clean absolute path p is dir or below it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// climbs reports whether the relative path p climbs out of its directory.
func climbs(p string) bool {
	c := path.Clean(p)
	return c == ".." || strings.HasPrefix(c, "../")
}

// hiddenSegment reports whether a relative path has a segment that starts
// with a dot (other than . and ..).
func hiddenSegment(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		if len(seg) > 1 && seg[0] == '.' && seg != ".." {
			return true
		}
	}
	return false
}

// jqLoads reports whether a jq filter imports or includes a module.
func jqLoads(f string) bool {
	return strings.Contains(f, "import") || strings.Contains(f, "include")
}

// ldflagsSafe and gcflagsSafe are the linker and compiler flags a go
// command line may pass without an entry naming -ldflags or -gcflags: they
// strip, set strings, disable optimisations or print diagnostics, and
// neither run a program nor write a file.
var (
	ldflagsSafe = map[string]int{"-s": 0, "-w": 0, "-X": 1, "-buildid": 1, "-trimpath": 0, "-v": 0, "-race": 0, "-strictdups": 1}
	gcflagsSafe = map[string]int{"-N": 0, "-l": 0, "-m": 0, "-S": 0, "-B": 0, "-e": 0, "-m=1": 0, "-m=2": 0, "-json": 0, "-race": 0, "-d=checkptr": 0, "-d=ssa/check_bce/debug=1": 0, "-std": 0}
)

// badToolFlag returns the first flag of a go tool flags value (optionally
// "pattern=flags", split on spaces as go does for unquoted values) that is
// not in safe, or "". safe gives the values a flag takes in the next word
// (-X name=value); a flag with =value is looked up as written and by its
// name.
func badToolFlag(v string, safe map[string]int) string {
	if i := strings.IndexByte(v, '='); i > 0 && !strings.HasPrefix(v, "-") {
		v = v[i+1:] // all=-N -l
	}
	if strings.ContainsAny(v, "'\"") {
		return v
	}
	f := strings.Fields(v)
	for i := 0; i < len(f); i++ {
		w := f[i]
		if n, ok := safe[w]; ok {
			i += n
			continue
		}
		if name, _, eq := strings.Cut(w, "="); eq {
			if n, ok := safe[name]; ok && n == 1 {
				continue
			}
		}
		return w
	}
	return ""
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// isGlob reports whether the argument at index i is a glob.
func (e *specEnv) isGlob(i int) bool {
	return e != nil && i >= 0 && i < len(e.globs) && e.globs[i]
}

// globOK reports whether a glob may stand as this argument: an operand the
// spec types as a read path, at a position whose type repeats (so that the
// names it expands to are all read and no later operand changes meaning).
// Its expansion stays inside the directory: globWord refused "..", a
// leading '/' and dot segments.
func (a specArg) globOK() bool {
	return a.opt == nil && a.typ == tRead && a.sp != nil && a.sp.maxOperands == 0 && a.pos >= len(a.sp.operands)-1
}

// movesDir reports whether the option a moves the program into the
// directory it names before relative paths are resolved: -C of git, go,
// make, tar and cargo.
func (a specArg) movesDir() bool {
	return a.opt != nil && a.typ == tDir && a.key == "-C" && a.value != ""
}

// startDir returns where the -C options of p move the program, relative
// to the directory it starts in or absolute ("" for none), and each
// directory on the way. Each -C is taken from the one before it, as git,
// make and tar do.
func startDir(p *specParse) (cur string, steps []string) {
	for _, a := range p.args {
		if !a.movesDir() {
			continue
		}
		if strings.HasPrefix(a.value, "/") {
			cur = path.Clean(a.value)
		} else {
			cur = path.Join(cur, a.value)
		}
		steps = append(steps, cur)
	}
	return cur, steps
}

// withAlts returns env with the directories the options of p move into
// (specEnv.alts): every -C on the way, and git's --work-tree, into which
// git moves when it starts outside it, taken from the last -C.
func (e *specEnv) withAlts(p *specParse) *specEnv {
	cur, alts := startDir(p)
	for _, a := range p.args {
		if a.opt != nil && a.typ == tDir && a.key == "--work-tree" && a.value != "" {
			if strings.HasPrefix(a.value, "/") {
				alts = append(alts, path.Clean(a.value))
			} else {
				alts = append(alts, path.Join(cur, a.value))
			}
		}
	}
	if len(alts) == 0 {
		return e
	}
	out := &specEnv{}
	if e != nil {
		*out = *e
	}
	out.alts = alts
	return out
}

// extractHere refuses the extraction of p (specParse.extract), unless the
// entry names it, when no single directory is given or the directory
// given is the working directory or holds it, as written or where its
// links lead (hk, a link to ".", made earlier): the archive's members,
// .git/hooks/post-checkout or .envrc, would land in the workspace's own
// hidden paths. That the directory is not hidden itself, nor reached
// through a link to a hidden one, judgePath saw, as it judges a
// directory a program works in.
func (e *specEnv) extractHere(p *specParse, cmd string, own int, named map[string]bool) *refusal {
	x := p.extract
	if x == nil || p.args[x.by].at < own || x.key != "" && named[x.key] {
		return nil
	}
	why := "without one directory to put it in"
	if x.dir >= 0 {
		switch v := p.args[x.dir].value; {
		case e.holdsWorkDir(v):
			why = "into a directory that is, or holds, the working directory"
		case e.linksOut(v):
			why = "into a directory holding a link to the working directory, a hidden path or a path outside (or too many files to look for one)"
		default:
			return nil
		}
	}
	names := "the archive"
	if x.key != "" {
		names = "'" + schema.Echo(x.key) + "'"
	}
	return &refusal{
		hint:   fmt.Sprintf("%s extracts an archive %s: it %s; only an entry that names %s allows it.", echoWords(p.chain), why, x.does, names),
		detail: fmt.Sprintf("%s: %s extracts %s", cmd, cmpOr(p.args[x.by].value, cmpOr(p.args[x.by].as, x.key)), why),
	}
}

// holdsWorkDir reports whether the directory v, taken from where the
// command starts, is the working directory or holds it, as written or
// where its links lead; a directory that cannot be resolved holds it.
// Without a working directory only "." and what climbs out of it do.
func (e *specEnv) holdsWorkDir(v string) bool {
	dir := ""
	if e != nil {
		dir = e.dir
	}
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		c := path.Join(dir, v)
		return v == "" || strings.HasPrefix(c, "/") || c == "." || climbs(c)
	}
	ws := path.Clean(e.workDir)
	abs := v
	if !strings.HasPrefix(abs, "/") {
		switch {
		case strings.HasPrefix(dir, "/"):
			abs = path.Join(dir, v)
		default:
			abs = path.Join(ws, dir, v)
		}
	}
	if v == "" || checkPathChars(abs, true) != "" {
		return true
	}
	lex := path.Clean(abs)
	phys, err := resolve(abs)
	if err != nil {
		return true
	}
	return within(ws, lex) || within(e.resolvedWS(ws), phys)
}

// extractScanMax bounds the entries linksOut looks at.
const extractScanMax = 20000

// linksOut reports whether the directory v (taken as holdsWorkDir takes
// it, in a working directory) holds, at any depth, a link that leads
// neither into itself nor into the workspace below its top and outside
// its hidden paths, or more than extractScanMax entries. tar and unzip
// write a member through a link already there: an earlier archive's
// build/up -> .. let tar -xf b.tar -C build write up/.envrc at the top.
// A link made by another command of the same line is not seen.
func (e *specEnv) linksOut(v string) bool {
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		return false
	}
	ws := path.Clean(e.workDir)
	abs := v
	if !strings.HasPrefix(abs, "/") {
		if strings.HasPrefix(e.dir, "/") {
			abs = path.Join(e.dir, v)
		} else {
			abs = path.Join(ws, e.dir, v)
		}
	}
	dir, err := resolve(abs)
	if err != nil {
		return true
	}
	realWS := e.resolvedWS(ws)
	n, out := 0, false
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if n++; n > extractScanMax {
			out = true
			return fs.SkipAll
		}
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		to, err := resolve(p)
		if err != nil {
			out = true
			return fs.SkipAll
		}
		if within(to, dir) {
			return nil
		}
		if to == realWS || !within(to, realWS) || hiddenSegment(strings.TrimPrefix(to, realWS+"/")) {
			out = true
			return fs.SkipAll
		}
		return nil
	})
	return out
}

// gitStart judges where git starts: when a leading cd or -C moves it away
// from the workspace's top, git looks for its repository from there
// upwards, and a directory on the way that looks like a bare repository
// (a HEAD file: git init --bare, or one an archive or a written file
// made) would be used, with a configuration that runs programs
// (core.fsmonitor, core.pager, diff.external). So every directory from
// the start up to the workspace (as written and where links lead) must
// hold no HEAD; and in a line with other commands, which may make one
// before git runs, git moved away from the top is refused unless the
// entry names -C. A repository inside .git/ holds hidden files, which no
// judged command writes.
func (e *specEnv) gitStart(p *specParse, cmd string, named map[string]bool) *refusal {
	if path.Base(p.chain[0]) != "git" || e == nil {
		return nil
	}
	cur, _ := startDir(p)
	if cur == "" && e.dir == "" {
		return nil
	}
	refuse := func(why string) *refusal {
		return &refusal{
			hint:   fmt.Sprintf("git would run in a directory below the working directory %s, and use the configuration of a repository there, which may run programs; only an entry that names -C allows it.", why),
			detail: fmt.Sprintf("%s: git starts in %s below the workspace, %s", cmd, path.Join(e.dir, cur), why),
		}
	}
	if e.others && !named["-C"] {
		return refuse("in a line whose other commands may make a repository there")
	}
	if e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		return nil
	}
	ws := path.Clean(e.workDir)
	start := cur
	if !strings.HasPrefix(start, "/") {
		start = path.Join(ws, e.dir, cur)
		if strings.HasPrefix(e.dir, "/") {
			start = path.Join(e.dir, cur)
		}
	}
	phys, err := resolve(start)
	if err != nil {
		return refuse("that cannot be resolved")
	}
	for _, walk := range []struct{ from, top string }{{start, ws}, {phys, e.resolvedWS(ws)}} {
		for d := walk.from; within(d, walk.top) && d != walk.top; d = path.Dir(d) {
			if _, err := os.Lstat(d + "/HEAD"); err == nil {
				return refuse("that holds a repository other than the workspace's")
			}
		}
	}
	return nil
}

// ownGitDir reports whether git's --git-dir value v names the workspace's
// own repository, ws/.git, from the directory git starts in and every
// directory it moves into. Without a working directory only ".git"
// (taken from the top) does.
func (e *specEnv) ownGitDir(v string) bool {
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		return path.Clean(v) == ".git" && (e == nil || e.dir == "" && len(e.alts) == 0)
	}
	ws := path.Clean(e.workDir)
	want, err := resolve(ws + "/.git")
	if err != nil {
		return false
	}
	bases := []string{e.dir}
	for _, d := range e.alts {
		if strings.HasPrefix(d, "/") {
			bases = append(bases, d)
		} else {
			bases = append(bases, path.Join(e.dir, d))
		}
	}
	for _, b := range bases {
		abs := v
		if !strings.HasPrefix(abs, "/") {
			if strings.HasPrefix(b, "/") {
				abs = path.Join(b, v)
			} else {
				abs = path.Join(ws, b, v)
			}
		}
		if path.Clean(abs) != ws+"/.git" {
			return false
		}
		if phys, err := resolve(abs); err != nil || phys != want {
			return false
		}
	}
	return true
}

// repoPath reads a git repository argument: a file:// URL or a local
// path is a path git reads (t is tRead, p the path); another URL (scheme://,
// or scp's host:path) reaches the network and is a literal; a remote
// helper (X::address, ext:: runs a command) is refused with why.
func repoPath(v string) (t argType, p, why string) {
	if rest, ok := strings.CutPrefix(v, "file://"); ok {
		if !strings.HasPrefix(rest, "/") {
			return tRead, v, "is a file URL naming another host"
		}
		return tRead, rest, ""
	}
	if strings.Contains(v, "::") {
		return tRead, v, "names a remote helper, which runs a program"
	}
	if strings.Contains(v, "://") {
		return tLit, v, ""
	}
	if colon := strings.IndexByte(v, ':'); colon > 0 {
		if slash := strings.IndexByte(v, '/'); slash < 0 || slash > colon {
			return tLit, v, "" // host:path, git's ssh
		}
	}
	return tRead, v, ""
}
