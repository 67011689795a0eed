package permission

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

// walk is what a program walks following the links it meets there by
// default (zip -r without -y stores what a link leads to; diff compares
// what the links in the directories it is given lead to, and with -r
// below them): the operands whose trees it walks, the option that makes it
// walk (by which an entry names the walk; "" for none) and the option that
// keeps links as links, for the hint.
type walk struct {
	roots []specArg
	key   string
	keep  string
}

// zipWalk: zip -r (or -R, from the working directory) without -y follows
// every link below the operands and stores the content it leads to.
func zipWalk(p *specParse) *walk {
	w := &walk{keep: "-y"}
	recurse := false
	for _, a := range p.args {
		switch {
		case a.key == "-y":
			return nil
		case a.key == "-r" || a.key == "-R":
			recurse = true
			w.key = a.key
			if a.key == "-R" {
				w.roots = append(w.roots, specArg{at: a.at, valAt: -1, value: ".", typ: tRead})
			}
		case a.opt == nil && !a.unknown && a.key == "" && a.typ == tRead:
			w.roots = append(w.roots, a)
		}
	}
	if !recurse {
		return nil
	}
	return w
}

// diffWalk: diff follows the links in the directories it compares (with
// -r, at every depth) unless --no-dereference.
func diffWalk(p *specParse) *walk {
	w := &walk{keep: "--no-dereference"}
	for _, a := range p.args {
		switch {
		case a.key == "--no-dereference":
			return nil
		case a.key == "-r":
			w.key = "-r"
		case a.typ == tRead && a.value != "" && !a.unknown:
			w.roots = append(w.roots, a)
		}
	}
	return w
}

// walkLinks judges what the program of p walks following links (its
// spec's walk): every directory among the roots, judged from where the
// command starts, must hold no link, at any depth, that leads out of the
// workspace, unless the list's Read patterns allow the file it leads to;
// a link to a directory in the workspace is looked through too. Beyond
// extractScanMax entries the walk is refused. An entry that names the
// option that makes the program walk, or whose own words hold the
// operand, allows it. Without a working directory no link is seen.
func (e *specEnv) walkLinks(s *spec, p *specParse, cmd string, own int, named map[string]bool) *refusal {
	if s == nil || s.walk == nil {
		return nil
	}
	w := s.walk(p)
	if w == nil || w.key != "" && named[w.key] {
		return nil
	}
	for _, a := range w.roots {
		if a.at < own {
			continue
		}
		names := []string{a.value}
		if e.isGlob(a.at) {
			if more, ok := e.expandGlob(a.value); ok && len(more) > 0 {
				names = more
			}
		}
		for _, n := range names {
			if !e.readLinksOut(n) {
				continue
			}
			names := "the whole command"
			if w.key != "" {
				names = "'" + schema.Echo(w.key) + "'"
			}
			return &refusal{
				hint: fmt.Sprintf("%s follows the links it meets in the directories it walks, and one there leads outside the working directory (or there are too many entries to look through); give %s to keep links as links, or only an entry that names %s allows it.",
					echoWords(p.chain), w.keep, names),
				detail: fmt.Sprintf("%s: %s holds a link that leads outside", cmd, n),
			}
		}
	}
	return nil
}

// readLinksOut reports whether the directory v, taken from where the
// command starts, holds at any depth a link that a program following links
// would read outside the workspace: one whose target lies outside and is
// not a file the list's Read patterns allow, or one that cannot be
// resolved. Links to directories of the workspace are looked through. More
// than extractScanMax entries count as such a link. v that is not a
// directory holds none (the operand itself is judged as a path).
func (e *specEnv) readLinksOut(v string) bool {
	if e == nil || e.workDir == "" || !strings.HasPrefix(e.workDir, "/") || v == "" || v == "-" {
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
	root, err := resolve(abs)
	if err != nil {
		return true
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return false
	}
	realWS := e.resolvedWS(ws)
	seen := map[string]bool{root: true}
	queue := []string{root}
	n := 0
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue // the program cannot read it either
		}
		if n += len(ents); n > extractScanMax || !e.spend(len(ents), 0) {
			return true
		}
		for _, d := range ents {
			p := dir + "/" + d.Name()
			if d.Type()&os.ModeSymlink == 0 {
				if d.IsDir() && !seen[p] {
					seen[p] = true
					queue = append(queue, p)
				}
				continue
			}
			to, err := resolve(p)
			if err != nil {
				return true
			}
			fi, err := os.Stat(to)
			isDir := err == nil && fi.IsDir()
			if !within(to, realWS) {
				if isDir || e.list == nil || !e.listAllows([]string{"Read"}, to) {
					return true
				}
				continue
			}
			if isDir && !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return false
}
