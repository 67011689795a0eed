package builtin

import (
	"cmp"
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

	"github.com/toolgen/toolgen/runtime/tool"
)

// GlobInput is the input of the Glob tool.
//
//tool:name Glob
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
	fsys := root
	if !mentionsGit(pattern) {
		fsys = noGitFS{fsys}
	}
	var found []globMatch
	err = doublestar.GlobWalk(fsys, pattern, func(p string, d fs.DirEntry) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		// Stat follows a link (inside the workspace only) and leaves out
		// directories reached through one.
		fi, err := fs.Stat(fsys, p)
		if err != nil || fi.IsDir() || leavesDir(loc, root, p) {
			return nil
		}
		found = append(found, globMatch{abs: path.Join(loc.abs, p), mtime: fi.ModTime()})
		return nil
	}, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
	if err != nil {
		if ctx.Err() != nil {
			return "", failWith(err, "Glob was cancelled.")
		}
		if errors.Is(err, doublestar.ErrBadPattern) {
			return "", fail("Invalid glob pattern: %s. Close every [ and {, and escape a literal one with a backslash.", in.Pattern)
		}
		return "", failWith(err, "Glob failed: %s.", reason(err))
	}
	if len(found) == 0 {
		return noFilesFound, nil
	}
	slices.SortFunc(found, func(a, b globMatch) int {
		if c := b.mtime.Compare(a.mtime); c != 0 {
			return c
		}
		return cmp.Compare(a.abs, b.abs)
	})
	var out strings.Builder
	for i, m := range found {
		if i == maxGlobResults {
			break
		}
		if i > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(m.abs)
	}
	if len(found) > maxGlobResults {
		out.WriteString("\n(Results are truncated: showing the " + strconv.Itoa(maxGlobResults) +
			" most recently modified of " + strconv.Itoa(len(found)) + " files. Use a more specific path or pattern.)")
	}
	return out.String(), nil
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
