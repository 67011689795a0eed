// Package generate ties toolgen's stages together: it loads packages,
// emits their generated files in memory and compares them with the disk,
// so that the command can either write the changes or report them
// (-check).
package generate

import (
	"bytes"
	"fmt"
	"os"
	"slices"

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
	p := &Plan{Files: files, Warnings: res.Warnings}
	paths := make([]string, 0, len(files))
	for path := range files {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		src := files[path]
		old, err := os.ReadFile(path)
		switch {
		case os.IsNotExist(err):
			p.Changes = append(p.Changes, Change{Path: path, Status: Missing, New: src})
		case err != nil:
			return nil, err
		case !load.HasHeader(old):
			return nil, fmt.Errorf("%s exists and was not written by toolgen; rename it or remove it so toolgen can generate it", path)
		case !bytes.Equal(old, src):
			p.Changes = append(p.Changes, Change{Path: path, Status: Stale, Old: old, New: src})
		}
	}
	for _, path := range res.Owned {
		if _, ok := files[path]; ok {
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		p.Changes = append(p.Changes, Change{Path: path, Status: Orphaned, Old: old})
	}
	slices.SortFunc(p.Changes, func(a, b Change) int {
		switch {
		case a.Path < b.Path:
			return -1
		case a.Path > b.Path:
			return 1
		}
		return 0
	})
	return p, nil
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
