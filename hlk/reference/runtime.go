package reference

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/resource"
	"github.com/ebref/ebref/umd"
)

// The reference driver is driven the way the D3D12 runtime drives a
// driver, through its DDI function tables (umd.Funcs), wherever the
// tables have the entry point: resource and heap creation and destruction
// (each creation sized first by pfnCalcPrivateHeapAndResourceSizes),
// allocation info, command-list creation, closing, reset and destruction, and the
// Barrier DDIs, after pfnGetCaps has reported enhanced barriers supported.
// The runtime allocates the handles: here, numbers from 1 as
// umd would choose them, so reports name the same handles either way. Work
// commands, queues, fences and lists created ALLOW_EXTENDED_ASYNC (a flag
// no header defines: errata E-SYNC-COPY) have no table entry ebref
// implements and use the Go API.

const (
	hAdapter ddi.HAdapter = 0xada0
	hDevice  ddi.HDevice  = 0xde00
)

// ddiRuntime is the table side of a reference device.
type ddiRuntime struct {
	f *umd.Funcs
	d *umd.Device

	mu        sync.Mutex
	next      uint64                      // the last heap or resource handle given
	nextList  uint64                      // the last command-list handle given
	committed map[ddi.HResource]ddi.HHeap // each committed resource's heap
}

func newDDIRuntime(d *umd.Device) *ddiRuntime {
	return &ddiRuntime{f: umd.NewFuncs(d, hAdapter, hDevice), d: d, committed: map[ddi.HResource]ddi.HHeap{}}
}

// requireEnhancedBarriers asks the driver for its D3D12 options through
// pfnGetCaps, as the runtime does when it opens a device: only a driver
// that reports EnhancedBarriersSupported is given the Barrier DDIs.
func (rt *ddiRuntime) requireEnhancedBarriers() error {
	var opts ddi.OptionsData0089
	args := ddi.GetCapsArgs{Type: ddi.CapsTypeD3D12Options, Data: unsafe.Pointer(&opts), DataSize: uint32(unsafe.Sizeof(opts))}
	if err := rt.call(rt.f.Adapter.GetCaps(hAdapter, &args)); err != nil {
		return fmt.Errorf("hlk: pfnGetCaps(D3D12DDICAPS_TYPE_D3D12_OPTIONS): %w", err)
	}
	if opts.EnhancedBarriersSupported == ddi.False {
		return fmt.Errorf("hlk: the driver reports EnhancedBarriersSupported FALSE in its D3D12 options; the runtime would not call its Barrier DDIs")
	}
	return nil
}

// handle allocates a heap or resource handle the device does not use.
func (rt *ddiRuntime) handle() uint64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for {
		rt.next++
		_, res := rt.d.Resource(ddi.HResource(rt.next))
		if _, heap := rt.d.Heap(ddi.HHeap(rt.next)); !res && !heap {
			return rt.next
		}
	}
}

// create is pfnCreateHeapAndResource after pfnCalcPrivateHeapAndResourceSizes,
// which the runtime calls first to allocate the driver's private objects:
// a driver that asks for no memory for an object it is to create, or that
// leaves an error, fails the creation as the runtime would.
func (rt *ddiRuntime) create(heap *ddi.CreateHeap0001, hh ddi.HHeap, res *ddi.CreateResource0088, hr ddi.HResource) error {
	sizes := rt.f.Device.CalcPrivateHeapAndResourceSizes(hDevice, heap, res, 0)
	if err := rt.f.LastError(); err != nil {
		return err
	}
	if (heap != nil) != (sizes.Heap != 0) || (res != nil) != (sizes.Resource != 0) {
		return fmt.Errorf("hlk: pfnCalcPrivateHeapAndResourceSizes gave %d bytes for the heap and %d for the resource (heap given: %t, resource given: %t)",
			sizes.Heap, sizes.Resource, heap != nil, res != nil)
	}
	return rt.call(rt.f.Device.CreateHeapAndResource(hDevice, heap, hh, 0, res, nil, 0, hr))
}

// call returns what a table function that failed left in LastError.
func (rt *ddiRuntime) call(hr ddi.HRESULT) error {
	if hr == ddi.S_OK {
		return nil
	}
	return rt.f.LastError()
}

// giveBack returns the handles given since mark, those of a refused
// creation: the runtime frees the objects behind them, and the next
// creation may well get the same addresses, so the driver must have kept
// nothing of them.
func (rt *ddiRuntime) giveBack(mark uint64) {
	rt.mu.Lock()
	rt.next = mark
	rt.mu.Unlock()
}

// mark is where giveBack returns to.
func (rt *ddiRuntime) mark() uint64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.next
}

func (rt *ddiRuntime) createCommitted(desc ddi.CreateResource0088, kind resource.HeapKind) (ddi.HResource, error) {
	var info ddi.ResourceAllocationInfo0022
	rt.f.Device.CheckResourceAllocationInfo(hDevice, &desc, 0, 0, 1, &info)
	if err := rt.f.LastError(); err != nil {
		return 0, err
	}
	heap := umd.CommittedHeap(info, kind)
	mark := rt.mark()
	hh, hr := ddi.HHeap(rt.handle()), ddi.HResource(rt.handle())
	if err := rt.create(&heap, hh, &desc, hr); err != nil {
		rt.giveBack(mark)
		return 0, err
	}
	rt.mu.Lock()
	rt.committed[hr] = hh
	rt.mu.Unlock()
	return hr, nil
}

func (rt *ddiRuntime) createHeap(kind resource.HeapKind, size uint64) (ddi.HHeap, error) {
	heap := resource.CreateHeapFor(kind, size, 0)
	mark := rt.mark()
	hh := ddi.HHeap(rt.handle())
	if err := rt.create(&heap, hh, nil, 0); err != nil {
		rt.giveBack(mark)
		return 0, err
	}
	return hh, nil
}

// createPlaced is CreatePlacedResource2: the runtime checks the offset
// against the alignment the application asked for, then passes it in the
// description, which has no Alignment (errata E-SMALL-PLACEMENT).
func (rt *ddiRuntime) createPlaced(heap ddi.HHeap, offset uint64, desc ddi.CreateResource0088, alignment uint64) (ddi.HResource, error) {
	if err := umd.CheckPlacedOffset(desc, offset, alignment); err != nil {
		return 0, err
	}
	desc.ReuseBufferGPUVA.BaseAddressUMD.Offset = offset // errata E-PLACED-OFFSET
	mark := rt.mark()
	hr := ddi.HResource(rt.handle())
	if err := rt.create(nil, heap, &desc, hr); err != nil {
		rt.giveBack(mark)
		return 0, err
	}
	return hr, nil
}

// destroyResource is pfnDestroyHeapAndResource with the resource and, for
// a committed one, its heap, as the runtime passes them.
func (rt *ddiRuntime) destroyResource(h ddi.HResource) error {
	rt.mu.Lock()
	hh := rt.committed[h]
	rt.mu.Unlock()
	rt.f.Device.DestroyHeapAndResource(hDevice, hh, h)
	if err := rt.f.LastError(); err != nil {
		return err
	}
	rt.mu.Lock()
	delete(rt.committed, h)
	rt.mu.Unlock()
	return nil
}

func (rt *ddiRuntime) destroyHeap(h ddi.HHeap) error {
	rt.f.Device.DestroyHeapAndResource(hDevice, h, 0)
	return rt.f.LastError()
}

// createCommandList creates a list through pfnCreateCommandList, or, with
// flags, which the table's arguments cannot carry, through the Go API.
func (rt *ddiRuntime) createCommandList(t ddi.CommandListType, flags ddi.CommandListFlags) (driver.CommandList, error) {
	if flags != 0 {
		return rt.d.CreateCommandListFlags(t, flags)
	}
	rt.mu.Lock()
	rt.nextList++
	h := ddi.HCommandList(rt.nextList)
	rt.mu.Unlock()
	if err := rt.call(rt.f.Device.CreateCommandList(hDevice, t, h)); err != nil {
		return nil, err
	}
	return &tableList{CommandList: rt.f.List(h), rt: rt, h: h}, nil
}

// tableList is a command list the tables created: its barriers, closing
// and destruction go through them; its work through the Go API.
type tableList struct {
	*umd.CommandList
	rt *ddiRuntime
	h  ddi.HCommandList
}

func (l *tableList) Barrier(bs []ddi.Barrier) {
	l.rt.f.CommandList.Barrier(l.h, uint32(len(bs)), unsafe.SliceData(bs))
}

func (l *tableList) Barrier0088(bs []ddi.Barrier0088) {
	l.rt.f.CommandList.Barrier0088(l.h, uint32(len(bs)), unsafe.SliceData(bs))
}

// Close is pfnCloseCommandList, which returns nothing: the error is the
// list's, as LastError reports it.
func (l *tableList) Close() error {
	l.rt.f.CommandList.Close(l.h)
	return l.rt.f.LastError()
}

// Reset is pfnResetCommandList, with an allocator of the runtime's (the
// driver keeps a list's packets itself) and no pipeline state.
func (l *tableList) Reset() error {
	l.rt.f.CommandList.Reset(l.h, &ddi.ResetCommandList0040{CommandAllocator: ddi.HCommandAllocator(l.h)})
	return l.rt.f.LastError()
}

func (l *tableList) Destroy() { l.rt.f.Device.DestroyCommandList(hDevice, l.h) }

// umdList is the reference driver's list behind a list of either kind.
func umdList(l driver.CommandList) (*umd.CommandList, bool) {
	switch l := l.(type) {
	case *umd.CommandList:
		return l, true
	case *tableList:
		return l.CommandList, true
	}
	return nil, false
}
