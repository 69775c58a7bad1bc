package ddi

import "errors"

// ErrUnknownName is returned by the Parse functions for a spelling that names
// no value of the kind being parsed.
var ErrUnknownName = errors.New("unknown name")

// BarrierLayout is D3D12DDI_BARRIER_LAYOUT: the memory layout of a texture
// subresource (000 "DDI", D3D12DDI_BARRIER_LAYOUT).
type BarrierLayout uint32

// The layouts, in the DDI's order. The values follow from the C enum: COMMON
// is 0 and each later name adds one; UNDEFINED is 0xffffffff; the four LEGACY_
// layouts that the runtime uses internally start at 0x80000000
// (000 "Legacy layouts").
const (
	LayoutUndefined                                          BarrierLayout = 0xffffffff
	LayoutCommon                                             BarrierLayout = 0
	LayoutPresent                                            BarrierLayout = 0
	LayoutGenericRead                                        BarrierLayout = 1
	LayoutRenderTarget                                       BarrierLayout = 2
	LayoutUnorderedAccess                                    BarrierLayout = 3
	LayoutDepthStencilWrite                                  BarrierLayout = 4
	LayoutDepthStencilRead                                   BarrierLayout = 5
	LayoutShaderResource                                     BarrierLayout = 6
	LayoutCopySource                                         BarrierLayout = 7
	LayoutCopyDest                                           BarrierLayout = 8
	LayoutResolveSource                                      BarrierLayout = 9
	LayoutResolveDest                                        BarrierLayout = 10
	LayoutShadingRateSource                                  BarrierLayout = 11
	LayoutVideoDecodeRead                                    BarrierLayout = 12
	LayoutVideoDecodeWrite                                   BarrierLayout = 13
	LayoutVideoProcessRead                                   BarrierLayout = 14
	LayoutVideoProcessWrite                                  BarrierLayout = 15
	LayoutVideoEncodeRead                                    BarrierLayout = 16
	LayoutVideoEncodeWrite                                   BarrierLayout = 17
	LayoutDirectQueueCommon                                  BarrierLayout = 18
	LayoutDirectQueueGenericRead                             BarrierLayout = 19
	LayoutDirectQueueUnorderedAccess                         BarrierLayout = 20
	LayoutDirectQueueShaderResource                          BarrierLayout = 21
	LayoutDirectQueueCopySource                              BarrierLayout = 22
	LayoutDirectQueueCopyDest                                BarrierLayout = 23
	LayoutComputeQueueCommon                                 BarrierLayout = 24
	LayoutComputeQueueGenericRead                            BarrierLayout = 25
	LayoutComputeQueueUnorderedAccess                        BarrierLayout = 26
	LayoutComputeQueueShaderResource                         BarrierLayout = 27
	LayoutComputeQueueCopySource                             BarrierLayout = 28
	LayoutComputeQueueCopyDest                               BarrierLayout = 29
	LayoutVideoQueueCommon                                   BarrierLayout = 30
	LayoutDirectQueueGenericReadComputeQueueAccessible       BarrierLayout = 31
	LayoutLegacyDirectQueueGenericReadComputeQueueAccessible BarrierLayout = 31 // the header's alias of 31
	LayoutLegacyCopySource                                   BarrierLayout = 0x80000000
	LayoutLegacyCopyDest                                     BarrierLayout = 0x80000001
	LayoutLegacyShaderResource                               BarrierLayout = 0x80000002
	LayoutLegacyPixelShaderResource                          BarrierLayout = 0x80000003
)

// String returns the layout's DDI name without prefix (PRESENT prints as
// COMMON), or hex for a value the DDI does not define.
func (l BarrierLayout) String() string { return layoutNames.enumString(uint32(l)) }

// Valid reports whether the DDI defines the value.
func (l BarrierLayout) Valid() bool { _, ok := layoutNames.primary[uint32(l)]; return ok }

// IsLegacy reports whether the layout is one of the four runtime-internal
// layouts used to translate legacy ResourceBarrier calls (000 "Legacy
// layouts"). Layout 31 is not one: the header and the public API give it to
// applications as DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE, and
// LEGACY_ is only its other name (errata E-LAYOUT-31).
func (l BarrierLayout) IsLegacy() bool {
	return l >= LayoutLegacyCopySource && l <= LayoutLegacyPixelShaderResource
}

// ParseBarrierLayout accepts what String prints, any alias (PRESENT), with or
// without the D3D12DDI_BARRIER_LAYOUT_ or D3D12_BARRIER_LAYOUT_ prefix, or a
// number.
func ParseBarrierLayout(s string) (BarrierLayout, error) {
	v, err := layoutNames.parseEnum(s)
	return BarrierLayout(v), err
}

// AllBarrierLayouts lists every defined layout value once, ascending.
func AllBarrierLayouts() []BarrierLayout {
	vals := layoutNames.values()
	out := make([]BarrierLayout, len(vals))
	for i, v := range vals {
		out[i] = BarrierLayout(v)
	}
	return out
}

// BarrierSync is D3D12DDI_BARRIER_SYNC: a set of synchronization scopes
// (000 "DDI", D3D12DDI_BARRIER_SYNC).
type BarrierSync uint32

// The sync bits. 0x4 is INPUT_ASSEMBLER and INDEX_INPUT, both in the DDI
// header (the API has only INDEX_INPUT); 0x800 is both EXECUTE_INDIRECT and
// PREDICATION.
const (
	SyncNone                                             BarrierSync = 0
	SyncAll                                              BarrierSync = 0x1
	SyncDraw                                             BarrierSync = 0x2
	SyncInputAssembler                                   BarrierSync = 0x4
	SyncIndexInput                                       BarrierSync = 0x4
	SyncVertexShading                                    BarrierSync = 0x8
	SyncPixelShading                                     BarrierSync = 0x10
	SyncDepthStencil                                     BarrierSync = 0x20
	SyncRenderTarget                                     BarrierSync = 0x40
	SyncComputeShading                                   BarrierSync = 0x80
	SyncRaytracing                                       BarrierSync = 0x100
	SyncCopy                                             BarrierSync = 0x200
	SyncResolve                                          BarrierSync = 0x400
	SyncExecuteIndirect                                  BarrierSync = 0x800
	SyncPredication                                      BarrierSync = 0x800
	SyncAllShading                                       BarrierSync = 0x1000
	SyncNonPixelShading                                  BarrierSync = 0x2000
	SyncEmitRaytracingAccelerationStructurePostbuildInfo BarrierSync = 0x4000
	SyncClearUnorderedAccessView                         BarrierSync = 0x8000
	SyncVideoDecode                                      BarrierSync = 0x100000
	SyncVideoProcess                                     BarrierSync = 0x200000
	SyncVideoEncode                                      BarrierSync = 0x400000
	SyncBuildRaytracingAccelerationStructure             BarrierSync = 0x800000
	SyncCopyRaytracingAccelerationStructure              BarrierSync = 0x1000000
	SyncSplit                                            BarrierSync = 0x80000000
)

// DefinedSyncBits is every bit the DDI gives a name.
var DefinedSyncBits = BarrierSync(definedBits(syncNames))

// String prints the set as NAME|NAME in ascending bit order (0x800 prints as
// EXECUTE_INDIRECT, 0x4 as INPUT_ASSEMBLER), undefined bits as hex, and 0 as
// NONE.
func (s BarrierSync) String() string { return syncNames.flagsString(uint32(s)) }

// Names lists the DDI names of every bit in the set, aliases included, sorted
// by value then name; ["NONE"] for 0.
func (s BarrierSync) Names() []string { return syncNames.maskNames(uint32(s)) }

// ParseBarrierSync accepts what String prints, any alias (INDEX_INPUT,
// PREDICATION), each name with or without the D3D12DDI_BARRIER_SYNC_ or
// D3D12_BARRIER_SYNC_ prefix, and numbers, joined by '|'.
func ParseBarrierSync(s string) (BarrierSync, error) {
	v, err := syncNames.parseFlags(s)
	return BarrierSync(v), err
}

// BarrierAccess is D3D12DDI_BARRIER_ACCESS: a set of access types
// (000 "DDI", D3D12DDI_BARRIER_ACCESS).
type BarrierAccess uint32

// The access bits. COMMON is 0; 0x200 is both INDIRECT_ARGUMENT and
// PREDICATION.
const (
	AccessCommon                               BarrierAccess = 0
	AccessVertexBuffer                         BarrierAccess = 0x1
	AccessConstantBuffer                       BarrierAccess = 0x2
	AccessIndexBuffer                          BarrierAccess = 0x4
	AccessRenderTarget                         BarrierAccess = 0x8
	AccessUnorderedAccess                      BarrierAccess = 0x10
	AccessDepthStencilWrite                    BarrierAccess = 0x20
	AccessDepthStencilRead                     BarrierAccess = 0x40
	AccessShaderResource                       BarrierAccess = 0x80
	AccessStreamOutput                         BarrierAccess = 0x100
	AccessIndirectArgument                     BarrierAccess = 0x200
	AccessPredication                          BarrierAccess = 0x200
	AccessCopyDest                             BarrierAccess = 0x400
	AccessCopySource                           BarrierAccess = 0x800
	AccessResolveDest                          BarrierAccess = 0x1000
	AccessResolveSource                        BarrierAccess = 0x2000
	AccessRaytracingAccelerationStructureRead  BarrierAccess = 0x4000
	AccessRaytracingAccelerationStructureWrite BarrierAccess = 0x8000
	AccessShadingRateSource                    BarrierAccess = 0x10000
	AccessVideoDecodeRead                      BarrierAccess = 0x20000
	AccessVideoDecodeWrite                     BarrierAccess = 0x40000
	AccessVideoProcessRead                     BarrierAccess = 0x80000
	AccessVideoProcessWrite                    BarrierAccess = 0x100000
	AccessVideoEncodeRead                      BarrierAccess = 0x200000
	AccessVideoEncodeWrite                     BarrierAccess = 0x400000
	AccessNoAccess                             BarrierAccess = 0x80000000
)

// DefinedAccessBits is every bit the DDI gives a name.
var DefinedAccessBits = BarrierAccess(definedBits(accessNames))

// String prints the set as NAME|NAME in ascending bit order (0x200 prints as
// INDIRECT_ARGUMENT), undefined bits as hex, and 0 as COMMON.
func (a BarrierAccess) String() string { return accessNames.flagsString(uint32(a)) }

// Names lists the DDI names of every bit in the set, aliases included, sorted
// by value then name; ["COMMON"] for 0.
func (a BarrierAccess) Names() []string { return accessNames.maskNames(uint32(a)) }

// ParseBarrierAccess accepts what String prints, any alias (PREDICATION), each
// name with or without the D3D12DDI_BARRIER_ACCESS_ or D3D12_BARRIER_ACCESS_
// prefix, and numbers, joined by '|'.
func ParseBarrierAccess(s string) (BarrierAccess, error) {
	v, err := accessNames.parseFlags(s)
	return BarrierAccess(v), err
}

func definedBits(t *nameTable) uint32 {
	var m uint32
	for _, n := range t.names {
		m |= n.value
	}
	return m
}
