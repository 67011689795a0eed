package builtin

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// GlobInput is the input of the Glob tool.
//
//tool:name Glob
//tool:unexported
//tool:title Find files by name
//tool:keywords list files, find files, ls, directory, folder, wildcard, file name pattern, tree
//tool:description Finds files by name with a glob pattern such as "**/*.go" or "src/**/*.{ts,tsx}": * matches within one path segment, ** across segments, {a,b} either.
//tool:description Returns absolute paths, the most recently modified first, at most 100 of them. .git directories are skipped unless the pattern names them.
//tool:concurrency safe
//tool:side-effect read-only
//tool:subject path path
type GlobInput struct {
	// The glob pattern to match file paths against, relative to path.
	Pattern string `json:"pattern" tool:"required"`
	// The directory to search in; "." (the default) is the working directory.
	Path string `json:"path,omitempty" tool:"default=."`
}

// maxGlobResults is the most paths Glob returns.
const maxGlobResults = 100

// noFilesFound is the answer of Glob and Grep when nothing matched.
const noFilesFound = "No files found"

type globMatch struct {
	abs   string
	mtime time.Time
}

// glob is the Glob tool.
func (f *files) glob(ctx context.Context, in GlobInput, tc tool.Context) (string, error) {
	pattern := strings.TrimSpace(in.Pattern)
	if pattern == "" {
		return "", fail("The pattern is empty. Give a glob pattern such as **/*.go.")
	}
	if strings.ContainsRune(pattern, 0) {
		return "", fail("The pattern contains a NUL byte. Give the pattern without it.")
	}
	dir := in.Path
	if path.IsAbs(pattern) {
		// An absolute pattern carries its own directory, which must lie
		// within the path given, or the working directory when none is
		// (the path the permission system judged).
		// (A base outside the workspace is refused as such below.)
		base, rest := doublestar.SplitPattern(pattern)
		if f.ws.contains(f.ws.root, base, tc) && !f.ws.contains(cmp.Or(in.Path, "."), base, tc) {
			if in.Path == "" || in.Path == "." {
				return "", fail("The pattern %s is outside the working directory. Give a pattern relative to it, or a path that contains the pattern.", in.Pattern)
			}
			return "", fail("The pattern %s is outside the path %s. Give a pattern relative to path, or a path that contains it.", in.Pattern, in.Path)
		}
		dir, pattern = base, rest
		// Walk from the judged directory, with the base as part of the
		// pattern, so that a link in the base is seen like any other link
		// below the search directory (and left out when it leaves it).
		if judged := cmp.Or(in.Path, "."); f.ws.contains(judged, base, tc) {
			if rel, ok := f.ws.relative(judged, base, tc); ok {
				dir = judged
				if rel != "." {
					pattern = escapeGlob(rel) + "/" + rest
				}
			}
		}
	}
	if dir == "" {
		dir = "."
	}
	for strings.HasPrefix(pattern, "./") {
		pattern = pattern[2:]
	}
	pattern = collapseStars(pattern)
	if !doublestar.ValidatePattern(pattern) {
		return "", fail("Invalid glob pattern: %s. Close every [ and {, and escape a literal one with a backslash.", in.Pattern)
	}
	loc, err := f.ws.resolve(dir, tc)
	if err != nil {
		return "", err
	}
	defer loc.fs.Close()
	if err := checkDir(loc); err != nil {
		return "", err
	}
	root := loc.dirFS()
	gw := &globWalk{ctx: ctx, filter: f.ws.filter(tc), base: loc.abs}
	var fsys fs.FS = &walkFS{FS: root, w: gw}
	if !mentionsGit(pattern) {
		fsys = noGitFS{fsys}
	}
	walk := doublestar.GlobWalk
	if !gw.filter.MayContain(loc.abs) {
		// The allow-list allows nothing below the search directory.
		gw.skippedDirs++
		walk = func(fs.FS, string, doublestar.GlobWalkFunc, ...doublestar.GlobOption) error { return nil }
	}
	err = walk(fsys, pattern, func(p string, d fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Stat follows a link (inside the workspace only) and leaves out
		// directories reached through one.
		fi, err := fs.Stat(fsys, p)
		if err != nil || fi.IsDir() || leavesDir(loc, root, p) {
			return nil
		}
		abs := path.Join(loc.abs, p)
		if !gw.allows(abs) {
			gw.skippedFiles++
			return nil
		}
		gw.found.add(globMatch{abs: abs, mtime: fi.ModTime()})
		return nil
	}, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
	if ctx.Err() != nil {
		// The walk's directory reads fail once ctx is done, and the walk
		// ignores read errors: what it found is not all there is.
		return "", cancelled(ctx, "Glob")
	}
	if err != nil {
		if errors.Is(err, doublestar.ErrBadPattern) {
			return "", fail("Invalid glob pattern: %s. Close every [ and {, and escape a literal one with a backslash.", in.Pattern)
		}
		return "", failWith(err, "Glob failed: %s.", reason(err))
	}
	found := gw.found.sorted()
	var out strings.Builder
	if len(found) == 0 {
		out.WriteString(noFilesFound)
	}
	for i, m := range found {
		if i > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(m.abs)
	}
	if n := gw.found.total; n > maxGlobResults {
		out.WriteString("\n(Results are truncated: showing the " + strconv.Itoa(maxGlobResults) +
			" most recently modified of " + strconv.Itoa(n) + " files. Use a more specific path or pattern.)")
	}
	if note := skippedNote(gw.skippedFiles, gw.skippedDirs); note != "" {
		out.WriteString("\n\n" + note)
	}
	return out.String(), nil
}

// collapseStars replaces runs of "**" segments with one: "**/**" matches
// what "**" does, but a walk of it visits every directory once per way of
// splitting its path between them, and reports a file as many times.
func collapseStars(pattern string) string {
	for strings.Contains(pattern, "**/**/") {
		pattern = strings.ReplaceAll(pattern, "**/**/", "**/")
	}
	if strings.HasSuffix(pattern, "/**/**") || pattern == "**/**" {
		pattern = strings.TrimSuffix(pattern, "/**")
	}
	return pattern
}

// globWalk is the state of one Glob walk.
type globWalk struct {
	ctx          context.Context
	filter       permission.PathFilter
	base         string // the absolute path the walk's names are relative to
	found        globTop
	skippedFiles int // matches the allow-list refused
	skippedDirs  int // directories the allow-list leaves nothing in
	// pruned holds the directories left out, so that one read twice (a
	// pattern such as **/* lists a directory once per part) counts once.
	pruned map[string]bool
}

// allows reports whether the allow-list allows the file at abs, as written
// and where it really is.
func (w *globWalk) allows(abs string) bool {
	if !w.filter.Restricts() {
		return true
	}
	if !w.filter.Allows(abs) {
		return false
	}
	real := physical(abs)
	return real == abs || w.filter.AllowsResolved(real)
}

// walkFS is the file system a Glob walk reads: every directory read checks
// the call's context first (and fails once it is done, so that the walk
// unwinds), and leaves out the directories the allow-list allows nothing
// in, so that the walk never descends into them.
type walkFS struct {
	fs.FS
	w *globWalk
}

func (f *walkFS) ReadDir(name string) ([]fs.DirEntry, error) {
	w := f.w
	if err := w.ctx.Err(); err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(f.FS, name)
	if !w.filter.Restricts() {
		return entries, err
	}
	dir := path.Join(w.base, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool {
		if !e.IsDir() {
			return false
		}
		abs := path.Join(dir, e.Name())
		if w.filter.MayContain(abs) {
			return false
		}
		if !w.pruned[abs] {
			if w.pruned == nil {
				w.pruned = make(map[string]bool)
			}
			w.pruned[abs] = true
			w.skippedDirs++
		}
		return true
	}), err
}

func (f *walkFS) Stat(name string) (fs.FileInfo, error) {
	if err := f.w.ctx.Err(); err != nil {
		return nil, err
	}
	return fs.Stat(f.FS, name)
}

func (f *walkFS) Lstat(name string) (fs.FileInfo, error) {
	if lfs, ok := f.FS.(fs.ReadLinkFS); ok {
		return lfs.Lstat(name)
	}
	return fs.Stat(f.FS, name)
}

func (f *walkFS) ReadLink(name string) (string, error) {
	if lfs, ok := f.FS.(fs.ReadLinkFS); ok {
		return lfs.ReadLink(name)
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}

// globTop keeps the maxGlobResults most recently modified matches seen
// (newest first, then by path), and counts them all: a walk that matches
// millions of files holds a hundred.
type globTop struct {
	h     globHeap
	held  map[string]bool
	total int
}

func (t *globTop) add(m globMatch) {
	if t.held[m.abs] {
		return // the same file by another way through the pattern
	}
	t.total++
	if len(t.h) < maxGlobResults {
		if t.held == nil {
			t.held = make(map[string]bool, maxGlobResults)
		}
		heap.Push(&t.h, m)
		t.held[m.abs] = true
		return
	}
	if globBefore(t.h[0], m) {
		return
	}
	delete(t.held, t.h[0].abs)
	t.h[0] = m
	t.held[m.abs] = true
	heap.Fix(&t.h, 0)
}

// sorted returns the held matches, newest first.
func (t *globTop) sorted() []globMatch {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b globMatch) int {
		if globBefore(a, b) {
			return -1
		}
		if globBefore(b, a) {
			return 1
		}
		return 0
	})
	return out
}

// globBefore reports whether a is listed before b: newer, or as new and
// first by path.
func globBefore(a, b globMatch) bool {
	if c := b.mtime.Compare(a.mtime); c != 0 {
		return c < 0
	}
	return cmp.Less(a.abs, b.abs)
}

// globHeap is a heap whose top is the match listed last.
type globHeap []globMatch

func (h globHeap) Len() int           { return len(h) }
func (h globHeap) Less(i, j int) bool { return globBefore(h[j], h[i]) }
func (h globHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *globHeap) Push(x any)        { *h = append(*h, x.(globMatch)) }
func (h *globHeap) Pop() any {
	old := *h
	m := old[len(old)-1]
	*h = old[:len(old)-1]
	return m
}

// leavesDir reports whether p (relative to the search directory loc) is
// reached through a directory link that leads out of the search directory:
// a pattern such as "link/*" would otherwise list a directory the
// permission system never judged. Links that stay inside it are fine.
func leavesDir(loc location, fsys fs.FS, p string) bool {
	lfs, ok := fsys.(fs.ReadLinkFS)
	if !ok {
		return true
	}
	linked := false
	for d := path.Dir(p); d != "." && !linked; d = path.Dir(d) {
		fi, err := lfs.Lstat(d)
		linked = err != nil || fi.Mode()&fs.ModeSymlink != 0
	}
	if !linked {
		return false
	}
	dir, err := filepath.EvalSymlinks(loc.abs)
	if err != nil {
		return true
	}
	real, err := filepath.EvalSymlinks(path.Join(loc.abs, path.Dir(p)))
	if err != nil {
		return true
	}
	_, ok = within(filepath.ToSlash(dir), filepath.ToSlash(real))
	return !ok
}

// checkDir refuses a search path that is not a directory.
func checkDir(loc location) error {
	fi, err := loc.fs.Stat(loc.name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return failWith(err, "Directory does not exist: %s", loc.abs)
		}
		return openError(loc, err)
	}
	if !fi.IsDir() {
		return fail("Not a directory: %s. Give the directory to search in.", loc.abs)
	}
	return nil
}

// mentionsGit reports whether a pattern names a .git directory itself.
func mentionsGit(pattern string) bool {
	return strings.Contains(pattern, ".git/") || strings.HasSuffix(pattern, ".git") || strings.Contains(pattern, ".git}") || strings.Contains(pattern, ".git,")
}

// noGitFS hides .git directories from directory listings, so that walks do
// not descend into them.
type noGitFS struct{ fs.FS }

func (n noGitFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(n.FS, name)
	return slices.DeleteFunc(entries, func(e fs.DirEntry) bool { return e.Name() == ".git" }), err
}

func (n noGitFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(n.FS, name) }

// escapeGlob quotes the characters a doublestar pattern gives meaning to,
// so that a literal path can lead a pattern.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
