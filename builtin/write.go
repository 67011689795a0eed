package builtin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/tool"
)

// WriteInput is the input of the Write tool.
//
//tool:name Write
//tool:unexported
//tool:title Write file
//tool:keywords create a file, save, new file, overwrite, output to a file
//tool:description Writes a file to the local file system, replacing it if it exists. file_path should be absolute; a relative path is resolved against the working directory.
//tool:description An existing file must have been read with Read in this conversation first, and must not have changed since; missing parent directories are created.
//tool:description The write is atomic and keeps the file's permissions. Prefer Edit for changing part of a file.
//tool:concurrency sequential
//tool:side-effect destructive
//tool:subject path file_path
type WriteInput struct {
	// The absolute path of the file to write.
	FilePath string `json:"file_path" tool:"required"`
	// The content to write to the file.
	Content string `json:"content" tool:"required"`
}

// newFileMode is the mode of a file Write creates.
const newFileMode fs.FileMode = 0o644

// write is the Write tool.
func (f *files) write(ctx context.Context, in WriteInput, tc tool.Context) (string, error) {
	loc, err := f.ws.resolve(in.FilePath, tc)
	if err != nil {
		return "", err
	}
	defer loc.fs.Close()
	unlock := writeLocks.lock(loc.abs)
	defer unlock()
	dst, err := loc.target()
	if err != nil {
		return "", err
	}
	if !allowedWrite(f.ws.filter(tc), dst) {
		return "", notAllowed(WriteName)
	}
	if err := f.ws.protectedWrite(WriteName, dst, tc); err != nil {
		return "", err
	}
	fi, err := dst.fs.Stat(dst.name)
	exists := err == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", openError(loc, err)
	case fi.IsDir():
		return "", fail("Cannot write %s: it is a directory. Give the path of a file.", loc.abs)
	case !fi.Mode().IsRegular():
		return "", fail("Cannot write %s: it is %s. Write writes regular files only.", loc.abs, kindOf(fi.Mode()))
	default:
		if err := checkFresh(tc, loc, fi, "writing"); err != nil {
			return "", err
		}
	}
	if err := ctx.Err(); err != nil {
		return "", failWith(err, "Write of %s was cancelled; the file was not changed.", loc.abs)
	}
	mode := newFileMode
	if exists {
		mode = fi.Mode().Perm()
	} else if dir := path.Dir(dst.name); dir != "." && dir != "/" {
		if err := dst.fs.MkdirAll(dir, 0o755); err != nil {
			return "", writeError(loc, err)
		}
	}
	nfi, err := atomicWrite(dst, []byte(in.Content), mode)
	if err != nil {
		return "", writeError(loc, err)
	}
	markWritten(tc, loc, dst, nfi)
	if exists {
		return "The file " + loc.abs + " was updated (" + plural(len(in.Content), "byte") + ").", nil
	}
	return "The file " + loc.abs + " was created (" + plural(len(in.Content), "byte") + ").", nil
}

// checkFresh refuses to change an existing file that this run has not read,
// or that changed since it was read. verb is "writing" or "editing".
func checkFresh(tc tool.Context, loc location, fi fs.FileInfo, verb string) error {
	var rf *tool.ReadFiles
	if rf = tc.ReadFiles(); rf == nil {
		return fail("File has not been read yet: %s. Read it first before %s it.", loc.abs, verb)
	}
	v, ok := rf.Version(loc.abs)
	if !ok {
		return fail("File has not been read yet: %s. Read it first before %s it.", loc.abs, verb)
	}
	if v != "" && v != version(fi) {
		return fail("File has been modified since it was read: %s. Read it again before %s it.", loc.abs, verb)
	}
	return nil
}

// markWritten records the new version of a file the run wrote, so that the
// run may edit it again without reading it first.
func markWritten(tc tool.Context, loc, dst location, fi fs.FileInfo) {
	rf := tc.ReadFiles()
	if rf == nil {
		return
	}
	v := version(fi)
	rf.Mark(loc.abs, v)
	if dst.abs != loc.abs {
		rf.Mark(dst.abs, v)
	}
}

// atomicWrite replaces dst with data: it writes a temporary file in the
// same directory, syncs it, gives it mode and renames it over dst, so that
// readers see the old content or the new, never a part. It returns the
// new file's information, taken from the temporary file before the rename
// (a rename keeps the inode and the modification time).
func atomicWrite(dst location, data []byte, mode fs.FileMode) (fs.FileInfo, error) {
	dir, base := path.Split(dst.name)
	if len(base) > 100 {
		base = base[:100]
	}
	var tmp string
	var fh *os.File
	for range 5 {
		var rnd [6]byte
		_, _ = rand.Read(rnd[:])
		tmp = dir + "." + base + ".tmp-" + hex.EncodeToString(rnd[:])
		var err error
		fh, err = dst.fs.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
	}
	if fh == nil {
		return nil, errors.New("cannot create a temporary file")
	}
	fi, err := writeAndSync(fh, data, mode)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dst.fs.Rename(tmp, dst.name)
	}
	if err != nil {
		_ = dst.fs.Remove(tmp)
		return nil, err
	}
	return fi, nil
}

func writeAndSync(fh *os.File, data []byte, mode fs.FileMode) (fs.FileInfo, error) {
	if _, err := fh.Write(data); err != nil {
		return nil, err
	}
	if err := fh.Chmod(mode); err != nil {
		return nil, err
	}
	if err := fh.Sync(); err != nil {
		return nil, err
	}
	return fh.Stat()
}

// allowedWrite reports whether the call's PATH patterns allow writing the
// file dst (a link already followed): as written, and where its directory
// really is.
func allowedWrite(f permission.PathFilter, dst location) bool {
	if !f.Restricts() {
		return true
	}
	if !f.Allows(dst.abs) {
		return false
	}
	real := physical(dst.abs)
	return real == dst.abs || f.AllowsResolved(real)
}

func writeError(loc location, err error) error {
	switch {
	case escapes(err):
		return outside(loc.given)
	case errors.Is(err, fs.ErrPermission):
		return failWith(err, "Permission denied: %s", loc.abs)
	}
	return failWith(err, "Cannot write %s: %s.", loc.abs, reason(err))
}
