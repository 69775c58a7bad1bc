package hlk

import (
	"testing"
	"time"

	"github.com/ebref/ebref/hlk/gen"
	"github.com/ebref/ebref/hlk/scenario"
)

// roundTrip formats a case and parses the text back: the same case, or
// the test fails naming the first difference.
func roundTrip(t *testing.T, suite string, c *scenario.Scenario) {
	t.Helper()
	text, err := scenario.Format(c)
	if err != nil {
		t.Errorf("%s: %s: %v", suite, c.Name(), err)
		return
	}
	back, err := scenario.Parse(c.File, text, nil)
	if err != nil {
		t.Errorf("%s: %s: the formatted text does not parse: %v\n%s", suite, c.Name(), err, text)
		return
	}
	if len(back) != 1 {
		t.Errorf("%s: %s: the formatted text is %d cases", suite, c.Name(), len(back))
		return
	}
	if d := scenario.Diff(c, back[0]); d != "" {
		t.Errorf("%s: %s: parsed back, it differs: %s\n%s", suite, c.Name(), d, text)
	}
}

// Every case of every suite — the hand-written ones under hlk/suites, the
// tables', and the first eighth of the default run's random programs
// (all of them cost seconds more; TestFormatRoundTripRandom takes others)
// — prints as a text that parses back to it.
func TestFormatRoundTrip(t *testing.T) {
	start := time.Now()
	suites, err := SuitesFor(DefaultRandom/8, DefaultRandomSeed)
	if err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)
	n := 0
	for _, s := range suites {
		for _, c := range s.Cases {
			roundTrip(t, s.Name, c)
			n++
		}
	}
	t.Logf("%d cases of %d suites: loaded in %v, printed and parsed back in %v", n, len(suites), loaded, time.Since(start)-loaded)
	if n < 1000 {
		t.Errorf("only %d cases: the suites did not load", n)
	}
}

// More of the random generators' programs, from another seed, outside
// -short.
func TestFormatRoundTripRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("the sample in TestFormatRoundTrip covers -short")
	}
	for name, files := range map[string]map[string]string{
		"random":            gen.RandomFiles(64, 1<<20),
		"random-legacy":     gen.LegacyRandomFiles(32, 1<<20),
		"random-validation": gen.ValidationRandomFiles(32, 1<<20),
	} {
		s, err := suiteFromSources(name, files)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Cases {
			roundTrip(t, name, c)
		}
	}
}
