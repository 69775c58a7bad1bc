package umd

import (
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

// firstAtOrAfter, galloping from a lower bound, finds what a binary search
// of every resource finds, for every address and every valid start:
// resources sharing an address, addresses between and past them.
func TestFirstAtOrAfter(t *testing.T) {
	d := &Device{}
	for _, a := range []uint64{0, 0, 64, 64, 64, 128, 4096, 4096, 1 << 20, 1<<20 + 64, 1 << 30} {
		d.byAddr = append(d.byAddr, &Resource{Addr: a})
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
	d.byAddr = nil
	assert.Zero(t, d.firstAtOrAfter(64, 0), "no resources")
}
