// Package generate ties toolgen's stages together: it loads packages,
// emits their generated files in memory and compares them with the disk,
// so that the command can either write the changes or report them
// (-check).
package generate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/emit"
	"github.com/toolgen/toolgen/internal/load"
)

// Status says why a file needs a change.
type Status int

const (
	Stale    Status = iota + 1 // exists with other content
	Missing                    // does not exist yet
	Orphaned                   // generated earlier; its source declares no tools now
)

func (s Status) String() string {
	switch s {
	case Stale:
		return "stale"
	case Missing:
		return "missing"
	case Orphaned:
		return "orphaned"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// A Change is one file to write or delete.
type Change struct {
	Path   string
	Status Status
	Old    []byte // content on disk; nil when missing
	New    []byte // content to write; nil to delete
}

// Plan is the outcome of one run: what would change.
type Plan struct {
	Changes  []Change // sorted by path
	Files    map[string][]byte
	Warnings []string

	// Notes are annotation warnings (see load.Result.Notes): the files
	// are generated all the same.
	Notes annotations.ErrorList
}

// Run loads and emits, and compares the result with the disk. Annotation
// mistakes are returned as an annotations.ErrorList.
func Run(cfg load.Config) (*Plan, error) {
	res, err := load.Load(cfg)
	if err != nil {
		return nil, err
	}
	files, err := emit.Files(res.Packages)
	if err != nil {
		return nil, err
	}
	changes, err := Diff(files, res.Owned, os.ReadFile)
	if err != nil {
		return nil, err
	}
	return &Plan{Changes: changes, Files: files, Warnings: res.Warnings, Notes: res.Notes}, nil
}

// Diff compares generated files (path → content) with what read returns
// for each path, and lists the changes, sorted by path. owned are the
// existing files toolgen wrote; one that files does not hold is orphaned.
// read reports a file that does not exist with an error for which
// errors.Is(err, fs.ErrNotExist) holds, as os.ReadFile does.
func Diff(files map[string][]byte, owned []string, read func(path string) ([]byte, error)) ([]Change, error) {
	var changes []Change
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		src := files[path]
		old, err := read(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{Path: path, Status: Missing, New: src})
		case err != nil:
			return nil, err
		case !load.HasHeader(old):
			return nil, fmt.Errorf("%s exists and was not written by toolgen; rename it or remove it so toolgen can generate it", path)
		case !bytes.Equal(old, src):
			changes = append(changes, Change{Path: path, Status: Stale, Old: old, New: src})
		}
	}
	for _, path := range owned {
		if _, ok := files[path]; ok {
			continue
		}
		old, err := read(path)
		if err != nil {
			return nil, err
		}
		changes = append(changes, Change{Path: path, Status: Orphaned, Old: old})
	}
	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes, nil
}

// Apply writes and deletes the planned files.
func (p *Plan) Apply() error {
	for _, c := range p.Changes {
		if c.New == nil {
			if err := os.Remove(c.Path); err != nil {
				return err
			}
			continue
		}
		if err := os.WriteFile(c.Path, c.New, 0o666); err != nil {
			return err
		}
	}
	return nil
}
