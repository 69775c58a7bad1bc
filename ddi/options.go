package ddi

// The tier enums of D3D12DDI_D3D12_OPTIONS_DATA_0089. The spec names them
// without values; the DDI values equal those of the API's D3D12_*_TIER enums
// (Microsoft's DDI reference for d3d12umddi.h and d3d12.h).

// ResourceBindingTier is D3D12DDI_RESOURCE_BINDING_TIER.
type ResourceBindingTier uint32

// Resource binding tiers.
const (
	ResourceBindingTier1 ResourceBindingTier = 1
	ResourceBindingTier2 ResourceBindingTier = 2
	ResourceBindingTier3 ResourceBindingTier = 3
)

// ConservativeRasterizationTier is D3D12DDI_CONSERVATIVE_RASTERIZATION_TIER.
type ConservativeRasterizationTier uint32

// Conservative rasterization tiers.
const (
	ConservativeRasterizationTierNotSupported ConservativeRasterizationTier = 0
	ConservativeRasterizationTier1            ConservativeRasterizationTier = 1
	ConservativeRasterizationTier2            ConservativeRasterizationTier = 2
	ConservativeRasterizationTier3            ConservativeRasterizationTier = 3
)

// TiledResourcesTier is D3D12DDI_TILED_RESOURCES_TIER. The DDI stops at tier
// 3: a driver with the API's tier 4 reports tier 3 and
// Deterministic64KBUndefinedSwizzle (errata E-DDI-HEADER-NAMES).
type TiledResourcesTier uint32

// Tiled resources tiers.
const (
	TiledResourcesTierNotSupported TiledResourcesTier = 0
	TiledResourcesTier1            TiledResourcesTier = 1
	TiledResourcesTier2            TiledResourcesTier = 2
	TiledResourcesTier3            TiledResourcesTier = 3
)

// CrossNodeSharingTier is D3D12DDI_CROSS_NODE_SHARING_TIER.
type CrossNodeSharingTier uint32

// Cross-node sharing tiers.
const (
	CrossNodeSharingTierNotSupported CrossNodeSharingTier = 0
	CrossNodeSharingTier1Emulated    CrossNodeSharingTier = 1
	CrossNodeSharingTier1            CrossNodeSharingTier = 2
	CrossNodeSharingTier2            CrossNodeSharingTier = 3
	CrossNodeSharingTier3            CrossNodeSharingTier = 4
)

// ResourceHeapTier is D3D12DDI_RESOURCE_HEAP_TIER.
type ResourceHeapTier uint32

// Resource heap tiers.
const (
	ResourceHeapTier1 ResourceHeapTier = 1
	ResourceHeapTier2 ResourceHeapTier = 2
)

// ProgrammableSamplePositionsTier is D3D12DDI_PROGRAMMABLE_SAMPLE_POSITIONS_TIER.
type ProgrammableSamplePositionsTier uint32

// Programmable sample positions tiers.
const (
	ProgrammableSamplePositionsTierNotSupported ProgrammableSamplePositionsTier = 0
	ProgrammableSamplePositionsTier1            ProgrammableSamplePositionsTier = 1
	ProgrammableSamplePositionsTier2            ProgrammableSamplePositionsTier = 2
)

// CommandQueueFlags is D3D12DDI_COMMAND_QUEUE_FLAGS.
type CommandQueueFlags uint32

// Command queue flags.
const (
	CommandQueueFlagNone         CommandQueueFlags = 0
	CommandQueueFlag3D           CommandQueueFlags = 0x1
	CommandQueueFlagCompute      CommandQueueFlags = 0x2
	CommandQueueFlagCopy         CommandQueueFlags = 0x4
	CommandQueueFlagPaging       CommandQueueFlags = 0x8
	CommandQueueFlagVideoDecode  CommandQueueFlags = 0x10
	CommandQueueFlagVideoProcess CommandQueueFlags = 0x20
	CommandQueueFlagVideoEncode  CommandQueueFlags = 0x40
)

// String prints the set as NAME|NAME, NONE for 0.
func (f CommandQueueFlags) String() string { return queueFlagNames.flagsString(uint32(f)) }

// ViewInstancingTier is D3D12DDI_VIEW_INSTANCING_TIER.
type ViewInstancingTier uint32

// View instancing tiers.
const (
	ViewInstancingTierNotSupported ViewInstancingTier = 0
	ViewInstancingTier1            ViewInstancingTier = 1
	ViewInstancingTier2            ViewInstancingTier = 2
	ViewInstancingTier3            ViewInstancingTier = 3
)

// RenderPassTier is D3D12DDI_RENDER_PASS_TIER.
type RenderPassTier uint32

// Render pass tiers.
const (
	RenderPassTier0 RenderPassTier = 0
	RenderPassTier1 RenderPassTier = 1
	RenderPassTier2 RenderPassTier = 2
)

// RaytracingTier is D3D12DDI_RAYTRACING_TIER.
type RaytracingTier uint32

// Raytracing tiers.
const (
	RaytracingTierNotSupported RaytracingTier = 0
	RaytracingTier1_0          RaytracingTier = 10
	RaytracingTier1_1          RaytracingTier = 11
)

// VariableShadingRateTier is D3D12DDI_VARIABLE_SHADING_RATE_TIER.
type VariableShadingRateTier uint32

// Variable shading rate tiers.
const (
	VariableShadingRateTierNotSupported VariableShadingRateTier = 0
	VariableShadingRateTier1            VariableShadingRateTier = 1
	VariableShadingRateTier2            VariableShadingRateTier = 2
)

// MeshShaderTier is D3D12DDI_MESH_SHADER_TIER.
type MeshShaderTier uint32

// Mesh shader tiers.
const (
	MeshShaderTierNotSupported MeshShaderTier = 0
	MeshShaderTier1            MeshShaderTier = 10
)

// SamplerFeedbackTier is D3D12DDI_SAMPLER_FEEDBACK_TIER.
type SamplerFeedbackTier uint32

// Sampler feedback tiers.
const (
	SamplerFeedbackTierNotSupported SamplerFeedbackTier = 0
	SamplerFeedbackTier0_9          SamplerFeedbackTier = 90
	SamplerFeedbackTier1_0          SamplerFeedbackTier = 100
)

// Bool is the C BOOL: a 4-byte integer, nonzero for true.
type Bool int32

// True and False are the BOOL values a driver reports.
const (
	False Bool = 0
	True  Bool = 1
)

// MakeBool converts a Go bool.
func MakeBool(b bool) Bool {
	if b {
		return True
	}
	return False
}

// OptionsData0089 is D3D12DDI_D3D12_OPTIONS_DATA_0089, which a driver fills
// to report capabilities; EnhancedBarriersSupported is the member the
// enhanced-barrier DDIs hang on (000 "D3D12DDI_D3D12_OPTIONS_DATA_0089",
// 001 "Reporting enhanced barrier support").
type OptionsData0089 struct {
	ResourceBindingTier                                                        ResourceBindingTier
	ConservativeRasterizationTier                                              ConservativeRasterizationTier
	TiledResourcesTier                                                         TiledResourcesTier
	CrossNodeSharingTier                                                       CrossNodeSharingTier
	VPAndRTArrayIndexFromAnyShaderFeedingRasterizerSupportedWithoutGSEmulation Bool
	OutputMergerLogicOp                                                        Bool
	ResourceHeapTier                                                           ResourceHeapTier
	DepthBoundsTestSupported                                                   Bool
	ProgrammableSamplePositionsTier                                            ProgrammableSamplePositionsTier
	CopyQueueTimestampQueriesSupported                                         Bool
	WriteBufferImmediateQueueFlags                                             CommandQueueFlags
	ViewInstancingTier                                                         ViewInstancingTier
	BarycentricsSupported                                                      Bool
	ReservedBufferPlacementSupported                                           Bool
	Deterministic64KBUndefinedSwizzle                                          Bool
	SRVOnlyTiledResourceTier3                                                  Bool
	RenderPassTier                                                             RenderPassTier
	RaytracingTier                                                             RaytracingTier
	VariableShadingRateTier                                                    VariableShadingRateTier
	PerPrimitiveShadingRateSupportedWithViewportIndexing                       Bool
	AdditionalShadingRatesSupported                                            Bool
	ShadingRateImageTileSize                                                   uint32
	BackgroundProcessingSupported                                              Bool
	MeshShaderTier                                                             MeshShaderTier
	SamplerFeedbackTier                                                        SamplerFeedbackTier
	DriverManagedShaderCachePresent                                            Bool
	MeshShaderSupportsFullRangeRenderTargetArrayIndex                          Bool
	VariableRateShadingSumCombinerSupported                                    Bool
	MeshShaderPerPrimitiveShadingRateSupported                                 Bool
	MSPrimitivesPipelineStatisticIncludesCulledPrimitives                      Bool
	EnhancedBarriersSupported                                                  Bool
}

// String returns the tier's name without the D3D12DDI_RESOURCE_BINDING_ prefix (TIER_1).
func (v ResourceBindingTier) String() string { return resourceBindingTierNames.enumString(uint32(v)) }

// ParseResourceBindingTier is the inverse of String.
func ParseResourceBindingTier(s string) (ResourceBindingTier, error) {
	v, err := resourceBindingTierNames.parseEnum(s)
	return ResourceBindingTier(v), err
}

// String returns the tier's name without the D3D12DDI_CONSERVATIVE_RASTERIZATION_ prefix (TIER_1).
func (v ConservativeRasterizationTier) String() string {
	return conservativeRasterizationTierNames.enumString(uint32(v))
}

// ParseConservativeRasterizationTier is the inverse of String.
func ParseConservativeRasterizationTier(s string) (ConservativeRasterizationTier, error) {
	v, err := conservativeRasterizationTierNames.parseEnum(s)
	return ConservativeRasterizationTier(v), err
}

// String returns the tier's name without the D3D12DDI_TILED_RESOURCES_ prefix (TIER_1).
func (v TiledResourcesTier) String() string { return tiledResourcesTierNames.enumString(uint32(v)) }

// ParseTiledResourcesTier is the inverse of String.
func ParseTiledResourcesTier(s string) (TiledResourcesTier, error) {
	v, err := tiledResourcesTierNames.parseEnum(s)
	return TiledResourcesTier(v), err
}

// String returns the tier's name without the D3D12DDI_CROSS_NODE_SHARING_
// prefix (TIER_1; tier 3 is the header's TIER_0041_3, and TIER_3 parses too).
func (v CrossNodeSharingTier) String() string { return crossNodeSharingTierNames.enumString(uint32(v)) }

// ParseCrossNodeSharingTier is the inverse of String.
func ParseCrossNodeSharingTier(s string) (CrossNodeSharingTier, error) {
	v, err := crossNodeSharingTierNames.parseEnum(s)
	return CrossNodeSharingTier(v), err
}

// String returns the tier's name without the D3D12DDI_RESOURCE_HEAP_ prefix (TIER_1).
func (v ResourceHeapTier) String() string { return resourceHeapTierNames.enumString(uint32(v)) }

// ParseResourceHeapTier is the inverse of String.
func ParseResourceHeapTier(s string) (ResourceHeapTier, error) {
	v, err := resourceHeapTierNames.parseEnum(s)
	return ResourceHeapTier(v), err
}

// String returns the tier's name without the D3D12DDI_PROGRAMMABLE_SAMPLE_POSITIONS_ prefix (TIER_1).
func (v ProgrammableSamplePositionsTier) String() string {
	return programmableSamplePositionsTierNames.enumString(uint32(v))
}

// ParseProgrammableSamplePositionsTier is the inverse of String.
func ParseProgrammableSamplePositionsTier(s string) (ProgrammableSamplePositionsTier, error) {
	v, err := programmableSamplePositionsTierNames.parseEnum(s)
	return ProgrammableSamplePositionsTier(v), err
}

// String returns the tier's name without the D3D12DDI_VIEW_INSTANCING_ prefix (TIER_1).
func (v ViewInstancingTier) String() string { return viewInstancingTierNames.enumString(uint32(v)) }

// ParseViewInstancingTier is the inverse of String.
func ParseViewInstancingTier(s string) (ViewInstancingTier, error) {
	v, err := viewInstancingTierNames.parseEnum(s)
	return ViewInstancingTier(v), err
}

// String returns the tier's name without the D3D12DDI_RENDER_PASS_ prefix
// (TIER_1; 0 is the header's TIER_NOT_SUPPORTED, and TIER_0 parses too).
func (v RenderPassTier) String() string { return renderPassTierNames.enumString(uint32(v)) }

// ParseRenderPassTier is the inverse of String.
func ParseRenderPassTier(s string) (RenderPassTier, error) {
	v, err := renderPassTierNames.parseEnum(s)
	return RenderPassTier(v), err
}

// String returns the tier's name without the D3D12DDI_RAYTRACING_ prefix (TIER_1).
func (v RaytracingTier) String() string { return raytracingTierNames.enumString(uint32(v)) }

// ParseRaytracingTier is the inverse of String.
func ParseRaytracingTier(s string) (RaytracingTier, error) {
	v, err := raytracingTierNames.parseEnum(s)
	return RaytracingTier(v), err
}

// String returns the tier's name without the D3D12DDI_VARIABLE_SHADING_RATE_ prefix (TIER_1).
func (v VariableShadingRateTier) String() string {
	return variableShadingRateTierNames.enumString(uint32(v))
}

// ParseVariableShadingRateTier is the inverse of String.
func ParseVariableShadingRateTier(s string) (VariableShadingRateTier, error) {
	v, err := variableShadingRateTierNames.parseEnum(s)
	return VariableShadingRateTier(v), err
}

// String returns the tier's name without the D3D12DDI_MESH_SHADER_ prefix (TIER_1).
func (v MeshShaderTier) String() string { return meshShaderTierNames.enumString(uint32(v)) }

// ParseMeshShaderTier is the inverse of String.
func ParseMeshShaderTier(s string) (MeshShaderTier, error) {
	v, err := meshShaderTierNames.parseEnum(s)
	return MeshShaderTier(v), err
}

// String returns the tier's name without the D3D12DDI_SAMPLER_FEEDBACK_ prefix (TIER_1).
func (v SamplerFeedbackTier) String() string { return samplerFeedbackTierNames.enumString(uint32(v)) }

// ParseSamplerFeedbackTier is the inverse of String.
func ParseSamplerFeedbackTier(s string) (SamplerFeedbackTier, error) {
	v, err := samplerFeedbackTierNames.parseEnum(s)
	return SamplerFeedbackTier(v), err
}

// ParseCommandQueueFlags is the inverse of CommandQueueFlags.String.
func ParseCommandQueueFlags(s string) (CommandQueueFlags, error) {
	v, err := queueFlagNames.parseFlags(s)
	return CommandQueueFlags(v), err
}

// String returns TRUE or FALSE (and the number for any other nonzero value,
// which C also reads as true).
func (b Bool) String() string { return boolNames.enumString(uint32(b)) }

// ParseBool is the inverse of String.
func ParseBool(s string) (Bool, error) {
	v, err := boolNames.parseEnum(s)
	return Bool(v), err
}
