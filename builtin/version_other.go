//go:build !unix

package builtin

import (
	"io/fs"
	"strconv"
)

// openNonblock is 0 where the platform has no O_NONBLOCK; the mode is
// still checked before and after the open.
const openNonblock = 0

// version returns the stamp a read records for fi and a write compares:
// size and modification time in nanoseconds.
func version(fi fs.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + ":" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
}
