package hwmodel

import (
	"runtime"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// TestReleasedBytesServeTheNextMachine: the blocks a released machine
// gives back, whatever bytes they still hold, are what the next machine's
// blocks are made of, and that machine computes what a machine made of new
// memory does: the same bytes, counters and hazards. A released machine
// hands out no more blocks.
func TestReleasedBytesServeTheNextMachine(t *testing.T) {
	prof, err := LookupProfile("discrete")
	require.NoError(t, err)
	const size = 64 << 10
	frame := func() (*rig, uint64) {
		r := newRig(t, prof)
		rt, out := r.alloc("rt", size), r.alloc("out", size)
		r.submitter(r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(rt, size, color)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			cache(caches(cmdbuf.CacheColor), 0).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			work(cmdbuf.WorkDispatch, cCompute, rd(rt, size, load), wr(out, size, store)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			cache(0, caches(cmdbuf.CacheTextureL0)).buffer())()
		return r, out
	}
	result := func(r *rig, out uint64) ([]byte, Counters, []Hazard) {
		b, err := r.m.Logical(out, size, 0)
		require.NoError(t, err)
		return b, r.m.Total(), r.m.Hazards()
	}

	first, out := frame()
	wantBytes, wantCounters, wantHazards := result(first, out)
	made := first.m.mem.store.made
	require.NotZero(t, made)
	// Whatever a block held, the next machine must not see it.
	for _, d := range first.m.mem.store.all {
		for i := range d {
			for j := range d[i] {
				d[i][j] = 0xa5
			}
		}
	}
	var gc0, gc1 runtime.MemStats
	runtime.ReadMemStats(&gc0)
	first.m.Release()
	require.Panics(t, func() { first.m.mem.store.get() }, "a released machine hands out a block")

	second, out := frame()
	gotBytes, gotCounters, gotHazards := result(second, out)
	require.Equal(t, wantBytes, gotBytes)
	require.Equal(t, wantCounters, gotCounters)
	require.Equal(t, wantHazards, gotHazards)
	// The pool keeps what it is given until the collector's next cycles
	// (and, under the race detector, drops some at random).
	runtime.ReadMemStats(&gc1)
	if gc1.NumGC == gc0.NumGC && !raceEnabled {
		require.Equal(t, second.m.mem.store.made, second.m.mem.store.reused, "the second machine made blocks the first gave back")
	}
	second.m.Release()
}
