package hlk

import (
	"fmt"
)

// DefaultRandom is how many random programs the default run has: each a
// case, and its negative form another where it has one.
const (
	DefaultRandom     = 820
	DefaultRandomSeed = 1
)

// RandomSuite is the suite "random": the programs of seeds seed ..
// seed+n-1 (gen_random.go), each a file named by its seed, with its
// negative form in a file of its own.
func RandomSuite(n int, seed uint64) (Suite, error) {
	files := map[string]string{}
	for i := range uint64(n) {
		p := GenerateRandom(seed + i)
		files[fmt.Sprintf("seed-%d.ebs", p.Seed)] = p.Positive
		if p.Negative != "" {
			files[fmt.Sprintf("seed-%d-drop.ebs", p.Seed)] = p.Negative
		}
	}
	s, err := suiteFromSources("random", files)
	if err != nil {
		return s, fmt.Errorf("hlk: random programs from seed %d: %w", seed, err)
	}
	s.random, s.seed = n, seed
	return s, nil
}
