package ddi

// The structures in this file are those D3D12DDIARG_CREATERESOURCE_0088 and
// the three resource entry points of 000 "DDI" reference. The spec names most
// of them without a definition; their members and values follow Microsoft's
// public DDI reference for d3d12umddi.h (learn.microsoft.com,
// windows-hardware/drivers/ddi/d3d12umddi), cited per type.

// ResourceType is D3D12DDI_RESOURCE_TYPE (d3d12umddi.h).
type ResourceType uint32

// The resource dimensions.
const (
	ResourceTypeBuffer    ResourceType = 1
	ResourceTypeTexture1D ResourceType = 2
	ResourceTypeTexture2D ResourceType = 3
	ResourceTypeTexture3D ResourceType = 4
)

// String returns BUFFER, TEXTURE1D, TEXTURE2D or TEXTURE3D.
func (t ResourceType) String() string { return resourceTypeNames.enumString(uint32(t)) }

// Valid reports whether the DDI defines the value.
func (t ResourceType) Valid() bool { return t >= ResourceTypeBuffer && t <= ResourceTypeTexture3D }

// IsTexture reports whether the type is one of the texture dimensions.
func (t ResourceType) IsTexture() bool {
	return t >= ResourceTypeTexture1D && t <= ResourceTypeTexture3D
}

// ParseResourceType is the inverse of String.
func ParseResourceType(s string) (ResourceType, error) {
	v, err := resourceTypeNames.parseEnum(s)
	return ResourceType(v), err
}

// ResourceFlags is D3D12DDI_RESOURCE_FLAGS_0003, with the members later DDI
// versions added (d3d12umddi.h, D3D12DDI_RESOURCE_FLAGS_0003). Note the DDI
// bit values differ from the API's D3D12_RESOURCE_FLAGS, and the DDI has an
// allow-shader-resource bit where the API has a deny bit.
type ResourceFlags uint32

// The resource flags.
const (
	ResourceFlagNone                            ResourceFlags = 0
	ResourceFlagRenderTarget                    ResourceFlags = 0x1
	ResourceFlagDepthStencil                    ResourceFlags = 0x2
	ResourceFlagCrossAdapter                    ResourceFlags = 0x4
	ResourceFlagSimultaneousAccess              ResourceFlags = 0x8
	ResourceFlagShaderResource                  ResourceFlags = 0x10
	ResourceFlagVideoDecodeReferenceOnly        ResourceFlags = 0x20
	ResourceFlagContentProtection               ResourceFlags = 0x40
	ResourceFlagUnorderedAccess                 ResourceFlags = 0x80
	ResourceFlagOnlyNonRTDSTexturePlacement     ResourceFlags = 0x100
	ResourceFlagOnlyRTDSTexturePlacement        ResourceFlags = 0x200
	ResourceFlag4MBAligned                      ResourceFlags = 0x400
	ResourceFlagSamplerFeedback                 ResourceFlags = 0x800
	ResourceFlagVideoEncodeReferenceOnly        ResourceFlags = 0x1000
	ResourceFlagRaytracingAccelerationStructure ResourceFlags = 0x2000
)

// String prints the set as NAME|NAME, NONE for 0, undefined bits as hex.
func (f ResourceFlags) String() string { return resourceFlagNames.flagsString(uint32(f)) }

// ParseResourceFlags is the inverse of String; it also accepts the API
// spelling ALLOW_SIMULTANEOUS_ACCESS.
func ParseResourceFlags(s string) (ResourceFlags, error) {
	v, err := resourceFlagNames.parseFlags(s)
	return ResourceFlags(v), err
}

// DefinedResourceFlags is every bit the DDI gives a name.
var DefinedResourceFlags = ResourceFlags(definedBits(resourceFlagNames))

// TextureLayout is D3D12DDI_TEXTURE_LAYOUT (d3d12umddi.h).
type TextureLayout uint32

// The texture layouts.
const (
	TextureLayoutUndefined                TextureLayout = 0
	TextureLayoutRowMajor                 TextureLayout = 1
	TextureLayout64KBTileUndefinedSwizzle TextureLayout = 2
	TextureLayout64KBTileStandardSwizzle  TextureLayout = 3
	TextureLayoutDeviceDependentSwizzle0  TextureLayout = 0x100
)

// String returns the layout's name without the D3D12DDI_TL_ prefix.
func (l TextureLayout) String() string { return textureLayoutNames.enumString(uint32(l)) }

// SampleDesc is DXGI_SAMPLE_DESC.
type SampleDesc struct {
	Count   uint32
	Quality uint32
}

// HResourcePlacement is D3D12DDIARG_HRESOURCE_PLACEMENT (d3d12umddi.h).
type HResourcePlacement struct {
	Resource HResource
	Offset   uint64
}

// BufferPlacement is D3D12DDIARG_BUFFER_PLACEMENT: a union with one member,
// BaseAddress.UMD (d3d12umddi.h).
type BufferPlacement struct {
	BaseAddressUMD HResourcePlacement
}

// MipRegion is D3D12DDI_MIP_REGION_0075 (d3d12umddi.h).
type MipRegion struct {
	Width  uint32
	Height uint32
	Depth  uint32
}

// CreateResource0088 is D3D12DDIARG_CREATERESOURCE_0088 (000 "DDI"). The two
// pointer members are kept as 8-byte addresses so the Go structure has the C
// layout; ebref's driver reads the row-major layout and castable formats from
// the Go-side fields of umd's arguments, never from these addresses.
type CreateResource0088 struct {
	ReuseBufferGPUVA         BufferPlacement
	ResourceType             ResourceType
	Width                    uint64
	Height                   uint32
	DepthOrArraySize         uint16
	MipLevels                uint16
	Format                   Format
	SampleDesc               SampleDesc
	Layout                   TextureLayout
	Flags                    ResourceFlags
	InitialBarrierLayout     BarrierLayout
	RowMajorLayout           uint64 // CONST D3D12DDIARG_ROW_MAJOR_RESOURCE_LAYOUT*
	SamplerFeedbackMipRegion MipRegion
	NumCastableFormats       uint32
	CastableFormats          uint64 // DXGI_FORMAT*
}

// MemoryPool is D3D12DDI_MEMORY_POOL (d3d12umddi.h).
type MemoryPool uint32

// The memory pools.
const (
	MemoryPoolL0 MemoryPool = 0 // system memory
	MemoryPoolL1 MemoryPool = 1 // typically local video memory
)

// CPUPageProperty is D3D12DDI_CPU_PAGE_PROPERTY (d3d12umddi.h).
type CPUPageProperty uint32

// The CPU page properties.
const (
	CPUPageNotAvailable CPUPageProperty = 0
	CPUPageWriteCombine CPUPageProperty = 1
	CPUPageWriteBack    CPUPageProperty = 2
)

// HeapFlags is D3D12DDI_HEAP_FLAGS (d3d12umddi.h).
type HeapFlags uint32

// The heap flags.
const (
	HeapFlagNone               HeapFlags = 0
	HeapFlagNonRTDSTextures    HeapFlags = 0x2
	HeapFlagBuffers            HeapFlags = 0x4
	HeapFlagCoherentSystemwide HeapFlags = 0x8
	HeapFlagPrimary            HeapFlags = 0x10
	HeapFlagRTDSTextures       HeapFlags = 0x20
	HeapFlagDenyL0Demotion     HeapFlags = 0x40 // D3D12DDI_HEAP_FLAG_0041_DENY_L0_DEMOTION
)

// String prints the set as NAME|NAME, NONE for 0.
func (f HeapFlags) String() string { return heapFlagNames.flagsString(uint32(f)) }

// CreateHeap0001 is D3D12DDIARG_CREATEHEAP_0001 (d3d12umddi.h).
type CreateHeap0001 struct {
	ByteSize         uint64
	Alignment        uint64
	MemoryPool       MemoryPool
	CPUPageProperty  CPUPageProperty
	Flags            HeapFlags
	CreationNodeMask uint32
	VisibleNodeMask  uint32
}

// HeapAndResourceSizes is D3D12DDI_HEAP_AND_RESOURCE_SIZES: the sizes of the
// driver-private objects for a heap and a resource (SIZE_T each).
type HeapAndResourceSizes struct {
	Heap     uint64
	Resource uint64
}

// ResourceOptimizationFlags is D3D12DDI_RESOURCE_OPTIMIZATION_FLAGS
// (d3d12umddi.h).
type ResourceOptimizationFlags uint32

// The optimization flags.
const (
	ResourceOptimizationFlagNone            ResourceOptimizationFlags = 0
	ResourceOptimizationFlagShaderResource  ResourceOptimizationFlags = 0x1
	ResourceOptimizationFlagUnorderedAccess ResourceOptimizationFlags = 0x2
	ResourceOptimizationFlagPrimary         ResourceOptimizationFlags = 0x4
	ResourceOptimizationFlagDeterministic   ResourceOptimizationFlags = 0x8
)

// ResourceAllocationInfo0022 is D3D12DDI_RESOURCE_ALLOCATION_INFO_0022
// (d3d12umddi.h). ebref reports a texture's compression metadata as its
// additional data.
type ResourceAllocationInfo0022 struct {
	ResourceDataSize              uint64
	AdditionalDataHeaderSize      uint64
	AdditionalDataSize            uint64
	ResourceDataAlignment         uint32
	AdditionalDataHeaderAlignment uint32
	AdditionalDataAlignment       uint32
	Layout                        TextureLayout
	MipLevelSwizzleTransition     [5]uint8
	PlaneSliceSwizzleTransition   [2]uint8
}

// CommandListFlags are the creation flags of a command list.
type CommandListFlags uint32

// CommandListFlagAllowExtendedAsync is the spec's
// D3D12_COMMAND_LIST_FLAG_ALLOW_EXTENDED_ASYNC, a future API (000
// "Synchronous Copy, Discard and Resolve", "Sync and Access Validation"):
// copies, discards and resolves in the list run asynchronously, and
// write-after-write between them needs a barrier. No header defines it;
// ebref gives it bit 0 (errata E-SYNC-COPY).
const CommandListFlagAllowExtendedAsync CommandListFlags = 0x1

// String prints the set as NAME|NAME, NONE for 0.
func (f CommandListFlags) String() string { return commandListFlagNames.flagsString(uint32(f)) }

// ParseCommandListFlags is the inverse of String.
func ParseCommandListFlags(s string) (CommandListFlags, error) {
	v, err := commandListFlagNames.parseFlags(s)
	return CommandListFlags(v), err
}

// CommandListType is D3D12_COMMAND_LIST_TYPE, which the DDI's command list
// creation arguments carry with the API's values (d3d12.h,
// D3D12_COMMAND_LIST_TYPE).
type CommandListType uint32

// The command list types.
const (
	CommandListTypeDirect       CommandListType = 0
	CommandListTypeBundle       CommandListType = 1
	CommandListTypeCompute      CommandListType = 2
	CommandListTypeCopy         CommandListType = 3
	CommandListTypeVideoDecode  CommandListType = 4
	CommandListTypeVideoProcess CommandListType = 5
	CommandListTypeVideoEncode  CommandListType = 6
)

// String returns DIRECT, BUNDLE, COMPUTE, COPY, VIDEO_DECODE, VIDEO_PROCESS or
// VIDEO_ENCODE.
func (t CommandListType) String() string { return commandListTypeNames.enumString(uint32(t)) }

// Valid reports whether the value is a defined type.
func (t CommandListType) Valid() bool { return t <= CommandListTypeVideoEncode }

// ParseCommandListType is the inverse of String.
func ParseCommandListType(s string) (CommandListType, error) {
	v, err := commandListTypeNames.parseEnum(s)
	return CommandListType(v), err
}

// QueueTypes lists the command list types a queue can have, in the order the
// spec's queue tables use: every type but BUNDLE.
var QueueTypes = []CommandListType{
	CommandListTypeDirect, CommandListTypeCompute, CommandListTypeCopy,
	CommandListTypeVideoDecode, CommandListTypeVideoProcess, CommandListTypeVideoEncode,
}

// ResourceStates is the legacy D3D12_RESOURCE_STATES bit set (d3d12.h,
// D3D12_RESOURCE_STATES). The runtime translates legacy states into enhanced
// barriers (000 "Compatibility with legacy D3D12_RESOURCE_STATES").
type ResourceStates uint32

// The legacy state bits and the composite values the API defines.
const (
	StateCommon                          ResourceStates = 0
	StateVertexAndConstantBuffer         ResourceStates = 0x1
	StateIndexBuffer                     ResourceStates = 0x2
	StateRenderTarget                    ResourceStates = 0x4
	StateUnorderedAccess                 ResourceStates = 0x8
	StateDepthWrite                      ResourceStates = 0x10
	StateDepthRead                       ResourceStates = 0x20
	StateNonPixelShaderResource          ResourceStates = 0x40
	StatePixelShaderResource             ResourceStates = 0x80
	StateStreamOut                       ResourceStates = 0x100
	StateIndirectArgument                ResourceStates = 0x200
	StatePredication                     ResourceStates = 0x200
	StateCopyDest                        ResourceStates = 0x400
	StateCopySource                      ResourceStates = 0x800
	StateResolveDest                     ResourceStates = 0x1000
	StateResolveSource                   ResourceStates = 0x2000
	StateVideoDecodeRead                 ResourceStates = 0x10000
	StateVideoDecodeWrite                ResourceStates = 0x20000
	StateVideoProcessRead                ResourceStates = 0x40000
	StateVideoProcessWrite               ResourceStates = 0x80000
	StateVideoEncodeRead                 ResourceStates = 0x200000
	StateRaytracingAccelerationStructure ResourceStates = 0x400000
	StateVideoEncodeWrite                ResourceStates = 0x800000
	StateShadingRateSource               ResourceStates = 0x1000000
	StatePresent                         ResourceStates = 0
	StateAllShaderResource               ResourceStates = StateNonPixelShaderResource | StatePixelShaderResource
	StateGenericRead                     ResourceStates = StateVertexAndConstantBuffer | StateIndexBuffer |
		StateNonPixelShaderResource | StatePixelShaderResource | StateIndirectArgument | StateCopySource
)

// String prints the set as NAME|NAME in ascending bit order, COMMON for 0.
// Composite names (GENERIC_READ) print as their bits.
func (s ResourceStates) String() string { return stateNames.flagsString(uint32(s)) }

// ParseResourceStates is the inverse of String; it also accepts GENERIC_READ,
// ALL_SHADER_RESOURCE and PRESENT.
func ParseResourceStates(s string) (ResourceStates, error) {
	v, err := stateNames.parseFlags(s)
	return ResourceStates(v), err
}

// IsWrite reports whether the state includes a bit that lets the GPU write
// (legacy rules allow at most one write bit and no read bit with it).
func (s ResourceStates) IsWrite() bool {
	const writes = StateRenderTarget | StateUnorderedAccess | StateDepthWrite | StateStreamOut |
		StateCopyDest | StateResolveDest | StateVideoDecodeWrite | StateVideoProcessWrite | StateVideoEncodeWrite
	return s&writes != 0
}

// String returns L0 or L1.
func (p MemoryPool) String() string { return memoryPoolNames.enumString(uint32(p)) }

// ParseMemoryPool is the inverse of String.
func ParseMemoryPool(s string) (MemoryPool, error) {
	v, err := memoryPoolNames.parseEnum(s)
	return MemoryPool(v), err
}

// String returns NOT_AVAILABLE, WRITE_COMBINE or WRITE_BACK.
func (p CPUPageProperty) String() string { return cpuPageNames.enumString(uint32(p)) }

// ParseCPUPageProperty is the inverse of String.
func ParseCPUPageProperty(s string) (CPUPageProperty, error) {
	v, err := cpuPageNames.parseEnum(s)
	return CPUPageProperty(v), err
}

// ParseHeapFlags is the inverse of HeapFlags.String.
func ParseHeapFlags(s string) (HeapFlags, error) {
	v, err := heapFlagNames.parseFlags(s)
	return HeapFlags(v), err
}

// ParseTextureLayout is the inverse of TextureLayout.String.
func ParseTextureLayout(s string) (TextureLayout, error) {
	v, err := textureLayoutNames.parseEnum(s)
	return TextureLayout(v), err
}

// String prints the set as NAME|NAME, NONE for 0.
func (f ResourceOptimizationFlags) String() string {
	return optimizationFlagNames.flagsString(uint32(f))
}

// ParseResourceOptimizationFlags is the inverse of String.
func ParseResourceOptimizationFlags(s string) (ResourceOptimizationFlags, error) {
	v, err := optimizationFlagNames.parseFlags(s)
	return ResourceOptimizationFlags(v), err
}
