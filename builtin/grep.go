package builtin

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolgen/toolgen/runtime/tool"
)

// GrepInput is the input of the Grep tool.
//
//tool:name Grep
//tool:description Searches file contents with a regular expression, like ripgrep. The syntax is Go's RE2 (regexp): matching runs in linear time in the size of the input, and there are no lookarounds or backreferences.
//tool:description Searches path (a file or a directory, the working directory when not given) recursively; binary files and .git directories are skipped. Filter files with glob (e.g. "*.js", "**/*.{ts,tsx}") or type (e.g. go, py, js, ts, rust, java, c, cpp, md, json, yaml).
//tool:description output_mode is files_with_matches (the default: the matching files' paths), content (the matching lines, with -n line numbers, -A/-B/-C context lines) or count (matches per file). Results are in path order; head_limit and offset page through them.
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
	prefilter   bool // whether a whole-file match can rule a file out
	mode        string
	lineNumbers bool
	before      int
	after       int
	multiline   bool
	perFile     int // most output lines kept per file in content mode
}

// grepFile is what one file gave.
type grepFile struct {
	abs     string
	matched bool
	count   int
	lines   []string
	big     bool
}

// grep is the Grep tool.
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
	var targets []location
	switch {
	case fi.Mode().IsRegular():
		targets = []location{loc}
	case fi.IsDir():
		targets, err = walkFiles(ctx, loc, globs, types)
		if err != nil {
			return "", err
		}
	default:
		return "", fail("Cannot search %s: it is %s.", loc.abs, kindOf(fi.Mode()))
	}

	var (
		entries   []string
		matches   int
		nFiles    int
		big       int
		truncated bool // content mode stopped collecting
	)
	need := -1
	if s.mode == modeContent {
		need = in.Offset + maxGrepChars
		if in.HeadLimit > 0 {
			need = in.Offset + in.HeadLimit
		}
	}
	results := make([]grepFile, grepBatch)
	for start := 0; start < len(targets); start += grepBatch {
		if err := ctx.Err(); err != nil {
			return "", failWith(err, "Grep was cancelled.")
		}
		batch := targets[start:min(start+grepBatch, len(targets))]
		s.searchAll(batch, results[:len(batch)])
		for i := range batch {
			r := &results[i]
			if r.big {
				big++
			}
			if !r.matched {
				continue
			}
			nFiles++
			matches += r.count
			switch s.mode {
			case modeFiles:
				entries = append(entries, r.abs)
			case modeCount:
				entries = append(entries, r.abs+":"+strconv.Itoa(r.count))
			default:
				if len(entries) > 0 && (s.before > 0 || s.after > 0) {
					entries = append(entries, "--")
				}
				entries = append(entries, r.lines...)
			}
			*r = grepFile{}
		}
		if need >= 0 && len(entries) >= need {
			truncated = start+grepBatch < len(targets) || len(entries) > need
			break
		}
	}
	return formatGrep(in, s, entries, nFiles, matches, big, truncated), nil
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
		mode:        mode,
		lineNumbers: in.LineNumbers,
		before:      in.Context,
		after:       in.Context,
		multiline:   in.Multiline,
		perFile:     -1,
	}
	if in.Before != nil {
		s.before = *in.Before
	}
	if in.After != nil {
		s.after = *in.After
	}
	if mode == modeContent {
		s.perFile = in.Offset + maxGrepChars
		if in.HeadLimit > 0 {
			s.perFile = in.Offset + in.HeadLimit
		}
	}
	return s, nil
}

// walkFiles lists the regular files below loc in lexical order, without
// .git directories, symbolic links and files the filters leave out.
func walkFiles(ctx context.Context, loc location, globs, types []string) ([]location, error) {
	var out []location
	err := fs.WalkDir(loc.dirFS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // an unreadable directory is skipped
		}
		if d.IsDir() {
			if d.Name() == ".git" && p != "." {
				return fs.SkipDir
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(p, globs, types) {
			return nil
		}
		out = append(out, loc.join(p))
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, failWith(err, "Grep was cancelled.")
		}
		return nil, openError(loc, err)
	}
	return out, nil
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

// bufPool holds file buffers for Grep's workers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// searchAll searches the files of a batch in parallel; results[i] is the
// result of files[i].
func (s *grepSearch) searchAll(files []location, results []grepFile) {
	workers := min(runtime.GOMAXPROCS(0), len(files))
	if workers <= 1 {
		for i := range files {
			results[i] = s.searchFile(files[i])
		}
		return
	}
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
				if j >= len(files) {
					return
				}
				results[j] = s.searchFile(files[j])
			}
		})
	}
	wg.Wait()
}

// searchFile searches one file. Files that cannot be opened, binary files
// and files that are not regular are left out silently.
func (s *grepSearch) searchFile(loc location) grepFile {
	r := grepFile{abs: loc.abs}
	// The walk saw a regular file; the open does not block if it has become
	// something else since, and the open file's mode is checked again.
	fh, err := loc.fs.OpenFile(loc.name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return r
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return r
	}
	if fi.Size() > maxGrepFileBytes {
		r.big = true
		return r
	}
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf, err := readAll(fh, (*bp)[:0], int(fi.Size()))
	*bp = buf[:0]
	if err != nil || len(buf) == 0 {
		return r
	}
	if _, binary := sniff(buf[:min(len(buf), sniffBytes)]); binary {
		return r
	}
	if s.prefilter && !s.re.Match(buf) {
		return r
	}
	spans, count := s.matchLines(buf)
	if len(spans) == 0 {
		return r
	}
	r.matched = true
	r.count = count
	if s.mode == modeContent {
		r.lines = s.render(loc.abs, buf, spans)
	}
	return r
}

// readAll reads fh into buf, growing it to hold size bytes (and more, when
// the file grew), up to maxGrepFileBytes.
func readAll(fh io.Reader, buf []byte, size int) ([]byte, error) {
	if cap(buf) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxGrepFileBytes {
				return buf, nil
			}
			buf = slices.Grow(buf, len(buf))
		}
		n, err := fh.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// span is one line of a file: its number and byte range, without the
// newline.
type span struct{ num, start, end int }

// matchLines finds the lines that match: in line mode, every line the
// pattern matches on its own; in multiline mode, every line a match
// touches. count is the number of matching lines (line mode) or matches
// (multiline mode).
func (s *grepSearch) matchLines(buf []byte) ([]span, int) {
	var out []span
	num, numAt := 1, 0 // the line number at byte numAt
	lineOf := func(at int) span {
		start := bytes.LastIndexByte(buf[:at], '\n') + 1
		num += bytes.Count(buf[numAt:start], []byte{'\n'})
		numAt = start
		end := bytes.IndexByte(buf[at:], '\n')
		if end < 0 {
			end = len(buf)
		} else {
			end += at
		}
		return span{num: num, start: start, end: end}
	}
	limit := s.perFile
	// A match at the very end of a file that ends with a newline is on no
	// line: the newline ends the last line.
	phantom := func(at int) bool { return at >= len(buf) && len(buf) > 0 && buf[len(buf)-1] == '\n' }
	if s.multiline {
		ms := s.re.FindAllIndex(buf, -1)
		for _, m := range ms {
			if phantom(m[0]) {
				break
			}
			l := lineOf(m[0])
			last := max(m[1]-1, m[0])
			for {
				if len(out) == 0 || out[len(out)-1].num < l.num {
					out = append(out, l)
				}
				if l.end >= last || l.end >= len(buf) {
					break
				}
				l = lineOf(l.end + 1)
			}
			if limit >= 0 && len(out) >= limit && s.mode == modeContent {
				break
			}
		}
		return out, len(ms)
	}
	if !s.prefilter {
		// \A and \z mean the line's start and end: match line by line.
		for start := 0; start < len(buf); {
			l := lineOf(start)
			if s.re.Match(buf[l.start:l.end]) {
				out = append(out, l)
				if s.mode == modeFiles || (limit >= 0 && len(out) >= limit) {
					break
				}
			}
			start = l.end + 1
		}
		return out, len(out)
	}
	pos := 0
	for pos < len(buf) {
		m := s.re.FindIndex(buf[pos:])
		if m == nil || phantom(pos+m[0]) {
			break
		}
		l := lineOf(pos + m[0])
		if s.re.Match(buf[l.start:l.end]) {
			out = append(out, l)
			if s.mode == modeFiles || (limit >= 0 && len(out) >= limit) {
				break
			}
		}
		pos = l.end + 1
	}
	return out, len(out)
}

// render writes a file's matching lines with their context, as grep -n
// does: "path:12:text" for a match, "path-11-text" for context, "--"
// between groups that are not adjacent.
func (s *grepSearch) render(abs string, buf []byte, spans []span) []string {
	var out []string
	last := 0 // the number of the last line written
	emit := func(l span, sep byte) {
		var b strings.Builder
		b.Grow(len(abs) + 10 + min(l.end-l.start, maxLineBytes))
		b.WriteString(abs)
		b.WriteByte(sep)
		if s.lineNumbers {
			b.WriteString(strconv.Itoa(l.num))
			b.WriteByte(sep)
		}
		b.WriteString(lineText(buf[l.start:l.end]))
		out = append(out, b.String())
		last = l.num
	}
	prev := func(l span) span {
		end := l.start - 1
		start := bytes.LastIndexByte(buf[:end], '\n') + 1
		return span{num: l.num - 1, start: start, end: end}
	}
	next := func(l span) span {
		start := l.end + 1
		end := bytes.IndexByte(buf[start:], '\n')
		if end < 0 {
			end = len(buf)
		} else {
			end += start
		}
		return span{num: l.num + 1, start: start, end: end}
	}
	for i, m := range spans {
		var before []span
		for l := m; len(before) < s.before && l.start > 0; {
			l = prev(l)
			if l.num <= last {
				break
			}
			before = append(before, l)
		}
		first := m.num
		if len(before) > 0 {
			first = before[len(before)-1].num
		}
		if last > 0 && first > last+1 && (s.before > 0 || s.after > 0) {
			out = append(out, "--")
		}
		for j := len(before) - 1; j >= 0; j-- {
			emit(before[j], '-')
		}
		if m.num > last {
			emit(m, ':')
		}
		for l, k := m, 0; k < s.after && l.end+1 < len(buf); k++ {
			l = next(l)
			if i+1 < len(spans) && l.num >= spans[i+1].num {
				break
			}
			emit(l, '-')
		}
	}
	return out
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

// formatGrep pages and caps the entries and adds the notes.
func formatGrep(in GrepInput, s *grepSearch, entries []string, nFiles, matches, big int, truncated bool) string {
	var out strings.Builder
	note := func(format string, args ...any) {
		out.WriteString("\n\n")
		out.WriteString(fail(format, args...).Error())
	}
	total := len(entries)
	if total == 0 {
		if s.mode == modeContent {
			out.WriteString("No matches found")
		} else {
			out.WriteString(noFilesFound)
		}
		if big > 0 {
			note("[Skipped %s larger than %d MiB.]", plural(big, "file"), maxGrepFileBytes>>20)
		}
		return out.String()
	}
	if in.Offset >= total && !truncated {
		out.WriteString("No results at offset " + strconv.Itoa(in.Offset) + ": there are " + plural(total, "result") + ".")
		return out.String()
	}
	switch s.mode {
	case modeFiles:
		out.WriteString("Found " + plural(nFiles, "file") + "\n")
	case modeCount:
		out.WriteString("Found " + plural(matches, "match") + " in " + plural(nFiles, "file") + "\n")
	}
	end := total
	if in.HeadLimit > 0 {
		end = min(end, in.Offset+in.HeadLimit)
	}
	shown := 0
	cut := false
	for i := min(in.Offset, total); i < end; i++ {
		if out.Len()+len(entries[i]) > maxGrepChars && shown > 0 {
			cut = true
			end = i
			break
		}
		if shown > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(entries[i])
		shown++
	}
	switch {
	case cut:
		note("[Output cut at %d characters: showing results %d-%d. Page on with offset=%d, or narrow the search.]", maxGrepChars, in.Offset+1, end, end)
	case end < total:
		note("[Showing results %d-%d; there are more. Page on with offset=%d.]", in.Offset+1, end, end)
	case truncated:
		note("[Showing results %d-%d; there may be more. Page on with offset=%d.]", in.Offset+1, end, end)
	}
	if big > 0 {
		note("[Skipped %s larger than %d MiB.]", plural(big, "file"), maxGrepFileBytes>>20)
	}
	return out.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
