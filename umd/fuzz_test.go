package umd

import (
	"testing"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// fuzzResources are the resources a fuzzed barrier's handle is steered to
// (a handle whose low three bits are below len names one of them; any
// other stays as it is, almost always naming nothing).
func fuzzResources(e *env) []ddi.HResource {
	mips, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 16, 16, 2, 3, uavFlags, ddi.LayoutCommon), resource.HeapDefault)
	if err != nil {
		e.t.Fatal(err)
	}
	ds, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatD32FloatS8X24Uint, 16, 16, 1, 1, ddi.ResourceFlagDepthStencil,
		ddi.LayoutDepthStencilWrite), resource.HeapDefault)
	if err != nil {
		e.t.Fatal(err)
	}
	return []ddi.HResource{
		e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget),
		mips,
		ds,
		e.texture("SA", 16, 16, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon),
		e.buffer("BUF", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault),
		e.buffer("UP", 4096, 0, resource.HeapUpload),
	}
}

// rawBarriers reinterprets bytes as D3D12DDIARG_BARRIER_0094 records,
// unchecked, as a driver receives them through the DDI.
func rawBarriers(data []byte) []ddi.Barrier {
	n := len(data) / ddi.BarrierSize
	if n == 0 {
		return nil
	}
	bs := make([]ddi.Barrier, n)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&bs[0])), n*ddi.BarrierSize), data)
	return bs
}

// steer points handles at the fixture's resources.
func steer(bs []ddi.Barrier, rs []ddi.HResource) {
	for i := range bs {
		var h *ddi.HResource
		switch bs[i].Type {
		case ddi.BarrierTypeTexture:
			h = &bs[i].Texture().Resource
		case ddi.BarrierTypeBuffer:
			h = &bs[i].Buffer().Resource
		case ddi.BarrierTypeRanged:
			h = &bs[i].Ranged().Resource
		default:
			continue
		}
		if k := int(*h & 7); k < len(rs) {
			*h = rs[k]
		}
	}
}

// FuzzBarrier feeds arbitrary barrier arrays to Barrier on each command
// list type: it must never panic; a call is either rejected (an error, no
// packets for it) or accepted (packets for it), and an accepted list runs
// on the machine without a fault.
func FuzzBarrier(f *testing.F) {
	seed := func(bs ...ddi.Barrier) {
		f.Add(uint8(0), unsafe.Slice((*byte)(unsafe.Pointer(&bs[0])), len(bs)*ddi.BarrierSize))
	}
	// Handles 0..5 steer to the fixture's resources in order.
	seed(tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, 0))
	seed(tex(ddi.SyncRenderTarget, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCopySource, ddi.LayoutRenderTarget, ddi.LayoutCommon, 0),
		buf(ddi.SyncComputeShading, ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.AccessVertexBuffer, 4),
		glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon))
	seed(texRange(ddi.SyncNone, ddi.SyncComputeShading, ddi.AccessNoAccess, ddi.AccessUnorderedAccess, ddi.LayoutUndefined,
		ddi.LayoutUnorderedAccess, 1, ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 2, NumArraySlices: 1, FirstArraySlice: 1, NumPlanes: 1},
		ddi.TextureBarrierFlagDiscard))
	seed(tex(ddi.SyncDepthStencil, ddi.SyncSplit, ddi.AccessDepthStencilWrite, ddi.AccessDepthStencilRead,
		ddi.LayoutDepthStencilWrite, ddi.LayoutDepthStencilRead, 2))
	seed(ranged(ddi.RangedBarrierFlagAtomicCopy|ddi.RangedBarrierFlagAcquire, 4, 16, 24),
		ranged(ddi.RangedBarrierFlagAtomicCopy, 4, 0, 8))
	seed(tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutCommon, 3),
		buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopySource, ddi.AccessCopySource, 5))
	f.Add(uint8(2), []byte{9, 0, 0, 0, 0, 0, 0, 0})
	types := []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy,
		ddi.CommandListTypeVideoDecode, ddi.CommandListTypeVideoProcess, ddi.CommandListTypeVideoEncode, ddi.CommandListTypeBundle}

	f.Fuzz(func(t *testing.T, listType uint8, data []byte) {
		e := newEnv(t, "discrete", Options{Debug: true})
		rs := fuzzResources(e)
		typ := types[int(listType)%len(types)]
		cl := e.list(typ)
		bs := rawBarriers(data)
		steer(bs, rs)
		// Twice: the second call also meets what the first recorded.
		for range 2 {
			before := cl.Buffer().Len()
			cl.Barrier(bs)
			switch {
			case cl.Err() != nil:
				if cl.Buffer().Len() != before {
					t.Fatalf("a rejected call emitted packets: %v", cl.Err())
				}
				_ = cl.Err().Error()
				return
			case len(bs) > 0 && cl.Buffer().Len() == before:
				t.Fatalf("an accepted call of %d barriers emitted nothing", len(bs))
			}
		}
		if err := cl.Close(); err != nil {
			t.Fatalf("Close after accepted calls: %v", err)
		}
		if typ == ddi.CommandListTypeBundle {
			return
		}
		q, err := e.d.CreateQueue(typ)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.ExecuteCommandLists(cl); err != nil {
			t.Fatal(err)
		}
		if err := e.d.WaitIdle(); err != nil {
			t.Fatal(err)
		}
		if fs := e.d.Machine().Faults(); len(fs) > 0 {
			t.Fatalf("the machine faulted: %v", fs)
		}
	})
}
