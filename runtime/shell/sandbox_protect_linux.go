package shell

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
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

// protectedArgs finds what protects the workspace root for one run; the
// descriptors its binds name are added to b. An error refuses the run.
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
// Then each path of MandatoryReadOnly that exists is bound read-only.
//
// No bind is made by name: bwrap would resolve the name again, later, in
// a view where nothing is hidden, and a run still going can swap a link
// in meanwhile. Each path is opened once here as an O_PATH descriptor
// beneath a descriptor of root, following no link (see openBeneath), and
// bwrap binds the descriptor. A path that is a link, or has one on the way
// (.git a link to a directory in the workspace), is opened following its
// links, and the file it leads to is bound read-only where it is, when
// that is inside root (the rest of the host is read-only already); the
// judgement is made on the opened file, whose place the kernel names, not
// on a name resolved again. The link itself is not protected: a command
// can replace it (and the file it leads to at that moment stays
// read-only).
func protectedArgs(root string, readOnly []string, b *bindFDs) (p protection, err error) {
	rootFD, err := openDir(root)
	if err != nil {
		return p, err
	}
	defer unix.Close(rootFD)
	defer func() {
		if err != nil {
			b.close()
			p.args = nil
		}
	}()
	// open opens rel for a bind and returns the descriptor, where it is and
	// its mode; fd is -1 where there is nothing to bind (a link that
	// leaves root or dangles). entry is the identity of rel itself (a link
	// as the link); missing says there is no rel.
	open := func(rel string) (fd int, where string, mode uint32, entry fileID, missing bool, err error) {
		fd, err = openBeneath(rootFD, rel)
		var st unix.Stat_t
		switch {
		case err == errNoOpenat2:
			return -1, "", 0, entry, false, err
		case err == unix.ENOENT || err == unix.ENOTDIR:
			return -1, "", 0, entry, true, nil
		case err == unix.ELOOP:
			// A link on the way: the entry itself, found following it.
			how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW, Resolve: unix.RESOLVE_NO_MAGICLINKS}
			efd, e := unix.Openat2(rootFD, rel, &how)
			if e != nil {
				return -1, "", 0, entry, true, nil // absent, or the way dangles
			}
			e = unix.Fstat(efd, &st)
			unix.Close(efd)
			if e != nil {
				return -1, "", 0, entry, false, e
			}
		case err != nil:
			return -1, "", 0, entry, false, fmt.Errorf("sandbox: checking the protected path %s: %w", filepath.Join(root, rel), err)
		default:
			if err = unix.Fstat(fd, &st); err != nil {
				unix.Close(fd)
				return -1, "", 0, entry, false, err
			}
			if st.Mode&unix.S_IFMT != unix.S_IFLNK {
				return fd, filepath.Join(root, filepath.FromSlash(rel)), st.Mode & unix.S_IFMT, fileID{dev: st.Dev, ino: st.Ino}, false, nil
			}
			unix.Close(fd)
		}
		entry = fileID{dev: st.Dev, ino: st.Ino}
		fd, where, st, err = openFollowing(rootFD, rel)
		switch {
		case err == errNoOpenat2:
			return -1, "", 0, entry, false, err
		case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EACCES):
			return -1, "", 0, entry, false, nil // dangling, a loop, or nothing this process may see
		case err != nil:
			return -1, "", 0, entry, false, err
		case !within(where, root):
			unix.Close(fd)
			return -1, "", 0, entry, false, nil // leaves root: nothing there is writable
		}
		return fd, where, st.Mode & unix.S_IFMT, entry, false, nil
	}

	gitDir := false
	fd, where, mode, entry, missing, err := open(".git")
	switch {
	case err != nil:
		return p, err
	case missing:
		p.missing = append(p.missing, ".git")
	default:
		p.git, p.gitPresent = entry, true
		switch {
		case fd < 0:
		case mode == unix.S_IFDIR:
			p.args = append(p.args, b.bind(fd, where, insideAny(where, readOnly))...)
			gitDir = true
		case mode == unix.S_IFREG:
			p.args = append(p.args, b.bind(fd, where, true)...)
		default:
			unix.Close(fd)
		}
	}
	for _, e := range MandatoryReadOnly {
		rel := strings.TrimSuffix(e.Path, "/")
		if strings.HasPrefix(rel, ".git/") && !gitDir {
			continue // no .git directory: nothing under it to protect, and a new .git goes whole
		}
		fd, where, _, _, missing, err := open(rel)
		switch {
		case err != nil:
			return p, err
		case missing:
			p.missing = append(p.missing, rel)
		case fd >= 0:
			p.args = append(p.args, b.bind(fd, where, true)...)
		}
	}
	return p, nil
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
