package hwmodel

import (
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/stretchr/testify/require"
)

// TestOlderBytesDirtyInAnotherCache: bytes written through one cache and
// then, ordered after, through another must be written back from the first
// before the second write: caches write back in no fixed order with each
// other, so the older bytes could land over the newer. The hazard is the
// second write's, whatever the bytes' values; and the end of the
// submission's write-back is not blamed for a value an older write left in
// L2 that equals the newest by chance (three writers here: about one byte
// in 256).
func TestOlderBytesDirtyInAnotherCache(t *testing.T) {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	for _, flushFirst := range []bool{false, true} {
		r := newRig(t, p)
		a := r.alloc("A", 4096)
		pr := r.prog().
			work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(a, 0x400, cmdbuf.ClientCopy)).
			wait(stages(cmdbuf.StageCompute), stages(cmdbuf.StageColor)).
			work(cmdbuf.WorkDraw, cmdbuf.StageColor, wr(a+0x80, 0x100, cmdbuf.ClientColor))
		if flushFirst {
			pr.wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP)).cache(caches(cmdbuf.CacheColor), 0)
		} else {
			pr.wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCompute))
		}
		pr.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, wr(a, 0x300, cmdbuf.ClientShaderStore))
		r.run(r.direct, pr)
		if flushFirst {
			require.Empty(t, r.m.Hazards())
			require.Empty(t, mustCompare(t, r.m, Region{Name: "A", Addr: a, Size: 4096}))
			continue
		}
		require.Len(t, r.m.Hazards(), 1)
		h := r.m.Hazards()[0]
		require.Equal(t, HazardWriteAfterWrite, h.Kind)
		require.Equal(t, a+0x80, h.Addr)
		require.Equal(t, uint64(0x100), h.Size)
		require.True(t, strings.Contains(h.Message, "DISPATCH write") && strings.Contains(h.Message, "flush COLOR[DIRECT#0] before"), h.Message)
	}
}

func mustCompare(t *testing.T, m *Machine, rs ...Region) []Difference {
	t.Helper()
	d, err := m.Compare(rs...)
	require.NoError(t, err)
	return d
}

// TestRewritingABlockUnderAReader: a DECOMPRESS, or a compressing write of
// part of a block (which stores the rest again, re-encoded), rewrites bytes
// whose meaning does not change; a reader not ordered before it may still
// see the block half rewritten — its data from one side, its metadata from
// the other. It is a write-after-read, though no value differs.
func TestRewritingABlockUnderAReader(t *testing.T) {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	for _, tc := range []struct {
		name    string
		rewrite func(pr *prog, s uint64)
	}{
		{"DECOMPRESS", func(pr *prog, _ uint64) { pr.decompress(1, 1024) }},
		{"compressing write of part of a block", func(pr *prog, s uint64) {
			pr.work(cmdbuf.WorkDraw, cmdbuf.StageColor, onSurface(wr(s+0x300, 0x40, cmdbuf.ClientColor), 1, true))
		}},
	} {
		for _, ordered := range []bool{false, true} {
			r := newRig(t, p)
			s := r.surface("S", 1024, 1, true)
			pr := r.prog().
				work(cmdbuf.WorkDraw, cmdbuf.StageColor, onSurface(wr(s, 1024, cmdbuf.ClientColor), 1, true)).
				wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP)).
				cache(caches(cmdbuf.CacheColor), 0).
				work(cmdbuf.WorkDraw, cmdbuf.StagePixel, onSurface(rd(s+0x340, 0xc0, cmdbuf.ClientShaderLoad), 1, true))
			if ordered {
				pr.wait(stages(cmdbuf.StagePixel), stages(cmdbuf.StageCP))
			}
			tc.rewrite(pr, s)
			r.run(r.direct, pr)
			if ordered {
				require.Empty(t, r.m.Hazards(), tc.name)
				continue
			}
			require.NotEmpty(t, r.m.Hazards(), tc.name)
			for _, h := range r.m.Hazards() {
				require.Equal(t, HazardWriteAfterRead, h.Kind, "%s: %s", tc.name, h.Message)
			}
		}
	}
}

// TestRedefiningBlocksUnderAWriter: a DECOMPRESS or METADATA_INIT redefines
// what a block's bytes mean; a write of the block it is not ordered after
// may land on either side of it (a compressing write's metadata over the
// new). It is a write-after-write, whatever the values.
func TestRedefiningBlocksUnderAWriter(t *testing.T) {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	for _, tc := range []struct {
		name     string
		redefine func(pr *prog)
	}{
		{"METADATA_INIT", func(pr *prog) {
			pr.raw(cmdbuf.AppendMetadataInit(nil, cmdbuf.SurfaceRegion{Surface: 1, Size: 1024, Plain: true, Discard: true}, false))
		}},
		{"DECOMPRESS", func(pr *prog) { pr.decompress(1, 1024) }},
	} {
		for _, ordered := range []bool{false, true} {
			r := newRig(t, p)
			s := r.surface("S", 1024, 1, true)
			pr := r.prog().work(cmdbuf.WorkDraw, cmdbuf.StageColor, onSurface(wr(s, 1024, cmdbuf.ClientColor), 1, true))
			if ordered {
				pr.wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP)).cache(caches(cmdbuf.CacheColor), 0)
			}
			tc.redefine(pr)
			r.run(r.direct, pr)
			if ordered {
				require.Empty(t, r.m.Hazards(), tc.name)
				continue
			}
			require.NotEmpty(t, r.m.Hazards(), tc.name)
			require.Equal(t, HazardWriteAfterWrite, r.m.Hazards()[0].Kind, "%s: %s", tc.name, r.m.Hazards()[0].Message)
			require.Contains(t, r.m.Hazards()[0].Message, "a WAIT draining COLOR before", tc.name)
		}
	}
}

// TestReadingAnotherSurfacesCompressedBytes: a read that does not go
// through a surface's compression (a resource placed over memory a
// compressed one used) gets the compressed blocks' encoded bytes: a
// compressed-read, not a missed flush; a DECOMPRESS before it makes them
// plain.
func TestReadingAnotherSurfacesCompressedBytes(t *testing.T) {
	p, err := LookupProfile("discrete")
	require.NoError(t, err)
	for _, decompress := range []bool{false, true} {
		r := newRig(t, p)
		s := r.surface("S", 1024, 1, true)
		pr := r.prog().
			work(cmdbuf.WorkDraw, cmdbuf.StageColor, onSurface(wr(s, 1024, cmdbuf.ClientColor), 1, true)).
			wait(stages(cmdbuf.StageColor), stages(cmdbuf.StageCP)).
			cache(caches(cmdbuf.CacheColor), 0)
		if decompress {
			pr.decompress(1, 1024)
		}
		pr.work(cmdbuf.WorkDispatch, cmdbuf.StageCompute, rd(s, 512, cmdbuf.ClientShaderStore), wr(s+512, 256, cmdbuf.ClientShaderStore))
		r.run(r.direct, pr)
		if decompress {
			require.Empty(t, r.m.Hazards())
			continue
		}
		require.Len(t, r.m.Hazards(), 1)
		h := r.m.Hazards()[0]
		require.Equal(t, HazardCompressedRead, h.Kind, h.Message)
		require.Equal(t, s, h.Addr)
		require.Contains(t, h.Message, "surface 1's compressed blocks")
	}
}
