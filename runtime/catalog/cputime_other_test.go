//go:build !linux

package catalog_test

// threadCPU is not available here; benchmarks report wall-clock figures only.
func threadCPU() (int64, bool) { return 0, false }
