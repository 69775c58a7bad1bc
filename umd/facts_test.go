package umd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd/translator"
)

// capture is the reference translation, keeping a copy of every
// request's facts: what another translator would be told.
type capture struct{ facts *[]translator.Fact }

func (capture) Name() string { return "capture" }

func (c capture) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return captureT{c, NewReference(p)}, nil
}

type captureT struct {
	capture
	ref *Reference
}

func (c captureT) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	*c.facts = append(*c.facts, req.Facts...)
	return c.ref.Translate(req, dst)
}

// TestTextureFacts: a texture barrier's fact tells a translator the
// texture's kind (simultaneous access or not), its surface, its data's
// bytes, its metadata's only when it has any, and the bytes and surface
// regions the subresources select; the reference translates none of the
// calls differently for being told through the interface.
func TestTextureFacts(t *testing.T) {
	var facts []translator.Fact
	e := newEnv(t, "discrete", Options{Translator: capture{&facts}})
	rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
	sa := e.texture("SA", 64, 64, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon)
	mips, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 3, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
	require.NoError(t, err)

	cl := e.list(ddi.CommandListTypeDirect)
	toSRV := func(r ddi.HResource, l ddi.BarrierLayout) ddi.Barrier {
		return tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource, l,
			map[bool]ddi.BarrierLayout{true: ddi.LayoutCommon, false: ddi.LayoutDirectQueueShaderResource}[l == ddi.LayoutCommon], r)
	}
	mip1 := toSRV(mips, ddi.LayoutRenderTarget)
	mip1.Texture().Subresources = ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 1, NumArraySlices: 1, NumPlanes: 1}
	cl.Barrier([]ddi.Barrier{toSRV(rt, ddi.LayoutRenderTarget), toSRV(sa, ddi.LayoutCommon), mip1})
	require.NoError(t, cl.Err())
	require.Len(t, facts, 3)

	metas := map[bool]int{}
	for i, h := range []ddi.HResource{rt, sa, mips} {
		r := e.d.resource(h)
		f := facts[i]
		want := translator.KindTexture
		if h == sa {
			want = translator.KindSimultaneous
		}
		assert.Equal(t, want, f.Kind, "record %d: kind", i)
		assert.Equal(t, uint32(r.Surface), f.Surface, "record %d: surface", i)
		assert.Equal(t, translator.Range{Lo: r.Addr, Hi: r.Addr + r.DataSize}, f.Data, "record %d: data", i)
		meta := translator.Range{}
		if r.MetaSize > 0 {
			meta = translator.Range{Lo: f.Data.Hi, Hi: f.Data.Hi + r.MetaSize}
		}
		metas[r.MetaSize > 0]++
		assert.Equal(t, meta, f.Meta, "record %d: metadata", i)
		assert.Equal(t, translator.Range{}, f.Span, "record %d: a texture has no ranged span", i)
		require.NotZero(t, f.NumRegions, "record %d: regions", i)
		if h != mips {
			assert.Equal(t, f.Data, f.Selected, "record %d: all of it selected", i)
			continue
		}
		assert.True(t, f.Selected.Lo > f.Data.Lo && f.Selected.Hi <= f.Data.Hi, "mip 1 alone: %+v of %+v", f.Selected, f.Data)
	}
	assert.Equal(t, map[bool]int{true: 2, false: 1}, metas, "textures with and without metadata were both told")
}

// TestRecentHandleCollision: two resources whose handles share a slot of
// the list's recent entries are each found as themselves, whichever the
// slot holds: a texture barrier on the second is not checked against the
// first (a buffer).
func TestRecentHandleCollision(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	b := e.buffer("B", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	var rt ddi.HResource
	for i := 0; ; i++ {
		require.Less(t, i, 4*len(CommandList{}.recent), "no handle met the buffer's slot")
		h := e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget)
		if uint64(h)%uint64(len(CommandList{}.recent)) == uint64(b)%uint64(len(CommandList{}.recent)) {
			rt = h
			break
		}
	}
	cl := e.list(ddi.CommandListTypeDirect)
	uav := buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, b)
	toSRV := tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)
	toRT := tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
		ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt)
	for _, bs := range [][]ddi.Barrier{{uav}, {toSRV}, {uav}, {toRT}, {uav, toSRV}} {
		cl.Barrier(bs)
		require.NoError(t, cl.Err())
	}
	e.run(cl)
}

// TestResidentsFollowPlacement: two buffers' cache ranges are joined over
// the empty memory between them; a buffer placed there one call later
// (the same list) and one list later splits them again, whichever
// translator translates: the device's own reference, which finds the
// residents only when it joins ranges and keeps its index of them between
// calls, or another given them with each request.
func TestResidentsFollowPlacement(t *testing.T) {
	const size = 64 << 10
	for _, opts := range []Options{{}, {Translator: capture{new([]translator.Fact)}}} {
		e := newEnv(t, "discrete", opts)
		heap, err := e.d.CreateHeap(resource.HeapDefault, 3*size)
		require.NoError(t, err)
		place := func(offset uint64) ddi.HResource {
			h, err := e.d.CreatePlaced(heap, offset, BufferDesc(size, ddi.ResourceFlagUnorderedAccess))
			require.NoError(t, err)
			return h
		}
		a, c := place(0), place(2*size)
		toCopy := func(h ddi.HResource) ddi.Barrier {
			return buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, h)
		}
		back := func(h ddi.HResource) ddi.Barrier {
			return buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCopySource, ddi.AccessUnorderedAccess, h)
		}
		cacheOps := func(cl *CommandList) int {
			require.NoError(t, cl.Err())
			rs := cl.Records()
			return rs[len(rs)-1].CacheOps
		}
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Barrier([]ddi.Barrier{toCopy(a), toCopy(c)})
		joined := cacheOps(cl)
		require.NotZero(t, joined)
		cl.Barrier([]ddi.Barrier{back(a), back(c)})
		cl.Barrier([]ddi.Barrier{toCopy(a), toCopy(c)})
		require.Equal(t, joined, cacheOps(cl), "the same call again: the same residents")
		cl.Barrier([]ddi.Barrier{back(a), back(c)})
		place(size)
		cl.Barrier([]ddi.Barrier{toCopy(a), toCopy(c)})
		split := cacheOps(cl)
		assert.Greater(t, split, joined, "a buffer placed between them one call later: the ranges are not joined over it")
		next := e.list(ddi.CommandListTypeDirect)
		next.Barrier([]ddi.Barrier{toCopy(a), toCopy(c)})
		assert.Equal(t, split, cacheOps(next), "one list later")
	}
}
