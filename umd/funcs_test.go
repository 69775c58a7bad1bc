package umd

import (
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The function tables drive the same driver: the runtime's handles name
// the objects, barriers are a pointer and a count, failures are HRESULTs.
func TestFunctionTables(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	const hAdapter, hDev = ddi.HAdapter(0x6000), ddi.HDevice(0x7000)
	f := NewFuncs(e.d, hAdapter, hDev)
	dev, lists := &f.Device, &f.CommandList

	var opts ddi.OptionsData0089
	caps := ddi.GetCapsArgs{Type: ddi.CapsTypeD3D12Options, Data: unsafe.Pointer(&opts), DataSize: uint32(unsafe.Sizeof(opts))}
	require.Equal(t, ddi.S_OK, f.Adapter.GetCaps(hAdapter, &caps))
	assert.True(t, opts.EnhancedBarriersSupported != 0)
	assert.Equal(t, ddi.E_INVALIDARG, f.Adapter.GetCaps(hAdapter+1, &caps), "a handle of no adapter")
	short := caps
	short.DataSize--
	assert.Equal(t, ddi.E_INVALIDARG, f.Adapter.GetCaps(hAdapter, &short))
	assert.ErrorContains(t, f.LastError(), "DataSize be 124, not 123")
	other := caps
	other.Type = 1
	assert.Equal(t, ddi.E_INVALIDARG, f.Adapter.GetCaps(hAdapter, &other))
	assert.Equal(t, ddi.E_INVALIDARG, f.Adapter.GetCaps(hAdapter, nil))

	// A heap, then a render target placed in it, under runtime handles.
	desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutRenderTarget)
	var info ddi.ResourceAllocationInfo0022
	dev.CheckResourceAllocationInfo(hDev, &desc, 0, 0, 1, &info)
	require.NoError(t, f.LastError())
	require.NotZero(t, info.ResourceDataSize)
	sizes := dev.CalcPrivateHeapAndResourceSizes(hDev, nil, &desc, 0)
	assert.NotZero(t, sizes.Resource)

	const hHeap, hRT, hBuf = ddi.HHeap(0x10000), ddi.HResource(0x20000), ddi.HResource(0x30000)
	heapDesc := resource.CreateHeapFor(resource.HeapDefault, 1<<20, 0)
	require.Equal(t, ddi.S_OK, dev.CreateHeapAndResource(hDev, &heapDesc, hHeap, 0, nil, nil, 0, 0))
	require.Equal(t, ddi.S_OK, dev.CreateHeapAndResource(hDev, nil, hHeap, 0, &desc, nil, 0, hRT))
	bufDesc := BufferDesc(4096, ddi.ResourceFlagUnorderedAccess)
	require.Equal(t, ddi.S_OK, dev.CreateHeapAndResource(hDev, &heapDesc, hHeap+1, 0, &bufDesc, nil, 0, hBuf), "committed")
	r, ok := e.d.Resource(hRT)
	require.True(t, ok)
	assert.Equal(t, hHeap, r.Heap.Handle)
	assert.False(t, r.Committed)

	// Handles in use, NULL handles, bad descriptions, no memory.
	assert.Equal(t, ddi.E_INVALIDARG, dev.CreateHeapAndResource(hDev, nil, hHeap, 0, &desc, nil, 0, hRT))
	assert.ErrorContains(t, f.LastError(), "already names")
	assert.Equal(t, ddi.E_INVALIDARG, dev.CreateHeapAndResource(hDev, &heapDesc, 0, 0, nil, nil, 0, 0))
	assert.Equal(t, ddi.E_INVALIDARG, dev.CreateHeapAndResource(hDev, nil, hHeap, 0, &desc, nil, 0, 0))
	bad := desc
	bad.Width = 0
	assert.Equal(t, ddi.E_INVALIDARG, dev.CreateHeapAndResource(hDev, nil, hHeap, 0, &bad, nil, 0, 0x40000))
	var ce *CreateError
	require.ErrorAs(t, f.LastError(), &ce)
	assert.Equal(t, "Width", ce.Field)
	dev.CheckResourceAllocationInfo(hDev, &bad, 0, 0, 1, &info)
	assert.Zero(t, info.ResourceDataSize)
	assert.Error(t, f.LastError())
	huge := resource.CreateHeapFor(resource.HeapDefault, 1<<40, 0)
	assert.Equal(t, ddi.E_OUTOFMEMORY, dev.CreateHeapAndResource(hDev, &huge, 0x50000, 0, nil, nil, 0, 0))
	_, ok = e.d.Heap(0x50000)
	assert.False(t, ok, "nothing is created")

	// A command list records a barrier array given as pointer and count.
	const hList = ddi.HCommandList(0x60000)
	require.Equal(t, ddi.S_OK, dev.CreateCommandList(hDev, ddi.CommandListTypeDirect, hList))
	assert.Equal(t, ddi.E_INVALIDARG, dev.CreateCommandList(hDev, ddi.CommandListTypeDirect, hList), "handle in use")
	bs := []ddi.Barrier{
		tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopySource, ddi.LayoutRenderTarget, ddi.LayoutCommon, hRT),
		buf(ddi.SyncNone, ddi.SyncComputeShading, ddi.AccessNoAccess, ddi.AccessUnorderedAccess, hBuf),
	}
	lists.Barrier(hList, uint32(len(bs)), &bs[0])
	lists.Barrier(hList, 0, nil)
	lists.Close(hList)
	require.NoError(t, f.LastError())
	cl := f.List(hList)
	require.NotNil(t, cl)
	require.Len(t, cl.Records(), 1)
	assert.Equal(t, 2, cl.Records()[0].Barriers)
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, e.d.WaitIdle())

	// An invalid barrier: Close reports the list's error through LastError
	// (pfnSetErrorCb), since it returns nothing.
	reset := ddi.ResetCommandList0040{CommandAllocator: 0x1}
	lists.Reset(hList, &reset)
	require.NoError(t, f.LastError())
	wrong := []ddi.Barrier{tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopySource, ddi.LayoutCopyDest, 77, hRT)}
	lists.Barrier(hList, 1, &wrong[0])
	lists.Close(hList)
	assert.ErrorContains(t, f.LastError(), "UNSUPPORTED_BARRIER_LAYOUT")
	lists.Reset(hList, &reset)
	lists.Barrier(hList, 3, nil)
	assert.ErrorContains(t, f.LastError(), "pBarriers NULL")
	lists.Reset(hList, nil)
	assert.ErrorContains(t, f.LastError(), "arguments are NULL")

	// The 0088 entry point through its own slot.
	lists.Reset(hList, &reset)
	b88 := []ddi.Barrier0088{ddi.NewRangedBarrier0088(ddi.RangedBarrier0088{GlobalBarrier: ddi.GlobalBarrier{SyncBefore: ddi.SyncComputeShading,
		SyncAfter: ddi.SyncCopy, AccessBefore: ddi.AccessUnorderedAccess, AccessAfter: ddi.AccessCopySource},
		Flags: ddi.RangedBarrierFlagAtomicCopy, Resource: hBuf, Range: ddi.Range{Begin: 0, End: 64}})}
	lists.Barrier0088(hList, 1, &b88[0])
	lists.Close(hList)
	require.NoError(t, f.LastError())
	assert.Len(t, f.List(hList).Records(), 1)

	// Resources and heaps go through pfnDestroyHeapAndResource, the list
	// through the device's pfnDestroyCommandList.
	dev.DestroyHeapAndResource(hDev, hHeap, 0)
	assert.ErrorContains(t, f.LastError(), "still placed in it")
	dev.DestroyHeapAndResource(hDev, hHeap, hRT)
	require.NoError(t, f.LastError())
	_, ok = e.d.Heap(hHeap)
	assert.False(t, ok)
	dev.DestroyHeapAndResource(hDev, hHeap+1, hBuf)
	require.NoError(t, f.LastError(), "a committed resource and its heap")
	dev.DestroyHeapAndResource(hDev, 0, hBuf)
	assert.ErrorContains(t, f.LastError(), "already destroyed")

	cl = f.List(hList)
	dev.DestroyCommandList(hDev, hList)
	require.NoError(t, f.LastError())
	assert.Nil(t, f.List(hList))
	lists.Close(hList)
	assert.ErrorIs(t, f.LastError(), errNoList)
	lists.Barrier(hList, 1, &bs[0])
	assert.ErrorIs(t, f.LastError(), errNoList, "a Barrier on a handle of no list says so")
	assert.Error(t, e.direct.ExecuteCommandLists(cl), "the destroyed list does not run")
}

// TestSlotsAreTheHeaders: every function of the view has a slot, and the
// slots the header's facts pin are where a C shim must put them.
func TestSlotsAreTheHeaders(t *testing.T) {
	want := map[string]int{
		"Device.CalcPrivateHeapAndResourceSizes": 472,
		"Device.CreateHeapAndResource":           480,
		"Device.CheckResourceAllocationInfo":     600,
		"CommandList.Barrier":                    544,
		"CommandList.Barrier0088":                544,
		"CommandList.Close":                      0,
		"CommandList.Reset":                      8,
		"Adapter.GetCaps":                        32,
	}
	fields := map[string]bool{}
	for _, table := range []any{AdapterFuncs{}, DeviceFuncs{}, CommandListFuncs{}} {
		ty := reflect.TypeOf(table)
		for i := range ty.NumField() {
			fields[strings.TrimSuffix(ty.Name(), "Funcs")+"."+ty.Field(i).Name] = true
		}
	}
	for _, s := range Slots {
		_, ok := s.Table.Offset(s.Member)
		assert.True(t, ok, "%s has no %s", s.Table.Name, s.Member)
		assert.True(t, fields[s.Field], "%s is not a function of the view", s.Field)
		delete(fields, s.Field)
		if off, ok := want[s.Field]; ok {
			assert.Equal(t, off, s.Offset(), s.Field)
		}
	}
	assert.Empty(t, fields, "functions without a slot")
	assert.Equal(t, 976, ddi.DeviceFuncsCore0088Slots.Size())
	assert.Equal(t, 560, ddi.CommandListFuncs3D0094Slots.Size())
}
