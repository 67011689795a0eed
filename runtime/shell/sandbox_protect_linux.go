package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// protection is what one run does to the workspace's [MandatoryReadOnly]
// paths: the binds that make those that exist read-only, the ones that do
// not exist (which the run must not leave behind, see removePlanted), and
// the identity of .git when the run started.
type protection struct {
	args []string
	// missing are the protected paths absent when the run started,
	// slash-separated and relative to the workspace. ".git" itself is
	// one of them where the workspace had none.
	missing []string
	// git is the device and inode of the workspace's .git entry when the
	// run started; gitPresent says there was one.
	git        fileID
	gitPresent bool
}

// fileID is a file's device and inode number.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) fileID {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileID{dev: uint64(st.Dev), ino: st.Ino}
	}
	return fileID{}
}

// protectedArgs finds what protects the workspace root for one run.
//
// The workspace's .git, where it is a directory, is bound onto itself
// first (read-only when readOnly covers it): a mount point cannot be
// renamed or removed, so a command cannot move the repository aside and
// put a copy with its own config and hooks in its place. Where .git is a
// file (a linked worktree's or submodule's "gitdir:" file), it is bound
// read-only. Where there is no .git, a .git the run creates (directory,
// gitdir file or link) is removed afterwards: a sandboxed command cannot
// make a repository that git on the host then trusts.
//
// Then each path of MandatoryReadOnly that exists is bound read-only (a
// link is bound where it leads, when that is inside root: the rest of the
// host is read-only already).
func protectedArgs(root string, readOnly []string) protection {
	var p protection
	gitAbs := filepath.Join(root, ".git")
	gitDir := false
	if fi, err := os.Lstat(gitAbs); err != nil {
		p.missing = append(p.missing, ".git")
	} else {
		p.git, p.gitPresent = idOf(fi), true
		if real, err := filepath.EvalSymlinks(gitAbs); err == nil && within(real, root) {
			if st, err := os.Stat(real); err == nil {
				switch {
				case st.IsDir() && insideAny(real, readOnly):
					p.args = append(p.args, "--ro-bind", real, real)
					gitDir = true
				case st.IsDir():
					p.args = append(p.args, "--bind", real, real)
					gitDir = true
				case st.Mode().IsRegular():
					p.args = append(p.args, "--ro-bind", real, real)
				}
			}
		}
	}
	for _, e := range MandatoryReadOnly {
		rel := strings.TrimSuffix(e.Path, "/")
		if strings.HasPrefix(rel, ".git/") && !gitDir {
			continue // no .git directory: nothing under it to protect, and a new .git goes whole
		}
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if _, err := os.Lstat(abs); err != nil {
			p.missing = append(p.missing, rel)
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil || !within(real, root) {
			continue // a dangling link, or one that leaves root: nothing there is writable
		}
		p.args = append(p.args, "--ro-bind", real, real)
	}
	return p
}

// removePlanted undoes, after a run, what it did to the protected paths of
// root: it removes what the run created at the protected paths that did
// not exist when it started (a fresh .envrc, .git/hooks/ where there were
// none, a .git where there was none), and a .git that is not the one the
// run started with (a bind should make that impossible; the check holds
// where .git was a link, which a command can replace). A bind needs
// something to bind over, so these could be written inside, and would run
// on the host later. Every removal goes through an os.Root on the
// workspace: a link the command planted is removed as a link and never
// followed out of the workspace (this process may be root). Every process
// of the run is gone by now (the pid namespace ended with it), so nothing
// inside can put them back. It returns a note for the command's output
// naming what was removed, or "".
func removePlanted(root string, p protection) string {
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Sprintf("\n[sandbox: could not check the workspace's protected paths after the command: %v]\n", err)
	}
	defer r.Close()
	var removed []string
	remove := func(rel string) {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		if err := r.RemoveAll(rel); err != nil {
			removed = append(removed, abs+" (could not be removed: "+err.Error()+")")
			return
		}
		removed = append(removed, abs)
	}
	if p.gitPresent {
		fi, err := r.Lstat(".git")
		if err == nil && idOf(fi) != p.git {
			remove(".git")
		}
	}
	for _, rel := range p.missing {
		if _, err := r.Lstat(rel); err != nil {
			if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				removed = append(removed, filepath.Join(root, filepath.FromSlash(rel))+" (could not be checked: "+err.Error()+")")
			}
			continue
		}
		remove(rel)
	}
	if len(removed) == 0 {
		return ""
	}
	return fmt.Sprintf("\n[sandbox: removed %s, created by the command: a workspace path whose contents run on the host later (shell.MandatoryReadOnly) may not be created or changed from the sandbox]\n",
		strings.Join(removed, ", "))
}
