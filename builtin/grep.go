package builtin

import (
	"context"
	"regexp"
	"regexp/syntax"
	"strings"
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
	// grepWindow is the text the search for the next matching line starts
	// with; the window doubles each time it holds none. Searching from each
	// match to the end of the block made Grep's cost grow with the block
	// times the matches in it: the regexp package's backtracker clears
	// state for the whole text it is given on every run, and a pattern that
	// matches most lines runs once per line.
	grepWindow = 256
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
	// window is the fewest bytes, extended to a line's end, that one
	// search for the next line that may match runs on (see scanBlock).
	window int
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
		window:      grepWindow,
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
