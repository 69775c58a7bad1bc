package hlk

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/docgen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The examples in docs/scenarios.md parse, and hold on every profile.
func TestScenarioDocExamplesParse(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenarios.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```ebs\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.GreaterOrEqual(t, len(blocks), 4)
	for i, b := range blocks {
		name := fmt.Sprintf("scenarios.md example %d", i+1)
		cases, err := scenario.Parse(name, b[1], nil)
		require.NoError(t, err, name)
		for _, sc := range cases {
			for _, pn := range hwmodel.ProfileNames() {
				p, _ := hwmodel.LookupProfile(pn)
				r := Run(Reference, sc, p, "")
				assert.True(t, r.Status.Conformant(), "%s on %s: %s %v", sc.Name(), pn, r.Status, r.Failures)
			}
		}
	}
}

var update = flag.Bool("update", false, "rewrite the generated tables in docs/conformance.md")

// suiteTable is the suites, their files and their cases per profile.
func suiteTable(t *testing.T) string {
	suites, err := Suites()
	require.NoError(t, err)
	var b strings.Builder
	b.WriteString("| suite | files | cases per profile |\n|---|---|---|\n")
	total := 0
	for _, s := range suites {
		files := 0
		for f := range s.Files {
			if !strings.HasPrefix(f, "_") {
				files++
			}
		}
		fmt.Fprintf(&b, "| `%s` | %d | %d |\n", s.Name, files, len(s.Cases))
		total += len(s.Cases)
	}
	fmt.Fprintf(&b, "| all | | %d (× %d profiles = %d cases) |\n", total, len(hwmodel.ProfileNames()), total*len(hwmodel.ProfileNames()))
	return b.String()
}

// runSize is the default run's size as docs/conformance.md states it in
// prose: its cases, and how many of them are random programs, in all and a
// profile.
func runSize(t *testing.T) string {
	suites, err := Suites()
	require.NoError(t, err)
	total, random := 0, 0
	for _, s := range suites {
		total += len(s.Cases)
		if s.Name == "random" {
			random = len(s.Cases)
		}
	}
	require.NotZero(t, random, "the default run has a suite random")
	n := len(hwmodel.ProfileNames())
	return fmt.Sprintf("The whole default run is %d cases (%d a profile on %d profiles), %d of them\n"+
		"random programs (%d a profile: %d programs and %d shape programs from seed %d,\n"+
		"each a case and, where it has one, its negative form another).\n",
		total*n, total, n, random*n, random, DefaultRandom, DefaultRandom/8, DefaultRandomSeed)
}

// TestConformanceDocIsCurrent: the suite table in docs/conformance.md and
// the run's size its prose states are the suites' (go test ./hlk -run
// TestConformanceDocIsCurrent -update).
func TestConformanceDocIsCurrent(t *testing.T) {
	require.NoError(t, docgen.Check("../docs/conformance.md", "go test ./hlk -update", []docgen.Section{
		{Name: "suites", Body: suiteTable(t)},
		{Name: "run-size", Body: runSize(t)},
	}, *update))
}
