package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/umd"
)

// TestTranslatorStrategy: with a translator the bench runs a fourth
// strategy, the enhanced frame with its translation; the reference's own
// translation behind the seam costs what the enhanced strategy does.
func TestTranslatorStrategy(t *testing.T) {
	if testing.Short() {
		t.Skip("every workload twice on one profile")
	}
	rows, err := Run(context.Background(), Config{Profiles: []string{"discrete"}, Strategies: []Strategy{Enhanced, Translator},
		Translator: umd.ReferenceOpener{}})
	require.NoError(t, err)
	compiledWorkloads := 0
	for _, w := range All() {
		if w.Has(Enhanced) {
			compiledWorkloads++
		}
	}
	require.Len(t, rows, 2*compiledWorkloads)
	for i := 0; i < len(rows); i += 2 {
		e, tr := rows[i], rows[i+1]
		require.Equal(t, Enhanced, e.Strategy)
		require.Equal(t, Translator, tr.Strategy)
		assert.True(t, tr.Clean(), "%s: %v", tr.Workload, tr.Failures)
		assert.Equal(t, e.Cycles, tr.Cycles, tr.Workload)
		assert.Equal(t, e.BarrierCalls, tr.BarrierCalls, tr.Workload)
	}
	_, err = Run(context.Background(), Config{Profiles: []string{"discrete"}, Strategies: []Strategy{Translator}})
	assert.ErrorContains(t, err, "needs a translator")
}
