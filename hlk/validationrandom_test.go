package hlk

import (
	"context"
	"github.com/ebref/ebref/hlk/gen"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A validation program is its host's prefix with one invalid barrier:
// without that barrier and its expectation the prefix is a valid program
// (no message, no hazard), so the message the case expects is the cell's.
func TestValidationProgramsIsolateOneRule(t *testing.T) {
	prof, err := hwmodel.LookupProfile("xe")
	require.NoError(t, err)
	tables := map[string]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		p := gen.GenerateValidation(seed)
		if p == "" {
			continue
		}
		assert.Equal(t, p, gen.GenerateValidation(seed), "deterministic")
		for _, table := range []string{"layout-access", "access-sync", "queue-layouts", "queue-accesses", "queue-syncs"} {
			if strings.Contains(p, "the "+table+" table") {
				tables[table] = true
			}
		}
		cases, err := scenario.Parse("v.ebs", p, nil)
		require.NoError(t, err, p)
		require.Equal(t, Pass, Run(Reference, cases[0], prof, "").Status, p)
		// The host's lines, each as often as the host has it: what the
		// generator added (VX and its barrier) is what is left over.
		host := map[string]int{}
		for _, l := range strings.Split(gen.GenerateRandom(seed).Positive, "\n") {
			host[l]++
		}
		var kept []string
		added := 0
		for _, l := range strings.Split(p, "\n") {
			if host[l] == 0 && !strings.HasPrefix(l, "#") && l != "" {
				added++
				continue
			}
			host[l]--
			kept = append(kept, l)
		}
		assert.LessOrEqual(t, added, 3, "a resource, a barrier and the expectation")
		valid := strings.Join(kept, "\n")
		if strings.Contains(valid, "\n  call\n  end") || strings.Contains(valid, "\n  call-0088\n  end") {
			continue // the cell was put into a call of one barrier's own: none is left
		}
		cases, err = scenario.Parse("valid.ebs", valid+"expect no-hazard\n", nil)
		require.NoError(t, err, valid)
		r := Run(Reference, cases[0], prof, "")
		assert.Equal(t, Pass, r.Status, "seed %d without its invalid barrier: %v\n%s", seed, r.Failures, valid)
	}
	assert.Len(t, tables, 5, "every table drives some program: %v", tables)
}

func TestValidationRandomSuite(t *testing.T) {
	s, err := ValidationRandomSuite(20, 300)
	require.NoError(t, err)
	assert.Equal(t, "random-validation", s.Name)
	assert.NotEmpty(t, s.Cases)
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: []Suite{s}})
	require.NoError(t, err)
	assert.True(t, rep.Conformant(), "%v", rep.Counts())
}
