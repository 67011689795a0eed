package builtin

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

// EditInput is the input of the Edit tool.
//
//tool:name Edit
//tool:unexported
//tool:title Edit file
//tool:keywords modify, change, replace, patch, update, fix, refactor, rename, sed, diff
//tool:description Replaces exact text in a file. The file must have been read with Read in this conversation first, and must not have changed since.
//tool:description old_string must match the file exactly, including whitespace and indentation (copy it from Read's output without the line-number prefix).
//tool:description The edit fails when old_string is not found, or when it is found more than once and replace_all is not set: then give more surrounding context to make it unique, or set replace_all to replace every occurrence.
//tool:description The write is atomic and keeps the file's permissions.
//tool:concurrency sequential
//tool:side-effect destructive
//tool:subject path file_path
type EditInput struct {
	// The absolute path of the file to edit.
	FilePath string `json:"file_path" tool:"required"`
	// The exact text to replace.
	OldString string `json:"old_string" tool:"required"`
	// The text to replace it with; it must differ from old_string.
	NewString string `json:"new_string" tool:"required"`
	// Replace every occurrence of old_string instead of exactly one.
	ReplaceAll bool `json:"replace_all,omitempty" tool:"default=false"`
}

// maxEditBytes bounds the size of a file Edit loads into memory.
const maxEditBytes = 32 << 20

// edit is the Edit tool.
func (f *files) edit(ctx context.Context, in EditInput, tc tool.Context) (string, error) {
	if in.OldString == "" {
		return "", fail("old_string is empty. Give the exact text to replace; to create or overwrite a whole file, use Write.")
	}
	if in.OldString == in.NewString {
		return "", fail("No changes to make: old_string and new_string are exactly the same.")
	}
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
	fh, fi, err := openRegular(dst)
	if err != nil {
		var fl *failure
		if errors.As(err, &fl) && errors.Is(fl.err, fs.ErrNotExist) {
			return "", fail("File does not exist: %s. Use Write to create it.", loc.abs)
		}
		if fi, serr := dst.fs.Stat(dst.name); serr == nil && fi.IsDir() {
			return "", fail("Cannot edit %s: it is a directory. Give the path of a file.", loc.abs)
		}
		return "", err
	}
	defer fh.Close()
	if !allowedOpen(f.ws.filter(tc), fh, dst.abs) {
		return "", notAllowed(EditName)
	}
	if err := f.ws.protectedWrite(EditName, dst, tc); err != nil {
		return "", err
	}
	if err := checkFresh(tc, loc, fi, "editing"); err != nil {
		return "", err
	}
	if fi.Size() > maxEditBytes {
		return "", fail("Cannot edit %s: it is %d bytes long, and Edit loads at most %d bytes. Use Bash tools for a file this large.", loc.abs, fi.Size(), maxEditBytes)
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxEditBytes+1))
	if err != nil {
		return "", readError(loc, err)
	}
	content := string(data)
	n := strings.Count(content, in.OldString)
	switch {
	case n == 0:
		return "", fail("old_string was not found in %s. It must match the file exactly, including whitespace and indentation; read the file again and copy the text from it.", loc.abs)
	case n > 1 && !in.ReplaceAll:
		return "", fail("Found %d matches of old_string in %s, but replace_all is false. To replace every match, set replace_all to true; to replace one, give more surrounding context so that old_string is unique.", n, loc.abs)
	}
	if in.ReplaceAll {
		content = strings.ReplaceAll(content, in.OldString, in.NewString)
	} else {
		content = strings.Replace(content, in.OldString, in.NewString, 1)
	}
	if err := ctx.Err(); err != nil {
		return "", failWith(err, "Edit of %s was cancelled; the file was not changed.", loc.abs)
	}
	nfi, err := atomicWrite(dst, []byte(content), fi.Mode().Perm())
	if err != nil {
		return "", writeError(loc, err)
	}
	markWritten(tc, loc, dst, nfi)
	return "The file " + loc.abs + " was edited: " + plural(n, "replacement") + " made.", nil
}
