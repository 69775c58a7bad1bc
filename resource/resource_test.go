package resource

import (
	"errors"
	"math"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func buffer(width uint64) Desc {
	return Desc{Dimension: ddi.ResourceTypeBuffer, Width: width, Height: 1, DepthOrArraySize: 1, MipLevels: 1,
		SampleDesc: ddi.SampleDesc{Count: 1}, Layout: ddi.TextureLayoutRowMajor}
}

func tex2D(w uint64, h uint32, arr, mips uint16, f ddi.Format, flags ddi.ResourceFlags) Desc {
	return Desc{Dimension: ddi.ResourceTypeTexture2D, Width: w, Height: h, DepthOrArraySize: arr, MipLevels: mips,
		Format: f, SampleDesc: ddi.SampleDesc{Count: 1}, Flags: flags}
}

func mustNew(t *testing.T, d Desc) *Resource {
	t.Helper()
	r, err := New(d)
	require.NoError(t, err)
	return r
}

// checkFootprints: in index order, 512-aligned, 256-aligned rows, no overlap,
// every subresource inside DataSize, DataSize inside Size.
func checkFootprints(t *testing.T, r *Resource) {
	t.Helper()
	require.Len(t, r.Footprints, int(r.SubresourceCount()))
	var end uint64
	for i, fp := range r.Footprints {
		assert.Equal(t, uint32(i), fp.Subresource)
		if !r.Desc.IsBuffer() {
			assert.Zero(t, fp.Offset%SubresourceAlignment, "subresource %d", i)
			assert.Zero(t, fp.RowPitch%RowPitchAlignment, "subresource %d", i)
		}
		assert.GreaterOrEqual(t, fp.Offset, end, "subresource %d overlaps its predecessor", i)
		assert.Equal(t, fp.SlicePitch*uint64(fp.Depth), fp.Size)
		end = fp.Offset + fp.Size
		sub, err := r.Index(fp.Mip, fp.Slice, fp.Plane)
		require.NoError(t, err)
		assert.Equal(t, uint32(i), sub)
		m, s, p, err := r.Decompose(uint32(i))
		require.NoError(t, err)
		assert.Equal(t, [3]uint32{fp.Mip, fp.Slice, fp.Plane}, [3]uint32{m, s, p})
	}
	assert.Equal(t, end, r.DataSize)
	assert.GreaterOrEqual(t, r.Size, r.DataSize)
	assert.Zero(t, r.Size%r.Alignment)
}

func TestBuffer(t *testing.T) {
	r := mustNew(t, buffer(100))
	assert.Equal(t, uint64(64<<10), r.Size)
	assert.Equal(t, uint64(64<<10), r.Alignment)
	assert.Equal(t, uint32(1), r.SubresourceCount())
	assert.Equal(t, ddi.HeapFlagBuffers, r.Category())
	checkFootprints(t, r)

	d := buffer(64 << 10)
	d.Flags = ddi.ResourceFlag4MBAligned
	r = mustNew(t, d)
	assert.Equal(t, uint64(4<<20), r.Size)
}

func TestInvalidDescriptionsNameTheField(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(*Desc)
		base  Desc
		field string
	}{
		{"buffer width 0", func(d *Desc) { d.Width = 0 }, buffer(1), "Width"},
		{"buffer too big", func(d *Desc) { d.Width = MaxBufferSize + 1 }, buffer(1), "Width"},
		{"buffer height", func(d *Desc) { d.Height = 2 }, buffer(1), "Height"},
		{"buffer mips", func(d *Desc) { d.MipLevels = 0 }, buffer(1), "MipLevels"},
		{"buffer format", func(d *Desc) { d.Format = ddi.FormatR8Unorm }, buffer(1), "Format"},
		{"buffer samples", func(d *Desc) { d.SampleDesc.Count = 4 }, buffer(1), "SampleDesc"},
		{"buffer layout", func(d *Desc) { d.Layout = ddi.TextureLayoutUndefined }, buffer(1), "Layout"},
		{"buffer RT flag", func(d *Desc) { d.Flags = ddi.ResourceFlagRenderTarget }, buffer(1), "Flags"},
		{"buffer alignment", func(d *Desc) { d.Alignment = 4096 }, buffer(1), "Alignment"},
		{"bad type", func(d *Desc) { d.Dimension = 9 }, buffer(1), "ResourceType"},
		{"undefined flag", func(d *Desc) { d.Flags = 0x100000 }, buffer(1), "Flags"},
		{"unknown format", func(d *Desc) { d.Format = ddi.Format(999) }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "Format"},
		{"texture UNKNOWN format", func(d *Desc) { d.Format = ddi.FormatUnknown }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "Format"},
		{"width 0", func(d *Desc) { d.Width = 0 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "Width"},
		{"too wide", func(d *Desc) { d.Width = MaxTexture2DSize + 1 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "Width"},
		{"height 0", func(d *Desc) { d.Height = 0 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "Height"},
		{"array 0", func(d *Desc) { d.DepthOrArraySize = 0 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "DepthOrArraySize"},
		{"array too big", func(d *Desc) { d.DepthOrArraySize = MaxArraySize + 1 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "DepthOrArraySize"},
		{"too many mips", func(d *Desc) { d.MipLevels = 4 }, tex2D(4, 4, 1, 1, ddi.FormatR8Unorm, 0), "MipLevels"},
		{"BC not blocks", func(d *Desc) { d.Width = 6 }, tex2D(8, 8, 1, 1, ddi.FormatBC1Unorm, 0), "Width"},
		{"NV12 odd width", func(d *Desc) { d.Width = 7 }, tex2D(8, 8, 1, 1, ddi.FormatNV12, 0), "Width"},
		{"NV12 odd height", func(d *Desc) { d.Height = 7 }, tex2D(8, 8, 1, 1, ddi.FormatNV12, 0), "Height"},
		{"NV12 mips", func(d *Desc) { d.MipLevels = 2 }, tex2D(8, 8, 1, 1, ddi.FormatNV12, 0), "MipLevels"},
		{"NV12 3D", func(d *Desc) { d.Dimension = ddi.ResourceTypeTexture3D }, tex2D(8, 8, 1, 1, ddi.FormatNV12, 0), "ResourceType"},
		{"1D height", func(d *Desc) { d.Dimension = ddi.ResourceTypeTexture1D }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0), "Height"},
		{"3D depth format", func(d *Desc) { d.Dimension = ddi.ResourceTypeTexture3D }, tex2D(8, 8, 1, 1, ddi.FormatD32Float, 0), "Format"},
		{"3 samples", func(d *Desc) { d.SampleDesc.Count = 3 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, ddi.ResourceFlagRenderTarget), "SampleDesc.Count"},
		{"quality", func(d *Desc) { d.SampleDesc.Quality = 1 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0), "SampleDesc.Quality"},
		{"MSAA mips", func(d *Desc) { d.SampleDesc.Count = 4; d.MipLevels = 2 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, ddi.ResourceFlagRenderTarget), "MipLevels"},
		{"MSAA without RT", func(d *Desc) { d.SampleDesc.Count = 4 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0), "Flags"},
		{"MSAA UAV", func(d *Desc) { d.SampleDesc.Count = 4 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, ddi.ResourceFlagRenderTarget|ddi.ResourceFlagUnorderedAccess), "Flags"},
		{"DS colour format", func(d *Desc) {}, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, ddi.ResourceFlagDepthStencil), "Flags"},
		{"DS + RT", func(d *Desc) {}, tex2D(8, 8, 1, 1, ddi.FormatD32Float, ddi.ResourceFlagDepthStencil|ddi.ResourceFlagRenderTarget), "Flags"},
		{"DS + simultaneous", func(d *Desc) {}, tex2D(8, 8, 1, 1, ddi.FormatD32Float, ddi.ResourceFlagDepthStencil|ddi.ResourceFlagSimultaneousAccess), "Flags"},
		{"RT on BC", func(d *Desc) {}, tex2D(8, 8, 1, 1, ddi.FormatBC7Unorm, ddi.ResourceFlagRenderTarget), "Flags"},
		{"RTAS texture", func(d *Desc) {}, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, ddi.ResourceFlagRaytracingAccelerationStructure), "Flags"},
		{"swizzle layout", func(d *Desc) { d.Layout = ddi.TextureLayout64KBTileStandardSwizzle }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0), "Layout"},
		{"odd alignment", func(d *Desc) { d.Alignment = 8192 }, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0), "Alignment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.base
			c.edit(&d)
			r, err := New(d)
			require.Error(t, err)
			assert.Nil(t, r)
			var fe *FieldError
			require.True(t, errors.As(err, &fe), err.Error())
			assert.Equal(t, c.field, fe.Field, err.Error())
			assert.ErrorIs(t, err, ErrInvalidDesc)
			assert.NotEmpty(t, fe.Rule)
		})
	}
}

func TestTextureFootprints(t *testing.T) {
	// 256×256 RGBA8, full chain: 9 mips; mip 0 rows of 1024 bytes.
	r := mustNew(t, tex2D(256, 256, 1, 0, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagShaderResource))
	assert.Equal(t, uint32(9), r.MipLevels)
	checkFootprints(t, r)
	assert.Equal(t, uint64(1024), r.Footprints[0].RowPitch)
	assert.Equal(t, uint32(256), r.Footprints[0].Rows)
	assert.Equal(t, Footprint{Subresource: 8, Mip: 8, Offset: r.Footprints[8].Offset, Width: 1, Height: 1, Depth: 1,
		RowPitch: 256, Rows: 1, SlicePitch: 256, Size: 256}, r.Footprints[8])

	// An array with mips: index = mip + slice*mips.
	r = mustNew(t, tex2D(64, 32, 6, 3, ddi.FormatR16G16B16A16Float, 0))
	assert.Equal(t, uint32(18), r.SubresourceCount())
	checkFootprints(t, r)
	sub, _ := r.Index(2, 4, 0)
	assert.Equal(t, uint32(2+4*3), sub)
	assert.Equal(t, uint32(16), r.Footprints[sub].Width)
	assert.Equal(t, uint32(8), r.Footprints[sub].Height)

	// BC7: 4×4 blocks of 16 bytes; a 2×2 mip is one block.
	r = mustNew(t, tex2D(16, 8, 1, 0, ddi.FormatBC7Unorm, 0))
	checkFootprints(t, r)
	assert.Equal(t, uint32(2), r.Footprints[0].Rows)
	assert.Equal(t, uint32(1), r.Footprints[3].Rows)

	// NV12: two planes, chroma half size both ways, two bytes per element.
	r = mustNew(t, tex2D(64, 32, 2, 1, ddi.FormatNV12, 0))
	assert.Equal(t, uint32(2), r.PlaneCount())
	assert.Equal(t, uint32(4), r.SubresourceCount())
	checkFootprints(t, r)
	chroma, _ := r.Index(0, 1, 1)
	assert.Equal(t, uint32(3), chroma)
	assert.Equal(t, uint32(32), r.Footprints[chroma].Width)
	assert.Equal(t, uint32(16), r.Footprints[chroma].Height)

	// D24S8 has two planes: depth 4 bytes, stencil 1 byte.
	r = mustNew(t, tex2D(32, 32, 1, 1, ddi.FormatD24UnormS8Uint, ddi.ResourceFlagDepthStencil))
	assert.Equal(t, uint32(2), r.SubresourceCount())
	assert.Equal(t, uint64(256), r.Footprints[1].RowPitch)
	assert.Equal(t, ddi.HeapFlagRTDSTextures, r.Category())

	// 3D: depth halves per mip; one array slice.
	d := tex2D(32, 32, 8, 0, ddi.FormatR8Unorm, 0)
	d.Dimension = ddi.ResourceTypeTexture3D
	r = mustNew(t, d)
	assert.Equal(t, uint32(6), r.MipLevels)
	assert.Equal(t, uint32(1), r.ArraySize)
	checkFootprints(t, r)
	assert.Equal(t, uint32(8), r.Footprints[0].Depth)
	assert.Equal(t, uint32(2), r.Footprints[2].Depth)
	assert.Equal(t, uint32(1), r.Footprints[5].Depth)

	// YUY2 packs two texels in 4 bytes.
	r = mustNew(t, tex2D(64, 3, 1, 1, ddi.FormatYUY2, 0))
	assert.Equal(t, uint64(256), r.Footprints[0].RowPitch)
	assert.Equal(t, uint32(3), r.Footprints[0].Rows)
}

func TestMultisampleAndSmallAlignment(t *testing.T) {
	d := tex2D(64, 64, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagRenderTarget)
	d.SampleDesc.Count = 4
	r := mustNew(t, d)
	assert.Equal(t, uint64(MSAAPlacementAlignment), r.Alignment)
	assert.Equal(t, uint64(64*4*4), r.Footprints[0].RowPitch, "samples sit side by side")
	d.Alignment = SmallMSAAPlacementAlignment
	r = mustNew(t, d)
	assert.Equal(t, uint64(SmallMSAAPlacementAlignment), r.Alignment)

	small := tex2D(16, 16, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagShaderResource)
	assert.Equal(t, uint64(DefaultPlacementAlignment), mustNew(t, small).Alignment, "4 KiB only on request")
	small.Alignment = SmallPlacementAlignment
	r = mustNew(t, small)
	assert.Equal(t, uint64(SmallPlacementAlignment), r.Alignment)
	assert.Equal(t, uint64(4096), r.Size)
	small.Flags |= ddi.ResourceFlagRenderTarget
	assert.Equal(t, uint64(DefaultPlacementAlignment), mustNew(t, small).Alignment, "render targets are never small")
	big := tex2D(1024, 1024, 1, 1, ddi.FormatR8G8B8A8Unorm, 0)
	big.Alignment = SmallPlacementAlignment
	assert.Equal(t, uint64(DefaultPlacementAlignment), mustNew(t, big).Alignment, "too big to be small")
	big.Flags = ddi.ResourceFlag4MBAligned
	assert.Equal(t, uint64(MSAAPlacementAlignment), mustNew(t, big).Alignment)
}

func TestSubresourceIndexBounds(t *testing.T) {
	r := mustNew(t, tex2D(8, 8, 3, 2, ddi.FormatD32FloatS8X24Uint, ddi.ResourceFlagDepthStencil))
	assert.Equal(t, uint32(12), r.SubresourceCount())
	for _, c := range []struct {
		m, s, p uint32
		field   string
	}{{2, 0, 0, "MipSlice"}, {0, 3, 0, "ArraySlice"}, {0, 0, 2, "PlaneSlice"}} {
		_, err := r.Index(c.m, c.s, c.p)
		var fe *FieldError
		require.True(t, errors.As(err, &fe))
		assert.Equal(t, c.field, fe.Field)
		assert.ErrorIs(t, err, ErrOutOfBounds)
	}
	_, _, _, err := r.Decompose(12)
	assert.ErrorIs(t, err, ErrOutOfBounds)
	_, err = r.Footprint(12)
	assert.ErrorIs(t, err, ErrOutOfBounds)
}

func TestResolveRange(t *testing.T) {
	// 4 mips × 6 slices × 2 planes = 48 subresources.
	r := mustNew(t, tex2D(16, 16, 6, 4, ddi.FormatD24UnormS8Uint, ddi.ResourceFlagDepthStencil))
	collect := func(s Selection) []uint32 {
		var out []uint32
		s.Each(func(sub uint32) { out = append(out, sub) })
		return out
	}
	all, err := r.Resolve(ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources})
	require.NoError(t, err)
	assert.Equal(t, uint32(48), all.Count())
	assert.Len(t, collect(all), 48)

	one, err := r.Resolve(ddi.SubresourceRange{IndexOrFirstMipLevel: 29, FirstArraySlice: 9, NumPlanes: 0})
	require.NoError(t, err, "members other than the index are ignored with NumMipLevels 0")
	assert.Equal(t, []uint32{29}, collect(one))

	// Mips 1..2, slices 2..4, plane 1.
	box, err := r.Resolve(ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 2, FirstArraySlice: 2, NumArraySlices: 3, FirstPlane: 1, NumPlanes: 1})
	require.NoError(t, err)
	var want []uint32
	for s := uint32(2); s < 5; s++ {
		for m := uint32(1); m < 3; m++ {
			want = append(want, m+s*4+1*4*6)
		}
	}
	assert.Equal(t, want, collect(box))
	for sub := uint32(0); sub < 48; sub++ {
		in := false
		for _, w := range want {
			in = in || w == sub
		}
		assert.Equal(t, in, box.Contains(sub), "subresource %d", sub)
	}

	bad := []struct {
		rg    ddi.SubresourceRange
		field string
		class error
	}{
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 48}, "Subresources.IndexOrFirstMipLevel", ErrOutOfBounds},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 3, NumMipLevels: 2, NumArraySlices: 1, NumPlanes: 1}, "Subresources.IndexOrFirstMipLevel/NumMipLevels", ErrOutOfBounds},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, FirstArraySlice: 5, NumArraySlices: 2, NumPlanes: 1}, "Subresources.FirstArraySlice/NumArraySlices", ErrOutOfBounds},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, NumArraySlices: 1, FirstPlane: 2, NumPlanes: 1}, "Subresources.FirstPlane/NumPlanes", ErrOutOfBounds},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, FirstArraySlice: 1, NumArraySlices: math.MaxUint32, NumPlanes: 1}, "Subresources.FirstArraySlice/NumArraySlices", ErrOutOfBounds},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, NumArraySlices: 0, NumPlanes: 1}, "Subresources.NumArraySlices", ErrEmptyRange},
		{ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, NumArraySlices: 1, NumPlanes: 0}, "Subresources.NumPlanes", ErrEmptyRange},
	}
	for _, b := range bad {
		_, err := r.Resolve(b.rg)
		var fe *FieldError
		require.True(t, errors.As(err, &fe), "%+v", b.rg)
		assert.Equal(t, b.field, fe.Field)
		assert.ErrorIs(t, err, b.class)
	}
}

func TestHeaps(t *testing.T) {
	assert.Equal(t, HeapDefault, KindOf(ddi.MemoryPoolL1, ddi.CPUPageNotAvailable))
	assert.Equal(t, HeapUpload, KindOf(ddi.MemoryPoolL0, ddi.CPUPageWriteCombine))
	assert.Equal(t, HeapReadback, KindOf(ddi.MemoryPoolL0, ddi.CPUPageWriteBack))
	assert.Equal(t, HeapCustom, KindOf(ddi.MemoryPoolL0, ddi.CPUPageNotAvailable))
	for _, k := range []HeapKind{HeapDefault, HeapUpload, HeapReadback, HeapCustom} {
		a := CreateHeapFor(k, 1000, 0)
		h, err := NewHeap(a)
		require.NoError(t, err)
		assert.Equal(t, k, h.Kind)
		assert.Equal(t, uint64(64<<10), h.Size, "rounded up to the alignment")
		back, err := ParseHeapKind(k.String())
		require.NoError(t, err)
		assert.Equal(t, k, back)
	}
	for _, c := range []struct {
		edit  func(*ddi.CreateHeap0001)
		field string
	}{
		{func(a *ddi.CreateHeap0001) { a.ByteSize = 0 }, "ByteSize"},
		{func(a *ddi.CreateHeap0001) { a.ByteSize = MaxHeapSize + 1 }, "ByteSize"},
		{func(a *ddi.CreateHeap0001) { a.Alignment = 4096 }, "Alignment"},
		{func(a *ddi.CreateHeap0001) { a.MemoryPool = 7 }, "MemoryPool"},
		{func(a *ddi.CreateHeap0001) { a.CPUPageProperty = 9 }, "CPUPageProperty"},
		{func(a *ddi.CreateHeap0001) { a.CPUPageProperty = ddi.CPUPageWriteBack }, "CPUPageProperty"},
		{func(a *ddi.CreateHeap0001) { a.Flags = 0x1 }, "Flags"},
	} {
		a := CreateHeapFor(HeapDefault, 1<<20, 0)
		c.edit(&a)
		_, err := NewHeap(a)
		var fe *FieldError
		require.True(t, errors.As(err, &fe), c.field)
		assert.Equal(t, c.field, fe.Field)
	}
}

func TestPlacement(t *testing.T) {
	h, err := NewHeap(CreateHeapFor(HeapDefault, 1<<20, 0))
	require.NoError(t, err)
	buf := mustNew(t, buffer(64<<10))
	assert.NoError(t, h.CheckPlacement(0, buf))
	assert.NoError(t, h.CheckPlacement(15*64<<10, buf))
	for _, c := range []struct {
		off   uint64
		r     *Resource
		h     Heap
		field string
	}{
		{4096, buf, h, "HeapOffset"},
		{16 * 64 << 10, buf, h, "HeapOffset"},
		{math.MaxUint64 &^ 0xffff, buf, h, "HeapOffset"},
	} {
		err := c.h.CheckPlacement(c.off, c.r)
		var fe *FieldError
		require.True(t, errors.As(err, &fe))
		assert.Equal(t, c.field, fe.Field)
		assert.ErrorIs(t, err, ErrPlacement)
	}
	msaa := tex2D(64, 64, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagRenderTarget)
	msaa.SampleDesc.Count = 4
	big, _ := NewHeap(CreateHeapFor(HeapDefault, 8<<20, 0))
	assert.ErrorIs(t, big.CheckPlacement(0, mustNew(t, msaa)), ErrPlacement, "a 64 KiB heap cannot hold a 4 MiB-aligned texture")
	buffersOnly, _ := NewHeap(CreateHeapFor(HeapDefault, 1<<20, ddi.HeapFlagBuffers))
	assert.ErrorIs(t, buffersOnly.CheckPlacement(0, mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0))), ErrPlacement)
	assert.NoError(t, buffersOnly.CheckPlacement(0, buf))
	upload, _ := NewHeap(CreateHeapFor(HeapUpload, 1<<20, 0))
	assert.ErrorIs(t, upload.CheckPlacement(0, mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8Unorm, 0))), ErrPlacement)
}

func TestOccupancyAliasing(t *testing.T) {
	var o Occupancy
	o.Add(1, Span{0, 100})
	o.Add(3, Span{200, 100})
	o.Add(2, Span{50, 100})
	assert.Equal(t, []uint64{1, 2}, o.Aliasing(Span{60, 10}, 0))
	assert.Equal(t, []uint64{2}, o.Aliasing(Span{60, 10}, 1))
	assert.Equal(t, []uint64{2, 3}, o.Aliasing(Span{100, 101}, 0))
	assert.Empty(t, o.Aliasing(Span{300, 10}, 0))
	assert.Empty(t, o.Aliasing(Span{60, 0}, 0), "an empty span aliases nothing")
	o.Remove(2)
	assert.Equal(t, []uint64{1}, o.Aliasing(Span{60, 10}, 0))
	assert.True(t, Span{0, 10}.Overlaps(Span{9, 1}))
	assert.False(t, Span{0, 10}.Overlaps(Span{10, 1}))
}

func TestLayoutRules(t *testing.T) {
	buf := mustNew(t, buffer(16))
	assert.NoError(t, buf.CheckInitialLayout(ddi.LayoutUndefined))
	assert.ErrorIs(t, buf.CheckInitialLayout(ddi.LayoutCommon), ErrLayout)

	sim := mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagSimultaneousAccess|ddi.ResourceFlagRenderTarget|ddi.ResourceFlagShaderResource))
	assert.NoError(t, sim.CheckInitialLayout(ddi.LayoutCommon))
	assert.NoError(t, sim.CheckInitialLayout(ddi.LayoutUndefined))
	err := sim.CheckInitialLayout(ddi.LayoutRenderTarget)
	assert.ErrorIs(t, err, ErrLayout)
	assert.Contains(t, err.Error(), "InitialBarrierLayout = RENDER_TARGET")

	plain := mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagShaderResource))
	for _, l := range ddi.AllBarrierLayouts() {
		err := plain.CheckLayout("LayoutAfter", l)
		_, needs := layoutNeeds[l]
		bad := (needs && l != ddi.LayoutShaderResource && l != ddi.LayoutDirectQueueShaderResource &&
			l != ddi.LayoutComputeQueueShaderResource && l != ddi.LayoutLegacyShaderResource &&
			l != ddi.LayoutLegacyPixelShaderResource) || l == ddi.LayoutResolveSource
		assert.Equal(t, bad, err != nil, "%s: %v", l, err)
	}
	assert.ErrorIs(t, plain.CheckLayout("LayoutBefore", ddi.BarrierLayout(77)), ErrLayout)
	noSRV := mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8G8B8A8Unorm, 0))
	assert.ErrorIs(t, noSRV.CheckLayout("LayoutAfter", ddi.LayoutShaderResource), ErrLayout)
}

func TestAccessRules(t *testing.T) {
	plainBuf := mustNew(t, buffer(16))
	a := plainBuf.AllowedAccesses(HeapDefault)
	assert.Zero(t, a&(ddi.AccessDepthStencilRead|ddi.AccessUnorderedAccess|ddi.AccessRaytracingAccelerationStructureRead))
	assert.NotZero(t, a&ddi.AccessVertexBuffer)
	assert.NotZero(t, a&ddi.AccessNoAccess)
	assert.Equal(t, ddi.UploadHeapAccesses|ddi.AccessNoAccess, plainBuf.AllowedAccesses(HeapUpload))
	assert.Equal(t, ddi.ReadbackHeapAccesses|ddi.AccessNoAccess, plainBuf.AllowedAccesses(HeapReadback))
	err := plainBuf.CheckAccess("AccessAfter", ddi.AccessCopyDest, HeapUpload)
	assert.ErrorIs(t, err, ErrAccess)
	assert.Contains(t, err.Error(), "COPY_DEST is not an access this UPLOAD-heap buffer")

	d := buffer(16)
	d.Flags = ddi.ResourceFlagRaytracingAccelerationStructure
	rtas := mustNew(t, d)
	assert.NoError(t, rtas.CheckAccess("AccessBefore", ddi.AccessRaytracingAccelerationStructureWrite|ddi.AccessUnorderedAccess, HeapDefault))
	assert.ErrorIs(t, rtas.CheckAccess("AccessBefore", ddi.AccessVertexBuffer, HeapDefault), ErrAccess)

	tex := mustNew(t, tex2D(8, 8, 1, 1, ddi.FormatR8G8B8A8Unorm, ddi.ResourceFlagRenderTarget))
	assert.NoError(t, tex.CheckAccess("AccessAfter", ddi.AccessRenderTarget|ddi.AccessCopySource, HeapDefault))
	assert.ErrorIs(t, tex.CheckAccess("AccessAfter", ddi.AccessShaderResource, HeapDefault), ErrAccess)
	assert.ErrorIs(t, tex.CheckAccess("AccessAfter", ddi.AccessVertexBuffer, HeapDefault), ErrAccess)
	assert.NoError(t, tex.CheckAccess("AccessAfter", 0x40000000, HeapDefault), "undefined bits are not this check's")
}
