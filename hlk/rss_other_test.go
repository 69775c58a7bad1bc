//go:build !linux

package hlk

// peakRSS is unknown here: getrusage's units differ between systems.
func peakRSS() (int64, bool) { return 0, false }
