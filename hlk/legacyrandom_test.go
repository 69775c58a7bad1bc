package hlk

import (
	"context"
	"fmt"
	"github.com/ebref/ebref/hlk/gen"
	"strings"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLegacyProgramsAreDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := gen.GenerateLegacy(seed), gen.GenerateLegacy(seed)
		assert.Equal(t, a, b, "seed %d", seed)
	}
	assert.NotEqual(t, gen.GenerateLegacy(1).Positive, gen.GenerateLegacy(2).Positive)
}

// The model of legacy state the generator writes barriers from predicts,
// after every submission, the state of every subresource; the legacy
// layer the programs run through (ddi/legacy, which the model does not
// call) must track the same.
func TestLegacyRandomModel(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	compared, decayed := 0, 0
	for seed := uint64(1); seed <= 80; seed++ {
		p := gen.GenerateLegacy(seed)
		cases, err := scenario.Parse(fmt.Sprintf("seed-%d.ebs", seed), p.Positive, nil)
		require.NoError(t, err)
		sc := cases[0]
		dev, err := Reference.Open(prof, DeviceOptions{Debug: sc.Debug, Context: context.Background()})
		require.NoError(t, err)
		x := newExec(sc, dev)
		n := 0
		for _, st := range sc.Steps {
			x.step(st)
			if _, ok := st.(*scenario.ExecuteStep); !ok {
				continue
			}
			require.Less(t, n, len(p.States), "seed %d: more submissions than the model has", seed)
			for key, want := range p.States[n] {
				name, sub, _ := strings.Cut(key, "@")
				var s uint32
				fmt.Sscan(sub, &s)
				got, _ := x.leg.State(x.res[name], s)
				assert.Equal(t, want, got, "seed %d, submission %d, %s: the model and the legacy layer disagree", seed, n+1, key)
				compared++
				if n > 0 && want == ddi.StateCommon && p.States[n-1][key] != ddi.StateCommon {
					decayed++
				}
			}
			n++
		}
		assert.Equal(t, len(p.States), n, "seed %d", seed)
		for _, o := range x.res0.Observed {
			assert.NotEqual(t, "ERROR", o.Severity.String(), "seed %d: %s", seed, o.Text)
		}
	}
	assert.Greater(t, compared, 1000)
	assert.Positive(t, decayed, "some subresource decays back to COMMON")
}

// Most programs have negative forms, each cut after the command that
// shows the mistake and expecting the message the model computes.
func TestLegacyNegativeForms(t *testing.T) {
	drops, befores, late := 0, 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		p := gen.GenerateLegacy(seed)
		for _, neg := range []string{p.Drop, p.Before} {
			if neg == "" {
				continue
			}
			assert.NotContains(t, neg, "expect reference")
			assert.Contains(t, neg, "expect error ")
			assert.Less(t, strings.Count(neg, "\n"), strings.Count(p.Positive, "\n")+1)
			if !strings.Contains(neg[strings.Index(neg, "expect error"):], " in L") {
				late++ // found at ExecuteCommandLists
			}
		}
		if p.Drop != "" {
			drops++
		}
		if p.Before != "" {
			befores++
		}
	}
	assert.Greater(t, drops, 50)
	assert.Greater(t, befores, 80)
	assert.Greater(t, late, 40)
}

// A legacy program that fails with a driver fault shrinks to a smaller
// one that still fails with it and passes without it.
func TestLegacyProgramsShrink(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	shrunk := 0
	for seed := uint64(1); seed <= 60 && shrunk < 1; seed++ {
		p := gen.GenerateLegacy(seed)
		cases, err := scenario.Parse("p.ebs", p.Positive, nil)
		require.NoError(t, err)
		if Run(Reference, cases[0], prof, "drop-flush").Status != Fail {
			continue
		}
		out, err := Shrink(context.Background(), Reference, "p.ebs", p.Positive, prof, "drop-flush")
		require.NoError(t, err)
		assert.Less(t, strings.Count(out, "\n"), strings.Count(p.Positive, "\n"), "seed %d", seed)
		c, err := scenario.Parse("shrunk.ebs", out, nil)
		require.NoError(t, err, out)
		assert.Equal(t, Fail, Run(Reference, c[0], prof, "drop-flush").Status, out)
		assert.Equal(t, Pass, Run(Reference, c[0], prof, "").Status, out)
		shrunk++
	}
	assert.Equal(t, 1, shrunk, "a legacy program that drop-flush fails")
}

func TestLegacyRandomSuite(t *testing.T) {
	s, err := LegacyRandomSuite(12, 500)
	require.NoError(t, err)
	assert.Equal(t, "random-legacy", s.Name)
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: []Suite{s}})
	require.NoError(t, err)
	assert.True(t, rep.Conformant(), "%v", rep.Counts())
}
