package hlk

import "syscall"

// peakRSS is the process's peak resident memory in bytes (Linux reports
// ru_maxrss in KiB).
func peakRSS() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Maxrss << 10, true
}
