//go:build !unix

package builtin

import "testing"

// mkfifo skips the test: the platform has no named pipes in its file system.
func mkfifo(t testing.TB, p string) {
	t.Skip("no named pipes on this platform")
}
