package umd

import (
	"errors"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// createFails requires a creation error with the creation message ID and
// the member it names.
func createFails(t *testing.T, err error, field string) *CreateError {
	t.Helper()
	var ce *CreateError
	require.True(t, errors.As(err, &ce), "want a *CreateError, got %v", err)
	assert.ErrorIs(t, err, ErrCreate)
	assert.Equal(t, MsgCreateResourceAndHeapInvalid, ce.ID)
	assert.Equal(t, CategoryStateCreation, ce.Category)
	assert.Equal(t, field, ce.Field, "%s", ce)
	t.Log(ce.Error())
	return ce
}

func TestCreateHeapAndResourceRejects(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	d := e.d
	rtDesc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutRenderTarget)
	heap, err := d.CreateHeap(resource.HeapDefault, 1<<20)
	require.NoError(t, err)
	heaps, resources := len(d.heaps), len(d.resources)

	_, _, err = d.CreateHeapAndResource(nil, 0, nil)
	createFails(t, err, "pHeap, pResource")

	small := resource.CreateHeapFor(resource.HeapDefault, 4096, 0)
	_, _, err = d.CreateHeapAndResource(&small, 0, &rtDesc)
	createFails(t, err, "pHeap.ByteSize")

	_, err = d.CreatePlaced(0x7777, 0, rtDesc)
	createFails(t, err, "hHeap")

	size, align, err := d.AllocationSize(rtDesc)
	require.NoError(t, err)
	_, err = d.CreatePlaced(heap, align/2+256, rtDesc)
	createFails(t, err, "HeapOffset")
	rtDesc.ReuseBufferGPUVA.BaseAddressUMD.Offset = align/2 + 256
	_, _, err = d.CreateHeapAndResource(nil, heap, &rtDesc)
	createFails(t, err, "ReuseBufferGPUVA.BaseAddress.UMD.Offset")
	rtDesc.ReuseBufferGPUVA.BaseAddressUMD.Offset = 0
	_, err = d.CreatePlaced(heap, 1<<20-size+align, rtDesc)
	createFails(t, err, "ReuseBufferGPUVA.BaseAddress.UMD.Offset")

	bad := rtDesc
	bad.Width = 0
	_, err = d.CreateCommitted(bad, resource.HeapDefault)
	createFails(t, err, "Width")

	wrongLayout := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, ddi.ResourceFlagShaderResource, ddi.LayoutRenderTarget)
	_, err = d.CreateCommitted(wrongLayout, resource.HeapDefault)
	createFails(t, err, "InitialBarrierLayout")

	bufLayout := BufferDesc(4096, 0)
	bufLayout.InitialBarrierLayout = ddi.LayoutCommon
	_, err = d.CreateCommitted(bufLayout, resource.HeapDefault)
	createFails(t, err, "InitialBarrierLayout")

	huge := BufferDesc(1<<63, 0)
	_, err = d.CreateCommitted(huge, resource.HeapDefault)
	createFails(t, err, "Width")

	hugeTex := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 16384, 16384, 2048, 0, rtFlags, ddi.LayoutRenderTarget)
	_, err = d.CreateCommitted(hugeTex, resource.HeapDefault)
	var ce *CreateError
	require.ErrorAs(t, err, &ce) // 2 TiB: more than the GPU has
	assert.Equal(t, MsgOutOfMemory, ce.ID, "out of memory is not an invalid parameter")
	assert.Equal(t, "pHeap.ByteSize", ce.Field)

	unknownFormat := Texture2DDesc(ddi.Format(9999), 64, 64, 1, 1, 0, ddi.LayoutCommon)
	_, err = d.CreateCommitted(unknownFormat, resource.HeapDefault)
	createFails(t, err, "Format")

	_, err = d.CreateHeap(resource.HeapDefault, 0)
	require.Error(t, err)

	// Nothing was created by any of them: no heap, no resource, and the
	// heap's whole range is still free.
	assert.Equal(t, heaps, len(d.heaps))
	assert.Equal(t, resources, len(d.resources))
	r, err := d.CreatePlaced(heap, 0, rtDesc)
	require.NoError(t, err)
	assert.Empty(t, d.Aliases(r))
}

// The three creation DDIs agree: CheckResourceAllocationInfo's size is
// what a placed resource occupies, back-to-back placements at that size do
// not alias and one byte less does, and committed resources fit the heap
// it implies.
func TestAllocationSizesAgree(t *testing.T) {
	descs := map[string]ddi.CreateResource0088{
		"buffer":       BufferDesc(10000, ddi.ResourceFlagUnorderedAccess),
		"render":       Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 100, 60, 1, 1, rtFlags, ddi.LayoutRenderTarget),
		"render-mips":  Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 128, 128, 4, 0, rtFlags, ddi.LayoutRenderTarget),
		"depth":        Texture2DDesc(ddi.FormatD32Float, 64, 64, 1, 1, ddi.ResourceFlagDepthStencil, ddi.LayoutDepthStencilWrite),
		"uav":          Texture2DDesc(ddi.FormatR32Float, 256, 256, 1, 1, uavFlags, ddi.LayoutUnorderedAccess),
		"sampled":      Texture2DDesc(ddi.FormatBC1Unorm, 256, 256, 1, 0, ddi.ResourceFlagShaderResource, ddi.LayoutCommon),
		"simultaneous": Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon),
		"nv12":         Texture2DDesc(ddi.FormatNV12, 64, 64, 1, 1, 0, ddi.LayoutCommon),
	}
	for _, p := range hwmodel.ProfileNames() {
		e := newEnv(t, p, Options{})
		d := e.d
		for name, desc := range descs {
			info, err := d.CheckResourceAllocationInfo(&desc, 0, 0, 1)
			require.NoError(t, err, "%s/%s", p, name)
			size, align, err := d.AllocationSize(desc)
			require.NoError(t, err)
			require.Zero(t, size%align, "%s/%s: the size is whole alignments", p, name)
			assert.Zero(t, info.AdditionalDataHeaderSize)
			if info.AdditionalDataSize > 0 {
				assert.Equal(t, uint32(hwmodel.BlockSize), info.AdditionalDataAlignment)
				assert.Zero(t, info.ResourceDataSize%hwmodel.BlockSize, "%s/%s: the data is whole blocks", p, name)
			}

			heap, err := d.CreateHeap(resource.HeapDefault, 3*size)
			require.NoError(t, err)
			a, err := d.CreatePlaced(heap, 0, desc)
			require.NoError(t, err, "%s/%s", p, name)
			b, err := d.CreatePlaced(heap, size, desc)
			require.NoError(t, err, "%s/%s", p, name)
			ra, _ := d.Resource(a)
			assert.Equal(t, size, ra.Span, "%s/%s: the span is the reported size", p, name)
			assert.Equal(t, info.ResourceDataSize, ra.DataSize)
			assert.Equal(t, info.AdditionalDataSize, ra.MetaSize)
			assert.Empty(t, d.Aliases(a), "%s/%s: back to back placements do not alias", p, name)
			assert.Empty(t, d.Aliases(b))
			if size > align {
				c, err := d.CreatePlaced(heap, 2*size-align, desc)
				require.NoError(t, err)
				assert.Equal(t, []ddi.HResource{b}, d.Aliases(c), "%s/%s: overlapping by one alignment aliases", p, name)
			}

			c, err := d.CreateCommitted(desc, resource.HeapDefault)
			require.NoError(t, err, "%s/%s", p, name)
			rc, _ := d.Resource(c)
			assert.Equal(t, size, rc.Span)
			assert.GreaterOrEqual(t, rc.Heap.Desc.Size, size)
			assert.True(t, rc.Committed)

			hd := resource.CreateHeapFor(resource.HeapDefault, size, 0)
			sizes := d.CalcPrivateHeapAndResourceSizes(&hd, &desc)
			assert.Positive(t, sizes.Heap)
			assert.Positive(t, sizes.Resource)
			assert.Zero(t, d.CalcPrivateHeapAndResourceSizes(nil, &desc).Heap)
			assert.Zero(t, d.CalcPrivateHeapAndResourceSizes(nil, nil).Resource)
		}
	}
}

// A compressing profile makes render targets surfaces with metadata after
// their data; a profile without compression adds nothing.
func TestSurfacesFollowTheProfile(t *testing.T) {
	desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 100, 60, 1, 1, rtFlags, ddi.LayoutRenderTarget)
	for _, p := range hwmodel.ProfileNames() {
		e := newEnv(t, p, Options{})
		h, err := e.d.CreateCommitted(desc, resource.HeapDefault)
		require.NoError(t, err)
		r, _ := e.d.Resource(h)
		if e.d.Profile().Compresses.RenderTarget {
			assert.NotZero(t, r.Surface, p)
			assert.Equal(t, hwmodel.MetadataSize(r.DataSize), r.MetaSize, p)
			assert.True(t, r.CompressedIn(ddi.LayoutRenderTarget), "%s: RENDER_TARGET keeps a render target compressed", p)
			assert.False(t, r.CompressedIn(ddi.LayoutCommon), "%s: COMMON is plain (copy engines read it)", p)
		} else {
			assert.Zero(t, r.Surface, p)
			assert.Zero(t, r.MetaSize, p)
		}
		data, err := e.d.Contents(h)
		require.NoError(t, err)
		assert.Equal(t, make([]byte, len(data)), data, "%s: a committed resource starts zeroed", p)
	}
}

// TestSmallPlacement: a small texture that asks for 4 KiB gets it from
// CheckResourceAllocationInfo and may sit at a 4 KiB offset; one that does
// not qualify gets 64 KiB back and is refused there with the rule, by the
// runtime's check of what it asked and by the driver, whose description has
// no Alignment (errata E-SMALL-PLACEMENT).
func TestSmallPlacement(t *testing.T) {
	for _, prof := range []string{"discrete", "coherent"} {
		t.Run(prof, func(t *testing.T) {
			e := newEnv(t, prof, Options{})
			d := e.d
			heap, err := d.CreateHeap(resource.HeapDefault, 1<<20)
			require.NoError(t, err)
			small := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 32, 32, 1, 1, 0, ddi.LayoutCommon)
			info, err := d.CheckResourceAllocationInfo(&small, 0, resource.SmallPlacementAlignment, 1)
			require.NoError(t, err)
			assert.Equal(t, uint32(resource.SmallPlacementAlignment), info.ResourceDataAlignment)
			info, err = d.CheckResourceAllocationInfo(&small, 0, 0, 1)
			require.NoError(t, err)
			assert.Equal(t, uint32(resource.DefaultPlacementAlignment), info.ResourceDataAlignment, "4 KiB only on request")

			a, err := d.CreatePlacedAligned(heap, 4096, small, resource.SmallPlacementAlignment)
			require.NoError(t, err)
			b, err := d.CreatePlacedAligned(heap, 3*4096, small, resource.SmallPlacementAlignment)
			require.NoError(t, err)
			ra, _ := d.Resource(a)
			rb, _ := d.Resource(b)
			assert.Equal(t, uint64(4096), ra.Offset)
			assert.LessOrEqual(t, ra.Addr+ra.Span, rb.Addr, "two small textures 8 KiB apart do not overlap")

			// Not asked for: the runtime holds the texture to 64 KiB.
			_, err = d.CreatePlaced(heap, 4096, small)
			ce := createFails(t, err, "HeapOffset")
			assert.Contains(t, ce.Rule, "may ask for Alignment 4096")

			for _, c := range []struct {
				name string
				desc ddi.CreateResource0088
				rule string
			}{
				{"a render target", Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 32, 32, 1, 1, rtFlags, ddi.LayoutRenderTarget), "RENDER_TARGET"},
				{"too big", Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 256, 256, 1, 1, 0, ddi.LayoutCommon), "exceed 65536"},
			} {
				info, err := d.CheckResourceAllocationInfo(&c.desc, 0, resource.SmallPlacementAlignment, 1)
				require.NoError(t, err, c.name)
				assert.Equal(t, uint32(resource.DefaultPlacementAlignment), info.ResourceDataAlignment, "%s: 64 KiB back", c.name)
				_, err = d.CreatePlacedAligned(heap, 8*4096, c.desc, resource.SmallPlacementAlignment)
				var m *CreateError
				require.ErrorAs(t, err, &m, c.name)
				assert.Equal(t, MsgInvalidAlignmentSmallResource, m.ID, "%s: %v", c.name, err)
				assert.Contains(t, m.Rule, c.rule)
				// The driver alone, as a runtime that skipped the check
				// would call it.
				desc := c.desc
				desc.ReuseBufferGPUVA.BaseAddressUMD.Offset = 8 * 4096
				_, _, err = d.CreateHeapAndResource(nil, heap, &desc)
				require.ErrorAs(t, err, &m, c.name)
				assert.Equal(t, MsgInvalidAlignmentSmallResource, m.ID, "%s: %v", c.name, err)
				assert.Contains(t, m.Rule, c.rule)
			}

			// Alignments that are none of D3D12's.
			_, err = d.CreatePlacedAligned(heap, 0, small, 8192)
			createFails(t, err, "Alignment")
		})
	}
}
