package permission

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// PathFilter judges paths by the PATH patterns one tool has on a List, so
// that a tool which reads or lists more than the path it was called with
// (a recursive search, a glob) stays within its patterns for every file
// and directory it touches, not only where it starts. Decide judges the
// path a call names; a PathFilter judges what the tool reaches from there.
//
// The zero PathFilter restricts nothing: every method allows everything.
// A PathFilter is a small value, safe for concurrent use; [List.PathFilter]
// returns one without allocating.
//
// Paths given to a PathFilter are absolute, clean and slash-separated (see
// [AbsPath]).
type PathFilter struct {
	rule      *toolRule
	workspace string // see In
}

// In returns the filter judging for a tool whose workspace is the
// absolute, clean directory workspace: AllowsResolved then widens a pattern
// through links above the workspace only, never through a link inside it.
func (f PathFilter) In(workspace string) PathFilter {
	f.workspace = workspace
	return f
}

// Names reports whether every group of the tool's patterns has a pattern
// that names the absolute, clean path p itself, with no glob character:
// an entry such as Write(/ws/.git/config), which says that this very path
// is meant, where Write(/ws/**) only allows it among others. The zero
// filter names nothing.
func (f PathFilter) Names(p string) bool {
	if f.rule == nil {
		return false
	}
	for _, g := range f.rule.groups {
		ok := false
		for _, pat := range g {
			if pat.judgesPaths() && pat.path.glob == p && !strings.ContainsAny(p, `*?[]{}\`) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// PathFilter returns the filter of tool's patterns on the list: the zero
// PathFilter when the list names the tool without patterns, or does not
// name it at all (Decide answers for those without reading the call).
func (l List) PathFilter(tool string) PathFilter {
	rule := l.tools[tool]
	if rule == nil || len(rule.groups) == 0 {
		return PathFilter{}
	}
	return PathFilter{rule: rule}
}

// Restricts reports whether the filter has patterns; a filter that does
// not restrict allows every path.
func (f PathFilter) Restricts() bool { return f.rule != nil }

// Allows reports whether the absolute, clean path p is allowed as written:
// every group of the tool's patterns (one per list the tool is bound by)
// has a PATH pattern that matches p. Links are not followed; judge the
// path a file was really opened at with AllowsResolved.
func (f PathFilter) Allows(p string) bool {
	if f.rule == nil {
		return true
	}
	for _, g := range f.rule.groups {
		ok := false
		for _, pat := range g {
			if pat.judgesPaths() && pat.path.match(p) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// AllowsResolved reports whether phys, the path a file really is at (its
// symbolic links followed, as the kernel reports it for an open file), is
// allowed: every group has a PATH pattern that matches phys, either as it
// is or once the pattern's own directory is followed too (so that a
// pattern written under a linked directory, such as macOS's /tmp, allows
// the files really there; with In, only through links above the
// workspace). It is what Decide requires of the resolved form of the path
// a call names.
func (f PathFilter) AllowsResolved(phys string) bool {
	if f.rule == nil {
		return true
	}
	for _, g := range f.rule.groups {
		ok := false
		for _, pat := range g {
			if pat.judgesPaths() && pat.path.match(phys) {
				ok = true
				break
			}
		}
		if !ok {
			for _, pat := range g {
				if pat.judgesPaths() && pat.path.matchResolved(phys, f.workspace) {
					ok = true
					break
				}
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// MayContain reports whether some path strictly below the absolute, clean
// directory dir could be allowed, so that a walk need not descend where it
// could never find an allowed file: with the pattern /ws/docs/*, nothing
// below /ws/docs/private can match, while /ws/docs/** may match anything
// below /ws/docs. It errs towards true (a pattern it cannot split into
// segments, such as one with a slash inside braces, may contain anything),
// so a walk that descends must still judge each file with Allows.
func (f PathFilter) MayContain(dir string) bool {
	if f.rule == nil {
		return true
	}
	for _, g := range f.rule.groups {
		ok := false
		for _, pat := range g {
			if pat.judgesPaths() && mayContain(pat.path.glob, dir) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// mayContain reports whether some path strictly below dir could match the
// absolute, clean doublestar pattern glob. It compares them segment by
// segment: a "**" segment can stand for whatever is left of dir; any other
// segment must match dir's segment; and once dir is used up, the pattern
// must have a segment left for what is below it.
func mayContain(glob, dir string) bool {
	if slashInSegment(glob) {
		return true
	}
	g := strings.TrimPrefix(glob, "/")
	d := strings.TrimPrefix(dir, "/")
	for d != "" {
		if g == "" {
			return false
		}
		var gs, ds string
		gs, g, _ = strings.Cut(g, "/")
		ds, d, _ = strings.Cut(d, "/")
		if gs == "**" {
			return true
		}
		if !doublestar.MatchUnvalidated(gs, ds) {
			return false
		}
	}
	return g != ""
}

// slashInSegment reports whether a slash in glob does not end a segment,
// inside braces or escaped (\/ matches a slash in a name's place), where
// splitting glob into segments at every slash would be wrong.
func slashInSegment(glob string) bool {
	depth := 0
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '\\':
			if i+1 < len(glob) && glob[i+1] == '/' {
				return true
			}
			i++
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth > 0 {
				return true
			}
		}
	}
	return false
}
