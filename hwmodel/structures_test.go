package hwmodel

import (
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Tests of the structures that keep the model fast (docs/hardware.md
// "Speed"): each pins down a behaviour a shortcut must keep.

// TestLineImagesRoundTrip: an effect gives back exactly the line it kept,
// whether it kept a dword (a line repeating one, as it is or as a
// compressed surface stores it at the line's address) or a slot (any other
// line, lines repeating 8 bytes but not 4 included).
func TestLineImagesRoundTrip(t *testing.T) {
	var lv level
	images := map[string][LineSize]byte{}
	var img [LineSize]byte
	for i := range img {
		img[i] = []byte{1, 2, 3, 4}[i%4]
	}
	images["dword"] = img
	for i := range img {
		img[i] = byte(i % 8)
	}
	images["8-byte period"] = img
	for i := range img {
		img[i] = byte(i * 7)
	}
	images["no period"] = img
	img = [LineSize]byte{}
	images["zero"] = img
	img[63] = 1
	images["zero but the last byte"] = img
	// What a compressed surface stores for a dword pattern, at the line's
	// address and at another (which it is not there), and for a pattern
	// whose first dwords alone repeat.
	const la, other = 0x10000440, 0x10000480
	encoded := func(v []byte) [LineSize]byte {
		var img [LineSize]byte
		for i := range img {
			img[i] = v[i%len(v)]
		}
		encode(img[:], la)
		return img
	}
	images["encoded dword"] = encoded([]byte{0, 0, 0x80, 0x3f})
	images["encoded zero"] = encoded([]byte{0})
	images["encoded 8-byte period"] = encoded([]byte{1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7, 8, 5, 6, 7, 8})
	for name, img := range images {
		for _, at := range []uint64{la, other} {
			var e lineEffect
			lv.keepImage(&e, &img, at)
			var buf [LineSize]byte
			assert.Equal(t, img, *lv.imageOf(&e, &buf, at), "%s at %#x", name, at)
		}
	}
	kind := func(name string, at uint64) uint8 {
		var e lineEffect
		lv.keepImage(&e, ptr(images[name]), at)
		return e.image
	}
	assert.Equal(t, uint8(dwordImage), kind("dword", la), "a line repeating a dword needs no slot")
	assert.Equal(t, uint8(slotImage), kind("8-byte period", la))
	assert.Equal(t, uint8(encodedImage), kind("encoded dword", la), "nor one a compressed surface stores for a dword")
	assert.Equal(t, uint8(encodedImage), kind("encoded zero", la))
	assert.Equal(t, uint8(slotImage), kind("encoded dword", other), "encoded for another address")
	assert.Equal(t, uint8(slotImage), kind("encoded 8-byte period", la))
}

func ptr[T any](v T) *T { return &v }

// TestCompareAcrossChunks: Compare decodes a region a chunk at a time; a
// difference in a later chunk is reported at its offset in the region.
func TestCompareAcrossChunks(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	size := uint64(3 * compareChunk)
	x := r.alloc("X", size)
	require.NoError(t, r.m.Fill(x, size, 7))
	r.m.mem.Write(x+compareChunk+5, []byte{9})
	r.m.mem.Write(x+2*compareChunk+100, []byte{9, 9})
	diffs, err := r.m.Compare(Region{Name: "X", Addr: x, Size: size})
	require.NoError(t, err)
	require.Len(t, diffs, 1)
	d := diffs[0]
	assert.Equal(t, uint64(compareChunk+5), d.First)
	assert.Equal(t, uint64(2*compareChunk+101), d.Last)
	assert.Equal(t, uint64(3), d.Count)
	assert.Equal(t, byte(9), d.Got)
	assert.Equal(t, byte(7), d.Want)
}

// TestSurfaceLookupAcrossPages: the remembered page of the last surface
// lookup answers only for that page.
func TestSurfaceLookupAcrossPages(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	a := r.surface("A", PageSize, 1, true)
	b := r.surface("B", PageSize, 2, true)
	for range 2 {
		require.NotNil(t, r.m.surfaceAt(a))
		assert.Equal(t, uint16(1), r.m.surfaceAt(a+10).ID)
		assert.Equal(t, uint16(2), r.m.surfaceAt(b+10).ID)
		assert.Nil(t, r.m.surfaceAt(a+PageSize+MetadataSize(PageSize)), "A's metadata is no surface")
	}
	r.m.RemoveSurface(2)
	assert.Nil(t, r.m.surfaceAt(b+10), "a removed surface is forgotten")
}

// TestSubmissionEndCostsItsLines: the end of a submission costs its base
// plus every line it writes back and every line it drops, at every level
// the data went through.
func TestSubmissionEndCostsItsLines(t *testing.T) {
	for _, p := range Profiles() {
		r := newRig(t, p)
		x := r.alloc("X", n)
		r.run(r.direct, r.prog().work(cmdbuf.WorkDraw, cColor, wr(x, n, color)))
		c := p.Costs
		levels := uint64(len(r.direct.paths[color]) - 1)
		want := c.BatchEndBase + levels*(n/LineSize)*(c.FlushPerLine+c.InvalPerLine)
		assert.Equal(t, want, r.direct.Counters().BatchEndCycles, p.Name)
	}
}

// TestFlushOrderHazard: writing back a cache holding older data over what a
// later writer already wrote back destroys the newer data — a
// write-after-write hazard that names both writers. The line is anywhere in
// its block, whose write-back asks the reference once for the newest writer
// of the lines it writes back; or the older data is a whole block, written
// back into an L2 that holds none of it (flushBlock, which shares the
// block's bytes), whose own write-back then lands it over memory's newer
// line.
func TestFlushOrderHazard(t *testing.T) {
	for _, line := range []uint64{0, 1, 37, 63, blockLines} {
		r := newRig(t, discreteProfile(t))
		x0, y := r.alloc("X", n), r.alloc("Y", n)
		x, size := x0+line*LineSize, uint32(LineSize)
		p := r.prog()
		if line == blockLines {
			x, size = x0, n
		}
		p.work(cmdbuf.WorkDraw, cColor, wr(x, size, color)).
			wait(stages(cColor), stages(cCompute, cCP)).
			work(cmdbuf.WorkDispatch, cCompute, rd(y, 64, load), wr(x, 64, store)).
			wait(stages(cCompute), stages(cCP)).
			cache(caches(cmdbuf.CacheShaderL0, cmdbuf.CacheL2), 0)
		if line == blockLines { // the newer line in memory alone
			p.cache(0, caches(cmdbuf.CacheShaderL0, cmdbuf.CacheL2)).wait(cmdbuf.AllStages, cmdbuf.AllStages)
		}
		r.run(r.direct, p.cache(caches(cmdbuf.CacheColor, cmdbuf.CacheL2), 0))
		var found bool
		for _, h := range r.m.Hazards() {
			// The colour cache's write-back lands over L2's line; with L2
			// holding none, L2's write-back lands over memory's.
			by := "flushing COLOR[DIRECT#0] wrote DRAW"
			if line == blockLines {
				by = "flushing L2 wrote DRAW"
			}
			if h.Kind == HazardWriteAfterWrite && strings.Contains(h.Message, by) {
				found = true
			}
		}
		assert.True(t, found, "line %d: hazards: %v", line, r.m.Hazards())
	}
}

// TestSettledInvalidateOfDirtyLines: an invalidate every later op is
// ordered after, of dirty lines whose writer's records are retired, still
// loses their data — the block path for clean lines must not take them.
func TestSettledInvalidateOfDirtyLines(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	r.m.retireMin, r.m.retireAt = 0, 0 // retire after every packet
	x := r.alloc("X", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDraw, cColor, wr(x, n, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(0, caches(cmdbuf.CacheColor)))
	assert.Contains(t, kinds(r.m.Hazards()), HazardInvalidateBeforeFlush)
}

// TestRetireKeepsStateBounded: a long list of barriers and work keeps the
// in-flight records and the undo images bounded: retiring drops what no op
// to come can be unordered with and gives its images' slots back.
func TestRetireKeepsStateBounded(t *testing.T) {
	peak := func(rounds int) (records, images int) {
		r := newRig(t, discreteProfile(t))
		rt, uav := r.alloc("rt", 1<<14), r.alloc("uav", 1<<14)
		p, _ := barrierStream(r, rt, uav, rounds)
		r.m.OnPacket(func(PacketCost) {
			records = max(records, r.m.effects.count())
			used := 0
			for _, lv := range r.m.allLevels() {
				used += int(lv.undo.used) - len(lv.undo.free)
			}
			images = max(images, used)
		})
		r.run(r.direct, p)
		require.Empty(t, r.m.Hazards())
		require.Empty(t, r.m.effects.buckets, "the end of the submission leaves no access logged")
		require.Zero(t, r.m.effects.count())
		return records, images
	}
	r1, i1 := peak(256)
	r4, i4 := peak(1024)
	assert.LessOrEqual(t, r4, r1+r1/4, "records grow with the list: %d for 256 rounds, %d for 1024", r1, r4)
	assert.LessOrEqual(t, i4, i1+i1/4, "images grow with the list: %d for 256 rounds, %d for 1024", i1, i4)
}

// staleTextureLines leaves the texture cache holding X's first write
// (stale) while memory and L2 hold its second: W1 writes X, a dispatch
// reads it into the texture cache, W2 writes X again and is written back,
// with no invalidate of the texture cache.
func staleTextureLines(r *rig, x, y uint64) *prog {
	return r.prog().
		work(cmdbuf.WorkDraw, cColor, wr(x, 128, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(caches(cmdbuf.CacheColor, cmdbuf.CacheL2), caches(cmdbuf.CacheTextureL0)).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, 128, load), wr(y, 64, store)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		work(cmdbuf.WorkDraw, cColor, wr(x, 128, color)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		cache(caches(cmdbuf.CacheColor, cmdbuf.CacheL2), 0)
}

// TestReadBehindUnorderedInvalidate: lines an invalidate dropped are still
// there for a reader not ordered after it — the block read path must not
// take their block for one no cache holds, though none holds it now.
func TestReadBehindUnorderedInvalidate(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
	p := staleTextureLines(r, x, y)
	// Async, so the reader is not ordered after it; every cache in the
	// reader's path drops X's lines.
	p.w = cmdbuf.AppendCache(p.w, cmdbuf.CacheOp{Invalidate: caches(cmdbuf.CacheTextureL0, cmdbuf.CacheL2)}, true)
	p.work(cmdbuf.WorkDispatch, cCompute, rd(x, 128, load), wr(z, 128, store))
	r.run(r.direct, p)
	requireStaleRead(t, r.m, x)
}

// requireStaleRead requires a hazard saying a read of x got a stale copy.
func requireStaleRead(t *testing.T, m *Machine, x uint64) {
	t.Helper()
	for _, h := range m.Hazards() {
		if h.Addr >= x && h.Addr < x+n && strings.Contains(h.Message, "stale copy") {
			return
		}
	}
	t.Fatalf("no stale read of 0x%x reported: %v", x, m.Hazards())
}

// TestRangedInvalidateKeepsTheRest: a settled invalidate of part of a block
// of clean lines leaves the block's other lines (stale ones included).
func TestRangedInvalidateKeepsTheRest(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	r.m.retireMin, r.m.retireAt = 0, 0 // the lines' records are gone: the block path applies
	x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
	p := staleTextureLines(r, x, y)
	p.w = cmdbuf.AppendCache(p.w, cmdbuf.CacheOp{Invalidate: caches(cmdbuf.CacheTextureL0), Addr: x, Size: 64}, false)
	p.work(cmdbuf.WorkDispatch, cCompute, rd(x+64, 64, load), wr(z, 64, store))
	r.run(r.direct, p)
	requireStaleRead(t, r.m, x) // the second line is still stale
}

// TestRetireKeepsLiveRecords: retiring a block that holds a gone op's
// record and a live op's on the same line keeps the live one, so a reader
// not ordered after the live writer still misses its data.
func TestRetireKeepsLiveRecords(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	r.m.retireMin, r.m.retireAt = 0, 0
	x, y, z := r.alloc("X", n), r.alloc("Y", n), r.alloc("Z", n)
	// On discrete, copies write into L2, which the dispatch reads through.
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkCopy, cCopy, rd(y, 64, copier), wr(x, 64, copier)).
		wait(cmdbuf.AllStages, cmdbuf.AllStages).
		work(cmdbuf.WorkCopy, cCopy, rd(z, 64, copier), wr(x, 64, copier)).
		work(cmdbuf.WorkDispatch, cCompute, rd(x, 64, load), wr(y, 64, store)))
	assert.Contains(t, kinds(r.m.Hazards()), HazardReadAfterWrite)
}

// TestIdleEngineAfterReset: after the CPU saw the GPU idle, an engine that
// was idle meanwhile writes what another engine wrote before, with no race.
func TestIdleEngineAfterReset(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	x, y := r.alloc("X", n), r.alloc("Y", n)
	r.run(r.compute, r.prog().work(cmdbuf.WorkDispatch, cCompute, wr(x, n, store)))
	r.run(r.copy, r.prog().work(cmdbuf.WorkCopy, cCopy, rd(y, n, copier), wr(x, n, copier)))
	assert.Empty(t, r.m.Hazards())
}

// TestRetiredAccessesAreFreedOnce: an access spanning several 4 KiB
// buckets is given back once when retired, never while a bucket still
// holds it, so no two live accesses share a record.
func TestRetiredAccessesAreFreedOnce(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	r.m.retireMin, r.m.retireAt = 0, 0
	const big = 3*4096 + 512
	x, y := r.alloc("X", 4*4096), r.alloc("Y", 4*4096)
	p := r.prog()
	for range 8 {
		p.work(cmdbuf.WorkDispatch, cCompute, rd(y+100, big, load), wr(x+100, big, store)).
			wait(cmdbuf.AllStages, cmdbuf.AllStages) // the dispatch is gone: its accesses retire
	}
	var freed int
	r.m.OnPacket(func(PacketCost) {
		g := r.m.effects
		freed = max(freed, len(g.free))
		free := map[*access]bool{}
		for _, a := range g.free {
			require.False(t, free[a], "a record is free twice")
			free[a] = true
		}
		for _, as := range g.buckets {
			for _, a := range as {
				require.False(t, free[a], "a logged access's record is free")
			}
		}
	})
	r.run(r.direct, p)
	require.Empty(t, r.m.Hazards())
	require.NotZero(t, freed, "no access was retired: the test tests nothing")
}

// TestWriteRacingMetadataInit: a write to bytes a METADATA_INIT it is not
// ordered after redefines races it, wherever in the surface the region
// starts.
func TestWriteRacingMetadataInit(t *testing.T) {
	r := newRig(t, discreteProfile(t))
	s := r.surface("S", n, 1, true)
	y := r.alloc("Y", n)
	p := r.prog()
	p.w = cmdbuf.AppendMetadataInit(p.w, cmdbuf.SurfaceRegion{Surface: 1, Offset: 1024, Size: 1024, Value: 3}, true)
	p.work(cmdbuf.WorkDispatch, cCompute, rd(y, 64, load), wr(s+1024+128, 64, store))
	r.run(r.direct, p)
	var found bool
	for _, h := range r.m.Hazards() {
		found = found || h.Kind == HazardWriteAfterWrite && strings.Contains(h.Message, "METADATA_INIT")
	}
	assert.True(t, found, "hazards: %v", r.m.Hazards())
}

// TestEncodeByWords: encode, a word's eight keys at once, gives every byte
// the key key() gives it alone, for every length and alignment, and no key
// is 0.
func TestEncodeByWords(t *testing.T) {
	for _, addr := range []uint64{0, 1, 7, 255, 1 << 32, 0x10000440, 1<<64 - 300, 0xfffffffffffffff0} {
		for _, n := range append(sequence(41), 300) {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i * 37)
			}
			encode(b, addr)
			for i := range b {
				require.NotZero(t, key(addr+uint64(i)))
				require.Equal(t, byte(i*37)^key(addr+uint64(i)), b[i], "addr %#x length %d byte %d", addr, n, i)
			}
		}
	}
}

// sequence is 0, 1, ..., n-1.
func sequence(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// BenchmarkEncode: the key stream over a 4 KiB block.
func BenchmarkEncode(b *testing.B) {
	buf := make([]byte, 4096)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		encode(buf, 0x10000000)
	}
}

// TestAccessLogKeepsOpsAndClientsApart: one record stands for an op's
// contiguous accesses of one kind, level and client, and for nothing else:
// a write of another op, or of the same op through another client, that
// continues the last one keeps its own record, and the checks still find
// it.
func TestAccessLogKeepsOpsAndClientsApart(t *testing.T) {
	waw := func(r *rig, lo, hi uint64) bool {
		for _, h := range r.m.Hazards() {
			if h.Kind == HazardWriteAfterWrite && h.Addr <= lo && hi <= h.Addr+h.Size {
				return true
			}
		}
		return false
	}
	// B's write continues A's; the WAIT orders A before C, not B.
	r := newRig(t, discreteProfile(t))
	x := r.alloc("X", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cCompute, wr(x, 64, store)).
		work(cmdbuf.WorkDraw, cColor, wr(x+64, 64, store)).
		wait(stages(cCompute), stages(cCompute, cCP)).
		work(cmdbuf.WorkDispatch, cCompute, wr(x, 128, store)))
	assert.True(t, waw(r, x+64, x+128), "C's write is unordered with B's: %v", r.m.Hazards())
	assert.False(t, waw(r, x, x+64), "but ordered after A's: %v", r.m.Hazards())

	// One work writes through two clients that share a cache, then over
	// both ranges through the first.
	r = newRig(t, discreteProfile(t))
	x = r.alloc("X", n)
	r.run(r.direct, r.prog().
		work(cmdbuf.WorkDispatch, cCompute, wr(x, 64, store), wr(x+64, 64, cmdbuf.ClientStreamOut), wr(x, 128, store)))
	assert.True(t, waw(r, x+64, x+128), "the stream-out write and the store land in no fixed order: %v", r.m.Hazards())
}
