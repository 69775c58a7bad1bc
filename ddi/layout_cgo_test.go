//go:build cgo

package ddi

import (
	"reflect"
	"sort"
	"testing"

	"github.com/ebref/ebref/ddi/internal/cabi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cStructs are the Go structures that mirror C structures, each with the
// C name. goLayout walks them by reflection.
var cStructs = []struct {
	c string
	v any
}{
	{"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088", SubresourceRange{}},
	{"D3D12DDI_RANGE", Range{}},
	{"D3D12DDI_HRESOURCE", HResource(0)},
	{"D3D12DDI_GLOBAL_BARRIER_0088", GlobalBarrier{}},
	{"D3D12DDI_TEXTURE_BARRIER_0088", TextureBarrier{}},
	{"D3D12DDI_BUFFER_BARRIER_0088", BufferBarrier{}},
	{"D3D12DDI_RANGED_BARRIER_0088", RangedBarrier0088{}},
	{"D3D12DDI_RANGED_BARRIER_0094", RangedBarrier{}},
	{"D3D12DDIARG_BARRIER_0094", Barrier{}},
	{"D3D12DDIARG_BARRIER_0088", Barrier0088{}},
	{"D3D12DDIARG_GETCAPS", GetCapsArgs{}},
	{"D3D12DDIARG_RESETCOMMANDLIST_0040", ResetCommandList0040{}},
	{"DXGI_SAMPLE_DESC", SampleDesc{}},
	{"D3D12DDIARG_HRESOURCE_PLACEMENT", HResourcePlacement{}},
	{"D3D12DDIARG_BUFFER_PLACEMENT", BufferPlacement{}},
	{"D3D12DDI_MIP_REGION_0075", MipRegion{}},
	{"D3D12DDIARG_CREATERESOURCE_0088", CreateResource0088{}},
	{"D3D12DDIARG_CREATEHEAP_0001", CreateHeap0001{}},
	{"D3D12DDI_HEAP_AND_RESOURCE_SIZES", HeapAndResourceSizes{}},
	{"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022", ResourceAllocationInfo0022{}},
	{"D3D12DDI_D3D12_OPTIONS_DATA_0089", OptionsData0089{}},
}

// cMembers names the C members a Go field stands for where the names
// differ (Type.Field: C members): the header's h and p prefixes on handles
// and pointers, the union of the Barrier records (one Go array at whose
// offset every C member of the union lies), and the anonymous union of
// D3D12DDIARG_BUFFER_PLACEMENT. Every other field has its C member's name.
var cMembers = map[string][]string{
	"TextureBarrier.Resource":                   {"hResource"},
	"BufferBarrier.Resource":                    {"hResource"},
	"RangedBarrier0088.Resource":                {"hResource"},
	"RangedBarrier.Resource":                    {"hResource"},
	"HResourcePlacement.Resource":               {"hResource"},
	"GetCapsArgs.Info":                          {"pInfo"},
	"GetCapsArgs.Data":                          {"pData"},
	"ResetCommandList0040.CommandAllocator":     {"hDrvCommandAllocator"},
	"ResetCommandList0040.InitialPipelineState": {"hDrvInitialPipelineState"},
	"CreateResource0088.RowMajorLayout":         {"pRowMajorLayout"},
	"CreateResource0088.CastableFormats":        {"pCastableFormats"},
	"BufferPlacement.BaseAddressUMD":            {"BaseAddress.UMD"},
	"Barrier.u":                                 {"GlobalBarrier", "TextureBarrier", "BufferBarrier", "RangedBarrier"},
	"Barrier0088.u":                             {"GlobalBarrier", "TextureBarrier", "BufferBarrier", "RangedBarrier"},
}

// goLayout is Go's answer for every quantity cabi measures in C: each
// structure's size and alignment and each member's offset, found by
// walking the structures' fields by reflection (an embedded structure's
// members are the outer structure's, as in C), and the function tables'
// slots. used collects the cMembers entries the walk met.
func goLayout(used map[string]bool) map[string]uint64 {
	m := map[string]uint64{}
	var walk func(c string, t reflect.Type, base uintptr)
	walk = func(c string, t reflect.Type, base uintptr) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name == "_" {
				continue // padding, which C does not name
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(c, f.Type, base+f.Offset)
				continue
			}
			names := []string{f.Name}
			if n, ok := cMembers[t.Name()+"."+f.Name]; ok {
				names = n
				used[t.Name()+"."+f.Name] = true
			}
			for _, n := range names {
				m[c+"."+n] = uint64(base + f.Offset)
			}
		}
	}
	for _, s := range cStructs {
		t := reflect.TypeOf(s.v)
		m[s.c] = uint64(t.Size())
		m[s.c+"@align"] = uint64(t.Align())
		if t.Kind() == reflect.Struct {
			walk(s.c, t, 0)
		}
	}
	for _, t := range []FuncTable{AdapterFuncsSlots, DeviceFuncsCore0088Slots, CommandListFuncs3D0094Slots} {
		m[t.Name] = uint64(t.Size())
		m[t.Name+"@align"] = SlotSize
		for _, slot := range t.Slots {
			off, _ := t.Offset(slot)
			m[t.Name+"."+slot] = uint64(off)
		}
	}
	return m
}

// TestLayoutMatchesC compares every sizeof, alignment and offsetof that the C
// definitions in internal/cabi report with Go's, in both directions so
// neither side can gain a member the other lacks.
func TestLayoutMatchesC(t *testing.T) {
	c := cabi.Layout()
	used := map[string]bool{}
	g := goLayout(used)
	require.NotEmpty(t, c)
	for k := range cMembers {
		assert.True(t, used[k], "cMembers names %s, which no structure of cStructs has", k)
	}
	// The walk sees through the union and the embedded structure.
	assert.Equal(t, uint64(8), g["D3D12DDIARG_BARRIER_0094.RangedBarrier"])
	assert.Equal(t, uint64(4), g["D3D12DDI_RANGED_BARRIER_0088.SyncAfter"])

	names := make([]string, 0, len(c))
	for n := range c {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		gv, ok := g[n]
		if assert.True(t, ok, "C measures %s, Go does not", n) {
			assert.Equal(t, c[n], gv, "%s: C %d, Go %d", n, c[n], gv)
		}
	}
	for n := range g {
		_, ok := c[n]
		assert.True(t, ok, "Go measures %s, C does not", n)
	}
	// The header's facts, which the C side also asserts when it compiles.
	assert.Equal(t, uint64(72), c["D3D12DDIARG_BARRIER_0094"])
	assert.Equal(t, 72, BarrierSize)
	assert.Equal(t, uint64(40), c["D3D12DDI_RANGED_BARRIER_0094"])
	assert.Equal(t, uint64(32), c["D3D12DDIARG_BARRIER_0094.RangedBarrier"]+c["D3D12DDI_RANGED_BARRIER_0094.Range"])
	assert.Equal(t, uint64(80), c["D3D12DDIARG_BARRIER_0088"])
	assert.Equal(t, 80, Barrier0088Size)
	assert.Equal(t, uint64(544), c["D3D12DDI_COMMAND_LIST_FUNCS_3D_0094.pfnBarrier"])
}
