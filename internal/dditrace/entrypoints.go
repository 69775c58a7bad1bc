package dditrace

import (
	"unsafe"

	"github.com/ebref/ebref/ddi"
)

// Capture says which barrier array, if any, an entry point's probe copies
// out of the traced process.
type Capture uint8

const (
	// CaptureNone copies nothing.
	CaptureNone Capture = iota
	// Capture0094 copies the []ddi.Barrier argument:
	// D3D12DDIARG_BARRIER_0094 records, 72 bytes each.
	Capture0094
	// Capture0088 copies the []ddi.Barrier0088 argument:
	// D3D12DDIARG_BARRIER_0088 records, 80 bytes each.
	Capture0088
)

// Stride is the size of one captured record: the Go record types have the
// header's C layout (proven by package ddi's cgo layout test).
func (c Capture) Stride() int {
	switch c {
	case Capture0094:
		return int(unsafe.Sizeof(ddi.Barrier{}))
	case Capture0088:
		return int(unsafe.Sizeof(ddi.Barrier0088{}))
	}
	return 0
}

// Version is the record version's name as `ebref decode --ddi` takes it.
func (c Capture) Version() string {
	switch c {
	case Capture0094:
		return "0094"
	case Capture0088:
		return "0088"
	}
	return ""
}

// EntryPoint is one traced function of the driver.
type EntryPoint struct {
	// Name is how reports show it: the DDI it implements.
	Name string
	// Symbol is the Go function, as the linker names it.
	Symbol string
	// Capture is the barrier array the entry probe copies.
	Capture Capture
}

const umdPkg = "github.com/ebref/ebref/umd."

// EntryPoints are the functions every DDI of the driver goes through,
// whichever face of it the program calls (the Go API or the function-table
// view in umd.Funcs). Each is marked //go:noinline in package umd, so that
// a call never runs a copy of its body that has no probe;
// TestEntryPointsAreNotInlined keeps it so. Their order is the report's.
var EntryPoints = []EntryPoint{
	{"Barrier (PFND3D12DDI_BARRIER_0094)", umdPkg + "(*CommandList).Barrier", Capture0094},
	{"Barrier (PFND3D12DDI_BARRIER_0088)", umdPkg + "(*CommandList).Barrier0088", Capture0088},
	{"CreateHeapAndResource (_0088)", umdPkg + "(*Device).createHeapAndResource", CaptureNone},
	{"DestroyHeapAndResource: resource", umdPkg + "(*Device).DestroyResource", CaptureNone},
	{"DestroyHeapAndResource: heap", umdPkg + "(*Device).DestroyHeap", CaptureNone},
	{"CalcPrivateHeapAndResourceSizes (_0088)", umdPkg + "(*Device).CalcPrivateHeapAndResourceSizes", CaptureNone},
	{"CheckResourceAllocationInfo (_0088)", umdPkg + "(*Device).CheckResourceAllocationInfo", CaptureNone},
	{"GetCaps (D3D12_OPTIONS_DATA_0089)", umdPkg + "(*Device).Options", CaptureNone},
	{"CreateCommandList", umdPkg + "(*Device).CreateCommandListFlags", CaptureNone},
	{"CloseCommandList", umdPkg + "(*CommandList).Close", CaptureNone},
	{"ResetCommandList", umdPkg + "(*CommandList).Reset", CaptureNone},
	{"DestroyCommandList", umdPkg + "(*CommandList).Destroy", CaptureNone},
	{"ExecuteCommandLists", umdPkg + "(*Queue).ExecuteCommandLists", CaptureNone},
	{"Signal", umdPkg + "(*Queue).Signal", CaptureNone},
	{"Wait", umdPkg + "(*Queue).Wait", CaptureNone},
}

// A probe's cookie is its entry point's index and, above it, the capture.
const cookieCaptureShift = 16

func cookie(entry int, c Capture) uint64 { return uint64(entry) | uint64(c)<<cookieCaptureShift }
