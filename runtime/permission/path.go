package permission

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPattern is a parsed PATH pattern: an absolute, clean doublestar glob.
type pathPattern struct {
	glob string
}

// parsePathPattern validates p as a PATH pattern. Its errors are clauses
// completed by the caller with the entry they belong to.
func parsePathPattern(p string) (pathPattern, error) {
	if why := checkPathChars(p, true); why != "" {
		return pathPattern{}, fmt.Errorf("a PATH pattern may not contain %s", why)
	}
	if !strings.HasPrefix(p, "/") {
		return pathPattern{}, errors.New(`a PATH pattern must be absolute; start it with "/"`)
	}
	if c := path.Clean(p); c != p {
		return pathPattern{}, fixErr{msg: "a PATH pattern must be in clean form", fix: c}
	}
	if !doublestar.ValidatePattern(p) {
		return pathPattern{}, errors.New("the pattern is not a valid glob; close every [ and {")
	}
	return pathPattern{glob: p}, nil
}

func (p pathPattern) match(clean string) bool {
	return doublestar.MatchUnvalidated(p.glob, clean)
}

// matchResolved reports whether phys, a path with its links followed,
// matches the pattern once the pattern's own directory is followed too:
// Read(/tmp/ws/**) allows /private/tmp/ws/a.go when /tmp is a link to
// /private/tmp (as on macOS), since that is where the directory the
// pattern names really is. phys is written back under the directory as the
// pattern names it and matched as written; a path whose links lead out of
// that directory still matches nothing. The directory is the pattern's
// longest parent without glob characters; "/" has no links to follow.
//
// Only links above the workspace widen a pattern: when workspace (absolute
// and clean, or "" where none is known) holds the pattern's directory, the
// directory must really be where the workspace really is plus the same
// relative path. A link inside the workspace (a repository that ships
// src -> .git) widens nothing: Write(/ws/src/**) does not reach .git/.
func (p pathPattern) matchResolved(phys, workspace string) bool {
	dir := path.Dir(p.glob)
	for dir != "/" && strings.ContainsAny(dir, `*?[]{}\`) {
		dir = path.Dir(dir)
	}
	if dir == "/" {
		return false
	}
	real, err := resolve(dir)
	if err != nil || real == dir {
		return false
	}
	if workspace != "" && workspace != "/" && (dir == workspace || strings.HasPrefix(dir, workspace+"/")) {
		realWS, err := resolve(workspace)
		if err != nil || real != realWS+dir[len(workspace):] {
			return false
		}
	}
	switch {
	case phys == real:
		return p.match(dir)
	case strings.HasPrefix(phys, real+"/"):
		return p.match(dir + phys[len(real):])
	}
	return false
}

// checkPathChars returns a phrase naming the first character that makes s
// impossible to judge as a path, or "" when there is none: invalid UTF-8,
// NUL and every other control character, U+2028, U+2029, Unicode format
// characters, and backslashes (unless backslash is true: in a pattern a
// backslash escapes a glob character).
func checkPathChars(s string, backslash bool) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == 0:
			return "a NUL byte"
		case r == '\\' && !backslash:
			return "a backslash"
		}
		if why := badRune(r, size); why != "" {
			return why
		}
	}
	return ""
}

// badRune names what makes the rune r, decoded from size bytes, unfit in
// a subject whichever its kind: invalid UTF-8, a control character, U+2028,
// U+2029 or a Unicode format character (bidirectional overrides and
// isolates, zero-width characters); "" when there is none.
func badRune(r rune, size int) string {
	switch {
	case r == utf8.RuneError && size == 1:
		return "invalid UTF-8"
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return fmt.Sprintf("a control character (%U)", r)
	case r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r):
		return fmt.Sprintf("a Unicode format character (%U)", r)
	}
	return ""
}

// fixErr is a pattern error with the pattern to write instead.
type fixErr struct{ msg, fix string }

func (e fixErr) Error() string { return e.msg + "; write " + e.fix }

// errRelative is returned by AbsPath for a relative path without a
// working directory.
var errRelative = errors.New("permission: a relative path cannot be judged without a working directory")

// AbsPath returns the absolute, lexically clean form of p as the PATH
// matcher judges it: p is joined to workDir when relative, then cleaned
// ("/tmp/../etc/passwd" is "/etc/passwd"; trailing slashes, "//" and "."
// segments go). Paths are slash-separated. It fails for an empty path, a
// relative path without an absolute working directory, and a path or
// working directory with a NUL byte, another control character, a
// backslash or a Unicode format character. File tools should open the path
// AbsPath returns, so that they act on the path that was judged.
func AbsPath(p, workDir string) (string, error) {
	if p == "" {
		return "", errors.New("permission: the path is empty")
	}
	if why := checkPathChars(p, false); why != "" {
		return "", fmt.Errorf("permission: the path contains %s", why)
	}
	if !path.IsAbs(p) {
		if workDir == "" {
			return "", errRelative
		}
		if why := checkPathChars(workDir, false); why != "" || !path.IsAbs(workDir) {
			return "", errors.New("permission: the working directory is not an absolute path")
		}
		p = workDir + "/" + p
	}
	return path.Clean(p), nil
}

// maxLinks bounds the symbolic links followed while resolving one path.
const maxLinks = 40

// resolve returns the path the file system reaches for the absolute path
// abs: every symbolic link in its existing part is followed, ".." is
// applied to the resolved directory (as the kernel does), and the part
// that does not exist yet is appended lexically. An error (a link loop, a
// directory that cannot be read) means the path cannot be judged.
func resolve(abs string) (string, error) {
	cur := "/"
	exists := true
	links := 0
	rest := abs
	for {
		rest = strings.TrimLeft(rest, "/")
		if rest == "" {
			return cur, nil
		}
		var comp string
		comp, rest, _ = strings.Cut(rest, "/")
		switch comp {
		case ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, comp)
		if !exists {
			cur = next
			continue
		}
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
				exists = false
				cur = next
				continue
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		links++
		if links > maxLinks {
			return "", fmt.Errorf("permission: too many symbolic links in %s", abs)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) {
			cur = "/"
		}
		rest = target + "/" + rest
	}
}

// MatchPath reports whether the path p, made absolute against workDir, is
// allowed by the PATH pattern pattern: both its lexically clean form and,
// where it or a parent exists, its symlink-resolved form must match. The
// error is for a pattern that is not a valid PATH pattern; a path that
// cannot be judged does not match.
func MatchPath(pattern, p, workDir string) (bool, error) {
	pp, err := parsePathPattern(pattern)
	if err != nil {
		return false, fmt.Errorf("permission: pattern %q: %w", pattern, err)
	}
	c, err := AbsPath(p, workDir)
	if err != nil || !pp.match(c) {
		return false, nil
	}
	raw := p
	if !path.IsAbs(raw) {
		raw = workDir + "/" + raw
	}
	// Follow links on the cleaned path (the one a tool opens) and on the
	// path as written; both must match.
	for _, q := range []string{c, raw} {
		r, err := resolve(q)
		if err != nil || !pp.match(r) {
			return false, nil
		}
	}
	return true, nil
}
