package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// protectedArgs are the binds that make each path of [MandatoryReadOnly]
// that exists under root read-only for one run (a link is bound where it
// leads, when that is inside root: the rest of the host is read-only
// already), and the paths of those that do not exist, which the run must
// not leave behind (see removePlanted).
func protectedArgs(root string) (args, missing []string) {
	for _, p := range MandatoryReadOnly {
		abs := filepath.Join(root, filepath.FromSlash(strings.TrimSuffix(p.Path, "/")))
		if _, err := os.Lstat(abs); err != nil {
			missing = append(missing, abs)
			continue
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil || !within(real, root) {
			continue // a dangling link, or one that leaves root: nothing there is writable
		}
		args = append(args, "--ro-bind", real, real)
	}
	return args, missing
}

// removePlanted removes what a run created at the protected paths that did
// not exist when it started (a fresh .envrc, .git/hooks/ where there were
// none, the .git/config of a git init): a bind needs something to bind
// over, so these could be written inside, and would run on the host later.
// Every process of the run is gone by now (the pid namespace ended with
// it), so nothing inside can put them back. It returns a note for the
// command's output naming what was removed, or "".
func removePlanted(missing []string) string {
	var removed []string
	for _, abs := range missing {
		if _, err := os.Lstat(abs); err != nil {
			continue
		}
		if err := os.RemoveAll(abs); err != nil {
			removed = append(removed, abs+" (could not be removed: "+err.Error()+")")
			continue
		}
		removed = append(removed, abs)
	}
	if len(removed) == 0 {
		return ""
	}
	return fmt.Sprintf("\n[sandbox: removed %s, created by the command: a workspace path whose contents run on the host later (shell.MandatoryReadOnly) may not be created or changed from the sandbox]\n",
		strings.Join(removed, ", "))
}
