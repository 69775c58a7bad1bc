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
		switch b := &bs[i]; b.Type {
		case ddi.BarrierTypeTexture:
			steerHandle(&b.Texture().Resource, rs)
		case ddi.BarrierTypeBuffer:
			steerHandle(&b.Buffer().Resource, rs)
		case ddi.BarrierTypeRanged:
			steerHandle(&b.Ranged().Resource, rs)
		}
	}
}

// steer0088 is steer for 0088 records, whose ranged member differs.
func steer0088(bs []ddi.Barrier0088, rs []ddi.HResource) {
	for i := range bs {
		switch b := &bs[i]; b.Type {
		case ddi.BarrierTypeTexture:
			steerHandle(&b.Texture().Resource, rs)
		case ddi.BarrierTypeBuffer:
			steerHandle(&b.Buffer().Resource, rs)
		case ddi.BarrierTypeRanged:
			steerHandle(&b.Ranged().Resource, rs)
		}
	}
}

// steerHandle replaces a fuzzed handle by one of the fixture's resources
// when its low bits pick one; other values stay, to be refused.
func steerHandle(h *ddi.HResource, rs []ddi.HResource) {
	if k := int(*h & 7); k < len(rs) {
		*h = rs[k]
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

	f.Fuzz(func(t *testing.T, listType uint8, data []byte) {
		fuzzBarrierCalls(t, listType, func(rs []ddi.HResource) (int, func(*CommandList)) {
			bs := rawBarriers(data)
			steer(bs, rs)
			return len(bs), func(cl *CommandList) { cl.Barrier(bs) }
		})
	})
}

var fuzzListTypes = []ddi.CommandListType{ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy,
	ddi.CommandListTypeVideoDecode, ddi.CommandListTypeVideoProcess, ddi.CommandListTypeVideoEncode, ddi.CommandListTypeBundle}

// fuzzBarrierCalls records a call of n barriers twice on a list of a type
// (the second also meets what the first recorded) and checks: a rejected
// call emits nothing, an accepted one emits packets, and accepted lists run
// without a fault.
func fuzzBarrierCalls(t *testing.T, listType uint8, prepare func(rs []ddi.HResource) (int, func(*CommandList))) {
	e := newEnv(t, "discrete", Options{Debug: true})
	n, record := prepare(fuzzResources(e))
	typ := fuzzListTypes[int(listType)%len(fuzzListTypes)]
	cl := e.list(typ)
	for range 2 {
		before := cl.Buffer().Len()
		record(cl)
		switch {
		case cl.Err() != nil:
			if cl.Buffer().Len() != before {
				t.Fatalf("a rejected call emitted packets: %v", cl.Err())
			}
			_ = cl.Err().Error()
			return
		case n > 0 && cl.Buffer().Len() == before:
			t.Fatalf("an accepted call of %d barriers emitted nothing", n)
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
}

// FuzzBarrier0088 is FuzzBarrier for PFND3D12DDI_BARRIER_0088's 80-byte
// records.
func FuzzBarrier0088(f *testing.F) {
	seed := func(bs ...ddi.Barrier0088) {
		f.Add(uint8(0), unsafe.Slice((*byte)(unsafe.Pointer(&bs[0])), len(bs)*ddi.Barrier0088Size))
	}
	b := buf(ddi.SyncComputeShading, ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.AccessVertexBuffer, 4)
	x, _ := b.As0088()
	all := ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
	r := func(h ddi.HResource, sub ddi.SubresourceRange, begin, end uint64) ddi.Barrier0088 {
		return ddi.NewRangedBarrier0088(ddi.RangedBarrier0088{GlobalBarrier: copyToShader, Flags: ddi.RangedBarrierFlagAtomicCopy,
			Resource: h, Subresources: sub, Range: ddi.Range{Begin: begin, End: end}})
	}
	seed(x, r(4, ddi.SubresourceRange{}, 64, 128))
	seed(r(0, all, 0, 0), r(4, all, 0, 0))
	seed(r(0, ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 1, NumArraySlices: 1, NumPlanes: 1}, 8, 4))
	f.Fuzz(func(t *testing.T, listType uint8, data []byte) {
		fuzzBarrierCalls(t, listType, func(rs []ddi.HResource) (int, func(*CommandList)) {
			n := len(data) / ddi.Barrier0088Size
			bs := make([]ddi.Barrier0088, n)
			if n > 0 {
				copy(unsafe.Slice((*byte)(unsafe.Pointer(&bs[0])), n*ddi.Barrier0088Size), data)
			}
			steer0088(bs, rs)
			return n, func(cl *CommandList) { cl.Barrier0088(bs) }
		})
	})
}
