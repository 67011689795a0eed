package load

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// generatedOnly reports whether the build tag left nothing of p but files
// toolgen owns: the go command's "build constraints exclude all Go files"
// for a directory whose only other files are tagged out too (a tools.go).
// Its owned files are then orphans, not a reason to stop.
func generatedOnly(p *packages.Package) bool {
	if len(p.GoFiles) > 0 || len(p.CompiledGoFiles) > 0 || p.Dir == "" {
		return false
	}
	excluded := false
	for _, e := range p.Errors {
		if !strings.Contains(e.Msg, "build constraints exclude all Go files") {
			return false
		}
		excluded = true
	}
	if !excluded {
		return false
	}
	return slices.ContainsFunc(p.IgnoredFiles, IsOwned)
}

// hiddenDirs starts listing the directories that a pattern with "..."
// would match without the build tag and that hold files toolgen owns; the
// function it returns waits for the listing and adds them to dirs. The go
// command leaves out of "./..." a directory whose files the tag excludes
// all of, such as one left with a generated file and a tools.go after its
// source was deleted; without this its generated file is an orphan no run
// would see. The listing reads file names only (no type checking) and
// runs beside the main load.
func hiddenDirs(cfg Config, patterns []string) func(dirs map[string]bool) error {
	if !slices.ContainsFunc(patterns, func(p string) bool { return strings.Contains(p, "...") }) {
		return func(map[string]bool) error { return nil }
	}
	type listing struct {
		pkgs []*packages.Package
		err  error
	}
	done := make(chan listing, 1)
	go func() {
		pkgs, err := packages.Load(&packages.Config{
			Mode: packages.NeedName | packages.NeedFiles,
			Dir:  cfg.Dir,
			Env:  cfg.Env,
		}, patterns...)
		done <- listing{pkgs, err}
	}()
	return func(dirs map[string]bool) error {
		l := <-done
		if l.err != nil {
			return l.err
		}
		for _, p := range l.pkgs {
			if p.Dir == "" || dirs[p.Dir] {
				continue
			}
			if slices.ContainsFunc(p.GoFiles, IsOwned) || slices.ContainsFunc(p.IgnoredFiles, IsOwned) {
				dirs[p.Dir] = true
			}
		}
		return nil
	}
}

// compilerLine is one "file:line:col: message" line of the go command's
// compiler output.
var compilerLine = regexp.MustCompile(`^(.+?):(\d+:\d+: .*)$`)

// dedupeWarnings sorts the tolerated errors and drops repeats: a type
// error arrives once from the type checker (with an absolute path) and
// again in the go command's compiler output ("# pkg" and paths relative to
// dir), and each variant of a package reports its own copy.
func dedupeWarnings(warnings []string, dir string) []string {
	seen := map[string]bool{}
	for _, w := range warnings {
		seen[w] = true
	}
	abs := func(path string) string {
		if filepath.IsAbs(path) {
			return path
		}
		base := dir
		if base == "" {
			base, _ = filepath.Abs(".")
		}
		return filepath.Join(base, path)
	}
	var out []string
	for _, w := range warnings {
		msg, ok := strings.CutPrefix(w, "-: ")
		if !ok || !strings.HasPrefix(msg, "# ") {
			out = append(out, w)
			continue
		}
		lines := strings.Split(msg, "\n")
		kept := lines[:1]
		for _, l := range lines[1:] {
			if m := compilerLine.FindStringSubmatch(l); m != nil && seen[abs(m[1])+":"+m[2]] {
				continue
			}
			if strings.TrimSpace(l) != "" {
				kept = append(kept, l)
			}
		}
		if len(kept) > 1 {
			out = append(out, "-: "+strings.Join(kept, "\n"))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
