package hwmodel

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// TestSyncPacketsAllocateNothing: once a machine is warm (its timeline full,
// its scratch grown), a submission of the packets barriers become — WAITs,
// CACHE flushes and invalidates, EVENT signals and waits — allocates
// nothing, on every profile. A CACHE that writes back and drops nothing
// gives its op record back; one that does would keep it.
func TestSyncPacketsAllocateNothing(t *testing.T) {
	onEveryProfile(t, func(t *testing.T, r *rig) {
		p := r.prog()
		for range 256 {
			syncRound(p)
		}
		bufs := []*cmdbuf.Buffer{p.buffer()}
		run := r.submitter(bufs...)
		// Warm up past the timeline's limit, so recording spans stops.
		for range TimelineLimit/(6*256) + 2 {
			run()
		}
		require.Zero(t, testing.AllocsPerRun(20, run))
		require.Empty(t, r.m.Hazards())
		require.Empty(t, r.m.Faults())
	})
}

// TestWorkAllocatesOnlyItsRecord: on a warm machine, a submission of a
// 1 MiB copy — its reads and writes logged for the write-after-read and
// write-after-write checks, 16,384 lines through the caches and back —
// allocates only the op records hazards may name: the copy's and the end
// of the submission's.
func TestWorkAllocatesOnlyItsRecord(t *testing.T) {
	onEveryProfile(t, func(t *testing.T, r *rig) {
		const size = 1 << 20
		src, dst := r.alloc("src", size), r.alloc("dst", size)
		bufs := []*cmdbuf.Buffer{r.prog().work(cmdbuf.WorkCopy, cmdbuf.StageCopy,
			rd(src, size, cmdbuf.ClientCopy), wr(dst, size, cmdbuf.ClientCopy)).buffer()}
		run := r.submitter(bufs...)
		for range 4 {
			run()
		}
		require.LessOrEqual(t, testing.AllocsPerRun(10, run), 2.0)
		require.Empty(t, r.m.Hazards())
	})
}

// TestSyncStreamAllocatesNothing: BenchmarkSyncPackets's submission — 16
// draws and dispatches, then 6,144 WAIT, CACHE and EVENT packets — submitted
// as one buffer, allocates less than once a submission on average once the
// machine is warm (AllocsPerRun, like the benchmark's allocs/op, rounds
// down): op records come a slab of opSlabSize at a time, and Submit keeps
// its own copy of the buffer list in a slice an earlier batch gave back.
func TestSyncStreamAllocatesNothing(t *testing.T) {
	onEveryProfile(t, func(t *testing.T, r *rig) {
		rt, uav := r.alloc("rt", 1<<14), r.alloc("uav", 1<<14)
		p, _ := barrierStream(r, rt, uav, 8)
		for range 1024 {
			syncRound(p)
		}
		buf := p.buffer()
		run := r.submitter(buf)
		for range 8 {
			run()
		}
		require.Zero(t, testing.AllocsPerRun(opSlabSize, run))
		require.Empty(t, r.m.Hazards())
	})
}

// TestSharedBytesAllocateNothing: a warm machine running a pass that
// shares blocks' bytes — a draw written back whole from the colour cache
// into L2 (flushBlock), sampled through the texture cache (readBlock lends
// L2's bytes), written back into memory at the end of the submission, the
// texture cache invalidated — takes every block of bytes from its store
// and allocates nothing.
func TestSharedBytesAllocateNothing(t *testing.T) {
	onEveryProfile(t, func(t *testing.T, r *rig) {
		const size = 64 << 10
		rt, out := r.alloc("rt", size), r.alloc("out", size)
		bufs := []*cmdbuf.Buffer{r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(rt, size, color)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			cache(caches(cmdbuf.CacheColor), 0).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			work(cmdbuf.WorkDispatch, cCompute, rd(rt, size, load), wr(out, size, store)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			cache(0, caches(cmdbuf.CacheTextureL0)).buffer()}
		run := r.submitter(bufs...)
		for range 4 {
			run()
		}
		require.Zero(t, testing.AllocsPerRun(10, run))
		require.Empty(t, r.m.Hazards())
		require.NotZero(t, sharedBlocks(r.m), "no block's bytes were shared")
		requireHoldersCounted(t, r.m, t.Name())
	})
}

// sharedBlocks counts the blocks, in caches and memory, marked as sharing
// their bytes.
func sharedBlocks(m *Machine) int {
	n := 0
	for _, lv := range m.allLevels() {
		for _, b := range lv.blocks {
			if b.shared {
				n++
			}
		}
	}
	for _, p := range m.mem.pages {
		for _, sh := range p.shared {
			if sh {
				n++
			}
		}
	}
	return n
}

// submitter returns a function that submits bufs to the direct engine and
// runs the machine, for AllocsPerRun.
func (r *rig) submitter(bufs ...*cmdbuf.Buffer) func() {
	return func() {
		r.direct.Submit(bufs...)
		require.NoError(r.t, r.m.Run())
	}
}

// onEveryProfile runs f on a new rig of every profile, unless the race
// detector, which allocates, is on.
func onEveryProfile(t *testing.T, f func(t *testing.T, r *rig)) {
	if raceEnabled {
		t.Skip("the race detector allocates: allocation counts are not the model's")
	}
	for _, prof := range Profiles() {
		t.Run(prof.Name, func(t *testing.T) { f(t, newRig(t, prof)) })
	}
}
