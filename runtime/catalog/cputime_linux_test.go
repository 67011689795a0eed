package catalog_test

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time the calling thread has used, from
// CLOCK_THREAD_CPUTIME_ID, and whether it could be read. A benchmark that
// locks its goroutine to its thread measures a query's own cost with it,
// without the time the thread waited for a CPU on a busy machine.
func threadCPU() (int64, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return ts.Nano(), true
}
