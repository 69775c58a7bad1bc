package hlk

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomBarrier is a barrier of any type with random members, its
// subresources and range in the forms the scenario language spells.
func randomBarrier(r *rand.Rand) ddi.Barrier {
	u32 := func() uint32 { return r.Uint32() >> r.IntN(32) }
	sub := func() ddi.SubresourceRange {
		switch r.IntN(3) {
		case 0:
			return ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
		case 1:
			return ddi.SubresourceRange{IndexOrFirstMipLevel: u32()}
		}
		return ddi.SubresourceRange{IndexOrFirstMipLevel: u32(), NumMipLevels: u32() | 1, FirstArraySlice: u32(),
			NumArraySlices: u32(), FirstPlane: u32(), NumPlanes: u32()}
	}
	g := ddi.GlobalBarrier{SyncBefore: ddi.BarrierSync(u32()), SyncAfter: ddi.BarrierSync(u32()),
		AccessBefore: ddi.BarrierAccess(u32()), AccessAfter: ddi.BarrierAccess(u32())}
	h := ddi.HResource(r.Uint64() >> r.IntN(64))
	begin := r.Uint64() >> r.IntN(64)
	rng := ddi.Range{Begin: begin, End: begin + r.Uint64()>>r.IntN(64)>>1}
	if rng.End < rng.Begin {
		rng.End = rng.Begin
	}
	switch r.IntN(5) {
	case 0:
		return ddi.NewGlobalBarrier(g)
	case 1:
		return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: g.SyncBefore, SyncAfter: g.SyncAfter,
			AccessBefore: g.AccessBefore, AccessAfter: g.AccessAfter, LayoutBefore: ddi.BarrierLayout(u32()),
			LayoutAfter: ddi.BarrierLayout(u32()), Resource: h, Subresources: sub(), Flags: ddi.TextureBarrierFlags(u32())})
	case 2:
		return ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: g.SyncBefore, SyncAfter: g.SyncAfter,
			AccessBefore: g.AccessBefore, AccessAfter: g.AccessAfter, Resource: h})
	case 3:
		sr := u32()
		if r.IntN(3) == 0 {
			sr = ddi.AllSubresourcesIndex
		}
		return ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: ddi.RangedBarrierFlags(u32()), Resource: h, Subresource: sr, Range: rng})
	}
	// A 0088 ranged barrier, returned in the 0094 union's place for the
	// caller to tell apart by its flags' top bit.
	return ddi.Barrier{Type: ddi.BarrierTypeRanged + 100}
}

// reparse parses a call block and rebuilds its records as the runner does.
func reparse(t *testing.T, block string) []scenario.BarrierSpec {
	t.Helper()
	sc, err := scenario.Parse("t.ebs", "list L direct\n"+block+"end\n", nil)
	require.NoError(t, err, block)
	require.Len(t, sc, 1)
	ls := sc[0].Steps[0].(*scenario.ListStep)
	require.Len(t, ls.Cmds, 1)
	return ls.Cmds[0].Barriers
}

// TestFormatBarrierRoundTrips: every barrier, of either call, formatted and
// parsed back is the same record, member for member.
func TestFormatBarrierRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	x := &exec{}
	for round := 0; round < 200; round++ {
		var bs []ddi.Barrier
		var b88 []ddi.Barrier0088
		for i := 0; i < 1+r.IntN(6); i++ {
			b := randomBarrier(r)
			if b.Type == ddi.BarrierTypeRanged+100 {
				b88 = append(b88, ddi.NewRangedBarrier0088(ddi.RangedBarrier0088{
					GlobalBarrier: ddi.GlobalBarrier{SyncBefore: ddi.BarrierSync(r.Uint32()), SyncAfter: ddi.SyncAll,
						AccessBefore: ddi.BarrierAccess(r.Uint32()), AccessAfter: ddi.AccessCommon},
					Flags: ddi.RangedBarrierFlags(r.Uint32() & 1), Resource: ddi.HResource(r.Uint64() >> 20),
					Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: r.Uint32(), NumMipLevels: 1 + r.Uint32()>>8, NumArraySlices: 1, NumPlanes: 2},
					Range:        ddi.Range{Begin: 5, End: 5 + r.Uint64()>>1}}))
				continue
			}
			bs = append(bs, b)
			if b88x, ok := b.As0088(); ok {
				b88 = append(b88, b88x)
			}
		}
		var block strings.Builder
		block.WriteString("call\n")
		for i := range bs {
			line := scenario.FormatBarrier(&bs[i])
			require.NotContains(t, line, "#", "nothing is lost from %s", bs[i].String())
			fmt.Fprintf(&block, "  %s\n", line)
		}
		block.WriteString("end\n")
		if len(bs) > 0 {
			got := x.barriers(reparse(t, block.String()))
			assert.Equal(t, bs, got, block.String())
		}

		block.Reset()
		block.WriteString("call-0088\n")
		for i := range b88 {
			fmt.Fprintf(&block, "  %s\n", scenario.FormatBarrier0088(&b88[i]))
		}
		block.WriteString("end\n")
		if len(b88) > 0 {
			specs := reparse(t, block.String())
			got := x.barriers0088(specs, x.barriers(specs))
			assert.Equal(t, b88, got, block.String())
		}
	}
}

// TestFormatBarrierSaysWhatItLoses: what the language cannot spell is named
// in a comment, and the line still parses.
func TestFormatBarrierSaysWhatItLoses(t *testing.T) {
	for _, c := range []struct {
		b    ddi.Barrier
		want string
	}{
		{ddi.NewRangedBarrier(ddi.RangedBarrier{Resource: 7, Range: ddi.Range{Begin: 10, End: 4}}), "ends before it begins"},
		{ddi.Barrier{Type: 9}, "unknown type"},
		{ddi.NewTextureBarrier(ddi.TextureBarrier{Resource: 7, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: 3, NumPlanes: 2}}), "which an index ignores"},
	} {
		line := scenario.FormatBarrier(&c.b)
		assert.Contains(t, line, c.want)
		reparse(t, "call\n  "+line+"\nend\n")
	}
}
