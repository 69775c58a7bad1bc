//go:build cgo

package ddi

import (
	"sort"
	"testing"
	"unsafe"

	"github.com/ebref/ebref/ddi/internal/cabi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goLayout is Go's answer for every quantity cabi measures in C.
func goLayout() map[string]uint64 {
	var (
		sr  SubresourceRange
		rg  Range
		gb  GlobalBarrier
		tb  TextureBarrier
		bb  BufferBarrier
		r88 RangedBarrier0088
		r94 RangedBarrier
		b   Barrier
		b88 Barrier0088
		gc  GetCapsArgs
		rc  ResetCommandList0040
		hp  HResourcePlacement
		cr  CreateResource0088
		ch  CreateHeap0001
		hs  HeapAndResourceSizes
		ai  ResourceAllocationInfo0022
		op  OptionsData0089
	)
	u := uint64(unsafe.Offsetof(b.u))
	m := map[string]uint64{
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088":                      uint64(unsafe.Sizeof(sr)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088@align":                uint64(unsafe.Alignof(sr)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.IndexOrFirstMipLevel": uint64(unsafe.Offsetof(sr.IndexOrFirstMipLevel)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.NumMipLevels":         uint64(unsafe.Offsetof(sr.NumMipLevels)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.FirstArraySlice":      uint64(unsafe.Offsetof(sr.FirstArraySlice)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.NumArraySlices":       uint64(unsafe.Offsetof(sr.NumArraySlices)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.FirstPlane":           uint64(unsafe.Offsetof(sr.FirstPlane)),
		"D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088.NumPlanes":            uint64(unsafe.Offsetof(sr.NumPlanes)),
		"D3D12DDI_RANGE":                                                       uint64(unsafe.Sizeof(rg)),
		"D3D12DDI_RANGE@align":                                                 uint64(unsafe.Alignof(rg)),
		"D3D12DDI_RANGE.Begin":                                                 uint64(unsafe.Offsetof(rg.Begin)),
		"D3D12DDI_RANGE.End":                                                   uint64(unsafe.Offsetof(rg.End)),
		"D3D12DDI_HRESOURCE":                                                   uint64(unsafe.Sizeof(HResource(0))),
		"D3D12DDI_HRESOURCE@align":                                             uint64(unsafe.Alignof(HResource(0))),
		"D3D12DDI_GLOBAL_BARRIER_0088":                                         uint64(unsafe.Sizeof(gb)),
		"D3D12DDI_GLOBAL_BARRIER_0088@align":                                   uint64(unsafe.Alignof(gb)),
		"D3D12DDI_GLOBAL_BARRIER_0088.SyncBefore":                              uint64(unsafe.Offsetof(gb.SyncBefore)),
		"D3D12DDI_GLOBAL_BARRIER_0088.SyncAfter":                               uint64(unsafe.Offsetof(gb.SyncAfter)),
		"D3D12DDI_GLOBAL_BARRIER_0088.AccessBefore":                            uint64(unsafe.Offsetof(gb.AccessBefore)),
		"D3D12DDI_GLOBAL_BARRIER_0088.AccessAfter":                             uint64(unsafe.Offsetof(gb.AccessAfter)),
		"D3D12DDI_TEXTURE_BARRIER_0088":                                        uint64(unsafe.Sizeof(tb)),
		"D3D12DDI_TEXTURE_BARRIER_0088@align":                                  uint64(unsafe.Alignof(tb)),
		"D3D12DDI_TEXTURE_BARRIER_0088.SyncBefore":                             uint64(unsafe.Offsetof(tb.SyncBefore)),
		"D3D12DDI_TEXTURE_BARRIER_0088.SyncAfter":                              uint64(unsafe.Offsetof(tb.SyncAfter)),
		"D3D12DDI_TEXTURE_BARRIER_0088.AccessBefore":                           uint64(unsafe.Offsetof(tb.AccessBefore)),
		"D3D12DDI_TEXTURE_BARRIER_0088.AccessAfter":                            uint64(unsafe.Offsetof(tb.AccessAfter)),
		"D3D12DDI_TEXTURE_BARRIER_0088.LayoutBefore":                           uint64(unsafe.Offsetof(tb.LayoutBefore)),
		"D3D12DDI_TEXTURE_BARRIER_0088.LayoutAfter":                            uint64(unsafe.Offsetof(tb.LayoutAfter)),
		"D3D12DDI_TEXTURE_BARRIER_0088.hResource":                              uint64(unsafe.Offsetof(tb.Resource)),
		"D3D12DDI_TEXTURE_BARRIER_0088.Subresources":                           uint64(unsafe.Offsetof(tb.Subresources)),
		"D3D12DDI_TEXTURE_BARRIER_0088.Flags":                                  uint64(unsafe.Offsetof(tb.Flags)),
		"D3D12DDI_BUFFER_BARRIER_0088":                                         uint64(unsafe.Sizeof(bb)),
		"D3D12DDI_BUFFER_BARRIER_0088@align":                                   uint64(unsafe.Alignof(bb)),
		"D3D12DDI_BUFFER_BARRIER_0088.SyncBefore":                              uint64(unsafe.Offsetof(bb.SyncBefore)),
		"D3D12DDI_BUFFER_BARRIER_0088.SyncAfter":                               uint64(unsafe.Offsetof(bb.SyncAfter)),
		"D3D12DDI_BUFFER_BARRIER_0088.AccessBefore":                            uint64(unsafe.Offsetof(bb.AccessBefore)),
		"D3D12DDI_BUFFER_BARRIER_0088.AccessAfter":                             uint64(unsafe.Offsetof(bb.AccessAfter)),
		"D3D12DDI_BUFFER_BARRIER_0088.hResource":                               uint64(unsafe.Offsetof(bb.Resource)),
		"D3D12DDI_RANGED_BARRIER_0088":                                         uint64(unsafe.Sizeof(r88)),
		"D3D12DDI_RANGED_BARRIER_0088@align":                                   uint64(unsafe.Alignof(r88)),
		"D3D12DDI_RANGED_BARRIER_0088.SyncBefore":                              uint64(unsafe.Offsetof(r88.SyncBefore)),
		"D3D12DDI_RANGED_BARRIER_0088.SyncAfter":                               uint64(unsafe.Offsetof(r88.GlobalBarrier)) + uint64(unsafe.Offsetof(r88.SyncAfter)),
		"D3D12DDI_RANGED_BARRIER_0088.AccessBefore":                            uint64(unsafe.Offsetof(r88.GlobalBarrier)) + uint64(unsafe.Offsetof(r88.AccessBefore)),
		"D3D12DDI_RANGED_BARRIER_0088.AccessAfter":                             uint64(unsafe.Offsetof(r88.GlobalBarrier)) + uint64(unsafe.Offsetof(r88.AccessAfter)),
		"D3D12DDI_RANGED_BARRIER_0088.Flags":                                   uint64(unsafe.Offsetof(r88.Flags)),
		"D3D12DDI_RANGED_BARRIER_0088.hResource":                               uint64(unsafe.Offsetof(r88.Resource)),
		"D3D12DDI_RANGED_BARRIER_0088.Subresources":                            uint64(unsafe.Offsetof(r88.Subresources)),
		"D3D12DDI_RANGED_BARRIER_0088.Range":                                   uint64(unsafe.Offsetof(r88.Range)),
		"D3D12DDI_RANGED_BARRIER_0094":                                         uint64(unsafe.Sizeof(r94)),
		"D3D12DDI_RANGED_BARRIER_0094@align":                                   uint64(unsafe.Alignof(r94)),
		"D3D12DDI_RANGED_BARRIER_0094.Flags":                                   uint64(unsafe.Offsetof(r94.Flags)),
		"D3D12DDI_RANGED_BARRIER_0094.hResource":                               uint64(unsafe.Offsetof(r94.Resource)),
		"D3D12DDI_RANGED_BARRIER_0094.Subresource":                             uint64(unsafe.Offsetof(r94.Subresource)),
		"D3D12DDI_RANGED_BARRIER_0094.Range":                                   uint64(unsafe.Offsetof(r94.Range)),
		"D3D12DDIARG_BARRIER_0094":                                             uint64(unsafe.Sizeof(b)),
		"D3D12DDIARG_BARRIER_0094@align":                                       uint64(unsafe.Alignof(b)),
		"D3D12DDIARG_BARRIER_0094.Type":                                        uint64(unsafe.Offsetof(b.Type)),
		"D3D12DDIARG_BARRIER_0094.GlobalBarrier":                               u,
		"D3D12DDIARG_BARRIER_0094.TextureBarrier":                              u,
		"D3D12DDIARG_BARRIER_0094.BufferBarrier":                               u,
		"D3D12DDIARG_BARRIER_0094.RangedBarrier":                               u,
		"D3D12DDIARG_BARRIER_0088":                                             uint64(unsafe.Sizeof(b88)),
		"D3D12DDIARG_BARRIER_0088@align":                                       uint64(unsafe.Alignof(b88)),
		"D3D12DDIARG_BARRIER_0088.Type":                                        uint64(unsafe.Offsetof(b88.Type)),
		"D3D12DDIARG_BARRIER_0088.GlobalBarrier":                               uint64(unsafe.Offsetof(b88.u)),
		"D3D12DDIARG_BARRIER_0088.TextureBarrier":                              uint64(unsafe.Offsetof(b88.u)),
		"D3D12DDIARG_BARRIER_0088.BufferBarrier":                               uint64(unsafe.Offsetof(b88.u)),
		"D3D12DDIARG_BARRIER_0088.RangedBarrier":                               uint64(unsafe.Offsetof(b88.u)),
		"D3D12DDIARG_GETCAPS":                                                  uint64(unsafe.Sizeof(gc)),
		"D3D12DDIARG_GETCAPS@align":                                            uint64(unsafe.Alignof(gc)),
		"D3D12DDIARG_GETCAPS.Type":                                             uint64(unsafe.Offsetof(gc.Type)),
		"D3D12DDIARG_GETCAPS.pInfo":                                            uint64(unsafe.Offsetof(gc.Info)),
		"D3D12DDIARG_GETCAPS.pData":                                            uint64(unsafe.Offsetof(gc.Data)),
		"D3D12DDIARG_GETCAPS.DataSize":                                         uint64(unsafe.Offsetof(gc.DataSize)),
		"D3D12DDIARG_RESETCOMMANDLIST_0040":                                    uint64(unsafe.Sizeof(rc)),
		"D3D12DDIARG_RESETCOMMANDLIST_0040@align":                              uint64(unsafe.Alignof(rc)),
		"D3D12DDIARG_RESETCOMMANDLIST_0040.hDrvCommandAllocator":               uint64(unsafe.Offsetof(rc.CommandAllocator)),
		"D3D12DDIARG_RESETCOMMANDLIST_0040.hDrvInitialPipelineState":           uint64(unsafe.Offsetof(rc.InitialPipelineState)),
		"DXGI_SAMPLE_DESC":                                                     uint64(unsafe.Sizeof(SampleDesc{})),
		"DXGI_SAMPLE_DESC@align":                                               uint64(unsafe.Alignof(SampleDesc{})),
		"D3D12DDIARG_HRESOURCE_PLACEMENT":                                      uint64(unsafe.Sizeof(hp)),
		"D3D12DDIARG_HRESOURCE_PLACEMENT@align":                                uint64(unsafe.Alignof(hp)),
		"D3D12DDIARG_HRESOURCE_PLACEMENT.hResource":                            uint64(unsafe.Offsetof(hp.Resource)),
		"D3D12DDIARG_HRESOURCE_PLACEMENT.Offset":                               uint64(unsafe.Offsetof(hp.Offset)),
		"D3D12DDIARG_BUFFER_PLACEMENT":                                         uint64(unsafe.Sizeof(BufferPlacement{})),
		"D3D12DDIARG_BUFFER_PLACEMENT@align":                                   uint64(unsafe.Alignof(BufferPlacement{})),
		"D3D12DDI_MIP_REGION_0075":                                             uint64(unsafe.Sizeof(MipRegion{})),
		"D3D12DDI_MIP_REGION_0075@align":                                       uint64(unsafe.Alignof(MipRegion{})),
		"D3D12DDIARG_CREATERESOURCE_0088":                                      uint64(unsafe.Sizeof(cr)),
		"D3D12DDIARG_CREATERESOURCE_0088@align":                                uint64(unsafe.Alignof(cr)),
		"D3D12DDIARG_CREATERESOURCE_0088.ReuseBufferGPUVA":                     uint64(unsafe.Offsetof(cr.ReuseBufferGPUVA)),
		"D3D12DDIARG_CREATERESOURCE_0088.ResourceType":                         uint64(unsafe.Offsetof(cr.ResourceType)),
		"D3D12DDIARG_CREATERESOURCE_0088.Width":                                uint64(unsafe.Offsetof(cr.Width)),
		"D3D12DDIARG_CREATERESOURCE_0088.Height":                               uint64(unsafe.Offsetof(cr.Height)),
		"D3D12DDIARG_CREATERESOURCE_0088.DepthOrArraySize":                     uint64(unsafe.Offsetof(cr.DepthOrArraySize)),
		"D3D12DDIARG_CREATERESOURCE_0088.MipLevels":                            uint64(unsafe.Offsetof(cr.MipLevels)),
		"D3D12DDIARG_CREATERESOURCE_0088.Format":                               uint64(unsafe.Offsetof(cr.Format)),
		"D3D12DDIARG_CREATERESOURCE_0088.SampleDesc":                           uint64(unsafe.Offsetof(cr.SampleDesc)),
		"D3D12DDIARG_CREATERESOURCE_0088.Layout":                               uint64(unsafe.Offsetof(cr.Layout)),
		"D3D12DDIARG_CREATERESOURCE_0088.Flags":                                uint64(unsafe.Offsetof(cr.Flags)),
		"D3D12DDIARG_CREATERESOURCE_0088.InitialBarrierLayout":                 uint64(unsafe.Offsetof(cr.InitialBarrierLayout)),
		"D3D12DDIARG_CREATERESOURCE_0088.pRowMajorLayout":                      uint64(unsafe.Offsetof(cr.RowMajorLayout)),
		"D3D12DDIARG_CREATERESOURCE_0088.SamplerFeedbackMipRegion":             uint64(unsafe.Offsetof(cr.SamplerFeedbackMipRegion)),
		"D3D12DDIARG_CREATERESOURCE_0088.NumCastableFormats":                   uint64(unsafe.Offsetof(cr.NumCastableFormats)),
		"D3D12DDIARG_CREATERESOURCE_0088.pCastableFormats":                     uint64(unsafe.Offsetof(cr.CastableFormats)),
		"D3D12DDIARG_CREATEHEAP_0001":                                          uint64(unsafe.Sizeof(ch)),
		"D3D12DDIARG_CREATEHEAP_0001@align":                                    uint64(unsafe.Alignof(ch)),
		"D3D12DDIARG_CREATEHEAP_0001.ByteSize":                                 uint64(unsafe.Offsetof(ch.ByteSize)),
		"D3D12DDIARG_CREATEHEAP_0001.Alignment":                                uint64(unsafe.Offsetof(ch.Alignment)),
		"D3D12DDIARG_CREATEHEAP_0001.MemoryPool":                               uint64(unsafe.Offsetof(ch.MemoryPool)),
		"D3D12DDIARG_CREATEHEAP_0001.CPUPageProperty":                          uint64(unsafe.Offsetof(ch.CPUPageProperty)),
		"D3D12DDIARG_CREATEHEAP_0001.Flags":                                    uint64(unsafe.Offsetof(ch.Flags)),
		"D3D12DDIARG_CREATEHEAP_0001.CreationNodeMask":                         uint64(unsafe.Offsetof(ch.CreationNodeMask)),
		"D3D12DDIARG_CREATEHEAP_0001.VisibleNodeMask":                          uint64(unsafe.Offsetof(ch.VisibleNodeMask)),
		"D3D12DDI_HEAP_AND_RESOURCE_SIZES":                                     uint64(unsafe.Sizeof(hs)),
		"D3D12DDI_HEAP_AND_RESOURCE_SIZES@align":                               uint64(unsafe.Alignof(hs)),
		"D3D12DDI_HEAP_AND_RESOURCE_SIZES.Heap":                                uint64(unsafe.Offsetof(hs.Heap)),
		"D3D12DDI_HEAP_AND_RESOURCE_SIZES.Resource":                            uint64(unsafe.Offsetof(hs.Resource)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022":                               uint64(unsafe.Sizeof(ai)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022@align":                         uint64(unsafe.Alignof(ai)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.ResourceDataSize":              uint64(unsafe.Offsetof(ai.ResourceDataSize)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.AdditionalDataHeaderSize":      uint64(unsafe.Offsetof(ai.AdditionalDataHeaderSize)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.AdditionalDataSize":            uint64(unsafe.Offsetof(ai.AdditionalDataSize)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.ResourceDataAlignment":         uint64(unsafe.Offsetof(ai.ResourceDataAlignment)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.AdditionalDataHeaderAlignment": uint64(unsafe.Offsetof(ai.AdditionalDataHeaderAlignment)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.AdditionalDataAlignment":       uint64(unsafe.Offsetof(ai.AdditionalDataAlignment)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.Layout":                        uint64(unsafe.Offsetof(ai.Layout)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.MipLevelSwizzleTransition":     uint64(unsafe.Offsetof(ai.MipLevelSwizzleTransition)),
		"D3D12DDI_RESOURCE_ALLOCATION_INFO_0022.PlaneSliceSwizzleTransition":   uint64(unsafe.Offsetof(ai.PlaneSliceSwizzleTransition)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089":                                     uint64(unsafe.Sizeof(op)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089@align":                               uint64(unsafe.Alignof(op)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ResourceBindingTier":                 uint64(unsafe.Offsetof(op.ResourceBindingTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ConservativeRasterizationTier":       uint64(unsafe.Offsetof(op.ConservativeRasterizationTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.TiledResourcesTier":                  uint64(unsafe.Offsetof(op.TiledResourcesTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.CrossNodeSharingTier":                uint64(unsafe.Offsetof(op.CrossNodeSharingTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation": uint64(unsafe.Offsetof(op.VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.OutputMergerLogicOp":                                                        uint64(unsafe.Offsetof(op.OutputMergerLogicOp)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ResourceHeapTier":                                                           uint64(unsafe.Offsetof(op.ResourceHeapTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.DepthBoundsTestSupported":                                                   uint64(unsafe.Offsetof(op.DepthBoundsTestSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ProgrammableSamplePositionsTier":                                            uint64(unsafe.Offsetof(op.ProgrammableSamplePositionsTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.CopyQueueTimestampQueriesSupported":                                         uint64(unsafe.Offsetof(op.CopyQueueTimestampQueriesSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.WriteBufferImmediateQueueFlags":                                             uint64(unsafe.Offsetof(op.WriteBufferImmediateQueueFlags)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ViewInstancingTier":                                                         uint64(unsafe.Offsetof(op.ViewInstancingTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.BarycentricsSupported":                                                      uint64(unsafe.Offsetof(op.BarycentricsSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ReservedBufferPlacementSupported":                                           uint64(unsafe.Offsetof(op.ReservedBufferPlacementSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.Deterministic64KBUndefinedSwizzle":                                          uint64(unsafe.Offsetof(op.Deterministic64KBUndefinedSwizzle)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.SRVOnlyTiledResourceTier3":                                                  uint64(unsafe.Offsetof(op.SRVOnlyTiledResourceTier3)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.RenderPassTier":                                                             uint64(unsafe.Offsetof(op.RenderPassTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.RaytracingTier":                                                             uint64(unsafe.Offsetof(op.RaytracingTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.VariableShadingRateTier":                                                    uint64(unsafe.Offsetof(op.VariableShadingRateTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.PerPrimitiveShadingRateSupportedWithViewportIndexing":                       uint64(unsafe.Offsetof(op.PerPrimitiveShadingRateSupportedWithViewportIndexing)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.AdditionalShadingRatesSupported":                                            uint64(unsafe.Offsetof(op.AdditionalShadingRatesSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.ShadingRateImageTileSize":                                                   uint64(unsafe.Offsetof(op.ShadingRateImageTileSize)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.BackgroundProcessingSupported":                                              uint64(unsafe.Offsetof(op.BackgroundProcessingSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.MeshShaderTier":                                                             uint64(unsafe.Offsetof(op.MeshShaderTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.SamplerFeedbackTier":                                                        uint64(unsafe.Offsetof(op.SamplerFeedbackTier)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.DriverManagedShaderCachePresent":                                            uint64(unsafe.Offsetof(op.DriverManagedShaderCachePresent)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.MeshShaderSupportsFullRangeRenderTargetArrayIndex":                          uint64(unsafe.Offsetof(op.MeshShaderSupportsFullRangeRenderTargetArrayIndex)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.VariableRateShadingSumCombinerSupported":                                    uint64(unsafe.Offsetof(op.VariableRateShadingSumCombinerSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.MeshShaderPerPrimitiveShadingRateSupported":                                 uint64(unsafe.Offsetof(op.MeshShaderPerPrimitiveShadingRateSupported)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.MSPrimitivesPipelineStatisticIncludesCulledPrimitives":                      uint64(unsafe.Offsetof(op.MSPrimitivesPipelineStatisticIncludesCulledPrimitives)),
		"D3D12DDI_D3D12_OPTIONS_DATA_0089.EnhancedBarriersSupported":                                                  uint64(unsafe.Offsetof(op.EnhancedBarriersSupported)),
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
	g := goLayout()
	require.NotEmpty(t, c)

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
