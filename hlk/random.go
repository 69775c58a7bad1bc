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
// negative form in a file of its own, and the shape programs of seeds
// seed .. seed+n/8-1 (gen_shapes.go).
func RandomSuite(n int, seed uint64) (Suite, error) {
	files := map[string]string{}
	for i := range uint64(n) {
		p := GenerateRandom(seed + i)
		files[fmt.Sprintf("seed-%d.ebs", p.Seed)] = p.Positive
		if p.Negative != "" {
			files[fmt.Sprintf("seed-%d-drop.ebs", p.Seed)] = p.Negative
		}
	}
	// A shape program (gen_shapes.go) for every eighth program, from the
	// same first seed: a --random N run holds N/8 of them.
	for i := range uint64(n / 8) {
		pos, neg, destroy := GenerateShapes(seed + i)
		files[fmt.Sprintf("shapes-%d.ebs", seed+i)] = pos
		if neg != "" {
			files[fmt.Sprintf("shapes-%d-drop.ebs", seed+i)] = neg
		}
		if destroy != "" {
			files[fmt.Sprintf("shapes-%d-destroy.ebs", seed+i)] = destroy
		}
	}
	s, err := suiteFromSources("random", files)
	if err != nil {
		return s, fmt.Errorf("hlk: random programs from seed %d: %w", seed, err)
	}
	s.random, s.seed = n, seed
	return s, nil
}
