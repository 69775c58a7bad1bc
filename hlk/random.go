package hlk

import (
	"fmt"

	"github.com/ebref/ebref/hlk/gen"
)

// DefaultRandom is how many random programs the default run has: each a
// case, and its negative form another where it has one.
const (
	DefaultRandom     = 820
	DefaultRandomSeed = 1
)

// RandomSuite is the suite "random": n random programs from seed on, and
// n/8 shape programs (gen.RandomFiles).
func RandomSuite(n int, seed uint64) (Suite, error) {
	s, err := suiteFromSources("random", gen.RandomFiles(n, seed))
	if err != nil {
		return s, fmt.Errorf("hlk: random programs from seed %d: %w", seed, err)
	}
	s.random, s.seed = n, seed
	return s, nil
}

// LegacyRandomSuite is the suite "random-legacy": n random legacy programs
// from seed on (gen.LegacyRandomFiles).
func LegacyRandomSuite(n int, seed uint64) (Suite, error) {
	s, err := suiteFromSources("random-legacy", gen.LegacyRandomFiles(n, seed))
	if err != nil {
		return s, fmt.Errorf("hlk: random legacy programs from seed %d: %w", seed, err)
	}
	return s, nil
}

// ValidationRandomSuite is the suite "random-validation": n random
// validation programs from seed on (gen.ValidationRandomFiles).
func ValidationRandomSuite(n int, seed uint64) (Suite, error) {
	s, err := suiteFromSources("random-validation", gen.ValidationRandomFiles(n, seed))
	if err != nil {
		return s, fmt.Errorf("hlk: random validation programs from seed %d: %w", seed, err)
	}
	return s, nil
}
