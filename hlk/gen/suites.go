package gen

import "fmt"

// Tables are the suites built from ddi's rule tables and from products of
// operations, by suite name: each returns its scenario files (name →
// text).
var Tables = []struct {
	Name  string
	Files func() map[string]string
}{
	{"rules/layout-access", genLayoutAccess},
	{"rules/access-sync", genAccessSync},
	{"rules/queue-layouts", genQueueLayouts},
	{"rules/queue-accesses", genQueueAccesses},
	{"rules/queue-syncs", genQueueSyncs},
	{"write-read", genWriteRead},
	{"legacy/state-pairs", genLegacy},
	{"validation/work-args", genWorkArgs},
}

// LegacyShare: a run of n random programs has n/LegacyShare random legacy
// and n/LegacyShare random validation ones, from the same first seed (at
// least one of each when n > 0).
const LegacyShare = 4

// RandomFiles are the suite "random": the programs of seeds seed ..
// seed+n-1 (random.go), each a file named by its seed, with its negative
// form in a file of its own, and the shape programs of seeds seed ..
// seed+n/8-1 (shapes.go).
func RandomFiles(n int, seed uint64) map[string]string {
	files := map[string]string{}
	for i := range uint64(n) {
		p := GenerateRandom(seed + i)
		files[fmt.Sprintf("seed-%d.ebs", p.Seed)] = p.Positive
		if p.Negative != "" {
			files[fmt.Sprintf("seed-%d-drop.ebs", p.Seed)] = p.Negative
		}
	}
	// A shape program for every eighth program, from the same first seed:
	// a --random N run holds N/8 of them.
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
	return files
}

// LegacyRandomFiles are the suite "random-legacy": the legacy programs of
// seeds seed .. seed+n-1 (legacyrandom.go), each a file named by its seed,
// its negative forms in files of their own.
func LegacyRandomFiles(n int, seed uint64) map[string]string {
	files := map[string]string{}
	for i := range uint64(n) {
		p := GenerateLegacy(seed + i)
		files[fmt.Sprintf("seed-%d.ebs", p.Seed)] = p.Positive
		if p.Drop != "" {
			files[fmt.Sprintf("seed-%d-drop.ebs", p.Seed)] = p.Drop
		}
		if p.Before != "" {
			files[fmt.Sprintf("seed-%d-before.ebs", p.Seed)] = p.Before
		}
	}
	return files
}

// ValidationRandomFiles are the suite "random-validation": the validation
// programs of seeds seed .. seed+n-1 (validation.go), each a file named by
// its seed.
func ValidationRandomFiles(n int, seed uint64) map[string]string {
	files := map[string]string{}
	for i := range uint64(n) {
		if p := GenerateValidation(seed + i); p != "" {
			files[fmt.Sprintf("seed-%d.ebs", seed+i)] = p
		}
	}
	return files
}
