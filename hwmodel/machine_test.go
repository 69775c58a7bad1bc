package hwmodel

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func discreteProfile(t *testing.T) *Profile {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	return p
}

// TestFaults: every malformed or impossible packet faults its submission
// with the offset and the reason; the rest of that submission is skipped,
// later submissions and other engines go on.
func TestFaults(t *testing.T) {
	cases := []struct {
		name   string
		words  func(r *rig, x uint64) []uint32
		reason string
	}{
		{"unmapped", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cCompute}, wr(0x1000, 64, store))
		}, "outside any mapping"},
		{"unaligned", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cCompute}, wr(x+2, 64, store))
		}, "not dword-aligned"},
		{"unknown surface", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cColor}, onSurface(wr(x, 64, color), 9, true))
		}, "surface 9, which is not defined"},
		{"stage not on engine", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkVideoDecode, Stage: cmdbuf.StageVideo}, wr(x, 64, cmdbuf.ClientVideo))
		}, "stage VIDEO, which a DIRECT engine does not have"},
		{"write through a fetch unit", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cColor}, wr(x, 64, cmdbuf.ClientVertexFetch))
		}, "writes through VERTEX_FETCH, which only reads"},
		{"copy sizes", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkCopy, Stage: cCopy}, rd(x, 64, copier), wr(x+128, 32, copier))
		}, "write 0 is 32 bytes, its read 64 bytes"},
		{"copy pairs", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkCopy, Stage: cCopy}, rd(x, 64, copier))
		}, "1 reads, 0 writes"},
		{"unknown opcode", func(r *rig, x uint64) []uint32 {
			return []uint32{uint32(cmdbuf.MakeHeader(0x7e, 0, 0))}
		}, "unknown opcode 0x7e"},
		{"truncated", func(r *rig, x uint64) []uint32 {
			return []uint32{uint32(cmdbuf.MakeHeader(cmdbuf.OpNop, 0, cmdbuf.MaxPayload)), 1}
		}, "runs past the end"},
		{"unregistered call", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 42})
		}, "CALL of buffer 42, which is not registered"},
		{"recursive call", func(r *rig, x uint64) []uint32 {
			r.m.RegisterBuffer(5, cmdbuf.FromWords(cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 5})))
			return cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 5})
		}, "nested deeper than 8"},
		{"call fan-out", func(r *rig, x uint64) []uint32 {
			// Buffers 10..15 each CALL the next eight times and 16 holds
			// eight WAITs: within the nesting limit, 8^7 packets from a
			// few hundred bytes.
			for id := uint32(10); id <= 16; id++ {
				var w []uint32
				for range 8 {
					if id == 16 {
						w = cmdbuf.AppendWait(w, cmdbuf.Wait{Drain: stages(cCompute), Hold: stages(cCompute)})
					} else {
						w = cmdbuf.AppendCall(w, cmdbuf.Call{Buffer: id + 1})
					}
				}
				r.m.RegisterBuffer(id, cmdbuf.FromWords(w))
			}
			return cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 10})
		}, "CALLs expand to more than 1048576 packets in one batch"},
		{"backward chain", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendChain(nil, cmdbuf.Chain{Next: 0})
		}, "CHAIN to chunk 0 from chunk 0"},
		{"unset event", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 3, Stages: stages(cCompute)})
		}, "EVENT_WAIT on event 3"},
		{"missing fence", func(r *rig, x uint64) []uint32 {
			return cmdbuf.AppendFenceSignal(nil, cmdbuf.Fence{ID: 77, Value: 1})
		}, "fence 77, which does not exist"},
		{"partial block", func(r *rig, x uint64) []uint32 {
			r.surface("S", 1024, 2, true)
			return cmdbuf.AppendDecompress(nil, cmdbuf.SurfaceRegion{Surface: 2, Offset: 8, Size: 256}, false)
		}, "not made of whole 256-byte blocks"},
		{"region outside", func(r *rig, x uint64) []uint32 {
			r.surface("S", 1024, 2, true)
			return cmdbuf.AppendMetadataInit(nil, cmdbuf.SurfaceRegion{Surface: 2, Offset: 768, Size: 512}, false)
		}, "outside surface 2's 1024 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, discreteProfile(t))
			x, y := r.alloc("X", 4096), r.alloc("Y", 4096)
			bad := r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(y, 64, store)).raw(c.words(r, x)).
				work(cmdbuf.WorkDispatch, cCompute, wr(y+64, 64, store))
			r.direct.Submit(bad.buffer())
			r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, 64, store)).buffer())
			r.compute.Submit(r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x+64, 64, store)).buffer())
			require.NoError(t, r.m.Run())
			faults := r.m.Faults()
			require.Len(t, faults, 1)
			f := faults[0]
			assert.Equal(t, "DIRECT#0", f.Engine)
			assert.Equal(t, 0, f.Batch)
			assert.Contains(t, f.Reason, c.reason)
			assert.Contains(t, f.String(), "fault on DIRECT#0, submission 0")
			// The packet after the bad one never ran; later work did.
			diffs, err := r.m.Compare(Region{Name: "Y1", Addr: y + 64, Size: 64})
			require.NoError(t, err)
			assert.Empty(t, diffs)
			assert.Equal(t, uint64(2), r.direct.Counters().Submissions)
			assert.Equal(t, uint64(1), r.compute.Counters().Submissions)
			assert.Empty(t, r.m.Hazards())
		})
	}
}

func TestDeadlock(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	f := r.m.NewFence()
	r.direct.Submit(r.prog().raw(cmdbuf.AppendFenceWait(nil, cmdbuf.Fence{ID: f, Value: 1})).buffer())
	x := r.alloc("X", n)
	r.copy.Submit(r.prog().work(cmdbuf.WorkCopy, cCopy, rd(x, 64, copier), wr(x+64, 64, copier)).buffer())
	err := r.m.Run()
	require.ErrorIs(t, err, ErrDeadlock)
	assert.Contains(t, err.Error(), "DIRECT#0")
	// The hung submission is abandoned with a fault at its FENCE_WAIT; the
	// other engine's work ran, and the machine is idle: later work runs.
	require.Len(t, r.m.Faults(), 1)
	ft := r.m.Faults()[0]
	assert.Equal(t, "DIRECT#0", ft.Engine)
	assert.Equal(t, 0, ft.Offset)
	assert.Contains(t, ft.Reason, "nothing signals")
	assert.Equal(t, uint64(1), r.copy.Counters().PacketCount(cmdbuf.OpWork))
	r.direct.Submit(r.prog().work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, load), wr(x+128, 64, store)).buffer())
	require.NoError(t, r.m.Run())
	assert.Len(t, r.m.Faults(), 1)
	assert.Empty(t, r.m.Hazards())
}

// TestHoldOnlyHoldsHeldStages: a WAIT that holds PIXEL does not order a
// later COMPUTE read; holding the CP does, because the CP then issues
// nothing until the drain.
func TestHoldOnlyHoldsHeldStages(t *testing.T) {
	for _, p := range Profiles() {
		for _, hold := range []cmdbuf.StageMask{stages(cmdbuf.StagePixel), stages(cmdbuf.StagePixel, cCP)} {
			r := newRig(t, p)
			x, y := r.alloc("X", n), r.alloc("Y", n)
			r.run(r.direct, r.prog().
				work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)).
				wait(stages(cCompute), hold).
				work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
			if hold.Has(cCP) {
				assert.NotContains(t, kinds(r.m.Hazards()), HazardReadAfterWrite, p.Name)
			} else {
				assert.Contains(t, kinds(r.m.Hazards()), HazardReadAfterWrite, p.Name)
			}
		}
	}
}

// TestWaitsChain: ordering is transitive through a chain of waits.
func TestWaitsChain(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)).
		wait(stages(cCompute), stages(cCopy, cCP)).
		cache(caches(cmdbuf.CacheShaderL0), 0).
		work(cmdbuf.WorkCopy, cCopy, rd(z, n, copier), wr(y, n, copier)).
		wait(stages(cCopy), stages(cmdbuf.StagePixel)).
		work(cmdbuf.WorkDraw, cmdbuf.StagePixel, rd(x, n, load), wr(z, n, color)))
	assert.Empty(t, r.m.Hazards(), "PIXEL waits on COPY, which waited on COMPUTE")
}

// TestColorWritesRetireInOrder: successive draws' render-target writes need
// no barrier (the colour back end retires in order), unlike UAV writes.
func TestColorWritesRetireInOrder(t *testing.T) {
	for _, p := range Profiles() {
		r := newRig(t, p)
		x := r.alloc("RT", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			work(cmdbuf.WorkDraw, cColor, rd(x, n, color), wr(x, n, color)))
		assert.Empty(t, r.m.Hazards(), p.Name)
		diffs, err := r.m.Compare(Region{Name: "RT", Addr: x, Size: n})
		require.NoError(t, err)
		assert.Empty(t, diffs, p.Name)
	}
}

// TestInvalidateBeforeFlushRefill: the reader's cache is invalidated, then
// refilled from below before the writer's flush, then read again.
func TestInvalidateBeforeFlushRefill(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
		wait(stages(cColor), stages(cCompute, cCP)).
		cache(0, caches(cmdbuf.CacheTextureL0)).
		work(cmdbuf.WorkDispatch, cCompute, rd(z, n, load), wr(y, n, store)).   // unrelated
		work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, load), wr(y, 64, store)). // refills a stale line
		wait(stages(cCompute), stages(cCompute, cCP)).
		cache(caches(cmdbuf.CacheColor), 0).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, load), wr(z, 64, store)))
	ks := kinds(r.m.Hazards())
	assert.Contains(t, ks, HazardMissingFlush, "the first read comes before the flush")
	assert.Contains(t, ks, HazardInvalidateBeforeFlush, "the second read hits the line refilled before the flush")
	assert.NotContains(t, ks, HazardUnexplained)
}

// TestSplitDecompressThroughEvent: an async decompress behind an event; the
// end half waits on it.
func TestSplitDecompressThroughEvent(t *testing.T) {
	for _, drop := range []bool{false, true} {
		r := newRig(t, discreteProfile(t))
		s, y := r.surface("RT", n, 1, true), r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, true)).
			wait(stages(cColor), stages(cBlit)).
			raw(cmdbuf.AppendCache(nil, cmdbuf.CacheOp{Flush: caches(cmdbuf.CacheColor)}, true)).
			wait(stages(cBlit), stages(cBlit)).
			raw(cmdbuf.AppendDecompress(nil, cmdbuf.SurfaceRegion{Surface: 1, Size: n}, true)).
			raw(cmdbuf.AppendEventSignal(nil, cmdbuf.Event{ID: 1, Stages: stages(cBlit)})).
			work(cmdbuf.WorkDispatch, cCompute, rd(y, 64, load), wr(y+64, 64, store)) // unrelated work meanwhile
		if !drop {
			p.raw(cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 1, Stages: stages(cCompute)}))
		}
		p.work(cmdbuf.WorkDispatch, cCompute, onSurface(rd(s, n, load), 1, false), wr(y+1024, 1024, store))
		r.run(r.direct, p)
		if drop {
			assert.NotEmpty(t, r.m.Hazards())
		} else {
			assert.Empty(t, r.m.Hazards())
		}
		assert.NotContains(t, kinds(r.m.Hazards()), HazardUnexplained)
		assert.Equal(t, uint64(n), r.direct.Counters().DecompressedBytes)
	}
}

func TestCountersAndTimeline(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
		wait(stages(cColor), stages(cCompute, cCP)).
		cache(caches(cmdbuf.CacheColor), caches(cmdbuf.CacheTextureL0)).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
	c := r.direct.Counters()
	assert.Equal(t, uint64(n/LineSize), c.FlushedLines[cmdbuf.CacheColor], "every dirty colour line written back")
	assert.Equal(t, uint64(100-8-1), c.StallsByStage[cColor], "the CP idled for the draw's 100 cycles less the WAIT's own 8 and its parsing")
	assert.Equal(t, c.StallsByStage[cColor]+c.StallsByStage[cCompute], c.StallCycles, "the end of submission waits for the dispatch")
	assert.Equal(t, uint64(200), c.WorkCycles)
	assert.Equal(t, uint64(1), c.PacketCount(cmdbuf.OpWait))
	assert.Equal(t, uint64(1), c.PacketCount(cmdbuf.OpCache))
	assert.Equal(t, uint64(1), c.Submissions)
	assert.Greater(t, c.Cycles, uint64(200))
	assert.Greater(t, c.BatchEndCycles, uint64(0), "the end-of-submission flush is counted")
	tl := r.direct.Timeline()
	require.NotEmpty(t, tl)
	for i := 1; i < len(tl); i++ {
		assert.LessOrEqual(t, tl[i].Start, tl[i].End)
	}
	tot := r.m.Total()
	assert.Equal(t, c.WorkCycles, tot.WorkCycles)
	assert.Equal(t, c.Cycles, c.CPCycles(), "the CP's parts add up to the engine's cycles")
	assert.Equal(t, 4*defaultCosts.Packet, c.IssueCycles, "four packets parsed")
	assert.Equal(t, defaultCosts.WaitBase, c.WaitCycles)
}

// TestCostPartsAddUp: on every engine, whatever ran (sync and async cache
// and compression operations, waits, events, fences across engines, several
// submissions), the CP's parts sum to its cycles, and the timeline's CP
// spans and stalls cover it without overlap.
func TestCostPartsAddUp(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.surface("S", n, 1, true)
	f := r.m.NewFence()
	asyncFlush := cmdbuf.AppendCache(nil, cmdbuf.CacheOp{Flush: caches(cmdbuf.CacheColor)}, true)
	asyncDecompress := cmdbuf.AppendDecompress(nil, cmdbuf.SurfaceRegion{Surface: 1, Size: n}, true)
	ev := cmdbuf.Event{ID: 1, Stages: stages(cmdbuf.StageBlit)}
	perPacket := map[*Engine]*Counters{}
	var waits int
	r.m.OnPacket(func(pc PacketCost) {
		if perPacket[pc.Engine] == nil {
			perPacket[pc.Engine] = &Counters{}
		}
		sum := perPacket[pc.Engine].Cycles + pc.Cost.Cycles // Add takes the maximum
		perPacket[pc.Engine].Add(pc.Cost)
		perPacket[pc.Engine].Cycles = sum
		if pc.Op == cmdbuf.OpFenceWait {
			waits++
		}
	})
	// The compute queue's FENCE_WAIT is submitted first: it blocks until
	// the direct queue signals, and still counts as one packet.
	r.run(r.compute, r.prog().
		raw(cmdbuf.AppendFenceWait(nil, cmdbuf.Fence{ID: f, Value: 1})).
		work(cmdbuf.WorkDispatch, cCompute, rd(y, n, load), wr(x, n, store)),
		r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			wait(stages(cColor), stages(cCP)).
			raw(asyncFlush).
			raw(cmdbuf.AppendEventSignal(nil, ev)).
			raw(cmdbuf.AppendEventWait(nil, cmdbuf.Event{ID: 1, Stages: stages(cCompute)})).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)).
			raw(asyncDecompress).
			wait(stages(cCompute, cmdbuf.StageBlit), stages(cCP)).
			cache(caches(cmdbuf.CacheL2), 0).
			raw(cmdbuf.AppendFenceSignal(nil, cmdbuf.Fence{ID: f, Value: 1})))
	r.run(r.direct, r.prog().decompress(1, n).work(cmdbuf.WorkDraw, cColor, wr(y, n, color)))
	for _, e := range r.m.Engines() {
		c := e.Counters()
		if c.Submissions == 0 {
			continue
		}
		assert.Equal(t, c.Cycles, c.CPCycles(), "%s: the CP's parts add up to its cycles", e.Name())
		var packets uint64
		for _, k := range c.Packets {
			packets += k
		}
		assert.Equal(t, packets*defaultCosts.Packet, c.IssueCycles, "%s: every packet is parsed once", e.Name())
		var busy, last uint64
		for _, sp := range e.Timeline() {
			if sp.Stage == cmdbuf.StageCP {
				assert.GreaterOrEqual(t, sp.Start, last, "%s: CP spans do not overlap", e.Name())
				busy += sp.End - sp.Start
				last = sp.End
			}
		}
		assert.Equal(t, c.Cycles-c.StallCycles, busy, "%s: the CP is busy exactly when it is not stalled", e.Name())
		// What OnPacket reported adds up to the engine's counters, less
		// the ends of its submissions.
		pp := perPacket[e]
		require.NotNil(t, pp, e.Name())
		end := c.BatchEndCycles
		assert.Equal(t, c.Packets, pp.Packets, "%s: every packet reported once", e.Name())
		assert.Equal(t, c.IssueCycles+c.WaitCycles+c.CacheCycles+c.CompressionCycles, pp.IssueCycles+pp.WaitCycles+pp.CacheCycles+pp.CompressionCycles, e.Name())
		assert.Equal(t, c.WorkCycles, pp.WorkCycles, e.Name())
		assert.Equal(t, c.AsyncCycles, pp.AsyncCycles, e.Name())
		assert.LessOrEqual(t, pp.Cycles, c.Cycles-end, "%s: packets' CP time excludes the ends of submissions (and the stalls before them)", e.Name())
		assert.Equal(t, pp.Cycles, pp.CPCycles(), "%s: each packet's CP time is the sum of its parts", e.Name())
	}
	assert.Equal(t, 1, waits, "the blocked FENCE_WAIT is reported once, when it passes")
	d := r.direct.Counters()
	assert.NotZero(t, d.AsyncCycles, "the async CACHE and DECOMPRESS ran on the BLIT stage")
	assert.NotZero(t, d.CompressionCycles, "the sync DECOMPRESS ran on the CP")
	assert.NotZero(t, r.compute.Counters().StallCycles, "the compute queue waited for the fence")
	assert.Equal(t, uint64(1), r.compute.Counters().PacketCount(cmdbuf.OpFenceWait))
}

func TestCPUViewsAndSparseMemory(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	big, err := r.m.Allocate(8<<30, 0, false)
	require.NoError(t, err)
	up, err := r.m.Allocate(n, 0, true)
	require.NoError(t, err)
	rb, err := r.m.Allocate(n, 0, true)
	require.NoError(t, err)
	data := bytes.Repeat([]byte{1, 2, 3, 4}, n/4)
	require.NoError(t, r.m.CPUWrite(up, data))
	r.run(r.copy, r.prog().work(cmdbuf.WorkCopy, cCopy, rd(up, n, copier), wr(big+7<<30, n, copier)))
	r.run(r.copy, r.prog().work(cmdbuf.WorkCopy, cCopy, rd(big+7<<30, n, copier), wr(rb, n, copier)))
	got := make([]byte, n)
	require.NoError(t, r.m.CPURead(rb, got))
	assert.Equal(t, data, got)
	assert.LessOrEqual(t, r.m.mem.Pages(), 4, "an 8 GiB heap costs nothing until used")
	assert.Error(t, r.m.CPUWrite(big, data), "a default heap is not CPU-visible")
	assert.Error(t, r.m.CPURead(0x10, got))
	_, err = r.m.Allocate(0, 0, false)
	assert.Error(t, err)
	_, err = r.m.Allocate(1, 3, false)
	assert.Error(t, err)
}

func TestSurfaceErrors(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	a := r.alloc("A", n)
	assert.Error(t, r.m.DefineSurface(Surface{ID: 0, Base: a, Size: 256, Meta: a + 1024}))
	assert.Error(t, r.m.DefineSurface(Surface{ID: 1, Base: a, Size: 0, Meta: a + 1024}))
	assert.Error(t, r.m.DefineSurface(Surface{ID: 1, Base: 0x40, Size: 256, Meta: a}))
	assert.Error(t, r.m.DefineSurface(Surface{ID: 1, Base: a, Size: 256, Meta: a + n - 1}))
	require.NoError(t, r.m.DefineSurface(Surface{ID: 1, Base: a, Size: 256, Meta: a + 1024}))
	assert.Error(t, r.m.DefineSurface(Surface{ID: 1, Base: a, Size: 256, Meta: a + 1024}))
	assert.Error(t, r.m.InitializeMetadata(9, 0))
	_, err := r.m.Logical(a, 512, 1)
	assert.Error(t, err)
	_, err = New(nil)
	assert.Error(t, err)
}

// TestDeterministic: the same program gives the same bytes, hazards and
// costs every time.
func TestDeterministic(t *testing.T) {
	run := func() ([]Hazard, Counters, []byte) {
		r := newRig(t, discreteProfile(t))
		x, y := r.alloc("X", n), r.alloc("Y", n)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)).
			work(cmdbuf.WorkCopy, cCopy, rd(y, n, copier), wr(x, n, copier)))
		got, err := r.m.Logical(x, n, 0)
		require.NoError(t, err)
		return r.m.Hazards(), r.direct.Counters(), got
	}
	h1, c1, b1 := run()
	h2, c2, b2 := run()
	assert.NotEmpty(t, h1)
	assert.Equal(t, h1, h2)
	assert.Equal(t, c1, c2)
	assert.Equal(t, b1, b2)
}

func TestCallExecutes(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x := r.alloc("X", n)
	r.m.RegisterBuffer(3, r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, 64, store)).buffer())
	r.run(r.direct, r.prog().raw(cmdbuf.AppendCall(nil, cmdbuf.Call{Buffer: 3})).
		wait(stages(cCompute), stages(cCompute)).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, store), wr(x+64, 64, store)))
	assert.Empty(t, r.m.Hazards())
	diffs, err := r.m.Compare(Region{Name: "X", Addr: x, Size: 128})
	require.NoError(t, err)
	assert.Empty(t, diffs)
	assert.Equal(t, uint64(2), r.direct.Counters().PacketCount(cmdbuf.OpWork))
	b, ok := r.m.Buffer(3)
	assert.True(t, ok)
	assert.NotNil(t, b)
}

func TestChainedChunksExecute(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x := r.alloc("X", n)
	b := cmdbuf.NewBuffer(32)
	for i := 0; i < 20; i++ {
		b.Append(cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cCompute, Duration: 1, ID: uint32(i)},
			wr(x+uint64(i)*64, 64, store)))
	}
	require.Greater(t, len(b.Chunks()), 2)
	r.direct.Submit(b)
	require.NoError(t, r.m.Run())
	assert.Empty(t, r.m.Faults())
	assert.Equal(t, uint64(20), r.direct.Counters().PacketCount(cmdbuf.OpWork))
	diffs, err := r.m.Compare(Region{Name: "X", Addr: x, Size: 20 * 64})
	require.NoError(t, err)
	assert.Empty(t, diffs)
}

func TestNamesRoundTrip(t *testing.T) {
	for k := EngineKind(0); k < NumEngineKinds; k++ {
		back, err := ParseEngineKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, back)
	}
	for k := HazardKind(0); k < NumHazardKinds; k++ {
		back, err := ParseHazardKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, back)
	}
	_, err := ParseHazardKind("nope")
	assert.True(t, err != nil && !errors.Is(err, ErrDeadlock))
}

// TestFlushDoesNotPublishUnorderedBytes: a flush writes back only the bytes
// it is ordered after, and what it leaves dirty stays the unordered
// writer's: a second flush, still not ordered after that writer, must not
// treat those bytes as settled by the first one and publish them.
func TestFlushDoesNotPublishUnorderedBytes(t *testing.T) {
	for _, p := range Profiles() {
		if !p.Has(cmdbuf.CacheColor) {
			continue
		}
		r := newRig(t, p)
		x, y := r.alloc("X", 64), r.alloc("Y", 64)
		r.run(r.direct, r.prog().
			work(cmdbuf.WorkDraw, cColor, wr(x, 32, color)).
			wait(stages(cColor), stages(cCP)).
			work(cmdbuf.WorkDraw, cColor, wr(x+32, 32, color)). // nothing orders this one
			cache(caches(cmdbuf.CacheColor), 0).
			cache(caches(cmdbuf.CacheColor), caches(cmdbuf.CacheTextureL0)).
			work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, load), wr(y, 64, store)))
		var raw []Hazard
		for _, h := range r.m.Hazards() {
			if h.Kind == HazardReadAfterWrite {
				raw = append(raw, h)
			}
		}
		require.Len(t, raw, 1, p.Name)
		assert.Equal(t, x+32, raw[0].Addr, p.Name)
		assert.Equal(t, uint64(32), raw[0].Size, p.Name)
		diffs, err := r.m.Compare(Region{Name: "Y", Addr: y, Size: 64})
		require.NoError(t, err)
		assert.NotEmpty(t, diffs, p.Name)
	}
}

// TestChainedWorkCarriesInputs: a WORK chained to the one before it (one
// draw split over its stages) writes outputs that depend on what the
// first read; a chained WORK with no such predecessor faults.
func TestChainedWorkCarriesInputs(t *testing.T) {
	outputFor := func(seed byte) []byte {
		r := newRig(t, discreteProfile(t))
		x, y := r.alloc("X", 64), r.alloc("Y", 64)
		require.NoError(t, r.m.Fill(x, 64, seed))
		p := r.prog().work(cmdbuf.WorkDraw, cmdbuf.StagePixel, rd(x, 64, load))
		p.w = cmdbuf.AppendWork(p.w, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cColor, Duration: 10, ID: r.nextID, Chained: true},
			wr(y, 64, color))
		r.run(r.direct, p)
		require.Empty(t, r.m.Hazards())
		out, err := r.m.Logical(y, 64, 0)
		require.NoError(t, err)
		return out
	}
	assert.NotEqual(t, outputFor(1), outputFor(2), "the colour stage's output depends on the pixel stage's reads")

	r := newRig(t, discreteProfile(t))
	y := r.alloc("Y", 64)
	r.direct.Submit(r.prog().raw(cmdbuf.AppendWork(nil, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cColor, ID: 9, Chained: true},
		wr(y, 64, color))).buffer())
	require.NoError(t, r.m.Run())
	require.Len(t, r.m.Faults(), 1)
	assert.Contains(t, r.m.Faults()[0].Reason, "chained DRAW (id 9) does not follow a WORK of that id")
}

// TestPlainMetadataInit: marking plain blocks plain keeps their bytes (the
// reference is untouched); marking compressed blocks plain loses what they
// meant, a compressed-write hazard.
func TestPlainMetadataInit(t *testing.T) {
	for _, compress := range []bool{false, true} {
		r := newRig(t, discreteProfile(t))
		s := r.surface("RT", n, 1, false) // whole-block writes need no metadata
		y := r.alloc("Y", n)
		p := r.prog().work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, compress)).
			wait(stages(cColor), stages(cCP)).
			cache(caches(cmdbuf.CacheColor), 0)
		p.w = cmdbuf.AppendMetadataInit(p.w, cmdbuf.SurfaceRegion{Surface: 1, Size: n, Plain: true}, false)
		p.work(cmdbuf.WorkCopy, cCopy, onSurface(rd(s, n, copier), 1, false), wr(y, n, copier))
		r.run(r.direct, p)
		diffs, err := r.m.Compare(Region{Name: "Y", Addr: y, Size: n})
		require.NoError(t, err)
		if !compress {
			assert.Empty(t, r.m.Hazards())
			assert.Empty(t, diffs)
			continue
		}
		assert.Equal(t, []HazardKind{HazardCompressedWrite}, kinds(r.m.Hazards()))
		assert.Contains(t, r.m.Hazards()[0].Message, "marked compressed blocks of surface 1 plain")
		assert.NotEmpty(t, diffs)
	}
}

// TestDiscardingMetadataInit: marking compressed blocks plain with the
// discard flag loses nothing (their contents were discarded): no hazard;
// a plain write over them then reads back right. Without the flag the same
// program loses the draw's blocks (TestPlainMetadataInit).
func TestDiscardingMetadataInit(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	s := r.surface("RT", n, 1, false)
	x := r.alloc("X", n)
	p := r.prog().work(cmdbuf.WorkDraw, cColor, onSurface(wr(s, n, color), 1, true)).
		wait(stages(cColor), stages(cCP)).
		cache(cmdbuf.AllCaches, cmdbuf.AllCaches)
	p.w = cmdbuf.AppendMetadataInit(p.w, cmdbuf.SurfaceRegion{Surface: 1, Size: n, Plain: true, Discard: true}, false)
	p.work(cmdbuf.WorkCopy, cCopy, rd(x, n, copier), onSurface(wr(s, n, copier), 1, false))
	r.run(r.direct, p)
	assert.Empty(t, r.m.Hazards())
	diffs, err := r.m.Compare(Region{Name: "RT", Addr: s, Size: n, Surface: 1})
	require.NoError(t, err)
	assert.Empty(t, diffs)
}

// TestInvalidateLeavesInFlightWrites: an invalidate does not drop bytes
// written by work it is not ordered after (they arrive after it); a later,
// ordered flush still writes them back.
func TestInvalidateLeavesInFlightWrites(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)).
		cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheShaderL0)). // not ordered after the dispatch
		wait(stages(cCompute), stages(cCP)).
		cache(caches(cmdbuf.CacheShaderL0), caches(cmdbuf.CacheTextureL0)).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, n, load), wr(y, n, store)))
	assert.Empty(t, r.m.Hazards())
	diffs, err := r.m.Compare(Region{Name: "Y", Addr: y, Size: n})
	require.NoError(t, err)
	assert.Empty(t, diffs)
}

func TestLargeFillsAndCapacity(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	big, err := r.m.Allocate(8<<30, 0, false)
	require.NoError(t, err)
	require.NoError(t, r.m.Fill(big+100, 6<<30, 0x5a))
	assert.LessOrEqual(t, r.m.mem.Pages(), 2, "whole pages filled stay unmaterialised")
	got := make([]byte, 8)
	r.m.mem.Read(big+96, got)
	assert.Equal(t, []byte{FillByte(big + 96), FillByte(big + 97), FillByte(big + 98), FillByte(big + 99), 0x5a, 0x5a, 0x5a, 0x5a}, got)
	r.m.mem.Read(big+3<<30, got)
	assert.Equal(t, bytes.Repeat([]byte{0x5a}, 8), got)
	end := big + 100 + 6<<30
	r.m.mem.Read(end-4, got)
	assert.Equal(t, []byte{0x5a, 0x5a, 0x5a, 0x5a, FillByte(end), FillByte(end + 1), FillByte(end + 2), FillByte(end + 3)}, got)
	// A materialised page filled whole drops its bytes.
	r.m.mem.Write(big+PageSize*5, []byte{1, 2, 3})
	require.NoError(t, r.m.Fill(big+PageSize*5, PageSize, 7))
	r.m.mem.Read(big+PageSize*5, got)
	assert.Equal(t, bytes.Repeat([]byte{7}, 8), got)

	_, err = r.m.Allocate(Capacity, 0, false)
	assert.ErrorContains(t, err, "out of memory")
	_, err = r.m.Allocate(Capacity-8<<30, 0, false)
	assert.NoError(t, err, "up to the capacity")
}

// TestFreeReturnsMemory: freeing a mapping gives its bytes back to the
// capacity and drops its pages, only when the engines are idle, once.
func TestFreeReturnsMemory(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	a, err := r.m.Allocate(8<<30, 0, false)
	require.NoError(t, err)
	b, err := r.m.Allocate(4<<30, 0, false)
	require.NoError(t, err)
	r.m.mem.Write(a+5, []byte{1, 2, 3})
	r.m.mem.Write(b, []byte{4})
	require.Equal(t, 2, r.m.mem.Pages())
	_, err = r.m.Allocate(8<<30, 0, false)
	require.ErrorIs(t, err, ErrOutOfMemory)

	r.direct.Submit(cmdbuf.FromWords(cmdbuf.AppendFenceSignal(nil, cmdbuf.Fence{ID: r.m.NewFence(), Value: 1})))
	assert.ErrorIs(t, r.m.Free(a), ErrBusy, "work in flight")
	require.NoError(t, r.m.Run())
	require.NoError(t, r.m.Free(a))
	assert.Equal(t, 1, r.m.mem.Pages(), "the freed mapping's page is gone, the other's kept")
	_, ok := r.m.mapped(a, 1)
	assert.False(t, ok)
	assert.ErrorContains(t, r.m.Free(a), "no mapping starts there")
	assert.ErrorContains(t, r.m.Free(b+1), "no mapping starts there")
	c, err := r.m.Allocate(8<<30, 0, false)
	require.NoError(t, err, "the capacity came back")
	assert.Greater(t, c, b, "addresses are not reused")
}

// TestRunContextStopsMidWork: a cancelled run stops inside a WORK that
// touches a gigabyte, returns the context's error, and the machine says
// so from then on.
func TestRunContextStopsMidWork(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	const big = 1 << 30
	x := r.alloc("X", big)
	r.direct.Submit(r.prog().work(cmdbuf.WorkClear, cCompute, wr(x, big, store)).buffer())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := r.m.RunContext(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, r.m.Run(), context.Canceled, "a cancelled machine is finished")
}

// TestChainedStageStartsAfterTheStageItContinues: a draw's vertex stage
// held behind a long dispatch; its pixel stage, chained and not held
// itself, cannot start before the vertex stage does.
func TestChainedStageStartsAfterTheStageItContinues(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", 4096), r.alloc("Y", 4096)
	p := r.prog()
	p.w = cmdbuf.AppendWork(p.w, cmdbuf.Work{Kind: cmdbuf.WorkDispatch, Stage: cCompute, Duration: 5000, ID: 1}, wr(x, 64, store))
	p.wait(stages(cCompute), stages(cmdbuf.StageVertex))
	p.w = cmdbuf.AppendWork(p.w, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cmdbuf.StageVertex, Duration: 100, ID: 2})
	p.w = cmdbuf.AppendWork(p.w, cmdbuf.Work{Kind: cmdbuf.WorkDraw, Stage: cmdbuf.StagePixel, Duration: 100, ID: 2, Chained: true},
		wr(y, 64, color))
	r.direct.Submit(p.buffer())
	require.NoError(t, r.m.Run())
	var vertex, pixel uint64
	for _, s := range r.direct.Timeline() {
		switch s.Stage {
		case cmdbuf.StageVertex:
			vertex = s.Start
		case cmdbuf.StagePixel:
			pixel = s.Start
		}
	}
	require.NotZero(t, vertex)
	assert.GreaterOrEqual(t, vertex, uint64(5000), "the vertex stage waits for the dispatch")
	assert.GreaterOrEqual(t, pixel, vertex, "the chained pixel stage does not run ahead of the work it continues")
}
