// Function tables of d3d12umddi.h: every slot, in the header's order, as
// Microsoft's driver API reference pages list the members of each table.
// Only the order matters here: every slot is one function pointer.

typedef struct D3D12DDI_ADAPTERFUNCS {
    void* pfnCalcPrivateDeviceSize;
    void* pfnCreateDevice;
    void* pfnCloseAdapter;
    void* pfnGetSupportedVersions;
    void* pfnGetCaps;
    void* pfnGetOptionalDdiTables;
    void* pfnFillDdiTable;
    void* pfnDestroyDevice;
} D3D12DDI_ADAPTERFUNCS;

typedef struct D3D12DDI_DEVICE_FUNCS_CORE_0088 {
    void* pfnCheckFormatSupport;
    void* pfnCheckMultisampleQualityLevels;
    void* pfnGetMipPacking;
    void* pfnCalcPrivateElementLayoutSize;
    void* pfnCreateElementLayout;
    void* pfnDestroyElementLayout;
    void* pfnCalcPrivateBlendStateSize;
    void* pfnCreateBlendState;
    void* pfnDestroyBlendState;
    void* pfnCalcPrivateDepthStencilStateSize;
    void* pfnCreateDepthStencilState;
    void* pfnDestroyDepthStencilState;
    void* pfnCalcPrivateRasterizerStateSize;
    void* pfnCreateRasterizerState;
    void* pfnDestroyRasterizerState;
    void* pfnCalcPrivateShaderSize;
    void* pfnCreateVertexShader;
    void* pfnCreatePixelShader;
    void* pfnCreateGeometryShader;
    void* pfnCreateComputeShader;
    void* pfnCalcPrivateGeometryShaderWithStreamOutput;
    void* pfnCreateGeometryShaderWithStreamOutput;
    void* pfnCalcPrivateTessellationShaderSize;
    void* pfnCreateHullShader;
    void* pfnCreateDomainShader;
    void* pfnDestroyShader;
    void* pfnCalcPrivateCommandQueueSize;
    void* pfnCreateCommandQueue;
    void* pfnDestroyCommandQueue;
    void* pfnCalcPrivateCommandPoolSize;
    void* pfnCreateCommandPool;
    void* pfnDestroyCommandPool;
    void* pfnResetCommandPool;
    void* pfnCalcPrivatePipelineStateSize;
    void* pfnCreatePipelineState;
    void* pfnDestroyPipelineState;
    void* pfnCalcPrivateCommandListSize;
    void* pfnCreateCommandList;
    void* pfnDestroyCommandList;
    void* pfnCalcPrivateFenceSize;
    void* pfnCreateFence;
    void* pfnDestroyFence;
    void* pfnCalcPrivateDescriptorHeapSize;
    void* pfnCreateDescriptorHeap;
    void* pfnDestroyDescriptorHeap;
    void* pfnGetDescriptorSizeInBytes;
    void* pfnGetCPUDescriptorHandleForHeapStart;
    void* pfnGetGPUDescriptorHandleForHeapStart;
    void* pfnCreateShaderResourceView;
    void* pfnCreateConstantBufferView;
    void* pfnCreateSampler;
    void* pfnCreateUnorderedAccessView;
    void* pfnCreateRenderTargetView;
    void* pfnCreateDepthStencilView;
    void* pfnCalcPrivateRootSignatureSize;
    void* pfnCreateRootSignature;
    void* pfnDestroyRootSignature;
    void* pfnMapHeap;
    void* pfnUnmapHeap;
    void* pfnCalcPrivateHeapAndResourceSizes;
    void* pfnCreateHeapAndResource;
    void* pfnDestroyHeapAndResource;
    void* pfnMakeResident;
    void* pfnEvict;
    void* pfnCalcPrivateOpenedHeapAndResourceSizes;
    void* pfnOpenHeapAndResource;
    void* pfnCopyDescriptors;
    void* pfnCopyDescriptorsSimple;
    void* pfnCalcPrivateQueryHeapSize;
    void* pfnCreateQueryHeap;
    void* pfnDestroyQueryHeap;
    void* pfnCalcPrivateCommandSignatureSize;
    void* pfnCreateCommandSignature;
    void* pfnDestroyCommandSignature;
    void* pfnCheckResourceVirtualAddress;
    void* pfnCheckResourceAllocationInfo;
    void* pfnCheckSubresourceInfo;
    void* pfnCheckExistingResourceAllocationInfo;
    void* pfnOfferResources;
    void* pfnReclaimResources;
    void* pfnGetImplicitPhysicalAdapterMask;
    void* pfnGetPresentPrivateDriverDataSize;
    void* pfnQueryNodeMap;
    void* pfnRetrieveShaderComment;
    void* pfnCheckResourceAllocationHandle;
    void* pfnCalcPrivatePipelineLibrarySize;
    void* pfnCreatePipelineLibrary;
    void* pfnDestroyPipelineLibrary;
    void* pfnAddPipelineStateToLibrary;
    void* pfnCalcSerializedLibrarySize;
    void* pfnSerializeLibrary;
    void* pfnGetDebugAllocationInfo;
    void* pfnCalcPrivateCommandRecorderSize;
    void* pfnCreateCommandRecorder;
    void* pfnDestroyCommandRecorder;
    void* pfnCommandRecorderSetCommandPoolAsTarget;
    void* pfnCalcPrivateSchedulingGroupSize;
    void* pfnCreateSchedulingGroup;
    void* pfnDestroySchedulingGroup;
    void* pfnEnumerateMetaCommands;
    void* pfnEnumerateMetaCommandParameters;
    void* pfnCalcPrivateMetaCommandSize;
    void* pfnCreateMetaCommand;
    void* pfnDestroyMetaCommand;
    void* pfnGetMetaCommandRequiredParameterInfo;
    void* pfnCalcPrivateStateObjectSize;
    void* pfnCreateStateObject;
    void* pfnDestroyStateObject;
    void* pfnGetRaytracingAccelerationStructurePrebuildInfo;
    void* pfnCheckDriverMatchingIdentifier;
    void* pfnGetShaderIdentifier;
    void* pfnGetShaderStackSize;
    void* pfnGetPipelineStackSize;
    void* pfnSetPipelineStackSize;
    void* pfnSetBackgroundProcessingMode;
    void* pfnCalcPrivateAddToStateObjectSize;
    void* pfnAddToStateObject;
    void* pfnCreateSamplerFeedbackUnorderedAccessView;
    void* pfnCreateAmplificationShader;
    void* pfnCreateMeshShader;
    void* pfnCalcPrivateMeshShaderSize;
    void* pfnImplicitShaderCacheControl;
} D3D12DDI_DEVICE_FUNCS_CORE_0088;

typedef struct D3D12DDI_COMMAND_LIST_FUNCS_3D_0094 {
    void* pfnCloseCommandList;
    void* pfnResetCommandList;
    void* pfnDrawInstanced;
    void* pfnDrawIndexedInstanced;
    void* pfnDispatch;
    void* pfnClearUnorderedAccessViewUint;
    void* pfnClearUnorderedAccessViewFloat;
    void* pfnClearRenderTargetView;
    void* pfnClearDepthStencilView;
    void* pfnDiscardResource;
    void* pfnCopyTextureRegion;
    void* pfnResourceCopy;
    void* pfnCopyTiles;
    void* pfnCopyBufferRegion;
    void* pfnResourceResolveSubresource;
    void* pfnExecuteBundle;
    void* pfnExecuteIndirect;
    void* pfnResourceBarrier;
    void* pfnBlt;
    void* pfnPresent;
    void* pfnBeginQuery;
    void* pfnEndQuery;
    void* pfnResolveQueryData;
    void* pfnSetPredication;
    void* pfnIaSetTopology;
    void* pfnRsSetViewports;
    void* pfnRsSetScissorRects;
    void* pfnOmSetBlendFactor;
    void* pfnOmSetStencilRef;
    void* pfnSetPipelineState;
    void* pfnSetDescriptorHeaps;
    void* pfnSetComputeRootSignature;
    void* pfnSetGraphicsRootSignature;
    void* pfnSetComputeRootDescriptorTable;
    void* pfnSetGraphicsRootDescriptorTable;
    void* pfnSetComputeRoot32BitConstant;
    void* pfnSetGraphicsRoot32BitConstant;
    void* pfnSetComputeRoot32BitConstants;
    void* pfnSetGraphicsRoot32BitConstants;
    void* pfnSetComputeRootConstantBufferView;
    void* pfnSetGraphicsRootConstantBufferView;
    void* pfnSetComputeRootShaderResourceView;
    void* pfnSetGraphicsRootShaderResourceView;
    void* pfnSetComputeRootUnorderedAccessView;
    void* pfnSetGraphicsRootUnorderedAccessView;
    void* pfnIASetIndexBuffer;
    void* pfnIASetVertexBuffers;
    void* pfnSOSetTargets;
    void* pfnOMSetRenderTargets;
    void* pfnSetMarker;
    void* pfnClearRootArguments;
    void* pfnAtomicCopyBufferRegion;
    void* pfnOMSetDepthBounds;
    void* pfnSetSamplePositions;
    void* pfnResourceResolveSubresourceRegion;
    void* pfnSetProtectedResourceSession;
    void* pfnWriteBufferImmediate;
    void* pfnSetViewInstanceMask;
    void* pfnInitializeMetaCommand;
    void* pfnExecuteMetaCommand;
    void* pfnBuildRaytracingAccelerationStructure;
    void* pfnEmitRaytracingAccelerationStructurePostbuildInfo;
    void* pfnCopyRaytracingAccelerationStructure;
    void* pfnSetPipelineState1;
    void* pfnDispatchRays;
    void* pfnRSSetShadingRate;
    void* pfnRSSetShadingRateImage;
    void* pfnDispatchMesh;
    void* pfnBarrier;
    void* pfnOmSetAlphaBlendFactor;
} D3D12DDI_COMMAND_LIST_FUNCS_3D_0094;

#define SLOTS \
    SIZE(D3D12DDI_ADAPTERFUNCS), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnCalcPrivateDeviceSize), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnCreateDevice), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnCloseAdapter), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnGetSupportedVersions), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnGetCaps), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnGetOptionalDdiTables), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnFillDdiTable), \
    OFF(D3D12DDI_ADAPTERFUNCS, pfnDestroyDevice), \
    SIZE(D3D12DDI_DEVICE_FUNCS_CORE_0088), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckFormatSupport), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckMultisampleQualityLevels), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetMipPacking), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateElementLayoutSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateElementLayout), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyElementLayout), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateBlendStateSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateBlendState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyBlendState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateDepthStencilStateSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateDepthStencilState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyDepthStencilState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateRasterizerStateSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateRasterizerState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyRasterizerState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateShaderSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateVertexShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreatePixelShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateGeometryShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateComputeShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateGeometryShaderWithStreamOutput), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateGeometryShaderWithStreamOutput), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateTessellationShaderSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateHullShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateDomainShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateCommandQueueSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateCommandQueue), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyCommandQueue), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateCommandPoolSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateCommandPool), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyCommandPool), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnResetCommandPool), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivatePipelineStateSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreatePipelineState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyPipelineState), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateCommandListSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateCommandList), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyCommandList), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateFenceSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateFence), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyFence), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateDescriptorHeapSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateDescriptorHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyDescriptorHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetDescriptorSizeInBytes), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetCPUDescriptorHandleForHeapStart), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetGPUDescriptorHandleForHeapStart), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateShaderResourceView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateConstantBufferView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateSampler), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateUnorderedAccessView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateRenderTargetView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateDepthStencilView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateRootSignatureSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateRootSignature), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyRootSignature), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnMapHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnUnmapHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateHeapAndResourceSizes), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateHeapAndResource), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyHeapAndResource), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnMakeResident), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnEvict), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateOpenedHeapAndResourceSizes), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnOpenHeapAndResource), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCopyDescriptors), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCopyDescriptorsSimple), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateQueryHeapSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateQueryHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyQueryHeap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateCommandSignatureSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateCommandSignature), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyCommandSignature), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckResourceVirtualAddress), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckResourceAllocationInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckSubresourceInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckExistingResourceAllocationInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnOfferResources), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnReclaimResources), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetImplicitPhysicalAdapterMask), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetPresentPrivateDriverDataSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnQueryNodeMap), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnRetrieveShaderComment), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckResourceAllocationHandle), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivatePipelineLibrarySize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreatePipelineLibrary), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyPipelineLibrary), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnAddPipelineStateToLibrary), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcSerializedLibrarySize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnSerializeLibrary), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetDebugAllocationInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateCommandRecorderSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateCommandRecorder), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyCommandRecorder), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCommandRecorderSetCommandPoolAsTarget), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateSchedulingGroupSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateSchedulingGroup), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroySchedulingGroup), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnEnumerateMetaCommands), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnEnumerateMetaCommandParameters), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateMetaCommandSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateMetaCommand), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyMetaCommand), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetMetaCommandRequiredParameterInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateStateObjectSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateStateObject), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnDestroyStateObject), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetRaytracingAccelerationStructurePrebuildInfo), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckDriverMatchingIdentifier), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetShaderIdentifier), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetShaderStackSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnGetPipelineStackSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnSetPipelineStackSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnSetBackgroundProcessingMode), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateAddToStateObjectSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnAddToStateObject), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateSamplerFeedbackUnorderedAccessView), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateAmplificationShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateMeshShader), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateMeshShaderSize), \
    OFF(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnImplicitShaderCacheControl), \
    SIZE(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnCloseCommandList), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResetCommandList), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDrawInstanced), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDrawIndexedInstanced), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDispatch), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnClearUnorderedAccessViewUint), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnClearUnorderedAccessViewFloat), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnClearRenderTargetView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnClearDepthStencilView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDiscardResource), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnCopyTextureRegion), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResourceCopy), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnCopyTiles), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnCopyBufferRegion), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResourceResolveSubresource), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnExecuteBundle), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnExecuteIndirect), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResourceBarrier), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnBlt), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnPresent), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnBeginQuery), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnEndQuery), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResolveQueryData), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetPredication), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnIaSetTopology), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnRsSetViewports), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnRsSetScissorRects), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnOmSetBlendFactor), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnOmSetStencilRef), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetPipelineState), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetDescriptorHeaps), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRootSignature), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRootSignature), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRootDescriptorTable), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRootDescriptorTable), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRoot32BitConstant), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRoot32BitConstant), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRoot32BitConstants), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRoot32BitConstants), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRootConstantBufferView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRootConstantBufferView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRootShaderResourceView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRootShaderResourceView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetComputeRootUnorderedAccessView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetGraphicsRootUnorderedAccessView), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnIASetIndexBuffer), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnIASetVertexBuffers), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSOSetTargets), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnOMSetRenderTargets), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetMarker), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnClearRootArguments), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnAtomicCopyBufferRegion), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnOMSetDepthBounds), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetSamplePositions), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnResourceResolveSubresourceRegion), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetProtectedResourceSession), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnWriteBufferImmediate), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetViewInstanceMask), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnInitializeMetaCommand), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnExecuteMetaCommand), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnBuildRaytracingAccelerationStructure), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnEmitRaytracingAccelerationStructurePostbuildInfo), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnCopyRaytracingAccelerationStructure), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnSetPipelineState1), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDispatchRays), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnRSSetShadingRate), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnRSSetShadingRateImage), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnDispatchMesh), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnBarrier), \
    OFF(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnOmSetAlphaBlendFactor)
