package ddi

import "fmt"

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
)

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
