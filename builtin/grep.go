package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"regexp/syntax"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// GrepInput is the input of the Grep tool.
//
//tool:name Grep
//tool:unexported
//tool:title Search file contents
//tool:keywords search code, find text, rg, regex, look for, occurrences, where is, references
//tool:description Searches file contents with a regular expression, like ripgrep. The syntax is Go's RE2 (regexp): matching runs in linear time in the size of the input, and there are no lookarounds or backreferences.
//tool:description Searches path (a file or a directory, the working directory when not given) recursively; binary files and .git directories are skipped. Filter files with glob (e.g. "*.js", "**/*.{ts,tsx}") or type (e.g. go, py, js, ts, rust, java, c, cpp, md, json, yaml).
//tool:description output_mode is files_with_matches (the default: the matching files' paths), content (the matching lines, with -n line numbers, -A/-B/-C context lines) or count (matches per file). Results are in path order; head_limit and offset page through them. Lines are searched in their first MiB; files larger than 32 MiB are skipped.
//tool:description Use multiline to let a pattern span lines, with . matching newlines.
//tool:concurrency safe
//tool:side-effect read-only
//tool:subject path path
type GrepInput struct {
	// The regular expression to search for (Go RE2 syntax).
	Pattern string `json:"pattern" tool:"required"`
	// The file or directory to search in; "." (the default) is the working directory.
	Path string `json:"path,omitempty" tool:"default=."`
	// A glob that file names must match, e.g. "*.js" or "*.{ts,tsx}"; a glob with a slash is matched against the path relative to the search directory.
	Glob string `json:"glob,omitempty"`
	// A file type to search, e.g. go, py, js, ts, rust, java, c, cpp, md, json, yaml.
	Type string `json:"type,omitempty"`
	// What to return: content (matching lines), files_with_matches (file paths) or count (matches per file).
	OutputMode string `json:"output_mode,omitempty" tool:"enum=content|files_with_matches|count,default=files_with_matches"`
	// Match case-insensitively.
	IgnoreCase bool `json:"-i,omitempty" tool:"default=false"`
	// Show line numbers (content mode only).
	LineNumbers bool `json:"-n,omitempty" tool:"default=true"`
	// Lines of context to show after each match (content mode only).
	After *int `json:"-A,omitempty"`
	// Lines of context to show before each match (content mode only).
	Before *int `json:"-B,omitempty"`
	// Lines of context to show before and after each match (content mode only).
	Context int `json:"-C,omitempty"`
	// Return at most this many lines (content) or entries (files_with_matches, count); 0 means no limit.
	HeadLimit int `json:"head_limit,omitempty"`
	// Skip this many lines or entries before returning any, to page with head_limit.
	Offset int `json:"offset,omitempty"`
	// Let the pattern span lines; . matches newlines too.
	Multiline bool `json:"multiline,omitempty" tool:"default=false"`
}

// The output modes.
const (
	modeContent = "content"
	modeFiles   = "files_with_matches"
	modeCount   = "count"
)

const (
	// maxPatternChars bounds the length of a Grep pattern.
	maxPatternChars = 1000
	// maxGrepFileBytes is the largest file Grep searches; larger ones are
	// skipped and counted in a note.
	maxGrepFileBytes = 32 << 20
	// maxGrepChars bounds the length of Grep's output.
	maxGrepChars = 30000
	// maxContext bounds -A, -B and -C.
	maxContext = 100
	// grepBatch is the number of files searched in parallel before their
	// results are taken in order.
	grepBatch = 256
	// maxGrepLineBytes is how much of one line Grep searches; the rest of
	// a longer line is skipped, and counted in a note.
	maxGrepLineBytes = 1 << 20
	// grepBufferBytes is the size of each search's read buffer, and the
	// most bytes the regular expression is run on at once.
	grepBufferBytes = 64 << 10
	// grepWork bounds the regular expression's work between two looks at
	// the call's context, in bytes times instructions of the compiled
	// pattern: RE2 runs in time linear in both, at worst about 20 ns per
	// byte and instruction, so this is a few milliseconds.
	grepWork = 256 << 10
	// minGrepUnit is the least Grep runs its expression on at once.
	minGrepUnit = 256
)

// fileTypes maps Grep's type names to file name globs.
var fileTypes = map[string][]string{
	"c":      {"*.c", "*.h"},
	"cpp":    {"*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h++", "*.h"},
	"cs":     {"*.cs"},
	"css":    {"*.css", "*.scss", "*.sass", "*.less"},
	"go":     {"*.go"},
	"html":   {"*.html", "*.htm", "*.xhtml"},
	"java":   {"*.java"},
	"js":     {"*.js", "*.jsx", "*.mjs", "*.cjs"},
	"json":   {"*.json", "*.jsonl"},
	"kotlin": {"*.kt", "*.kts"},
	"md":     {"*.md", "*.markdown", "*.mdx"},
	"php":    {"*.php"},
	"py":     {"*.py", "*.pyi"},
	"rb":     {"*.rb"},
	"rust":   {"*.rs"},
	"sh":     {"*.sh", "*.bash", "*.zsh"},
	"sql":    {"*.sql"},
	"swift":  {"*.swift"},
	"toml":   {"*.toml"},
	"ts":     {"*.ts", "*.tsx", "*.mts", "*.cts"},
	"txt":    {"*.txt"},
	"xml":    {"*.xml"},
	"yaml":   {"*.yaml", "*.yml"},
}

// grepSearch is one Grep call's settings.
type grepSearch struct {
	re          *regexp.Regexp
	prefilter   bool // whether a match in a block of lines can rule lines out
	startOnly   bool // the pattern names \A: in multiline mode, one match at most
	mode        string
	lineNumbers bool
	before      int
	after       int
	multiline   bool
	// unit is the most bytes the expression is run on at once; a longer
	// line is matched through a reader that checks the context.
	unit int
}

// grep is the Grep tool. It streams: files are read a buffer at a time
// (multiline mode reads a whole file, at most maxGrepFileBytes), results
// are taken in path order by a sink that skips offset entries without
// keeping them and stops once head_limit entries or maxGrepChars are held,
// and the context is checked between files, buffers and long lines.
func (f *files) grep(ctx context.Context, in GrepInput, tc tool.Context) (string, error) {
	s, err := newGrepSearch(in)
	if err != nil {
		return "", err
	}
	var globs []string
	if in.Glob != "" {
		if !doublestar.ValidatePattern(in.Glob) {
			return "", fail("Invalid glob: %s. Close every [ and {.", in.Glob)
		}
		globs = append(globs, in.Glob)
	}
	var types []string
	if in.Type != "" {
		t, ok := fileTypes[strings.ToLower(in.Type)]
		if !ok {
			return "", fail("Unknown file type '%s'. Known types: %s.", in.Type, strings.Join(sortedKeys(fileTypes), ", "))
		}
		types = t
	}
	dir := in.Path
	if dir == "" {
		dir = "."
	}
	loc, err := f.ws.resolve(dir, tc)
	if err != nil {
		return "", err
	}
	defer loc.fs.Close()
	fi, err := loc.fs.Stat(loc.name)
	if err != nil {
		return "", openError(loc, err)
	}
	g := &grepRun{s: s, ctx: ctx, filter: f.ws.filter(tc), sink: newGrepSink(in)}
	switch {
	case fi.Mode().IsRegular():
		r := g.searchOne(loc)
		if r.refused {
			return "", notAllowed(GrepName)
		}
		g.take(r)
	case fi.IsDir():
		if !g.filter.MayContain(loc.abs) {
			g.skippedDirs++
			break
		}
		if err := g.walk(loc, globs, types); err != nil {
			return "", err
		}
	default:
		return "", fail("Cannot search %s: it is %s.", loc.abs, kindOf(fi.Mode()))
	}
	if ctx.Err() != nil {
		return "", cancelled(ctx, "Grep")
	}
	return g.format(in), nil
}

// grepRun is the state of one Grep call.
type grepRun struct {
	s      *grepSearch
	ctx    context.Context
	filter permission.PathFilter
	sink   grepSink

	nFiles, matches int
	big             int // files larger than maxGrepFileBytes
	long            int // lines searched in their first maxGrepLineBytes only
	skippedFiles    int // files the allow-list refused
	skippedDirs     int // directories the allow-list leaves nothing in
}

// grepFile is what one file gave.
type grepFile struct {
	abs     string
	matched bool
	count   int
	long    int
	big     bool
	refused bool // by the allow-list
}

// newGrepSearch checks Grep's arguments and compiles its pattern.
func newGrepSearch(in GrepInput) (*grepSearch, error) {
	if in.Pattern == "" {
		return nil, fail("The pattern is empty. Give a regular expression to search for.")
	}
	if n := utf8.RuneCountInString(in.Pattern); n > maxPatternChars {
		return nil, fail("The pattern is %d characters long; the limit is %d. Search for a shorter pattern.", n, maxPatternChars)
	}
	mode := in.OutputMode
	if mode == "" {
		mode = modeFiles
	}
	if mode != modeContent && mode != modeFiles && mode != modeCount {
		return nil, fail("output_mode must be one of content, files_with_matches or count, got: %s", in.OutputMode)
	}
	for _, c := range []struct {
		name string
		v    *int
	}{{"-A", in.After}, {"-B", in.Before}, {"-C", &in.Context}} {
		if c.v != nil && (*c.v < 0 || *c.v > maxContext) {
			return nil, fail("%s must be between 0 and %d, got: %d", c.name, maxContext, *c.v)
		}
	}
	if in.HeadLimit < 0 {
		return nil, fail("head_limit must be >= 0, got: %d", in.HeadLimit)
	}
	if in.Offset < 0 {
		return nil, fail("offset must be >= 0, got: %d", in.Offset)
	}
	flags := "(?m)"
	if in.IgnoreCase {
		flags = "(?mi)"
	}
	if in.Multiline {
		flags = strings.TrimSuffix(flags, ")") + "s)"
	}
	re, err := regexp.Compile(flags + in.Pattern)
	if err != nil {
		msg := err.Error()
		if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "error parsing regexp") {
			msg = msg[i+2:]
		}
		return nil, failWith(err, "Invalid regular expression: %s. Grep uses Go's RE2 syntax, which has no lookarounds or backreferences.", msg)
	}
	s := &grepSearch{
		re:          re,
		prefilter:   !strings.Contains(in.Pattern, `\A`) && !strings.Contains(in.Pattern, `\z`),
		startOnly:   strings.Contains(in.Pattern, `\A`),
		mode:        mode,
		lineNumbers: in.LineNumbers,
		before:      in.Context,
		after:       in.Context,
		multiline:   in.Multiline,
		unit:        grepUnit(flags + in.Pattern),
	}
	if in.Before != nil {
		s.before = *in.Before
	}
	if in.After != nil {
		s.after = *in.After
	}
	return s, nil
}

// grepUnit returns how many bytes the compiled pattern may be run on at
// once, so that one run costs about grepWork: the larger the program, the
// smaller the unit.
func grepUnit(pattern string) int {
	n := 1
	if re, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(re.Simplify()); err == nil {
			n = max(len(prog.Inst), 1)
		}
	}
	return min(max(grepWork/n, minGrepUnit), grepBufferBytes)
}

// walk searches the regular files below loc in lexical order, without
// .git directories, symbolic links and files the filters leave out. It
// does not descend into a directory where the allow-list can allow
// nothing, and skips the files it refuses; both are counted. Files are
// searched a batch at a time, so that what is held stays bounded however
// large the tree.
func (g *grepRun) walk(loc location, globs, types []string) error {
	batch := make([]location, 0, grepBatch)
	seen := 0
	flush := func() bool {
		g.searchBatch(batch)
		batch = batch[:0]
		return !g.sink.stopped()
	}
	err := fs.WalkDir(loc.dirFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if seen++; seen%checkEvery == 0 && g.ctx.Err() != nil {
			return g.ctx.Err()
		}
		if err != nil {
			if p == "." {
				return err
			}
			return nil // an unreadable directory is skipped
		}
		if d.IsDir() {
			if p == "." {
				return nil
			}
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			if g.ctx.Err() != nil {
				return g.ctx.Err()
			}
			if !g.filter.MayContain(path.Join(loc.abs, p)) {
				g.skippedDirs++
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(p, globs, types) {
			return nil
		}
		file := loc.join(p)
		if !g.filter.Allows(file.abs) {
			g.skippedFiles++
			return nil
		}
		batch = append(batch, file)
		if len(batch) == grepBatch && !flush() {
			return fs.SkipAll
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		flush()
	}
	if err != nil {
		if g.ctx.Err() != nil {
			return cancelled(g.ctx, "Grep")
		}
		return openError(loc, err)
	}
	return nil
}

// keep applies the glob and type filters to a path relative to the search
// directory: a glob without a slash is matched against the file's name.
func keep(rel string, globs, types []string) bool {
	name := path.Base(rel)
	for _, g := range globs {
		subject := name
		if strings.Contains(g, "/") {
			subject = rel
		}
		if !doublestar.MatchUnvalidated(g, subject) {
			return false
		}
	}
	if len(types) == 0 {
		return true
	}
	for _, t := range types {
		if doublestar.MatchUnvalidated(t, name) {
			return true
		}
	}
	return false
}

// searchBatch searches files and takes their results in order. In content
// mode the files are searched one after the other, each feeding the sink,
// which stops the search once it is full; in the other modes a file's
// result is a count, and the files are searched in parallel.
func (g *grepRun) searchBatch(files []location) {
	if g.s.mode == modeContent {
		for _, loc := range files {
			if g.ctx.Err() != nil || g.sink.stopped() {
				return
			}
			g.take(g.searchOne(loc))
		}
		return
	}
	results := make([]grepFile, len(files))
	workers := min(runtime.GOMAXPROCS(0), len(files))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(files) || g.ctx.Err() != nil {
					return
				}
				results[j] = g.searchFile(files[j], nil)
			}
		})
	}
	wg.Wait()
	for i := range results {
		g.take(results[i])
	}
}

// searchOne searches one file in the calling goroutine; in content mode
// its lines go to the sink.
func (g *grepRun) searchOne(loc location) grepFile {
	if g.s.mode != modeContent {
		return g.searchFile(loc, nil)
	}
	r := &renderer{s: g.s, abs: loc.abs, sink: &g.sink}
	return g.searchFile(loc, r.line)
}

// take adds a file's result to the totals and, outside content mode, its
// entry to the sink.
func (g *grepRun) take(r grepFile) {
	if r.big {
		g.big++
	}
	if r.refused {
		g.skippedFiles++
	}
	g.long += r.long
	if !r.matched {
		return
	}
	g.nFiles++
	g.matches += r.count
	switch g.s.mode {
	case modeFiles:
		g.sink.add(r.abs)
	case modeCount:
		g.sink.add(r.abs + ":" + strconv.Itoa(r.count))
	}
}

// scanPool holds the read buffers of Grep's searches.
var scanPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, grepBufferBytes) }}

// searchFile searches one file. Files that cannot be opened, binary files
// and files that are not regular are left out silently; a file the
// allow-list refuses where it was really opened is marked refused. With a
// renderer (content mode), every line goes to it; without one, the file's
// matching lines are only counted (files mode stops at the first).
func (g *grepRun) searchFile(loc location, visit lineFunc) grepFile {
	res := grepFile{abs: loc.abs}
	// The walk saw a regular file; the open does not block if it has become
	// something else since, and the open file's mode is checked again.
	fh, err := loc.fs.OpenFile(loc.name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return res
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return res
	}
	if !allowedOpen(g.filter, fh, loc.abs) {
		res.refused = true
		return res
	}
	if fi.Size() > maxGrepFileBytes {
		res.big = true
		return res
	}
	br := scanPool.Get().(*bufio.Reader)
	br.Reset(fh)
	defer func() { br.Reset(nil); scanPool.Put(br) }()
	head, err := br.Peek(sniffBytes)
	if len(head) == 0 || (err != nil && !errors.Is(err, io.EOF)) {
		return res
	}
	if _, binary := sniff(head); binary {
		return res
	}
	all := visit != nil && (g.s.before > 0 || g.s.after > 0)
	var sc grepScan
	if g.s.multiline {
		sc, err = g.s.scanWhole(g.ctx, br, visit, all)
	} else {
		sc, err = g.s.scanLines(g.ctx, br, visit, all)
	}
	if err != nil && g.ctx.Err() != nil {
		return res
	}
	res.long = sc.long
	res.count = sc.count
	res.matched = sc.count > 0
	return res
}

// lineFunc takes the lines of a file in order: its number, its text (valid
// until the call returns) and whether it matches. It returns false to end
// the search of the file.
type lineFunc func(num int, text []byte, matched bool) bool

// grepScan is what scanning one file found.
type grepScan struct {
	count int // matching lines (line mode) or matches (multiline mode)
	long  int // lines searched in part
}

// scanLines searches br line by line. The expression is run on blocks of
// whole lines of at most s.unit bytes, to find the lines that may match,
// and each such line is then matched on its own; a line longer than a
// block is read on its own (at most maxGrepLineBytes of it) and matched
// through a reader that checks ctx. ctx is checked before every block.
// visit, when not nil, is given every matching line, and every other line
// too when all is true; without it, matching lines are only counted.
func (s *grepSearch) scanLines(ctx context.Context, br *bufio.Reader, visit lineFunc, all bool) (grepScan, error) {
	var sc grepScan
	num := 0
	var long []byte
	unit := min(s.unit, br.Size())
	for {
		if err := ctx.Err(); err != nil {
			return sc, err
		}
		data, perr := br.Peek(unit)
		if len(data) == 0 {
			if perr != nil && !errors.Is(perr, io.EOF) {
				return sc, perr
			}
			return sc, nil
		}
		end := bytes.LastIndexByte(data, '\n') + 1
		if end == 0 && perr == nil {
			// One line longer than a block.
			line, cut, err := readLongLine(ctx, br, long[:0])
			long = line[:0]
			if err != nil {
				return sc, err
			}
			if cut {
				sc.long++
			}
			num++
			matched, err := s.matchReader(ctx, line)
			if err != nil {
				return sc, err
			}
			if matched {
				sc.count++
			}
			if visit != nil && (matched || all) && !visit(num, line, matched) {
				return sc, nil
			}
			if matched && visit == nil && s.mode == modeFiles {
				return sc, nil
			}
			continue
		}
		if end == 0 {
			end = len(data) // the last line, without a newline
		}
		block := data[:end]
		stop := false
		num, stop = s.scanBlock(block, num, visit, all, &sc)
		if _, err := br.Discard(end); err != nil {
			return sc, err
		}
		if stop {
			return sc, nil
		}
	}
}

// scanBlock searches a block of whole lines, numbered from num+1, and
// returns the number of its last line; stop is true when the search of the
// file is over (files mode found a match, or the renderer's sink is full).
func (s *grepSearch) scanBlock(block []byte, num int, visit lineFunc, all bool, sc *grepScan) (int, bool) {
	pos := 0
	for pos < len(block) {
		// The next line the expression may match on: the one holding the
		// next match in the block, or every line without the prefilter.
		cand, candEnd := pos, -1
		if s.prefilter {
			m := s.re.FindIndex(block[pos:])
			if m == nil {
				cand = -1
			} else {
				cand, candEnd = pos+m[0], pos+m[1]
			}
		}
		var ls int // the start of the candidate's line
		switch {
		case cand < 0, cand == len(block) && block[len(block)-1] == '\n':
			// None, or an empty match after the block's last newline,
			// which is on the next line.
			ls = len(block)
		default:
			ls = max(bytes.LastIndexByte(block[:cand], '\n')+1, pos)
		}
		// The lines before it do not match.
		if all {
			for pos < ls {
				le := lineEnd(block, pos)
				num++
				if !visit(num, block[pos:le], false) {
					return num, true
				}
				pos = le + 1
			}
		} else if ls > pos {
			num += bytes.Count(block[pos:ls], []byte{'\n'})
			if ls == len(block) && block[len(block)-1] != '\n' {
				num++ // the last line, without a newline
			}
		}
		pos = ls
		if pos >= len(block) {
			break
		}
		le := lineEnd(block, pos)
		line := block[pos:le]
		num++
		// A match within the line is a match of the line on its own: the
		// expression sees a line's bounds in the block as it sees the
		// bounds of the line alone (no \A or \z here). One that runs past
		// the line's end must be checked on the line.
		matched := candEnd >= 0 && candEnd <= le && cand >= pos
		if !matched {
			matched = s.re.Match(line)
		}
		if matched {
			sc.count++
		}
		if visit != nil && (matched || all) && !visit(num, line, matched) {
			return num, true
		}
		if matched && visit == nil && s.mode == modeFiles {
			return num, true
		}
		pos = le + 1
	}
	return num, false
}

// lineEnd returns the index of the newline that ends the line starting at
// pos, or len(b).
func lineEnd(b []byte, pos int) int {
	if i := bytes.IndexByte(b[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(b)
}

// readLongLine reads one line from br into buf, without its newline,
// keeping at most maxGrepLineBytes; cut reports that more was skipped.
// ctx is checked once per buffer.
func readLongLine(ctx context.Context, br *bufio.Reader, buf []byte) (line []byte, cut bool, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return buf, cut, err
		}
		chunk, err := br.ReadSlice('\n')
		end := err == nil
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		if room := maxGrepLineBytes - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
			cut = cut || len(chunk) > room
		} else if len(chunk) > 0 {
			cut = true
		}
		switch {
		case end, errors.Is(err, io.EOF):
			return buf, cut, nil
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			return buf, cut, err
		}
	}
}

// matchReader reports whether the expression matches b, running it
// through a reader that ends the input early once ctx is done, so that a
// long input and a costly expression cannot outlive the call. A short b
// is matched directly.
func (s *grepSearch) matchReader(ctx context.Context, b []byte) (bool, error) {
	if len(b) <= s.unit {
		return s.re.Match(b), nil
	}
	cr := &ctxReader{b: b, done: ctx.Done()}
	ok := s.re.MatchReader(cr)
	if cr.stopped {
		return false, ctx.Err()
	}
	return ok, nil
}

// findFrom returns the first match in b (offsets into b), through the
// reader when b is longer than a unit; see matchReader.
func (s *grepSearch) findFrom(ctx context.Context, b []byte) ([]int, error) {
	if len(b) <= s.unit {
		return s.re.FindIndex(b), nil
	}
	cr := &ctxReader{b: b, done: ctx.Done()}
	m := s.re.FindReaderIndex(cr)
	if cr.stopped {
		return nil, ctx.Err()
	}
	return m, nil
}

// ctxReader is an io.RuneReader over b that reports the end of its input
// once done is closed; it looks every ctxRunes runes.
type ctxReader struct {
	b       []byte
	i       int
	n       int
	done    <-chan struct{}
	stopped bool
}

const ctxRunes = 64

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.stopped || r.i >= len(r.b) {
		return 0, 0, io.EOF
	}
	if r.n++; r.n%ctxRunes == 0 {
		select {
		case <-r.done:
			r.stopped = true
			return 0, 0, io.EOF
		default:
		}
	}
	c := r.b[r.i]
	if c < utf8.RuneSelf {
		r.i++
		return rune(c), 1, nil
	}
	ru, size := utf8.DecodeRune(r.b[r.i:])
	r.i += size
	return ru, size, nil
}

// scanWhole searches a whole file in multiline mode, where a match may
// span lines: every line a match touches is a matching line, and the next
// match is searched from the line after the last one it touched (so
// anchors and word boundaries see a line's start). The file is read into
// memory, at most maxGrepFileBytes of it.
func (s *grepSearch) scanWhole(ctx context.Context, br *bufio.Reader, visit lineFunc, all bool) (grepScan, error) {
	var sc grepScan
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf, err := readWhole(ctx, br, (*bp)[:0])
	*bp = buf[:0]
	if err != nil {
		return sc, err
	}
	num := 0         // the number of the line starting at pos
	pos := 0         // where the next line starts
	from := 0        // where the next match is searched from (a line start)
	ms, me := -1, -1 // the byte range of the lines the current match touches
	for pos < len(buf) {
		if me < pos && from <= pos {
			if err := ctx.Err(); err != nil {
				return sc, err
			}
			ms, me = len(buf), len(buf)
			if !(s.startOnly && sc.count > 0) {
				m, err := s.findFrom(ctx, buf[from:])
				if err != nil {
					return sc, err
				}
				if m != nil && (from+m[0] < len(buf) || buf[len(buf)-1] != '\n') {
					a, b := from+m[0], from+max(m[1]-1, m[0])
					ms = bytes.LastIndexByte(buf[:a], '\n') + 1
					me = lineEnd(buf, min(b, len(buf)))
					sc.count++
					if visit == nil && s.mode == modeFiles {
						return sc, nil
					}
				}
			}
			from = me + 1
			if !all && ms > pos {
				// Jump to the match's first line.
				num += bytes.Count(buf[pos:ms], []byte{'\n'})
				pos = ms
				if pos >= len(buf) {
					break
				}
			}
		}
		le := lineEnd(buf, pos)
		num++
		matched := pos >= ms && pos <= me
		if visit != nil && (matched || all) && !visit(num, buf[pos:le], matched) {
			return sc, nil
		}
		pos = le + 1
	}
	return sc, nil
}

// bufPool holds the whole-file buffers of multiline searches.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// readWhole reads br into buf, up to maxGrepFileBytes (a file that grew
// past it is searched in its first part), checking ctx between reads.
func readWhole(ctx context.Context, br io.Reader, buf []byte) ([]byte, error) {
	for {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			if len(buf) >= maxGrepFileBytes {
				return buf, nil
			}
			buf = slices.Grow(buf, min(max(len(buf), 64<<10), maxGrepFileBytes-len(buf)))
		}
		n, err := br.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// renderer writes one file's lines in content mode, as grep -n does:
// "path:12:text" for a match, "path-11-text" for context, "--" between
// groups that are not adjacent (and between files). It keeps the last -B
// lines for context and nothing else; each entry goes to the sink, which
// skips those before offset without their text.
type renderer struct {
	s    *grepSearch
	abs  string
	sink *grepSink
	last int // the number of the last line written
	// ring holds the last s.before lines that were not written, as
	// numbers and copies of their text (cut at maxLineBytes).
	ring  []ringLine
	next  int // where the next line goes in ring
	after int // context lines still to write after a match
}

type ringLine struct {
	num  int
	text []byte
}

// line takes the next line of the file; it returns false when the sink
// wants no more.
func (r *renderer) line(num int, text []byte, matched bool) bool {
	s := r.s
	if !matched {
		if r.after > 0 {
			r.after--
			return r.emit(num, text, '-')
		}
		if s.before > 0 {
			r.remember(num, text)
		}
		return true
	}
	// The -B lines still held, oldest first, that follow what was written.
	first := num
	var ctx []ringLine
	if s.before > 0 {
		ctx = r.held(num)
		if len(ctx) > 0 {
			first = ctx[0].num
		}
	}
	if r.last > 0 && first > r.last+1 && (s.before > 0 || s.after > 0) {
		if !r.sink.addLit("--") {
			return false
		}
	}
	if r.last == 0 && (s.before > 0 || s.after > 0) && r.sink.seen > 0 {
		if !r.sink.addLit("--") {
			return false
		}
	}
	for _, c := range ctx {
		if !r.emit(c.num, c.text, '-') {
			return false
		}
	}
	r.ring = r.ring[:0]
	r.next = 0
	r.after = s.after
	return r.emit(num, text, ':')
}

// remember keeps a line for -B context.
func (r *renderer) remember(num int, text []byte) {
	text = text[:min(len(text), maxLineBytes)]
	if len(r.ring) < r.s.before {
		r.ring = append(r.ring, ringLine{num: num, text: append([]byte(nil), text...)})
		return
	}
	slot := &r.ring[r.next]
	slot.num = num
	slot.text = append(slot.text[:0], text...)
	r.next = (r.next + 1) % len(r.ring)
}

// held returns the remembered lines that are within -B of num and after
// the last line written, oldest first.
func (r *renderer) held(num int) []ringLine {
	var out []ringLine
	n := len(r.ring)
	for i := range n {
		l := r.ring[(r.next+i)%n]
		if l.num > r.last && l.num >= num-r.s.before && l.num < num {
			out = append(out, l)
		}
	}
	return out
}

// emit writes one line as an entry.
func (r *renderer) emit(num int, text []byte, sep byte) bool {
	r.last = num
	if !r.sink.wants() {
		return r.sink.skip()
	}
	var b strings.Builder
	b.Grow(len(r.abs) + 10 + min(len(text), maxLineBytes))
	b.WriteString(r.abs)
	b.WriteByte(sep)
	if r.s.lineNumbers {
		b.WriteString(strconv.Itoa(num))
		b.WriteByte(sep)
	}
	b.WriteString(lineText(text))
	return r.sink.add(b.String())
}

// lineText prepares a line for output: without a trailing "\r", invalid
// UTF-8 as U+FFFD, cut at maxLineRunes characters.
func lineText(b []byte) string {
	b = bytes.TrimSuffix(b, []byte("\r"))
	cut := false
	if len(b) > maxLineBytes {
		b, cut = b[:maxLineBytes], true
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if cut || len(s) > maxLineRunes && utf8.RuneCountInString(s) > maxLineRunes {
		s = cutRunes(s, maxLineRunes) + "..."
	}
	return s
}

// grepSink takes Grep's entries in order: it counts the first offset
// without keeping them, keeps the next ones until head_limit entries (or,
// without a limit, maxGrepChars of text) are held, and then only counts.
// In content mode the search stops once the sink has seen one entry more
// than it holds, which proves there are more.
type grepSink struct {
	offset  int
	limit   int // 0: no limit but maxGrepChars
	content bool
	seen    int // entries seen, kept or not
	held    []string
	chars   int
	full    bool // no more entries are kept
	cut     bool // the last entry seen did not fit in maxGrepChars
}

func newGrepSink(in GrepInput) grepSink {
	return grepSink{offset: in.Offset, limit: in.HeadLimit, content: in.OutputMode == modeContent}
}

// wants reports whether the next entry would be kept, so that its text is
// worth making.
func (k *grepSink) wants() bool { return !k.full && k.seen >= k.offset }

// skip counts an entry that is not kept; it returns false when the search
// may stop.
func (k *grepSink) skip() bool {
	k.seen++
	return !k.stopped()
}

// add takes an entry; it returns false when the search may stop.
func (k *grepSink) add(e string) bool {
	if !k.wants() {
		return k.skip()
	}
	k.seen++
	if len(k.held) > 0 && k.chars+len(e)+1 > maxGrepChars {
		k.full, k.cut = true, true
		return !k.stopped()
	}
	k.held = append(k.held, e)
	k.chars += len(e) + 1
	if k.limit > 0 && len(k.held) >= k.limit {
		k.full = true
	}
	return true
}

// addLit takes a separator entry.
func (k *grepSink) addLit(e string) bool { return k.add(e) }

// stopped reports whether a content search may stop: the sink is full and
// has seen an entry it does not hold.
func (k *grepSink) stopped() bool {
	return k.content && k.full && k.seen > k.offset+len(k.held)
}

// format pages the held entries and adds the notes.
func (g *grepRun) format(in GrepInput) string {
	k := &g.sink
	var out strings.Builder
	note := func(format string, args ...any) {
		out.WriteString("\n\n")
		out.WriteString(fail(format, args...).Error())
	}
	notes := func() {
		if g.big > 0 {
			note("[Skipped %s larger than %d MiB.]", plural(g.big, "file"), maxGrepFileBytes>>20)
		}
		if g.long > 0 {
			note("[%s longer than %d MiB %s searched in the first MiB only.]", plural(g.long, "line"), maxGrepLineBytes>>20, wasWere(g.long))
		}
		if s := skippedNote(g.skippedFiles, g.skippedDirs); s != "" {
			out.WriteString("\n\n")
			out.WriteString(s)
		}
	}
	if k.seen == 0 {
		if g.s.mode == modeContent {
			out.WriteString("No matches found")
		} else {
			out.WriteString(noFilesFound)
		}
		notes()
		return out.String()
	}
	if in.Offset >= k.seen {
		out.WriteString("No results at offset " + strconv.Itoa(in.Offset) + ": there are " + plural(k.seen, "result") + ".")
		notes()
		return out.String()
	}
	switch g.s.mode {
	case modeFiles:
		out.WriteString("Found " + plural(g.nFiles, "file") + "\n")
	case modeCount:
		out.WriteString("Found " + plural(g.matches, "match") + " in " + plural(g.nFiles, "file") + "\n")
	}
	shown := 0
	cut := k.cut
	for _, e := range k.held {
		if out.Len()+len(e) > maxGrepChars && shown > 0 {
			cut = true
			break
		}
		if shown > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(e)
		shown++
	}
	end := in.Offset + shown
	switch {
	case cut:
		note("[Output cut at %d characters: showing results %d-%d. Page on with offset=%d, or narrow the search.]", maxGrepChars, in.Offset+1, end, end)
	case end < k.seen:
		note("[Showing results %d-%d; there are more. Page on with offset=%d.]", in.Offset+1, end, end)
	}
	notes()
	return out.String()
}

// skippedNote is the note for what the allow-list left out, or "".
func skippedNote(files, dirs int) string {
	var what string
	switch {
	case files > 0 && dirs > 0:
		what = plural(files, "file") + " and " + dirsWord(dirs) + " were"
	case files > 0:
		what = plural(files, "file") + " " + wasWere(files)
	case dirs > 0:
		what = dirsWord(dirs) + " " + wasWere(dirs)
	default:
		return ""
	}
	return "[" + what + " skipped by the allow-list.]"
}

func dirsWord(n int) string {
	if n == 1 {
		return "1 directory"
	}
	return strconv.Itoa(n) + " directories"
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
