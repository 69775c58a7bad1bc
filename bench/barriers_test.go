package bench

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A frame's barrier calls add up to its barrier cost (issue 34): the
// --barriers records' cycles, found by each call's MARKER, sum to the
// row's barrier_cycles, found by the calls' records, on every profile,
// for the runtime's calls and the application's, and every call that
// recorded packets cost something.
func TestBarrierCallsAddUp(t *testing.T) {
	var ws []*Workload
	for _, w := range Workloads {
		switch w.Name {
		case "deferred-gbuffer", "transient-aliasing", "multi-queue":
			ws = append(ws, w)
		}
	}
	require.Len(t, ws, 3)
	rows, err := Run(context.Background(), Config{Workloads: ws, Strategies: []Strategy{Legacy, Enhanced}, Barriers: true})
	require.NoError(t, err)
	for _, r := range rows {
		var sum uint64
		calls := 0
		for _, b := range r.Barriers {
			sum += b.Cycles
			assert.Equal(t, b.CPCycles+b.BackgroundCycles, b.Cycles, "%s on %s, %s: call %s #%d", r.Workload, r.Profile, r.Strategy, b.List, b.Command)
			if b.Command != 0 {
				calls++
				assert.NotZero(t, b.Cycles, "%s on %s, %s: call %s #%d", r.Workload, r.Profile, r.Strategy, b.List, b.Command)
			}
		}
		assert.NotZero(t, calls, "%s on %s, %s", r.Workload, r.Profile, r.Strategy)
		assert.Equal(t, r.BarrierCycles, sum, "%s on %s, %s: the calls' cycles against the frame's barrier cost", r.Workload, r.Profile, r.Strategy)
	}
}
