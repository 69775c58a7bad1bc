package umd

import (
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The function tables drive the same driver: the runtime's handles name
// the objects, barriers are a pointer and a count, failures are HRESULTs.
func TestFunctionTables(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	const hDev = ddi.HDevice(0x7000)
	f := NewFuncs(e.d, hDev)
	dev, lists := &f.Device, &f.CommandList

	var opts ddi.OptionsData0089
	require.Equal(t, ddi.S_OK, dev.GetOptions0089(hDev, &opts))
	assert.True(t, opts.EnhancedBarriersSupported != 0)
	assert.Equal(t, ddi.E_INVALIDARG, dev.GetOptions0089(hDev+1, &opts), "a handle of no device")

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
	require.Equal(t, ddi.S_OK, lists.Close(hList))
	cl := f.List(hList)
	require.NotNil(t, cl)
	require.Len(t, cl.Records(), 1)
	assert.Equal(t, 2, cl.Records()[0].Barriers)
	require.NoError(t, e.direct.ExecuteCommandLists(cl))
	require.NoError(t, e.d.WaitIdle())

	// An invalid barrier: the list's error is Close's HRESULT.
	require.Equal(t, ddi.S_OK, lists.Reset(hList))
	wrong := []ddi.Barrier{tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopySource, ddi.LayoutCopyDest, 77, hRT)}
	lists.Barrier(hList, 1, &wrong[0])
	assert.Equal(t, ddi.E_INVALIDARG, lists.Close(hList))
	assert.ErrorContains(t, f.LastError(), "UNSUPPORTED_BARRIER_LAYOUT")
	require.Equal(t, ddi.S_OK, lists.Reset(hList))
	lists.Barrier(hList, 3, nil)
	assert.Equal(t, ddi.E_INVALIDARG, lists.Close(hList))

	lists.Destroy(hList)
	assert.Nil(t, f.List(hList))
	assert.Equal(t, ddi.E_INVALIDARG, lists.Close(hList))
	lists.Barrier(hList, 1, &bs[0]) // a destroyed list: nothing happens
}
