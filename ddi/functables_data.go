package ddi

// The slots of the function tables ebref's driver fills, in d3d12umddi.h's
// order: Microsoft's driver API reference page of each table lists its
// members in that order. The header's table sizes and the offsets of the
// slots ebref fills are asserted by the cgo layout test.

// AdapterFuncsSlots are the slots of D3D12DDI_ADAPTERFUNCS (64 bytes).
var AdapterFuncsSlots = FuncTable{Name: "D3D12DDI_ADAPTERFUNCS", Slots: []string{
	"pfnCalcPrivateDeviceSize", "pfnCreateDevice", "pfnCloseAdapter", "pfnGetSupportedVersions",
	"pfnGetCaps", "pfnGetOptionalDdiTables", "pfnFillDdiTable", "pfnDestroyDevice",
}}

// DeviceFuncsCore0088Slots are the slots of D3D12DDI_DEVICE_FUNCS_CORE_0088 (976 bytes).
var DeviceFuncsCore0088Slots = FuncTable{Name: "D3D12DDI_DEVICE_FUNCS_CORE_0088", Slots: []string{
	"pfnCheckFormatSupport", "pfnCheckMultisampleQualityLevels", "pfnGetMipPacking",
	"pfnCalcPrivateElementLayoutSize", "pfnCreateElementLayout", "pfnDestroyElementLayout",
	"pfnCalcPrivateBlendStateSize", "pfnCreateBlendState", "pfnDestroyBlendState",
	"pfnCalcPrivateDepthStencilStateSize", "pfnCreateDepthStencilState",
	"pfnDestroyDepthStencilState", "pfnCalcPrivateRasterizerStateSize", "pfnCreateRasterizerState",
	"pfnDestroyRasterizerState", "pfnCalcPrivateShaderSize", "pfnCreateVertexShader",
	"pfnCreatePixelShader", "pfnCreateGeometryShader", "pfnCreateComputeShader",
	"pfnCalcPrivateGeometryShaderWithStreamOutput", "pfnCreateGeometryShaderWithStreamOutput",
	"pfnCalcPrivateTessellationShaderSize", "pfnCreateHullShader", "pfnCreateDomainShader",
	"pfnDestroyShader", "pfnCalcPrivateCommandQueueSize", "pfnCreateCommandQueue",
	"pfnDestroyCommandQueue", "pfnCalcPrivateCommandPoolSize", "pfnCreateCommandPool",
	"pfnDestroyCommandPool", "pfnResetCommandPool", "pfnCalcPrivatePipelineStateSize",
	"pfnCreatePipelineState", "pfnDestroyPipelineState", "pfnCalcPrivateCommandListSize",
	"pfnCreateCommandList", "pfnDestroyCommandList", "pfnCalcPrivateFenceSize", "pfnCreateFence",
	"pfnDestroyFence", "pfnCalcPrivateDescriptorHeapSize", "pfnCreateDescriptorHeap",
	"pfnDestroyDescriptorHeap", "pfnGetDescriptorSizeInBytes",
	"pfnGetCPUDescriptorHandleForHeapStart", "pfnGetGPUDescriptorHandleForHeapStart",
	"pfnCreateShaderResourceView", "pfnCreateConstantBufferView", "pfnCreateSampler",
	"pfnCreateUnorderedAccessView", "pfnCreateRenderTargetView", "pfnCreateDepthStencilView",
	"pfnCalcPrivateRootSignatureSize", "pfnCreateRootSignature", "pfnDestroyRootSignature",
	"pfnMapHeap", "pfnUnmapHeap", "pfnCalcPrivateHeapAndResourceSizes", "pfnCreateHeapAndResource",
	"pfnDestroyHeapAndResource", "pfnMakeResident", "pfnEvict",
	"pfnCalcPrivateOpenedHeapAndResourceSizes", "pfnOpenHeapAndResource", "pfnCopyDescriptors",
	"pfnCopyDescriptorsSimple", "pfnCalcPrivateQueryHeapSize", "pfnCreateQueryHeap",
	"pfnDestroyQueryHeap", "pfnCalcPrivateCommandSignatureSize", "pfnCreateCommandSignature",
	"pfnDestroyCommandSignature", "pfnCheckResourceVirtualAddress", "pfnCheckResourceAllocationInfo",
	"pfnCheckSubresourceInfo", "pfnCheckExistingResourceAllocationInfo", "pfnOfferResources",
	"pfnReclaimResources", "pfnGetImplicitPhysicalAdapterMask", "pfnGetPresentPrivateDriverDataSize",
	"pfnQueryNodeMap", "pfnRetrieveShaderComment", "pfnCheckResourceAllocationHandle",
	"pfnCalcPrivatePipelineLibrarySize", "pfnCreatePipelineLibrary", "pfnDestroyPipelineLibrary",
	"pfnAddPipelineStateToLibrary", "pfnCalcSerializedLibrarySize", "pfnSerializeLibrary",
	"pfnGetDebugAllocationInfo", "pfnCalcPrivateCommandRecorderSize", "pfnCreateCommandRecorder",
	"pfnDestroyCommandRecorder", "pfnCommandRecorderSetCommandPoolAsTarget",
	"pfnCalcPrivateSchedulingGroupSize", "pfnCreateSchedulingGroup", "pfnDestroySchedulingGroup",
	"pfnEnumerateMetaCommands", "pfnEnumerateMetaCommandParameters", "pfnCalcPrivateMetaCommandSize",
	"pfnCreateMetaCommand", "pfnDestroyMetaCommand", "pfnGetMetaCommandRequiredParameterInfo",
	"pfnCalcPrivateStateObjectSize", "pfnCreateStateObject", "pfnDestroyStateObject",
	"pfnGetRaytracingAccelerationStructurePrebuildInfo", "pfnCheckDriverMatchingIdentifier",
	"pfnGetShaderIdentifier", "pfnGetShaderStackSize", "pfnGetPipelineStackSize",
	"pfnSetPipelineStackSize", "pfnSetBackgroundProcessingMode", "pfnCalcPrivateAddToStateObjectSize",
	"pfnAddToStateObject", "pfnCreateSamplerFeedbackUnorderedAccessView",
	"pfnCreateAmplificationShader", "pfnCreateMeshShader", "pfnCalcPrivateMeshShaderSize",
	"pfnImplicitShaderCacheControl",
}}

// CommandListFuncs3D0094Slots are the slots of D3D12DDI_COMMAND_LIST_FUNCS_3D_0094 (560 bytes).
var CommandListFuncs3D0094Slots = FuncTable{Name: "D3D12DDI_COMMAND_LIST_FUNCS_3D_0094", Slots: []string{
	"pfnCloseCommandList", "pfnResetCommandList", "pfnDrawInstanced", "pfnDrawIndexedInstanced",
	"pfnDispatch", "pfnClearUnorderedAccessViewUint", "pfnClearUnorderedAccessViewFloat",
	"pfnClearRenderTargetView", "pfnClearDepthStencilView", "pfnDiscardResource",
	"pfnCopyTextureRegion", "pfnResourceCopy", "pfnCopyTiles", "pfnCopyBufferRegion",
	"pfnResourceResolveSubresource", "pfnExecuteBundle", "pfnExecuteIndirect", "pfnResourceBarrier",
	"pfnBlt", "pfnPresent", "pfnBeginQuery", "pfnEndQuery", "pfnResolveQueryData",
	"pfnSetPredication", "pfnIaSetTopology", "pfnRsSetViewports", "pfnRsSetScissorRects",
	"pfnOmSetBlendFactor", "pfnOmSetStencilRef", "pfnSetPipelineState", "pfnSetDescriptorHeaps",
	"pfnSetComputeRootSignature", "pfnSetGraphicsRootSignature", "pfnSetComputeRootDescriptorTable",
	"pfnSetGraphicsRootDescriptorTable", "pfnSetComputeRoot32BitConstant",
	"pfnSetGraphicsRoot32BitConstant", "pfnSetComputeRoot32BitConstants",
	"pfnSetGraphicsRoot32BitConstants", "pfnSetComputeRootConstantBufferView",
	"pfnSetGraphicsRootConstantBufferView", "pfnSetComputeRootShaderResourceView",
	"pfnSetGraphicsRootShaderResourceView", "pfnSetComputeRootUnorderedAccessView",
	"pfnSetGraphicsRootUnorderedAccessView", "pfnIASetIndexBuffer", "pfnIASetVertexBuffers",
	"pfnSOSetTargets", "pfnOMSetRenderTargets", "pfnSetMarker", "pfnClearRootArguments",
	"pfnAtomicCopyBufferRegion", "pfnOMSetDepthBounds", "pfnSetSamplePositions",
	"pfnResourceResolveSubresourceRegion", "pfnSetProtectedResourceSession",
	"pfnWriteBufferImmediate", "pfnSetViewInstanceMask", "pfnInitializeMetaCommand",
	"pfnExecuteMetaCommand", "pfnBuildRaytracingAccelerationStructure",
	"pfnEmitRaytracingAccelerationStructurePostbuildInfo", "pfnCopyRaytracingAccelerationStructure",
	"pfnSetPipelineState1", "pfnDispatchRays", "pfnRSSetShadingRate", "pfnRSSetShadingRateImage",
	"pfnDispatchMesh", "pfnBarrier", "pfnOmSetAlphaBlendFactor",
}}

// CommandListFuncs3D0092Slots are the slots of
// D3D12DDI_COMMAND_LIST_FUNCS_3D_0092 (560 bytes): the 0094 table's order,
// with PFND3D12DDI_BARRIER_0088 in pfnBarrier.
var CommandListFuncs3D0092Slots = FuncTable{Name: "D3D12DDI_COMMAND_LIST_FUNCS_3D_0092", Slots: CommandListFuncs3D0094Slots.Slots}
