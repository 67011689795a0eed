package permission

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
)

// globExpandMax bounds the names a glob may become, and globReadMax the
// directory entries the judge reads to expand it, each glob and all the
// globs and walked trees of one request together (specEnv.spend): beyond
// either the line is refused, so that a crafted glob (*/*/*/*), or many,
// cannot make judging slow.
const (
	globExpandMax = 10000
	globReadMax   = 100000
)

// expandGlob expands the glob word pat (a globWord: relative, only * and
// ? as special characters, no dot segment holding one) as bash does by
// default, from the directory base (absolute): segment by segment, * and
// ? never matching a leading '.', a segment without a glob character
// taken as written, directories met on the way followed when they are
// links, and the last segment matching any entry (a dangling link too).
// It returns the names relative to base as bash would pass them (in
// order), none when nothing matches (bash then passes the word itself),
// and ok false when the expansion passes the bounds or a directory on
// the way cannot be read.
func expandGlob(base, pat string, spend func(read, names int) bool) (names []string, ok bool) {
	segs := strings.Split(pat, "/")
	cur := []string{""} // prefixes so far, relative to base, each ending in "/" or empty
	read := 0
	for i, seg := range segs {
		last := i == len(segs)-1
		var next []string
		for _, pre := range cur {
			if seg == "" || !strings.ContainsAny(seg, "*?") {
				p := pre + seg
				if last {
					if seg == "" {
						// a trailing slash: the prefix must be a directory
						if fi, err := os.Stat(path.Join(base, pre)); err != nil || !fi.IsDir() {
							continue
						}
					} else if _, err := os.Lstat(path.Join(base, p)); err != nil {
						continue
					}
					next = append(next, p)
				} else {
					next = append(next, p+"/")
				}
				continue
			}
			dir := path.Join(base, pre)
			ents, err := os.ReadDir(dir)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
					continue
				}
				return nil, false
			}
			if read += len(ents); read > globReadMax || !spend(len(ents), 0) {
				return nil, false
			}
			for _, e := range ents {
				n := e.Name()
				if n[0] == '.' && seg[0] != '.' {
					continue // no dotglob
				}
				if m, err := path.Match(seg, n); err != nil || !m {
					continue
				}
				if last {
					next = append(next, pre+n)
					continue
				}
				if fi, err := os.Stat(path.Join(dir, n)); err != nil || !fi.IsDir() {
					continue // bash descends only into directories, links to them too
				}
				next = append(next, pre+n+"/")
			}
			if len(next) > globExpandMax {
				return nil, false
			}
		}
		cur = next
		if len(cur) == 0 {
			return nil, true
		}
	}
	if !spend(0, len(cur)) {
		return nil, false
	}
	sort.Strings(cur)
	return cur, true
}

// expandGlob expands the glob operand pat as bash does before the program
// runs: from the directory the command starts in (a leading cd's, or the
// working directory). Without an absolute working directory it expands
// nothing (ok true): the word is judged as written.
func (e *specEnv) expandGlob(pat string) (names []string, ok bool) {
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") {
		return nil, true
	}
	base := path.Clean(e.workDir)
	if e.dir != "" {
		if strings.HasPrefix(e.dir, "/") {
			base = path.Clean(e.dir)
		} else {
			base = path.Join(base, e.dir)
		}
	}
	names, ok = expandGlob(base, pat, e.spend)
	return names, ok
}
