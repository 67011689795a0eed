//go:build unix

package builtin

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe.
func mkfifo(t testing.TB, p string) {
	t.Helper()
	must(t, syscall.Mkfifo(p, 0o644))
}
