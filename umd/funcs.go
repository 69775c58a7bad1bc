package umd

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
)

// The function-table view: the same entry points in the shape of the DDI's
// device and command-list function tables (d3d12umddi.h), for driver
// authors who think in that shape. Handles are the runtime's: it allocates
// the driver-private memory of each object (sized by
// CalcPrivateHeapAndResourceSizes) and passes its address as the handle, so
// the handles a barrier names are the ones given at creation. Failures are
// HRESULTs; LastError is the error of the latest call (nil if it
// succeeded), the message a failing HRESULT stands for.

// DeviceFuncs is the part of the device function table ebref implements.
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
	// CheckResourceAllocationInfo is
	// PFND3D12DDI_CHECKRESOURCEALLOCATIONINFO_0088. Invalid descriptions
	// yield a zero info (the DDI returns nothing); LastError says why.
	CheckResourceAllocationInfo func(hDevice ddi.HDevice, pResource *ddi.CreateResource0088,
		flags ddi.ResourceOptimizationFlags, alignmentRestriction, visibleNodeMask uint32, out *ddi.ResourceAllocationInfo0022)
	// GetOptions0089 answers pfnGetCaps for D3D12DDICAPS_TYPE_D3D12_OPTIONS
	// with D3D12DDI_D3D12_OPTIONS_DATA_0089.
	GetOptions0089 func(ddi.HDevice, *ddi.OptionsData0089) ddi.HRESULT
	// CreateCommandList creates a command list of a type under
	// hCommandList, open for recording.
	CreateCommandList func(hDevice ddi.HDevice, t ddi.CommandListType, hCommandList ddi.HCommandList) ddi.HRESULT
}

// CommandListFuncs is the part of the command-list function table ebref
// implements.
type CommandListFuncs struct {
	// Barrier is PFND3D12DDI_BARRIER_0094: numBarriers records from
	// pBarriers. Like the DDI it returns nothing; an invalid barrier puts
	// the list in its error state, which Close reports.
	Barrier func(hCommandList ddi.HCommandList, numBarriers uint32, pBarriers *ddi.Barrier)
	// Close ends recording and returns the list's first error as an
	// HRESULT.
	Close func(ddi.HCommandList) ddi.HRESULT
	// Reset opens the list for recording again.
	Reset func(ddi.HCommandList) ddi.HRESULT
	// Destroy forgets the list.
	Destroy func(ddi.HCommandList)
}

// Funcs is a device's function tables and its handle.
type Funcs struct {
	HDevice     ddi.HDevice
	Device      DeviceFuncs
	CommandList CommandListFuncs

	d     *Device
	mu    sync.RWMutex
	lists map[ddi.HCommandList]*CommandList
	last  error
}

// NewFuncs returns the function-table view of d, whose handle is hDevice.
func NewFuncs(d *Device, hDevice ddi.HDevice) *Funcs {
	f := &Funcs{HDevice: hDevice, d: d, lists: map[ddi.HCommandList]*CommandList{}}
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
		CheckResourceAllocationInfo: func(h ddi.HDevice, res *ddi.CreateResource0088, flags ddi.ResourceOptimizationFlags,
			align, nodes uint32, out *ddi.ResourceAllocationInfo0022) {
			if out == nil || !f.device(h) {
				return
			}
			info, err := d.CheckResourceAllocationInfo(res, flags, align, nodes)
			*out = info
			f.result(err)
		},
		GetOptions0089: func(h ddi.HDevice, out *ddi.OptionsData0089) ddi.HRESULT {
			if out == nil || !f.device(h) {
				return ddi.E_INVALIDARG
			}
			*out = d.Options()
			return f.result(nil)
		},
		CreateCommandList: func(h ddi.HDevice, t ddi.CommandListType, hList ddi.HCommandList) ddi.HRESULT {
			if !f.device(h) || hList == 0 {
				return ddi.E_INVALIDARG
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
	}
	f.CommandList = CommandListFuncs{
		Barrier: func(h ddi.HCommandList, n uint32, p *ddi.Barrier) {
			cl := f.List(h)
			if cl == nil {
				return
			}
			if n > 0 && p == nil {
				cl.fail(Message{Category: CategoryStateSetting, ID: MsgInvalidHandle, Command: "Barrier", Call: cl.calls, Barrier: -1,
					Field: "pBarriers", Value: "NULL", Rule: "NumBarriers is not 0 but there are no barriers"})
				return
			}
			var bs []ddi.Barrier
			if n > 0 {
				bs = unsafe.Slice(p, n)
			}
			cl.Barrier(bs)
		},
		Close: func(h ddi.HCommandList) ddi.HRESULT {
			cl := f.List(h)
			if cl == nil {
				return f.fail(errNoList)
			}
			return f.result(cl.Close())
		},
		Reset: func(h ddi.HCommandList) ddi.HRESULT {
			cl := f.List(h)
			if cl == nil {
				return f.fail(errNoList)
			}
			cl.Reset()
			return f.result(nil)
		},
		Destroy: func(h ddi.HCommandList) {
			f.mu.Lock()
			defer f.mu.Unlock()
			delete(f.lists, h)
		},
	}
	return f
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
