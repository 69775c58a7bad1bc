package ddi

import (
	"fmt"
	"unsafe"
)

// The handles of the device and command-list function tables
// (d3d12umddi.h): each is a struct holding one pointer, the driver-private
// memory the runtime allocated for the object, so 8 bytes. 0 is NULL.
type (
	// HDevice is D3D12DDI_HDEVICE.
	HDevice uint64
	// HCommandList is D3D12DDI_HCOMMANDLIST.
	HCommandList uint64
	// HRTResource is D3D12DDI_HRTRESOURCE, the runtime's own handle of a
	// resource, which the driver hands back in callbacks.
	HRTResource uint64
	// HProtectedResourceSession is D3D12DDI_HPROTECTEDRESOURCESESSION_0030.
	HProtectedResourceSession uint64
	// HAdapter is D3D10DDI_HADAPTER, the adapter pfnGetCaps is asked of.
	HAdapter uint64
	// HCommandAllocator is D3D12DDI_HCOMMANDALLOCATOR.
	HCommandAllocator uint64
	// HPipelineState is D3D12DDI_HPIPELINESTATE.
	HPipelineState uint64
)

// CapsType is D3D12DDICAPS_TYPE: which capability pfnGetCaps answers.
type CapsType uint32

// CapsTypeD3D12Options is D3D12DDICAPS_TYPE_D3D12_OPTIONS, answered with a
// D3D12DDI_D3D12_OPTIONS_DATA_* structure (the value as a published binding
// of d3d12umddi.h gives it).
const CapsTypeD3D12Options CapsType = 1006

// GetCapsArgs is D3D12DDIARG_GETCAPS, what pfnGetCaps takes: the caps type,
// an optional input, and the buffer to fill with its size (32 bytes: Type,
// padding, pInfo at 8, pData at 16, DataSize at 24).
type GetCapsArgs struct {
	Type     CapsType
	Info     unsafe.Pointer // pInfo
	Data     unsafe.Pointer // pData
	DataSize uint32
}

// ResetCommandList0040 is D3D12DDIARG_RESETCOMMANDLIST_0040, what
// pfnResetCommandList takes: the allocator the list records into from now
// on and its initial pipeline state (NULL for none).
type ResetCommandList0040 struct {
	CommandAllocator     HCommandAllocator
	InitialPipelineState HPipelineState
}

// ClearValues is D3D12DDI_CLEAR_VALUES (d3d12umddi.h): the optimised clear
// value given at creation, a format and a union of a colour (four floats)
// and depth-stencil values (a float depth, then the stencil byte).
type ClearValues struct {
	Format Format
	Color  [4]float32
}

// HRESULT is a COM result code: negative is failure.
type HRESULT int32

// The results the DDIs return (winerror.h).
const (
	S_OK          HRESULT = 0
	E_FAIL        HRESULT = -0x7fffbffb // 0x80004005
	E_INVALIDARG  HRESULT = -0x7ff8ffa9 // 0x80070057
	E_OUTOFMEMORY HRESULT = -0x7ff8fff2 // 0x8007000E
)

// Failed reports whether r is a failure code.
func (r HRESULT) Failed() bool { return r < 0 }

func (r HRESULT) String() string {
	switch r {
	case S_OK:
		return "S_OK"
	case E_FAIL:
		return "E_FAIL"
	case E_INVALIDARG:
		return "E_INVALIDARG"
	case E_OUTOFMEMORY:
		return "E_OUTOFMEMORY"
	}
	return fmt.Sprintf("0x%08X", uint32(r))
}
