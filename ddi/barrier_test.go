package ddi

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBarrierString(t *testing.T) {
	tb := NewTextureBarrier(TextureBarrier{SyncBefore: SyncRenderTarget, SyncAfter: SyncCopy, AccessBefore: AccessRenderTarget,
		AccessAfter: AccessCopySource, LayoutBefore: LayoutRenderTarget, LayoutAfter: LayoutCommon, Resource: 5,
		Subresources: SubresourceRange{IndexOrFirstMipLevel: AllSubresources}, Flags: TextureBarrierFlagDiscard})
	assert.Equal(t, "TEXTURE 0x5 RENDER_TARGET->COPY RENDER_TARGET->COPY_SOURCE layout RENDER_TARGET->COMMON all DISCARD", tb.String())
	sub := NewTextureBarrier(TextureBarrier{Subresources: SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 2, NumArraySlices: 3, NumPlanes: 1}})
	assert.Equal(t, "TEXTURE 0x0 NONE->NONE COMMON->COMMON layout COMMON->COMMON mips 1+2 slices 0+3 planes 0+1", sub.String())
	one := NewTextureBarrier(TextureBarrier{Subresources: SubresourceRange{IndexOrFirstMipLevel: 4}})
	assert.Contains(t, one.String(), "subresource 4")
	g := NewGlobalBarrier(GlobalBarrier{SyncBefore: SyncComputeShading, SyncAfter: SyncAll, AccessBefore: AccessUnorderedAccess, AccessAfter: AccessNoAccess})
	assert.Equal(t, "GLOBAL COMPUTE_SHADING->ALL UNORDERED_ACCESS->NO_ACCESS", g.String())
	b := NewBufferBarrier(BufferBarrier{SyncBefore: SyncCopy, SyncAfter: SyncSplit, AccessBefore: AccessCopyDest, AccessAfter: AccessVertexBuffer, Resource: 0x10})
	assert.Equal(t, "BUFFER 0x10 COPY->SPLIT COPY_DEST->VERTEX_BUFFER", b.String())
	r := NewRangedBarrier(RangedBarrier{Flags: RangedBarrierFlagAtomicCopy | RangedBarrierFlagRelease, Resource: 3, Range: Range{Begin: 8, End: 16}})
	assert.Equal(t, "RANGED 0x3 ATOMIC_COPY|RELEASE subresource 0 [8,16)", r.String())
	all := NewRangedBarrier(RangedBarrier{Flags: RangedBarrierFlagAtomicCopy, Subresource: AllSubresourcesIndex})
	assert.Equal(t, "RANGED 0x0 ATOMIC_COPY all [0,0)", all.String())
	r88 := NewRangedBarrier0088(RangedBarrier0088{GlobalBarrier: GlobalBarrier{SyncCopy, SyncAll, AccessCopyDest, AccessCommon},
		Flags: RangedBarrierFlagAtomicCopy, Resource: 3, Subresources: SubresourceRange{IndexOrFirstMipLevel: AllSubresources},
		Range: Range{Begin: 8, End: 16}})
	assert.Equal(t, "RANGED 0x3 COPY->ALL COPY_DEST->COMMON ATOMIC_COPY all [8,16)", r88.String())
	g88, ok := g.As0088()
	assert.True(t, ok)
	assert.Equal(t, g.String(), g88.String())
	assert.Equal(t, "0x9", (&Barrier{Type: 9}).String())
}

// Named prints a barrier's resource by the name it is given, the handle
// where it is given none; a global barrier names no resource.
func TestBarrierNamed(t *testing.T) {
	names := map[HResource]string{3: "POOL", 5: "GBUF0"}
	name := func(h HResource) string { return names[h] }
	tb := NewTextureBarrier(TextureBarrier{SyncBefore: SyncRenderTarget, SyncAfter: SyncCopy, AccessBefore: AccessRenderTarget,
		AccessAfter: AccessCopySource, LayoutBefore: LayoutRenderTarget, LayoutAfter: LayoutCommon, Resource: 5,
		Subresources: SubresourceRange{IndexOrFirstMipLevel: AllSubresources}})
	assert.Equal(t, "TEXTURE GBUF0 RENDER_TARGET->COPY RENDER_TARGET->COPY_SOURCE layout RENDER_TARGET->COMMON all", tb.Named(name))
	b := NewBufferBarrier(BufferBarrier{SyncBefore: SyncCopy, SyncAfter: SyncAll, AccessBefore: AccessCopyDest, AccessAfter: AccessCommon, Resource: 3})
	assert.Equal(t, "BUFFER POOL COPY->ALL COPY_DEST->COMMON", b.Named(name))
	unknown := NewBufferBarrier(BufferBarrier{Resource: 0x10})
	assert.Equal(t, unknown.String(), unknown.Named(name), "a handle with no name prints in hex")
	assert.Equal(t, b.String(), b.Named(nil))
	r := NewRangedBarrier(RangedBarrier{Flags: RangedBarrierFlagAtomicCopy, Resource: 3, Range: Range{Begin: 8, End: 16}})
	assert.Equal(t, "RANGED POOL ATOMIC_COPY subresource 0 [8,16)", r.Named(name))
	r88 := NewRangedBarrier0088(RangedBarrier0088{GlobalBarrier: GlobalBarrier{SyncCopy, SyncAll, AccessCopyDest, AccessCommon},
		Flags: RangedBarrierFlagAtomicCopy, Resource: 3, Subresources: SubresourceRange{IndexOrFirstMipLevel: AllSubresources},
		Range: Range{Begin: 8, End: 16}})
	assert.Equal(t, "RANGED POOL COPY->ALL COPY_DEST->COMMON ATOMIC_COPY all [8,16)", r88.Named(name))
	b88, ok := b.As0088()
	assert.True(t, ok)
	assert.Equal(t, b.Named(name), b88.Named(name))
	g := NewGlobalBarrier(GlobalBarrier{SyncBefore: SyncAll, SyncAfter: SyncAll})
	assert.Equal(t, g.String(), g.Named(name))
}

func TestHRESULT(t *testing.T) {
	u := func(r HRESULT) uint32 { return uint32(r) }
	assert.Equal(t, uint32(0x80070057), u(E_INVALIDARG))
	assert.Equal(t, uint32(0x8007000E), u(E_OUTOFMEMORY))
	assert.Equal(t, uint32(0x80004005), u(E_FAIL))
	assert.True(t, E_INVALIDARG.Failed())
	assert.False(t, S_OK.Failed())
	assert.Equal(t, "E_OUTOFMEMORY", E_OUTOFMEMORY.String())
	assert.Equal(t, "0x887A0005", HRESULT(-0x7785fffb).String())
}
