package umd

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A global barrier to COMMON writes the caches back over the metadata of
// the textures other resources' memory overlaps, and of no other
// (errata E-LEGACY-ALIASING).
func TestAliasedMetadata(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	e.texture("committed", 64, 64, rtFlags, ddi.LayoutRenderTarget) // its heap is its own
	heap, err := e.d.CreateHeap(resource.HeapDefault, 4<<20)
	require.NoError(t, err)
	place := func(offset uint64, desc ddi.CreateResource0088) *Resource {
		h, err := e.d.CreatePlaced(heap, offset, desc)
		require.NoError(t, err)
		r, _ := e.d.Resource(h)
		return r
	}
	rt := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, ddi.ResourceFlagRenderTarget, ddi.LayoutUndefined)
	alone := place(1<<20, rt)
	a := place(0, Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 2, rtFlags, ddi.LayoutUndefined))
	b := place(0, rt)
	require.NotZero(t, alone.MetaSize)
	var s spans
	e.d.aliasedMetadata(&s)
	assert.Equal(t, []span{metaOf(b)}, s.r,
		"b's metadata, which a's second mip overlaps; not a's, past b's end, nor the committed texture's, nor the one alone in its part of the heap")
	assert.Greater(t, metaOf(a).lo, b.Addr+b.DataSize+b.MetaSize)

	// A buffer that ends where a texture's metadata begins shares none of
	// it.
	abutted := place(2<<20, rt)
	place(2<<20, BufferDesc(abutted.DataSize, 0))
	s = spans{}
	e.d.aliasedMetadata(&s)
	assert.NotContains(t, s.r, metaOf(abutted))

	// A buffer placed over the lone texture makes its metadata count too.
	place(alone.Offset, BufferDesc(64<<10, 0))
	s = spans{}
	e.d.aliasedMetadata(&s)
	assert.Contains(t, s.r, metaOf(alone))
}

func metaOf(r *Resource) span {
	return span{lo: r.Addr + r.DataSize, hi: r.Addr + r.DataSize + r.MetaSize}
}

// firstAtOrAfter, searching on from a lower bound, finds what a binary search
// of every resource finds, for every address and every valid start:
// resources sharing an address, addresses between and past them.
func TestFirstAtOrAfter(t *testing.T) {
	d := &Device{}
	for _, a := range []uint64{0, 0, 64, 64, 64, 128, 4096, 4096, 1 << 20, 1<<20 + 64, 1 << 30} {
		d.byAddr = append(d.byAddr, &Resource{Addr: a})
		d.starts = append(d.starts, a)
	}
	var addrs []uint64
	for _, r := range d.byAddr {
		addrs = append(addrs, r.Addr-1, r.Addr, r.Addr+1) // 0-1 wraps to past them all
	}
	for _, a := range addrs {
		want := 0
		for want < len(d.byAddr) && d.byAddr[want].Addr < a {
			want++
		}
		for from := 0; from <= want; from++ {
			assert.Equal(t, want, d.firstAtOrAfter(a, from), "address %#x from %d", a, from)
		}
	}
	d.byAddr, d.starts = nil, nil
	assert.Zero(t, d.firstAtOrAfter(64, 0), "no resources")
}

// A call's cache ranges join across a gap exactly when no resource other
// than one the range before names holds bytes in it (its data or its
// metadata): checked against every resource, over random placements,
// aliasing included, with resources removed from the index as they are
// destroyed.
func TestSpanJoinsFollowTheResources(t *testing.T) {
	// A texture whose metadata ends exactly where a range ends holds
	// nothing in the gap after it, though a resource before it reaches
	// past (the one the range names): the ranges join.
	d := &Device{}
	d.indexAdd(&Resource{Addr: 0, DataSize: 512, MetaSize: 1024})
	d.indexAdd(&Resource{Addr: 0, DataSize: 4096})
	s := spans{}
	s.add(1024, 1536)
	s.add(2048, 2304)
	var joined [][2]uint64
	s.each(&d.addrIndex, func(addr, size uint64) { joined = append(joined, [2]uint64{addr, size}) })
	require.Equal(t, [][2]uint64{{1024, 2304 - 1024}}, joined)

	rng := rand.New(rand.NewPCG(17, 2))
	for round := range 300 {
		d := &Device{}
		var live []*Resource
		for range 2 + rng.IntN(40) {
			r := &Resource{Addr: uint64(rng.IntN(64)) * 1024, DataSize: uint64(1+rng.IntN(8)) * 512}
			if rng.IntN(3) == 0 {
				r.MetaSize = uint64(1+rng.IntN(12)) * 256
			}
			d.indexAdd(r)
			live = append(live, r)
		}
		for range rng.IntN(len(live)) {
			i := rng.IntN(len(live))
			d.indexRemove(live[i])
			live = slices.Delete(live, i, i+1)
		}
		var s spans
		for range 1 + rng.IntN(10) {
			lo := uint64(rng.IntN(70*1024)) &^ 255
			s.add(lo, lo+uint64(1+rng.IntN(16))*256)
		}
		var want [][2]uint64
		cur := s.r[0]
		for _, r := range s.r[1:] {
			other := false
			for _, x := range live {
				named := x.Addr < cur.hi && cur.lo < x.Addr+x.DataSize
				other = other || x.Addr < r.lo && x.Addr+x.DataSize+x.MetaSize > cur.hi && !named
			}
			if other {
				want = append(want, [2]uint64{cur.lo, cur.hi - cur.lo})
				cur = r
				continue
			}
			cur.hi = r.hi
		}
		want = append(want, [2]uint64{cur.lo, cur.hi - cur.lo})
		var got [][2]uint64
		s.each(&d.addrIndex, func(addr, size uint64) { got = append(got, [2]uint64{addr, size}) })
		require.Equal(t, want, got, "round %d", round)
	}
}
