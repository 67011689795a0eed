package builtin

import (
	"path"
	"path/filepath"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// workspaceDir is the directory the call's workspace is: the configured
// root, else the call's working directory (absolute), else "".
func (w *workspace) workspaceDir(tc tool.Context) string {
	if w.root != "" {
		return w.root
	}
	if b := w.base(tc); path.IsAbs(b) {
		return path.Clean(b)
	}
	return ""
}

// filter is the call's PATH patterns for a file tool, judging links as the
// workspace sees them: a pattern is widened through a link above the
// workspace only (permission.PathFilter.In).
func (w *workspace) filter(tc tool.Context) permission.PathFilter {
	return tc.PathFilter().In(w.workspaceDir(tc))
}

// protectedWrite refuses a change to one of the workspace paths whose
// contents run on the host later ([shell.MandatoryReadOnly]: .git/config,
// .git/hooks/, shell start-up files, editor and agent settings), judged as
// written and where dst really is, unless the call's patterns name that
// path itself (Write(/ws/.git/config)), as the refusal names it (where the
// file really is, when a link led there). dst is the file a write would
// change, its last links already followed.
func (w *workspace) protectedWrite(toolName string, dst location, tc tool.Context) error {
	root := w.workspaceDir(tc)
	if root == "" {
		return nil
	}
	roots := []string{root}
	if real, err := filepath.EvalSymlinks(filepath.FromSlash(root)); err == nil && filepath.ToSlash(real) != root {
		roots = append(roots, filepath.ToSlash(real))
	}
	for _, p := range []string{dst.abs, physical(dst.abs)} {
		for _, r := range roots {
			rel, ok := within(r, p)
			if !ok {
				continue
			}
			prot, ok := shell.ProtectedBy(rel)
			if !ok {
				continue
			}
			if tc.PathFilter().Names(p) {
				return nil
			}
			return fail("%s refuses %s: %s, so a change to it would run code on this machine later, outside any sandbox. "+
				"No tool may change it; ask the user to make this change, or to allow this path itself with the entry %s(%s).",
				toolName, p, prot.Reason, toolName, p)
		}
	}
	return nil
}
