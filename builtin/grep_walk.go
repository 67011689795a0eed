package builtin

import (
	"io/fs"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
)

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
