//go:build unix

package builtin

import (
	"io/fs"
	"strconv"
	"syscall"
)

// openNonblock is added to the flags of every open of a file to read, so
// that opening a FIFO or a device that slipped in after the mode check
// returns at once instead of waiting for a writer.
const openNonblock = syscall.O_NONBLOCK

// version returns the stamp a read records for fi and a write compares:
// device, inode, size and modification time in nanoseconds. An atomic
// write gives the file a new inode, so a change by another run is seen
// even when the size and the clock tick are the same.
func version(fi fs.FileInfo) string {
	b := make([]byte, 0, 64)
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		b = strconv.AppendUint(b, uint64(st.Dev), 10)
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(st.Ino), 10)
		b = append(b, ':')
	}
	b = strconv.AppendInt(b, fi.Size(), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, fi.ModTime().UnixNano(), 10)
	return string(b)
}
