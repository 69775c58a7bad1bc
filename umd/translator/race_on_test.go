//go:build race

package translator_test

// raceEnabled: under the race detector sync.Pool drops what it is given
// at random and the instrumentation allocates, so allocation counts are
// not the program's; the tests without -race hold them.
const raceEnabled = true
