package translator_test

import (
	"runtime/metrics"
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

// gcStats is what the garbage collector has done so far, from
// runtime/metrics: its cycles, its CPU time in all, and the part of it
// spent by idle mark workers, which run on a P that has nothing else to
// do (such as one whose goroutine waits for a translator's reply).
type gcStats struct{ cycles, total, idle float64 }

func gcTimes() gcStats {
	s := []metrics.Sample{
		{Name: "/gc/cycles/total:gc-cycles"},
		{Name: "/cpu/classes/gc/total:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/idle:cpu-seconds"},
	}
	metrics.Read(s)
	v := func(i int) float64 {
		if s[i].Value.Kind() == metrics.KindUint64 {
			return float64(s[i].Value.Uint64())
		}
		return s[i].Value.Float64()
	}
	return gcStats{v(0), v(1), v(2)}
}
