package hwmodel

import (
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The line bookkeeping where a line is only partly valid or partly dirty,
// which whole-resource suites never reach: each program is correct, so its
// bytes must be the reference's and nothing may be flagged, unless it says
// otherwise.

// requireReference requires no hazard and the reference's bytes in regions.
func requireReference(t *testing.T, r *rig, regions ...Region) {
	t.Helper()
	assert.Empty(t, r.m.Hazards())
	diffs, err := r.m.Compare(regions...)
	require.NoError(t, err)
	assert.Empty(t, diffs)
}

// TestFillCompletesAPartlyWrittenLine: a read through a cache holding part
// of a line dirty fills the rest of the line beside it, and the dirty
// bytes stay valid and dirty until written back.
func TestFillCompletesAPartlyWrittenLine(t *testing.T) {
	for _, p := range Profiles() {
		r := newRig(t, p)
		x, y := r.alloc("X", n), r.alloc("Y", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDispatch, cCompute, wr(x+16, 16, store)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, store), wr(y, 64, store)))
		requireReference(t, r, Region{Name: "X", Addr: x, Size: n}, Region{Name: "Y", Addr: y, Size: n})
	}
}

// TestFlushBlockTakesOnlyWholeDirtyLines: a block whose lines are all
// dirty, one of them only in part, is written back line by line: the
// line's clean bytes, stale since memory took a newer write of them, must
// not be written back over it (flushBlock shares whole blocks only). The
// records are retired after every packet, so that nothing in flight keeps
// the write-back from a block path.
func TestFlushBlockTakesOnlyWholeDirtyLines(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	r.m.retireMin, r.m.retireAt = 0, 0
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.run(r.direct, r.prog().
		// The shader caches fill with X; L2 lets go of it.
		work(cmdbuf.WorkDispatch, cCompute, rd(x, n, store), wr(y, n, store)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(caches(cmdbuf.CacheShaderL0, cmdbuf.CacheL2), caches(cmdbuf.CacheL2)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		// A draw writes bytes 32-63 of X, which reach memory.
		work(cmdbuf.WorkDraw, cColor, wr(x+32, 32, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(caches(cmdbuf.CacheColor, cmdbuf.CacheL2), caches(cmdbuf.CacheL2)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		// Every line of X dirty in the shader cache but the draw's bytes,
		// which the cache holds clean and stale.
		work(cmdbuf.WorkDispatch, cCompute, wr(x, 32, store), wr(x+64, n-64, store)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(caches(cmdbuf.CacheShaderL0, cmdbuf.CacheL2), 0))
	requireReference(t, r, Region{Name: "X", Addr: x, Size: n}, Region{Name: "Y", Addr: y, Size: n})
}

// TestOlderDirtyBytesOfPartOfALine: a write of part of a line that another
// cache still holds dirty from an older write, which it writes back in no
// fixed order with this one, is a write-after-write hazard that names that
// cache.
func TestOlderDirtyBytesOfPartOfALine(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x := r.alloc("X", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDraw, cColor, wr(x+16, 16, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		work(cmdbuf.WorkDispatch, cCompute, wr(x+16, 16, store)))
	var found bool
	for _, h := range r.m.Hazards() {
		found = found || h.Kind == HazardWriteAfterWrite && strings.Contains(h.Message, "COLOR[DIRECT#0] still holds its older bytes dirty")
	}
	assert.True(t, found, "hazards: %v", r.m.Hazards())
}

// TestRacingWriteKeepsTheReferencesOutput: a write racing an earlier one
// loses where they overlap (checkWAW changes its output), but the
// reference records what it computed, as when the two are ordered: a
// draw's output, or what a copy read (the same bytes the reference read).
func TestRacingWriteKeepsTheReferencesOutput(t *testing.T) {
	for _, second := range []string{"draw", "copy"} {
		reference := func(race bool) []byte {
			r := newRig(t, discreteProfile(t))
			x, y := r.alloc("X", n), r.alloc("Y", n)
			p := r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(y, n, store)).
				wait(cmdbuf.AllStages, cmdbuf.AllStages).
				cache(caches(cmdbuf.CacheShaderL0), 0).
				wait(cmdbuf.AllStages, cmdbuf.AllStages).
				work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store))
			if !race {
				p.wait(cmdbuf.AllStages, cmdbuf.AllStages).
					cache(caches(cmdbuf.CacheShaderL0), 0).
					wait(cmdbuf.AllStages, cmdbuf.AllStages)
			}
			if second == "draw" {
				p.work(cmdbuf.WorkDraw, cColor, wr(x, n, color))
			} else {
				p.work(cmdbuf.WorkCopy, cBlit, rd(y, n, cmdbuf.ClientBlit), wr(x, n, cmdbuf.ClientBlit))
			}
			r.run(r.direct, p)
			assert.Equal(t, race, len(r.m.Hazards()) > 0, "%s: hazards: %v", second, r.m.Hazards())
			return r.m.Reference(x, n)
		}
		require.Equal(t, reference(false), reference(true), second)
	}
}

// TestInvalidateLosesWhatTheParentHoldsOlder: dropping dirty bytes whose
// parent holds an older value of them loses the write as surely as when
// the parent holds none: invalidate-before-flush, over the whole of the
// draw's bytes but those that happen to equal the parent's (the hazard
// spans the first and last lost byte).
func TestInvalidateLosesWhatTheParentHoldsOlder(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)). // L2 holds X as it was
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(0, caches(cmdbuf.CacheColor)))
	hs := r.m.Hazards()
	require.Len(t, hs, 1)
	assert.Equal(t, HazardInvalidateBeforeFlush, hs[0].Kind)
	assert.Greater(t, hs[0].Size, uint64(n-LineSize), "the lost bytes span: %s", hs[0].Message)
}
