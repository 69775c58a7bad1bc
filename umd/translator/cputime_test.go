package translator_test

import (
	"syscall"
	"testing"
)

// cpuTimes is the CPU time, user and system, in ns, of this process and
// of its children that have been waited for.
func cpuTimes(tb testing.TB) (self, children int64) {
	var s, c syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &s); err != nil {
		tb.Fatal(err)
	}
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c); err != nil {
		tb.Fatal(err)
	}
	ns := func(r *syscall.Rusage) int64 { return r.Utime.Nano() + r.Stime.Nano() }
	return ns(&s), ns(&c)
}
