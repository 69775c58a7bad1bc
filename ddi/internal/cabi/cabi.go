//go:build cgo

// Package cabi compiles C definitions of the DDI structures that package ddi
// mirrors and reports their sizes, alignments and member offsets, so a test
// can prove the Go and C layouts identical. The C text is written here from
// the facts of the WDK header d3d12umddi.h, the binary contract a runtime is
// compiled against: member order and types as Microsoft's driver API
// reference pages give them for each structure (named in a comment above
// it), and the x64 sizes and offsets published bindings of the header
// check (D3D12DDIARG_BARRIER_0094 72 bytes, D3D12DDI_RANGED_BARRIER_0094 40,
// D3D12DDI_RANGED_BARRIER_0088 72, D3D12DDIARG_BARRIER_0088 80,
// D3D12DDI_DEVICE_FUNCS_CORE_0088 976, D3D12DDI_COMMAND_LIST_FUNCS_3D_0094
// 560), asserted below. Where the spec's DDI section differs the header wins
// (docs/errata.md). Fixed-width types give the 64-bit Windows ABI on any LP64
// compiler: pointers and handles 8 bytes, UINT, BOOL and enums 4, SIZE_T 8,
// natural alignment. This package imports nothing of ebref.
package cabi

/*
#include <stddef.h>
#include <stdint.h>

typedef uint8_t  UINT8;
typedef uint16_t UINT16;
typedef uint32_t UINT;
typedef uint32_t UINT32;
typedef uint64_t UINT64;
typedef uint64_t SIZE_T;
typedef int32_t  BOOL;

typedef struct D3D12DDI_HRESOURCE { void* pDrvPrivate; } D3D12DDI_HRESOURCE;

typedef enum D3D12DDI_BARRIER_LAYOUT {
    D3D12DDI_BARRIER_LAYOUT_UNDEFINED = 0xffffffff,
    D3D12DDI_BARRIER_LAYOUT_COMMON = 0,
    D3D12DDI_BARRIER_LAYOUT_LEGACY_COPY_SOURCE = 0x80000000,
} D3D12DDI_BARRIER_LAYOUT;

typedef enum D3D12DDI_BARRIER_SYNC {
    D3D12DDI_BARRIER_SYNC_NONE = 0x0,
    D3D12DDI_BARRIER_SYNC_SPLIT = 0x80000000,
} D3D12DDI_BARRIER_SYNC;

typedef enum D3D12DDI_BARRIER_ACCESS {
    D3D12DDI_BARRIER_ACCESS_COMMON = 0,
    D3D12DDI_BARRIER_ACCESS_NO_ACCESS = 0x80000000,
} D3D12DDI_BARRIER_ACCESS;

typedef enum D3D12DDI_BARRIER_TYPE {
    D3D12DDI_BARRIER_TYPE_GLOBAL, D3D12DDI_BARRIER_TYPE_TEXTURE,
    D3D12DDI_BARRIER_TYPE_BUFFER, D3D12DDI_BARRIER_TYPE_RANGED,
} D3D12DDI_BARRIER_TYPE;

// D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 (the spec: ..._0088_FLAGS_0088).
typedef enum D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 {
    D3D12DDI_TEXTURE_BARRIER_FLAG_NONE = 0x0,
    D3D12DDI_TEXTURE_BARRIER_FLAG_DISCARD = 0x1,
} D3D12DDI_TEXTURE_BARRIER_FLAGS_0088;

typedef enum D3D12DDI_RANGED_BARRIER_FLAGS {
    D3D12DDI_RANGED_BARRIER_0088_FLAG_NONE = 0,
    D3D12DDI_RANGED_BARRIER_0088_FLAG_ATOMIC_COPY = 0x1,
} D3D12DDI_RANGED_BARRIER_FLAGS;

// D3D12DDI_RANGED_BARRIER_FLAGS_0094 (the spec: D3D12DDI_RANGE_...).
typedef enum D3D12DDI_RANGED_BARRIER_FLAGS_0094 {
    D3D12DDI_RANGED_BARRIER_FLAG_NONE_0094 = 0,
    D3D12DDI_RANGED_BARRIER_FLAG_ATOMIC_COPY_0094 = 0x1,
    D3D12DDI_RANGED_BARRIER_FLAG_ACQUIRE_0094 = 0x2,
    D3D12DDI_RANGED_BARRIER_FLAG_RELEASE_0094 = 0x4,
} D3D12DDI_RANGED_BARRIER_FLAGS_0094;

typedef struct D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088 {
    UINT32 IndexOrFirstMipLevel;
    UINT32 NumMipLevels;
    UINT32 FirstArraySlice;
    UINT32 NumArraySlices;
    UINT32 FirstPlane;
    UINT32 NumPlanes;
} D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088;

typedef struct D3D12DDI_RANGE { SIZE_T Begin; SIZE_T End; } D3D12DDI_RANGE;

typedef struct D3D12DDI_GLOBAL_BARRIER_0088 {
    D3D12DDI_BARRIER_SYNC SyncBefore;
    D3D12DDI_BARRIER_SYNC SyncAfter;
    D3D12DDI_BARRIER_ACCESS AccessBefore;
    D3D12DDI_BARRIER_ACCESS AccessAfter;
} D3D12DDI_GLOBAL_BARRIER_0088;

typedef struct D3D12DDI_TEXTURE_BARRIER_0088 {
    D3D12DDI_BARRIER_SYNC SyncBefore;
    D3D12DDI_BARRIER_SYNC SyncAfter;
    D3D12DDI_BARRIER_ACCESS AccessBefore;
    D3D12DDI_BARRIER_ACCESS AccessAfter;
    D3D12DDI_BARRIER_LAYOUT LayoutBefore;
    D3D12DDI_BARRIER_LAYOUT LayoutAfter;
    D3D12DDI_HRESOURCE hResource;
    D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088 Subresources;
    D3D12DDI_TEXTURE_BARRIER_FLAGS_0088 Flags;
} D3D12DDI_TEXTURE_BARRIER_0088;

typedef struct D3D12DDI_BUFFER_BARRIER_0088 {
    D3D12DDI_BARRIER_SYNC SyncBefore;
    D3D12DDI_BARRIER_SYNC SyncAfter;
    D3D12DDI_BARRIER_ACCESS AccessBefore;
    D3D12DDI_BARRIER_ACCESS AccessAfter;
    D3D12DDI_HRESOURCE hResource;
} D3D12DDI_BUFFER_BARRIER_0088;

// D3D12DDI_RANGED_BARRIER_0088 (driver API reference page of that name):
// the syncs and accesses, then flags, resource, subresource range and bytes.
typedef struct D3D12DDI_RANGED_BARRIER_0088 {
    D3D12DDI_BARRIER_SYNC SyncBefore;
    D3D12DDI_BARRIER_SYNC SyncAfter;
    D3D12DDI_BARRIER_ACCESS AccessBefore;
    D3D12DDI_BARRIER_ACCESS AccessAfter;
    D3D12DDI_RANGED_BARRIER_FLAGS Flags;
    D3D12DDI_HRESOURCE hResource;
    D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088 Subresources;
    D3D12DDI_RANGE Range;
} D3D12DDI_RANGED_BARRIER_0088;

// D3D12DDI_RANGED_BARRIER_0094 (driver API reference page of that name):
// one subresource index, not the spec's subresource range.
typedef struct D3D12DDI_RANGED_BARRIER_0094 {
    D3D12DDI_RANGED_BARRIER_FLAGS_0094 Flags;
    D3D12DDI_HRESOURCE hResource;
    UINT Subresource;
    D3D12DDI_RANGE Range;
} D3D12DDI_RANGED_BARRIER_0094;

typedef struct D3D12DDIARG_BARRIER_0094 {
    D3D12DDI_BARRIER_TYPE Type;
    union {
        D3D12DDI_GLOBAL_BARRIER_0088 GlobalBarrier;
        D3D12DDI_TEXTURE_BARRIER_0088 TextureBarrier;
        D3D12DDI_BUFFER_BARRIER_0088 BufferBarrier;
        D3D12DDI_RANGED_BARRIER_0094 RangedBarrier;
    };
} D3D12DDIARG_BARRIER_0094;

// D3D12DDIARG_BARRIER_0088, what PFND3D12DDI_BARRIER_0088 takes.
typedef struct D3D12DDIARG_BARRIER_0088 {
    D3D12DDI_BARRIER_TYPE Type;
    union {
        D3D12DDI_GLOBAL_BARRIER_0088 GlobalBarrier;
        D3D12DDI_TEXTURE_BARRIER_0088 TextureBarrier;
        D3D12DDI_BUFFER_BARRIER_0088 BufferBarrier;
        D3D12DDI_RANGED_BARRIER_0088 RangedBarrier;
    };
} D3D12DDIARG_BARRIER_0088;

// D3D12DDIARG_GETCAPS, what pfnGetCaps takes.
typedef enum D3D12DDICAPS_TYPE { D3D12DDICAPS_TYPE_D3D12_OPTIONS = 1006 } D3D12DDICAPS_TYPE;
typedef struct D3D12DDIARG_GETCAPS {
    D3D12DDICAPS_TYPE Type;
    void* pInfo;
    void* pData;
    UINT DataSize;
} D3D12DDIARG_GETCAPS;

// D3D12DDIARG_RESETCOMMANDLIST_0040, what pfnResetCommandList takes.
typedef struct D3D12DDI_HCOMMANDALLOCATOR { void* pDrvPrivate; } D3D12DDI_HCOMMANDALLOCATOR;
typedef struct D3D12DDI_HPIPELINESTATE { void* pDrvPrivate; } D3D12DDI_HPIPELINESTATE;
typedef struct D3D12DDIARG_RESETCOMMANDLIST_0040 {
    D3D12DDI_HCOMMANDALLOCATOR hDrvCommandAllocator;
    D3D12DDI_HPIPELINESTATE hDrvInitialPipelineState;
} D3D12DDIARG_RESETCOMMANDLIST_0040;

#include "functables.h"

typedef enum D3D12DDI_RESOURCE_TYPE { D3D12DDI_RT_BUFFER = 1, D3D12DDI_RT_TEXTURE3D = 4 } D3D12DDI_RESOURCE_TYPE;
typedef enum DXGI_FORMAT { DXGI_FORMAT_UNKNOWN = 0, DXGI_FORMAT_FORCE_UINT = 0xffffffff } DXGI_FORMAT;
typedef struct DXGI_SAMPLE_DESC { UINT Count; UINT Quality; } DXGI_SAMPLE_DESC;
typedef enum D3D12DDI_TEXTURE_LAYOUT { D3D12DDI_TL_UNDEFINED = 0, D3D12DDI_TL_DEVICE_DEPENDENT_SWIZZLE_0 = 0x100 } D3D12DDI_TEXTURE_LAYOUT;
typedef enum D3D12DDI_RESOURCE_FLAGS_0003 { D3D12DDI_RESOURCE_FLAG_0003_NONE = 0, D3D12DDI_RESOURCE_FLAG_0088_RAYTRACING_ACCELERATION_STRUCTURE = 0x2000 } D3D12DDI_RESOURCE_FLAGS_0003;
typedef struct D3D12DDIARG_HRESOURCE_PLACEMENT { D3D12DDI_HRESOURCE hResource; UINT64 Offset; } D3D12DDIARG_HRESOURCE_PLACEMENT;
typedef struct D3D12DDIARG_BUFFER_PLACEMENT { union { D3D12DDIARG_HRESOURCE_PLACEMENT UMD; } BaseAddress; } D3D12DDIARG_BUFFER_PLACEMENT;
typedef struct D3D12DDIARG_ROW_MAJOR_RESOURCE_LAYOUT { UINT RowPitch; UINT SlicePitch; } D3D12DDIARG_ROW_MAJOR_RESOURCE_LAYOUT;
typedef struct D3D12DDI_MIP_REGION_0075 { UINT Width; UINT Height; UINT Depth; } D3D12DDI_MIP_REGION_0075;

typedef struct D3D12DDIARG_CREATERESOURCE_0088 {
    D3D12DDIARG_BUFFER_PLACEMENT    ReuseBufferGPUVA;
    D3D12DDI_RESOURCE_TYPE          ResourceType;
    UINT64                          Width;
    UINT                            Height;
    UINT16                          DepthOrArraySize;
    UINT16                          MipLevels;
    DXGI_FORMAT                     Format;
    DXGI_SAMPLE_DESC                SampleDesc;
    D3D12DDI_TEXTURE_LAYOUT         Layout;
    D3D12DDI_RESOURCE_FLAGS_0003    Flags;
    D3D12DDI_BARRIER_LAYOUT         InitialBarrierLayout;
    const D3D12DDIARG_ROW_MAJOR_RESOURCE_LAYOUT* pRowMajorLayout;
    D3D12DDI_MIP_REGION_0075        SamplerFeedbackMipRegion;
    UINT32                          NumCastableFormats;
    DXGI_FORMAT*                    pCastableFormats;
} D3D12DDIARG_CREATERESOURCE_0088;

typedef enum D3D12DDI_MEMORY_POOL { D3D12DDI_MEMORY_POOL_L0 = 0, D3D12DDI_MEMORY_POOL_L1 = 1 } D3D12DDI_MEMORY_POOL;
typedef enum D3D12DDI_CPU_PAGE_PROPERTY { D3D12DDI_CPU_PAGE_PROPERTY_NOT_AVAILABLE = 0 } D3D12DDI_CPU_PAGE_PROPERTY;
typedef enum D3D12DDI_HEAP_FLAGS { D3D12DDI_HEAP_FLAG_NONE = 0, D3D12DDI_HEAP_FLAG_RT_DS_TEXTURES = 0x20 } D3D12DDI_HEAP_FLAGS;

typedef struct D3D12DDIARG_CREATEHEAP_0001 {
    UINT64 ByteSize;
    UINT64 Alignment;
    D3D12DDI_MEMORY_POOL MemoryPool;
    D3D12DDI_CPU_PAGE_PROPERTY CPUPageProperty;
    D3D12DDI_HEAP_FLAGS Flags;
    UINT CreationNodeMask;
    UINT VisibleNodeMask;
} D3D12DDIARG_CREATEHEAP_0001;

typedef struct D3D12DDI_HEAP_AND_RESOURCE_SIZES { SIZE_T Heap; SIZE_T Resource; } D3D12DDI_HEAP_AND_RESOURCE_SIZES;

typedef struct D3D12DDI_RESOURCE_ALLOCATION_INFO_0022 {
    UINT64 ResourceDataSize;
    UINT64 AdditionalDataHeaderSize;
    UINT64 AdditionalDataSize;
    UINT32 ResourceDataAlignment;
    UINT32 AdditionalDataHeaderAlignment;
    UINT32 AdditionalDataAlignment;
    D3D12DDI_TEXTURE_LAYOUT Layout;
    UINT8 MipLevelSwizzleTransition[5];
    UINT8 PlaneSliceSwizzleTransition[2];
} D3D12DDI_RESOURCE_ALLOCATION_INFO_0022;

typedef enum D3D12DDI_TIER { D3D12DDI_TIER_ANY = 0, D3D12DDI_TIER_MAX = 100 } D3D12DDI_TIER;
typedef enum D3D12DDI_COMMAND_QUEUE_FLAGS { D3D12DDI_COMMAND_QUEUE_FLAG_NONE = 0, D3D12DDI_COMMAND_QUEUE_FLAG_0053_VIDEO_ENCODE = 0x40 } D3D12DDI_COMMAND_QUEUE_FLAGS;

typedef struct D3D12DDI_D3D12_OPTIONS_DATA_0089 {
    D3D12DDI_TIER ResourceBindingTier;
    D3D12DDI_TIER ConservativeRasterizationTier;
    D3D12DDI_TIER TiledResourcesTier;
    D3D12DDI_TIER CrossNodeSharingTier;
    BOOL VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation;
    BOOL OutputMergerLogicOp;
    D3D12DDI_TIER ResourceHeapTier;
    BOOL DepthBoundsTestSupported;
    D3D12DDI_TIER ProgrammableSamplePositionsTier;
    BOOL CopyQueueTimestampQueriesSupported;
    D3D12DDI_COMMAND_QUEUE_FLAGS WriteBufferImmediateQueueFlags;
    D3D12DDI_TIER ViewInstancingTier;
    BOOL BarycentricsSupported;
    BOOL ReservedBufferPlacementSupported;
    BOOL Deterministic64KBUndefinedSwizzle;
    BOOL SRVOnlyTiledResourceTier3;
    D3D12DDI_TIER RenderPassTier;
    D3D12DDI_TIER RaytracingTier;
    D3D12DDI_TIER VariableShadingRateTier;
    BOOL PerPrimitiveShadingRateSupportedWithViewportIndexing;
    BOOL AdditionalShadingRatesSupported;
    UINT ShadingRateImageTileSize;
    BOOL BackgroundProcessingSupported;
    D3D12DDI_TIER MeshShaderTier;
    D3D12DDI_TIER SamplerFeedbackTier;
    BOOL DriverManagedShaderCachePresent;
    BOOL MeshShaderSupportsFullRangeRenderTargetArrayIndex;
    BOOL VariableRateShadingSumCombinerSupported;
    BOOL MeshShaderPerPrimitiveShadingRateSupported;
    BOOL MSPrimitivesPipelineStatisticIncludesCulledPrimitives;
    BOOL EnhancedBarriersSupported;
} D3D12DDI_D3D12_OPTIONS_DATA_0089;

_Static_assert(sizeof(D3D12DDI_BARRIER_LAYOUT) == 4, "enums are 4 bytes");
_Static_assert(sizeof(D3D12DDI_BARRIER_SYNC) == 4, "enums are 4 bytes");
_Static_assert(sizeof(D3D12DDI_BARRIER_ACCESS) == 4, "enums are 4 bytes");
_Static_assert(sizeof(D3D12DDIARG_BARRIER_0094) == 72, "the header's 72 bytes");
_Static_assert(sizeof(D3D12DDI_RANGED_BARRIER_0094) == 40, "the header's 40 bytes");
_Static_assert(sizeof(D3D12DDI_RANGED_BARRIER_0088) == 72, "the header's 72 bytes");
_Static_assert(sizeof(D3D12DDIARG_BARRIER_0088) == 80, "the header's 80 bytes");
_Static_assert(sizeof(D3D12DDI_DEVICE_FUNCS_CORE_0088) == 976, "the header's 976 bytes");
_Static_assert(sizeof(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094) == 560, "the header's 560 bytes");
_Static_assert(offsetof(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCalcPrivateHeapAndResourceSizes) == 472, "header");
_Static_assert(offsetof(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCreateHeapAndResource) == 480, "header");
_Static_assert(offsetof(D3D12DDI_DEVICE_FUNCS_CORE_0088, pfnCheckResourceAllocationInfo) == 600, "header");
_Static_assert(offsetof(D3D12DDI_COMMAND_LIST_FUNCS_3D_0094, pfnBarrier) == 544, "header");

typedef struct { const char* name; size_t value; } entry;

#define SIZE(T) { #T, sizeof(T) }, { #T "@align", _Alignof(T) }
#define OFF(T, m) { #T "." #m, offsetof(T, m) }

static const entry entries[] = {
    SIZE(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, IndexOrFirstMipLevel),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, NumMipLevels),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, FirstArraySlice),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, NumArraySlices),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, FirstPlane),
    OFF(D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088, NumPlanes),
    SIZE(D3D12DDI_RANGE),
    OFF(D3D12DDI_RANGE, Begin),
    OFF(D3D12DDI_RANGE, End),
    SIZE(D3D12DDI_HRESOURCE),
    SIZE(D3D12DDI_GLOBAL_BARRIER_0088),
    OFF(D3D12DDI_GLOBAL_BARRIER_0088, SyncBefore),
    OFF(D3D12DDI_GLOBAL_BARRIER_0088, SyncAfter),
    OFF(D3D12DDI_GLOBAL_BARRIER_0088, AccessBefore),
    OFF(D3D12DDI_GLOBAL_BARRIER_0088, AccessAfter),
    SIZE(D3D12DDI_TEXTURE_BARRIER_0088),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, SyncBefore),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, SyncAfter),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, AccessBefore),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, AccessAfter),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, LayoutBefore),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, LayoutAfter),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, hResource),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, Subresources),
    OFF(D3D12DDI_TEXTURE_BARRIER_0088, Flags),
    SIZE(D3D12DDI_BUFFER_BARRIER_0088),
    OFF(D3D12DDI_BUFFER_BARRIER_0088, SyncBefore),
    OFF(D3D12DDI_BUFFER_BARRIER_0088, SyncAfter),
    OFF(D3D12DDI_BUFFER_BARRIER_0088, AccessBefore),
    OFF(D3D12DDI_BUFFER_BARRIER_0088, AccessAfter),
    OFF(D3D12DDI_BUFFER_BARRIER_0088, hResource),
    SIZE(D3D12DDI_RANGED_BARRIER_0088),
    OFF(D3D12DDI_RANGED_BARRIER_0088, SyncBefore),
    OFF(D3D12DDI_RANGED_BARRIER_0088, SyncAfter),
    OFF(D3D12DDI_RANGED_BARRIER_0088, AccessBefore),
    OFF(D3D12DDI_RANGED_BARRIER_0088, AccessAfter),
    OFF(D3D12DDI_RANGED_BARRIER_0088, Flags),
    OFF(D3D12DDI_RANGED_BARRIER_0088, hResource),
    OFF(D3D12DDI_RANGED_BARRIER_0088, Subresources),
    OFF(D3D12DDI_RANGED_BARRIER_0088, Range),
    SIZE(D3D12DDI_RANGED_BARRIER_0094),
    OFF(D3D12DDI_RANGED_BARRIER_0094, Flags),
    OFF(D3D12DDI_RANGED_BARRIER_0094, hResource),
    OFF(D3D12DDI_RANGED_BARRIER_0094, Subresource),
    OFF(D3D12DDI_RANGED_BARRIER_0094, Range),
    SIZE(D3D12DDIARG_BARRIER_0094),
    OFF(D3D12DDIARG_BARRIER_0094, Type),
    OFF(D3D12DDIARG_BARRIER_0094, GlobalBarrier),
    OFF(D3D12DDIARG_BARRIER_0094, TextureBarrier),
    OFF(D3D12DDIARG_BARRIER_0094, BufferBarrier),
    OFF(D3D12DDIARG_BARRIER_0094, RangedBarrier),
    SIZE(D3D12DDIARG_BARRIER_0088),
    OFF(D3D12DDIARG_BARRIER_0088, Type),
    OFF(D3D12DDIARG_BARRIER_0088, GlobalBarrier),
    OFF(D3D12DDIARG_BARRIER_0088, TextureBarrier),
    OFF(D3D12DDIARG_BARRIER_0088, BufferBarrier),
    OFF(D3D12DDIARG_BARRIER_0088, RangedBarrier),
    SIZE(D3D12DDIARG_GETCAPS),
    OFF(D3D12DDIARG_GETCAPS, Type),
    OFF(D3D12DDIARG_GETCAPS, pInfo),
    OFF(D3D12DDIARG_GETCAPS, pData),
    OFF(D3D12DDIARG_GETCAPS, DataSize),
    SIZE(D3D12DDIARG_RESETCOMMANDLIST_0040),
    OFF(D3D12DDIARG_RESETCOMMANDLIST_0040, hDrvCommandAllocator),
    OFF(D3D12DDIARG_RESETCOMMANDLIST_0040, hDrvInitialPipelineState),
    SLOTS,
    SIZE(DXGI_SAMPLE_DESC),
    OFF(DXGI_SAMPLE_DESC, Count),
    OFF(DXGI_SAMPLE_DESC, Quality),
    SIZE(D3D12DDIARG_HRESOURCE_PLACEMENT),
    OFF(D3D12DDIARG_HRESOURCE_PLACEMENT, hResource),
    OFF(D3D12DDIARG_HRESOURCE_PLACEMENT, Offset),
    SIZE(D3D12DDIARG_BUFFER_PLACEMENT),
    OFF(D3D12DDIARG_BUFFER_PLACEMENT, BaseAddress.UMD),
    SIZE(D3D12DDI_MIP_REGION_0075),
    OFF(D3D12DDI_MIP_REGION_0075, Width),
    OFF(D3D12DDI_MIP_REGION_0075, Height),
    OFF(D3D12DDI_MIP_REGION_0075, Depth),
    SIZE(D3D12DDIARG_CREATERESOURCE_0088),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, ReuseBufferGPUVA),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, ResourceType),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, Width),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, Height),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, DepthOrArraySize),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, MipLevels),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, Format),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, SampleDesc),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, Layout),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, Flags),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, InitialBarrierLayout),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, pRowMajorLayout),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, SamplerFeedbackMipRegion),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, NumCastableFormats),
    OFF(D3D12DDIARG_CREATERESOURCE_0088, pCastableFormats),
    SIZE(D3D12DDIARG_CREATEHEAP_0001),
    OFF(D3D12DDIARG_CREATEHEAP_0001, ByteSize),
    OFF(D3D12DDIARG_CREATEHEAP_0001, Alignment),
    OFF(D3D12DDIARG_CREATEHEAP_0001, MemoryPool),
    OFF(D3D12DDIARG_CREATEHEAP_0001, CPUPageProperty),
    OFF(D3D12DDIARG_CREATEHEAP_0001, Flags),
    OFF(D3D12DDIARG_CREATEHEAP_0001, CreationNodeMask),
    OFF(D3D12DDIARG_CREATEHEAP_0001, VisibleNodeMask),
    SIZE(D3D12DDI_HEAP_AND_RESOURCE_SIZES),
    OFF(D3D12DDI_HEAP_AND_RESOURCE_SIZES, Heap),
    OFF(D3D12DDI_HEAP_AND_RESOURCE_SIZES, Resource),
    SIZE(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, ResourceDataSize),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, AdditionalDataHeaderSize),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, AdditionalDataSize),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, ResourceDataAlignment),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, AdditionalDataHeaderAlignment),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, AdditionalDataAlignment),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, Layout),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, MipLevelSwizzleTransition),
    OFF(D3D12DDI_RESOURCE_ALLOCATION_INFO_0022, PlaneSliceSwizzleTransition),
    SIZE(D3D12DDI_D3D12_OPTIONS_DATA_0089),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ResourceBindingTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ConservativeRasterizationTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, TiledResourcesTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, CrossNodeSharingTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, OutputMergerLogicOp),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ResourceHeapTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, DepthBoundsTestSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ProgrammableSamplePositionsTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, CopyQueueTimestampQueriesSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, WriteBufferImmediateQueueFlags),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ViewInstancingTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, BarycentricsSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ReservedBufferPlacementSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, Deterministic64KBUndefinedSwizzle),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, SRVOnlyTiledResourceTier3),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, RenderPassTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, RaytracingTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, VariableShadingRateTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, PerPrimitiveShadingRateSupportedWithViewportIndexing),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, AdditionalShadingRatesSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, ShadingRateImageTileSize),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, BackgroundProcessingSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, MeshShaderTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, SamplerFeedbackTier),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, DriverManagedShaderCachePresent),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, MeshShaderSupportsFullRangeRenderTargetArrayIndex),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, VariableRateShadingSumCombinerSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, MeshShaderPerPrimitiveShadingRateSupported),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, MSPrimitivesPipelineStatisticIncludesCulledPrimitives),
    OFF(D3D12DDI_D3D12_OPTIONS_DATA_0089, EnhancedBarriersSupported),
};

static int entry_count(void) { return sizeof(entries) / sizeof(entries[0]); }
static const char* entry_name(int i) { return entries[i].name; }
static size_t entry_value(int i) { return entries[i].value; }
*/
import "C"

// Layout returns every measured quantity by name: "STRUCT" is sizeof,
// "STRUCT@align" the alignment, "STRUCT.member" the member's offset.
func Layout() map[string]uint64 {
	n := int(C.entry_count())
	out := make(map[string]uint64, n)
	for i := 0; i < n; i++ {
		out[C.GoString(C.entry_name(C.int(i)))] = uint64(C.entry_value(C.int(i)))
	}
	return out
}
