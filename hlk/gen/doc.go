// Package gen writes the suites that are programs rather than files: the
// cases of ddi's rule tables (rules.go, one barrier isolating one cell),
// the writer × reader product of work (writeread.go), every pair of legacy
// states (legacy.go), bad arguments to every work command (workargs.go),
// and programs drawn from a seed: random programs whose barriers an
// expert's bookkeeping derives from their own access history (random.go)
// with their negative forms, programs of the shapes those never build
// (shapes.go), random legacy ResourceBarrier streams checked against an
// independent model of legacy state (legacyrandom.go), and random
// validation programs whose expected message a rule table computes
// (validation.go).
//
// Each generator returns scenario text (package hlk/scenario's language),
// deterministic in its seed, which package hlk parses into suites and
// runs; nothing here runs a case or knows a driver. Tables lists the
// table-driven suites by name; RandomFiles, LegacyRandomFiles and
// ValidationRandomFiles the seeded ones.
//
// This package imports ddi, hlk/scenario and resource, and nothing else of
// ebref.
package gen
