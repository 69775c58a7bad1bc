// Package memtest measures what code allocates, for the tests that bound
// a hostile input's memory by measurement rather than by time.
//
// This package imports nothing of ebref.
package memtest

import "runtime"

// Allocated runs f and returns the bytes it allocated (TotalAlloc, after
// a GC so that what came before is not counted).
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
