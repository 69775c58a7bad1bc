package umd

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// The function-table view: the same entry points in the shape of the DDI's
// function tables (d3d12umddi.h): the table each lives in, its argument
// structures and its return type, for driver authors who think in that
// shape and for a C shim that fills the real tables from these functions
// (Slots gives every function's slot). Handles are the runtime's: it
// allocates the driver-private memory of each object (sized by
// CalcPrivateHeapAndResourceSizes) and passes its address as the handle,
// so the handles a barrier names are the ones given at creation. Failures
// are HRESULTs where the DDI returns one; the functions that return nothing
// report to the runtime through its pfnSetErrorCb callback, which here is
// LastError: the error of the latest call (nil if it succeeded), the
// message a failing HRESULT stands for.

// AdapterFuncs is the part of D3D12DDI_ADAPTERFUNCS ebref implements.
type AdapterFuncs struct {
	// GetCaps is pfnGetCaps. ebref answers D3D12DDICAPS_TYPE_D3D12_OPTIONS
	// with D3D12DDI_D3D12_OPTIONS_DATA_0089: pData must point at one and
	// DataSize be its size.
	GetCaps func(hAdapter ddi.HAdapter, args *ddi.GetCapsArgs) ddi.HRESULT
}

// DeviceFuncs is the part of D3D12DDI_DEVICE_FUNCS_CORE_0088 ebref
// implements.
type DeviceFuncs struct {
	// CalcPrivateHeapAndResourceSizes is
	// PFND3D12DDI_CALCPRIVATEHEAPANDRESOURCESIZES_0088.
	CalcPrivateHeapAndResourceSizes func(ddi.HDevice, *ddi.CreateHeap0001, *ddi.CreateResource0088,
		ddi.HProtectedResourceSession) ddi.HeapAndResourceSizes
	// CreateHeapAndResource is PFND3D12DDI_CREATEHEAPANDRESOURCE_0088:
	// with pHeap, hHeap is the new heap's handle; without, the heap to place
	// the resource in. hResource is the new resource's handle.
	CreateHeapAndResource func(hDevice ddi.HDevice, pHeap *ddi.CreateHeap0001, hHeap ddi.HHeap, hRTResource ddi.HRTResource,
		pResource *ddi.CreateResource0088, pClear *ddi.ClearValues, hSession ddi.HProtectedResourceSession,
		hResource ddi.HResource) ddi.HRESULT
	// DestroyHeapAndResource is PFND3D12DDI_DESTROYHEAPANDRESOURCE: the
	// resource (if not NULL), then the heap (if not NULL and not the
	// committed resource's, which goes with it). It returns nothing; a
	// refusal is LastError (errata E-DESTROY).
	DestroyHeapAndResource func(hDevice ddi.HDevice, hHeap ddi.HHeap, hResource ddi.HResource)
	// CheckResourceAllocationInfo is
	// PFND3D12DDI_CHECKRESOURCEALLOCATIONINFO_0088. Invalid descriptions
	// yield a zero info (the DDI returns nothing); LastError says why.
	CheckResourceAllocationInfo func(hDevice ddi.HDevice, pResource *ddi.CreateResource0088,
		flags ddi.ResourceOptimizationFlags, alignmentRestriction, visibleNodeMask uint32, out *ddi.ResourceAllocationInfo0022)
	// CreateCommandList is pfnCreateCommandList: a command list of a type
	// under hCommandList, open for recording. The DDI passes a
	// D3D12DDIARG_CREATE_COMMAND_LIST_0040 whose queue flags give the type
	// (and an allocator and initial pipeline state, which ebref has not);
	// this takes the type.
	CreateCommandList func(hDevice ddi.HDevice, t ddi.CommandListType, hCommandList ddi.HCommandList) ddi.HRESULT
	// DestroyCommandList is PFND3D12DDI_DESTROYCOMMANDLIST.
	DestroyCommandList func(hDevice ddi.HDevice, hCommandList ddi.HCommandList)
}

// CommandListFuncs is the part of D3D12DDI_COMMAND_LIST_FUNCS_3D_0094 (and,
// for Barrier0088, of the 0092 table) ebref implements.
type CommandListFuncs struct {
	// Barrier is PFND3D12DDI_BARRIER_0094: numBarriers records from
	// pBarriers. Like the DDI it returns nothing; an invalid barrier puts
	// the list in its error state, which Close reports.
	Barrier func(hCommandList ddi.HCommandList, numBarriers uint32, pBarriers *ddi.Barrier)
	// Barrier0088 is PFND3D12DDI_BARRIER_0088, the pfnBarrier of the 0088
	// and 0092 tables: D3D12DDIARG_BARRIER_0088 records.
	Barrier0088 func(hCommandList ddi.HCommandList, numBarriers uint32, pBarriers *ddi.Barrier0088)
	// Close is PFND3D12DDI_CLOSECOMMANDLIST: it returns nothing; the list's
	// first error, if any, is LastError.
	Close func(ddi.HCommandList)
	// Reset is PFND3D12DDI_RESETCOMMANDLIST_0040: the list records again.
	// ebref has no allocators or pipeline states, so the arguments are
	// only checked to be there.
	Reset func(ddi.HCommandList, *ddi.ResetCommandList0040)
}

// Funcs is a device's function tables and its handles.
type Funcs struct {
	HAdapter    ddi.HAdapter
	HDevice     ddi.HDevice
	Adapter     AdapterFuncs
	Device      DeviceFuncs
	CommandList CommandListFuncs

	d     *Device
	mu    sync.RWMutex
	lists map[ddi.HCommandList]*CommandList
	last  error
}

// Slot places one function of the view in the header's tables: the table
// (its C name and slot order), the member, and the field of Funcs.
type Slot struct {
	Table  ddi.FuncTable
	Member string // pfnBarrier
	Field  string // CommandList.Barrier
}

// Offset is the member's byte offset in its table on x64.
func (s Slot) Offset() int {
	off, _ := s.Table.Offset(s.Member)
	return off
}

// Slots lists where every function of Funcs goes, for a C shim that fills
// the runtime's tables from them (offsets as the header's x64 layout has
// them; the cgo layout test in package ddi checks the tables).
var Slots = []Slot{
	{ddi.AdapterFuncsSlots, "pfnGetCaps", "Adapter.GetCaps"},
	{ddi.DeviceFuncsCore0088Slots, "pfnCreateCommandList", "Device.CreateCommandList"},
	{ddi.DeviceFuncsCore0088Slots, "pfnDestroyCommandList", "Device.DestroyCommandList"},
	{ddi.DeviceFuncsCore0088Slots, "pfnCalcPrivateHeapAndResourceSizes", "Device.CalcPrivateHeapAndResourceSizes"},
	{ddi.DeviceFuncsCore0088Slots, "pfnCreateHeapAndResource", "Device.CreateHeapAndResource"},
	{ddi.DeviceFuncsCore0088Slots, "pfnDestroyHeapAndResource", "Device.DestroyHeapAndResource"},
	{ddi.DeviceFuncsCore0088Slots, "pfnCheckResourceAllocationInfo", "Device.CheckResourceAllocationInfo"},
	{ddi.CommandListFuncs3D0094Slots, "pfnCloseCommandList", "CommandList.Close"},
	{ddi.CommandListFuncs3D0094Slots, "pfnResetCommandList", "CommandList.Reset"},
	{ddi.CommandListFuncs3D0094Slots, "pfnBarrier", "CommandList.Barrier"},
	{ddi.CommandListFuncs3D0092Slots, "pfnBarrier", "CommandList.Barrier0088"},
}

// NewFuncs returns the function-table view of d, whose handles are
// hAdapter and hDevice.
func NewFuncs(d *Device, hAdapter ddi.HAdapter, hDevice ddi.HDevice) *Funcs {
	f := &Funcs{HAdapter: hAdapter, HDevice: hDevice, d: d, lists: map[ddi.HCommandList]*CommandList{}}
	f.Adapter = AdapterFuncs{
		GetCaps: func(h ddi.HAdapter, args *ddi.GetCapsArgs) ddi.HRESULT {
			const want = uint32(unsafe.Sizeof(ddi.OptionsData0089{}))
			switch {
			case h != f.HAdapter:
				return f.fail(errors.New("umd: GetCaps: the adapter handle names no adapter of this function table"))
			case args == nil:
				return f.fail(errors.New("umd: GetCaps: pCaps is NULL"))
			case args.Type != ddi.CapsTypeD3D12Options:
				return f.fail(fmt.Errorf("umd: GetCaps: caps type %d: ebref answers only D3D12DDICAPS_TYPE_D3D12_OPTIONS (%d)",
					args.Type, ddi.CapsTypeD3D12Options))
			case args.Data == nil || args.DataSize != want:
				return f.fail(fmt.Errorf("umd: GetCaps: pData must point at a D3D12DDI_D3D12_OPTIONS_DATA_0089 and DataSize be %d, not %d",
					want, args.DataSize))
			}
			*(*ddi.OptionsData0089)(args.Data) = d.Options()
			return f.result(nil)
		},
	}
	f.Device = DeviceFuncs{
		CalcPrivateHeapAndResourceSizes: func(h ddi.HDevice, heap *ddi.CreateHeap0001, res *ddi.CreateResource0088,
			_ ddi.HProtectedResourceSession) ddi.HeapAndResourceSizes {
			if !f.device(h) {
				return ddi.HeapAndResourceSizes{}
			}
			f.result(nil)
			return d.CalcPrivateHeapAndResourceSizes(heap, res)
		},
		CreateHeapAndResource: func(h ddi.HDevice, heap *ddi.CreateHeap0001, hHeap ddi.HHeap, _ ddi.HRTResource,
			res *ddi.CreateResource0088, _ *ddi.ClearValues, _ ddi.HProtectedResourceSession, hRes ddi.HResource) ddi.HRESULT {
			if !f.device(h) {
				return ddi.E_INVALIDARG
			}
			switch {
			case heap != nil && hHeap == 0:
				return f.fail(createError("CreateHeapAndResource", "hHeap", "NULL", nil, "a new heap needs the handle the runtime allocated for it"))
			case res != nil && hRes == 0:
				return f.fail(createError("CreateHeapAndResource", "hResource", "NULL", nil, "a new resource needs the handle the runtime allocated for it"))
			}
			existing, wantHeap := hHeap, hHeap
			if heap == nil {
				wantHeap = 0
			} else {
				existing = 0
			}
			if res == nil {
				hRes = 0
			}
			_, _, err := d.createHeapAndResource(heap, existing, res, wantHeap, hRes)
			return f.result(err)
		},
		DestroyHeapAndResource: func(h ddi.HDevice, hHeap ddi.HHeap, hRes ddi.HResource) {
			if !f.device(h) {
				return
			}
			if hRes != 0 {
				r, ok := d.Resource(hRes)
				if err := d.DestroyResource(hRes); err != nil {
					f.fail(err)
					return
				}
				if ok && r.Committed && r.Heap.Handle == hHeap {
					hHeap = 0 // gone with its resource
				}
			}
			var err error
			if hHeap != 0 {
				err = d.DestroyHeap(hHeap)
			}
			f.result(err)
		},
		CheckResourceAllocationInfo: func(h ddi.HDevice, res *ddi.CreateResource0088, flags ddi.ResourceOptimizationFlags,
			align, nodes uint32, out *ddi.ResourceAllocationInfo0022) {
			if out == nil || !f.device(h) {
				return
			}
			info, err := d.CheckResourceAllocationInfo(res, flags, align, nodes)
			*out = info
			f.result(err)
		},
		CreateCommandList: func(h ddi.HDevice, t ddi.CommandListType, hList ddi.HCommandList) ddi.HRESULT {
			if !f.device(h) {
				return ddi.E_INVALIDARG
			}
			if hList == 0 {
				return f.fail(errors.New("umd: CreateCommandList: hCommandList is NULL"))
			}
			cl, err := d.CreateCommandList(t)
			if err != nil {
				return f.result(err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.lists[hList] != nil {
				f.last = errors.New("umd: CreateCommandList: the handle already names a command list")
				return ddi.E_INVALIDARG
			}
			f.lists[hList] = cl
			f.last = nil
			return ddi.S_OK
		},
		DestroyCommandList: func(h ddi.HDevice, hList ddi.HCommandList) {
			if !f.device(h) {
				return
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			cl := f.lists[hList]
			if cl == nil {
				f.last = errNoList
				return
			}
			cl.Destroy()
			delete(f.lists, hList)
			f.last = nil
		},
	}
	f.CommandList = CommandListFuncs{
		Barrier: func(h ddi.HCommandList, n uint32, p *ddi.Barrier) {
			if cl := f.barrierList(h, n, p == nil); cl != nil {
				cl.Barrier(unsafe.Slice(p, n))
			}
		},
		Barrier0088: func(h ddi.HCommandList, n uint32, p *ddi.Barrier0088) {
			if cl := f.barrierList(h, n, p == nil); cl != nil {
				cl.Barrier0088(unsafe.Slice(p, n))
			}
		},
		Close: func(h ddi.HCommandList) {
			cl := f.List(h)
			if cl == nil {
				f.fail(errNoList)
				return
			}
			f.result(cl.Close())
		},
		Reset: func(h ddi.HCommandList, args *ddi.ResetCommandList0040) {
			cl := f.List(h)
			switch {
			case cl == nil:
				f.fail(errNoList)
			case args == nil:
				f.fail(errors.New("umd: ResetCommandList: the arguments are NULL"))
			default:
				f.result(cl.Reset())
			}
		},
	}
	return f
}

// barrierList is the list a Barrier call records into, or nil (and
// LastError) for a handle of no list; a NULL array with a count is the
// list's error.
func (f *Funcs) barrierList(h ddi.HCommandList, n uint32, null bool) *CommandList {
	cl := f.List(h)
	if cl == nil {
		f.fail(errNoList)
		return nil
	}
	if n > 0 && null {
		cl.fail(Message{Category: CategoryStateSetting, ID: MsgInvalidHandle, Command: "Barrier", Call: cl.commands + 1, Barrier: -1,
			Field: "pBarriers", Value: "NULL", Rule: "NumBarriers is not 0 but there are no barriers"})
		f.result(cl.err)
		return nil
	}
	f.result(nil)
	return cl
}

var errNoList = errors.New("umd: no command list has this handle")

// List is the command list a handle names, nil if none.
func (f *Funcs) List(h ddi.HCommandList) *CommandList {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.lists[h]
}

// LastError is the error of the latest call through the tables, nil if it
// succeeded.
func (f *Funcs) LastError() error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.last
}

func (f *Funcs) device(h ddi.HDevice) bool {
	if h != f.HDevice {
		f.fail(errors.New("umd: the device handle names no device of this function table"))
		return false
	}
	return true
}

// fail records err and returns its HRESULT.
func (f *Funcs) fail(err error) ddi.HRESULT {
	f.mu.Lock()
	f.last = err
	f.mu.Unlock()
	return hresult(err)
}

// result records the call's outcome.
func (f *Funcs) result(err error) ddi.HRESULT {
	if err == nil {
		f.mu.Lock()
		f.last = nil
		f.mu.Unlock()
		return ddi.S_OK
	}
	return f.fail(err)
}

// hresult maps an error to the code the DDI returns: out of GPU memory is
// E_OUTOFMEMORY, anything else E_INVALIDARG.
func hresult(err error) ddi.HRESULT {
	if errors.Is(err, hwmodel.ErrOutOfMemory) {
		return ddi.E_OUTOFMEMORY
	}
	return ddi.E_INVALIDARG
}
