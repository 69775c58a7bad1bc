package ddi

import (
	"math/bits"

	"github.com/ebref/ebref/internal/ortable"
)

// The spec's rule tables, as data. Each row cites the spec file and section
// it comes from. Where ebref's row differs from the spec's literal table the
// row's Erratum names the entry of docs/errata.md that says why; a test keeps
// the two in step.

// Spec files, as cited: 000 is the Markdown specification, 002 its later plain
// text revision, 001 the DDI overview page, 003 the D3D12DDI_BARRIER_SYNC page.
const (
	citeUmbrella      = "000/002 \"Umbrella Synchronization Scopes\""
	citeQueueLayout   = "000/002 \"Command Queue Layout Compatibility\""
	citeQueueAccess   = "000/002 \"Command Queue Access Compatibility\""
	citeQueueSync     = "000/002 \"Command Queue Sync Compatibility\""
	citeLayoutAccess  = "000/002 \"Layout Access Compatibility\""
	citeAccessSync    = "000/002 \"Access Bits Barrier Sync Compatibility\""
	citeLegacyLayout  = "000/002 \"Equivalent D3D12_BARRIER_LAYOUT for each D3D12_RESOURCE_STATES bit\""
	citeLegacyAccess  = "000/002 \"Equivalent D3D12_BARRIER_ACCESS bit for each D3D12_RESOURCE_STATES bit\""
	citeLegacySync    = "000/002 \"Equivalent D3D12_BARRIER_SYNC bit for each D3D12_RESOURCE_STATES bit\""
	citeLegacyLayouts = "000/002 \"Legacy layouts\""
	citeLegacySync002 = "002 \"Equivalent D3D12_BARRIER_SYNC bit for each D3D12_RESOURCE_STATES bit\""
)

// UmbrellaRow is one umbrella sync scope and the scopes it supersedes.
type UmbrellaRow struct {
	Umbrella BarrierSync
	Covers   BarrierSync
	Cite     string
	Erratum  string // non-empty where ebref differs from the spec's table
}

// UmbrellaSyncs lists the four umbrella scopes. A barrier naming an umbrella
// behaves as though every covered bit were set.
var UmbrellaSyncs = []UmbrellaRow{
	{SyncAll, SyncDraw | SyncInputAssembler | SyncVertexShading | SyncPixelShading | SyncDepthStencil |
		SyncRenderTarget | SyncComputeShading | SyncRaytracing | SyncCopy | SyncResolve | SyncExecuteIndirect |
		SyncPredication | SyncVideoDecode | SyncVideoProcess | SyncVideoEncode | SyncClearUnorderedAccessView |
		SyncBuildRaytracingAccelerationStructure | SyncCopyRaytracingAccelerationStructure |
		SyncEmitRaytracingAccelerationStructurePostbuildInfo,
		citeUmbrella, "E-UMBRELLA-ALL-RTAS"},
	{SyncDraw, SyncInputAssembler | SyncVertexShading | SyncPixelShading | SyncDepthStencil | SyncRenderTarget,
		citeUmbrella, ""},
	{SyncAllShading, SyncVertexShading | SyncPixelShading | SyncComputeShading, citeUmbrella, ""},
	{SyncNonPixelShading, SyncVertexShading | SyncComputeShading, citeUmbrella, ""},
}

// umbrellaMask is every umbrella bit.
const umbrellaMask = SyncAll | SyncDraw | SyncAllShading | SyncNonPixelShading

// ExpandSync replaces every umbrella bit of s with the scopes it covers, so
// the result holds only leaf scopes (and SPLIT, if s had it). Undefined bits
// pass through.
func ExpandSync(s BarrierSync) BarrierSync {
	if s&umbrellaMask == 0 {
		return s
	}
	return BarrierSync(expandedSyncs.Of(uint32(s)))
}

// expandedSyncs is expandSync as a table (a barrier asks it of every sync).
var expandedSyncs = ortable.New(func(s uint32) uint32 { return uint32(expandSync(BarrierSync(s))) })

// expandSync is ExpandSync from the UmbrellaSyncs rows.
func expandSync(s BarrierSync) BarrierSync {
	out := s &^ umbrellaMask
	for _, r := range UmbrellaSyncs {
		if s&r.Umbrella != 0 {
			out |= r.Covers
		}
	}
	return out &^ umbrellaMask
}

// LeafSyncs is every scope that is not an umbrella and not SPLIT: the scopes
// work actually runs in.
var LeafSyncs = ExpandSync(SyncAll)

// QueueRules says what a command list type may name in a barrier.
type QueueRules struct {
	Type     CommandListType
	Layouts  []BarrierLayout
	Accesses BarrierAccess
	Syncs    BarrierSync
	Cite     string
	Erratum  string
}

// queue-specific layout groups, shared by several rows.
var (
	legacyBothQueues = []BarrierLayout{LayoutLegacyCopySource, LayoutLegacyCopyDest, LayoutLegacyShaderResource}
	legacyDirectOnly = []BarrierLayout{LayoutLegacyPixelShaderResource, LayoutLegacyDirectQueueGenericReadComputeQueueAccessible}
)

func layouts(groups ...[]BarrierLayout) []BarrierLayout {
	var out []BarrierLayout
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// Queues lists, per queue type, the layouts, accesses and syncs a barrier
// recorded on it may use. ebref adds to the spec's lists: UNDEFINED on every
// queue, the queue-specific layouts on their own queue, the runtime's LEGACY_
// layouts on the queues legacy states exist on, and NO_ACCESS everywhere
// (errata E-QUEUE-LAYOUTS, E-QUEUE-UNDEFINED, E-QUEUE-LEGACY, E-QUEUE-NO-ACCESS).
var Queues = []QueueRules{
	{CommandListTypeDirect,
		layouts([]BarrierLayout{LayoutUndefined, LayoutCommon, LayoutGenericRead, LayoutRenderTarget,
			LayoutUnorderedAccess, LayoutDepthStencilWrite, LayoutDepthStencilRead, LayoutShaderResource,
			LayoutCopySource, LayoutCopyDest, LayoutResolveSource, LayoutResolveDest, LayoutShadingRateSource,
			LayoutDirectQueueCommon, LayoutDirectQueueGenericRead, LayoutDirectQueueUnorderedAccess,
			LayoutDirectQueueShaderResource, LayoutDirectQueueCopySource, LayoutDirectQueueCopyDest},
			legacyBothQueues, legacyDirectOnly),
		AccessVertexBuffer | AccessConstantBuffer | AccessIndexBuffer | AccessRenderTarget | AccessUnorderedAccess |
			AccessDepthStencilWrite | AccessDepthStencilRead | AccessShaderResource | AccessStreamOutput |
			AccessIndirectArgument | AccessCopyDest | AccessCopySource | AccessResolveDest | AccessResolveSource |
			AccessRaytracingAccelerationStructureRead | AccessRaytracingAccelerationStructureWrite |
			AccessShadingRateSource | AccessPredication | AccessNoAccess,
		SyncAll | SyncDraw | SyncInputAssembler | SyncVertexShading | SyncPixelShading | SyncDepthStencil |
			SyncRenderTarget | SyncComputeShading | SyncRaytracing | SyncCopy | SyncResolve | SyncExecuteIndirect |
			SyncPredication | SyncAllShading | SyncNonPixelShading | SyncBuildRaytracingAccelerationStructure |
			SyncCopyRaytracingAccelerationStructure | SyncEmitRaytracingAccelerationStructurePostbuildInfo |
			SyncClearUnorderedAccessView | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-LAYOUTS"},
	{CommandListTypeCompute,
		layouts([]BarrierLayout{LayoutUndefined, LayoutCommon, LayoutGenericRead, LayoutUnorderedAccess,
			LayoutShaderResource, LayoutCopySource, LayoutCopyDest,
			LayoutComputeQueueCommon, LayoutComputeQueueGenericRead, LayoutComputeQueueUnorderedAccess,
			LayoutComputeQueueShaderResource, LayoutComputeQueueCopySource, LayoutComputeQueueCopyDest},
			legacyBothQueues),
		AccessVertexBuffer | AccessConstantBuffer | AccessUnorderedAccess | AccessShaderResource |
			AccessIndirectArgument | AccessCopyDest | AccessCopySource | AccessRaytracingAccelerationStructureRead |
			AccessRaytracingAccelerationStructureWrite | AccessPredication | AccessNoAccess,
		SyncAll | SyncComputeShading | SyncRaytracing | SyncCopy | SyncExecuteIndirect | SyncAllShading |
			SyncNonPixelShading | SyncBuildRaytracingAccelerationStructure | SyncCopyRaytracingAccelerationStructure |
			SyncEmitRaytracingAccelerationStructurePostbuildInfo | SyncClearUnorderedAccessView | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-LAYOUTS"},
	{CommandListTypeCopy,
		[]BarrierLayout{LayoutUndefined, LayoutCommon},
		AccessCopyDest | AccessCopySource | AccessNoAccess,
		SyncAll | SyncCopy | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-UNDEFINED"},
	{CommandListTypeVideoDecode,
		[]BarrierLayout{LayoutUndefined, LayoutCommon, LayoutVideoDecodeRead, LayoutVideoDecodeWrite, LayoutVideoQueueCommon},
		AccessVideoDecodeRead | AccessVideoDecodeWrite | AccessNoAccess,
		SyncAll | SyncVideoDecode | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-LAYOUTS"},
	{CommandListTypeVideoProcess,
		[]BarrierLayout{LayoutUndefined, LayoutCommon, LayoutVideoProcessRead, LayoutVideoProcessWrite, LayoutVideoQueueCommon},
		AccessVideoProcessRead | AccessVideoProcessWrite | AccessNoAccess,
		SyncAll | SyncVideoProcess | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-LAYOUTS"},
	{CommandListTypeVideoEncode,
		[]BarrierLayout{LayoutUndefined, LayoutCommon, LayoutVideoEncodeRead, LayoutVideoEncodeWrite, LayoutVideoQueueCommon},
		AccessVideoEncodeRead | AccessVideoEncodeWrite | AccessNoAccess,
		SyncAll | SyncVideoEncode | SyncSplit,
		citeQueueLayout + ", " + citeQueueAccess + ", " + citeQueueSync, "E-QUEUE-LAYOUTS"},
}

// QueueRulesFor returns the row for a queue type; false for BUNDLE (which may
// not record barriers) and undefined types.
func QueueRulesFor(t CommandListType) (*QueueRules, bool) {
	for i := range Queues {
		if Queues[i].Type == t {
			return &Queues[i], true
		}
	}
	return nil, false
}

// AllowsLayout reports whether a barrier on this queue may name l.
func (q *QueueRules) AllowsLayout(l BarrierLayout) bool {
	for _, x := range q.Layouts {
		if x == l {
			return true
		}
	}
	return false
}

// LayoutAccessRow lists the accesses a texture in Layout supports.
type LayoutAccessRow struct {
	Layout   BarrierLayout
	Accesses BarrierAccess
	Cite     string
	Erratum  string
}

// LayoutAccesses is the layout → compatible access table. Every layout also
// accepts NO_ACCESS, which the spec lists only for UNDEFINED
// (E-LAYOUT-NO-ACCESS). UNDEFINED accepts any access when both LayoutBefore
// and LayoutAfter are UNDEFINED; that case is a rule, not a row
// (LayoutAccessOK). The LEGACY_ rows are ebref's (E-LEGACY-LAYOUT-ACCESS).
var LayoutAccesses = []LayoutAccessRow{
	{LayoutUndefined, AccessNoAccess, citeLayoutAccess, ""},
	{LayoutCommon, AccessShaderResource | AccessCopyDest | AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutGenericRead, AccessShaderResource | AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutRenderTarget, AccessRenderTarget | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutUnorderedAccess, AccessUnorderedAccess | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDepthStencilWrite, AccessDepthStencilRead | AccessDepthStencilWrite | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDepthStencilRead, AccessDepthStencilRead | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutShaderResource, AccessShaderResource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutCopySource, AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutCopyDest, AccessCopyDest | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutResolveSource, AccessResolveSource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutResolveDest, AccessResolveDest | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutShadingRateSource, AccessShadingRateSource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoDecodeRead, AccessVideoDecodeRead | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoDecodeWrite, AccessVideoDecodeWrite | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoProcessRead, AccessVideoProcessRead | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoProcessWrite, AccessVideoProcessWrite | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoEncodeRead, AccessVideoEncodeRead | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoEncodeWrite, AccessVideoEncodeWrite | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueCommon, AccessCopySource | AccessCopyDest | AccessShaderResource | AccessUnorderedAccess | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueGenericRead, AccessShaderResource | AccessCopySource | AccessDepthStencilRead | AccessShadingRateSource |
		AccessResolveSource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueUnorderedAccess, AccessUnorderedAccess | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueShaderResource, AccessShaderResource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueCopySource, AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutDirectQueueCopyDest, AccessCopyDest | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueCommon, AccessCopySource | AccessCopyDest | AccessShaderResource | AccessUnorderedAccess | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueGenericRead, AccessShaderResource | AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueUnorderedAccess, AccessUnorderedAccess | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueShaderResource, AccessShaderResource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueCopySource, AccessCopySource | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutComputeQueueCopyDest, AccessCopyDest | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutVideoQueueCommon, AccessCopySource | AccessCopyDest | AccessNoAccess, citeLayoutAccess, "E-LAYOUT-NO-ACCESS"},
	{LayoutLegacyDirectQueueGenericReadComputeQueueAccessible, AccessShaderResource | AccessCopySource |
		AccessDepthStencilRead | AccessShadingRateSource | AccessResolveSource | AccessNoAccess,
		citeLegacyLayouts, "E-LEGACY-LAYOUT-ACCESS"},
	{LayoutLegacyCopySource, AccessCopySource | AccessNoAccess, citeLegacyLayouts, "E-LEGACY-LAYOUT-ACCESS"},
	{LayoutLegacyCopyDest, AccessCopyDest | AccessNoAccess, citeLegacyLayouts, "E-LEGACY-LAYOUT-ACCESS"},
	{LayoutLegacyShaderResource, AccessShaderResource | AccessNoAccess, citeLegacyLayouts, "E-LEGACY-LAYOUT-ACCESS"},
	{LayoutLegacyPixelShaderResource, AccessShaderResource | AccessNoAccess, citeLegacyLayouts, "E-LEGACY-LAYOUT-ACCESS"},
}

// layoutAccessIndex is LayoutAccesses indexed by layoutIndex.
var layoutAccessIndex = func() (t [numLayoutIndexes]struct {
	accesses BarrierAccess
	ok       bool
}) {
	for _, r := range LayoutAccesses {
		i, _ := layoutIndex(r.Layout)
		t[i].accesses, t[i].ok = r.Accesses, true
	}
	return t
}()

// layoutIndex numbers the layouts densely: the values 0..31, the four
// LEGACY_* layouts from 0x80000000, then UNDEFINED.
func layoutIndex(l BarrierLayout) (int, bool) {
	switch {
	case l < 32:
		return int(l), true
	case l >= LayoutLegacyCopySource && l <= LayoutLegacyPixelShaderResource:
		return 32 + int(l-LayoutLegacyCopySource), true
	case l == LayoutUndefined:
		return numLayoutIndexes - 1, true
	}
	return 0, false
}

const numLayoutIndexes = 32 + 4 + 1

// CompatibleAccesses returns the accesses layout l supports; false for a
// layout with no row.
func CompatibleAccesses(l BarrierLayout) (BarrierAccess, bool) {
	i, ok := layoutIndex(l)
	if !ok {
		return 0, false
	}
	return layoutAccessIndex[i].accesses, layoutAccessIndex[i].ok
}

// LayoutAccessOK reports whether access a may be used with layout l in a
// texture barrier whose other layout is other: COMMON (0) fits every layout;
// with both layouts UNDEFINED any access fits (a memory-only barrier,
// 000 "D3D12_BARRIER_LAYOUT_UNDEFINED"); otherwise every bit of a must be in
// l's row.
func LayoutAccessOK(l, other BarrierLayout, a BarrierAccess) bool {
	if a == AccessCommon {
		return true
	}
	if l == LayoutUndefined && other == LayoutUndefined {
		return true
	}
	ok, found := CompatibleAccesses(l)
	return found && a&^ok == 0
}

// SimultaneousCommonAccesses are the accesses a simultaneous-access texture
// may use in COMMON, the only layout it has: every access but depth-stencil
// and acceleration-structure, as for a buffer (000 "Equivalent
// D3D12_BARRIER_ACCESS bit for each D3D12_RESOURCE_STATES bit", closing
// paragraph; errata E-SA-COMMON-ACCESS). The COMMON row of LayoutAccesses is
// for every other texture.
var SimultaneousCommonAccesses = DefinedAccessBits &^ (BufferForbiddenAccesses |
	AccessRaytracingAccelerationStructureRead | AccessRaytracingAccelerationStructureWrite)

// TextureLayoutAccessOK is LayoutAccessOK for a texture that is
// simultaneous-access or not: in COMMON a simultaneous-access texture
// accepts SimultaneousCommonAccesses.
func TextureLayoutAccessOK(l, other BarrierLayout, a BarrierAccess, simultaneous bool) bool {
	if simultaneous && l == LayoutCommon {
		return a&^SimultaneousCommonAccesses == 0
	}
	return LayoutAccessOK(l, other, a)
}

// AccessSyncRow says that when a barrier names Access, at least one bit of
// Syncs must be named too (see AccessSyncOK for umbrellas). Any marks the
// rows the spec gives as "any valid sync bits".
type AccessSyncRow struct {
	Access  BarrierAccess
	Syncs   BarrierSync
	Any     bool
	Cite    string
	Erratum string
}

// AccessSyncs is the access → required sync table, one row per access bit
// (an aliased bit, 0x200, has one row), plus COMMON.
var AccessSyncs = []AccessSyncRow{
	{AccessCommon, 0, true, citeAccessSync, ""},
	{AccessVertexBuffer, SyncAll | SyncVertexShading | SyncDraw | SyncAllShading, false, citeAccessSync, ""},
	{AccessConstantBuffer, SyncAll | SyncVertexShading | SyncPixelShading | SyncComputeShading | SyncDraw | SyncAllShading, false, citeAccessSync, ""},
	{AccessIndexBuffer, SyncAll | SyncInputAssembler | SyncDraw, false, citeAccessSync, "E-INDEX-INPUT"},
	{AccessRenderTarget, SyncAll | SyncDraw | SyncRenderTarget, false, citeAccessSync, ""},
	{AccessUnorderedAccess, SyncAll | SyncVertexShading | SyncPixelShading | SyncComputeShading | SyncDraw |
		SyncAllShading | SyncClearUnorderedAccessView | SyncEmitRaytracingAccelerationStructurePostbuildInfo |
		SyncRaytracing | SyncBuildRaytracingAccelerationStructure, false, "002 \"Access Bits Barrier Sync Compatibility\"", "E-UAV-SYNC-LIST"},
	{AccessDepthStencilWrite, SyncAll | SyncDraw | SyncDepthStencil, false, citeAccessSync, ""},
	{AccessDepthStencilRead, SyncAll | SyncDraw | SyncDepthStencil, false, citeAccessSync, ""},
	{AccessShaderResource, SyncAll | SyncVertexShading | SyncPixelShading | SyncComputeShading | SyncDraw |
		SyncAllShading | SyncBuildRaytracingAccelerationStructure | SyncRaytracing, false,
		"002 \"Access Bits Barrier Sync Compatibility\"", "E-SRV-SYNC-LIST"},
	{AccessStreamOutput, SyncAll | SyncVertexShading | SyncDraw | SyncAllShading, false, citeAccessSync, ""},
	{AccessIndirectArgument, SyncAll | SyncExecuteIndirect, false, citeAccessSync, ""},
	{AccessCopyDest, SyncAll | SyncCopy, false, citeAccessSync, ""},
	{AccessCopySource, SyncAll | SyncCopy, false, citeAccessSync, ""},
	{AccessResolveDest, SyncAll | SyncResolve, false, citeAccessSync, ""},
	{AccessResolveSource, SyncAll | SyncResolve, false, citeAccessSync, ""},
	{AccessRaytracingAccelerationStructureRead, SyncAll | SyncComputeShading | SyncRaytracing | SyncAllShading |
		SyncBuildRaytracingAccelerationStructure | SyncCopyRaytracingAccelerationStructure |
		SyncEmitRaytracingAccelerationStructurePostbuildInfo, false, citeAccessSync, ""},
	{AccessRaytracingAccelerationStructureWrite, SyncAll | SyncComputeShading | SyncRaytracing | SyncAllShading |
		SyncBuildRaytracingAccelerationStructure | SyncCopyRaytracingAccelerationStructure, false, citeAccessSync, ""},
	{AccessShadingRateSource, SyncAll | SyncPixelShading | SyncAllShading, false, citeAccessSync, ""},
	{AccessVideoDecodeRead, SyncAll | SyncVideoDecode, false, citeAccessSync, ""},
	{AccessVideoDecodeWrite, SyncAll | SyncVideoDecode, false, citeAccessSync, ""},
	{AccessVideoProcessRead, SyncAll | SyncVideoProcess, false, citeAccessSync, ""},
	{AccessVideoProcessWrite, SyncAll | SyncVideoProcess, false, citeAccessSync, ""},
	{AccessVideoEncodeRead, SyncAll | SyncVideoEncode, false, citeAccessSync, ""},
	{AccessVideoEncodeWrite, SyncAll | SyncVideoEncode, false, citeAccessSync, ""},
	{AccessNoAccess, 0, true, citeAccessSync, ""},
}

// accessSyncIndex is AccessSyncs indexed by bit position; COMMON (0) has
// its own row.
var accessSyncIndex, accessSyncCommon = func() (t [32]*AccessSyncRow, common *AccessSyncRow) {
	for i := range AccessSyncs {
		if a := AccessSyncs[i].Access; a == AccessCommon {
			common = &AccessSyncs[i]
		} else {
			t[bits.TrailingZeros32(uint32(a))] = &AccessSyncs[i]
		}
	}
	return t, common
}()

// AccessSyncOK checks one side of a barrier: every bit of a must find one of
// the sync bits its row lists in s, where an umbrella in s also names the
// scopes it covers (NON_PIXEL_SHADING names VERTEX_SHADING, which
// SHADER_RESOURCE lists). The row's own umbrellas are not expanded: ALL in a
// row means SYNC_ALL satisfies it, not that any scope does. It returns the
// first access bit that finds none (0 when all are satisfied). Bits without a
// row (undefined bits) are not this table's business.
func AccessSyncOK(a BarrierAccess, s BarrierSync) (bool, BarrierAccess) {
	missing := a &^ BarrierAccess(syncSatisfies.Of(uint32(s)))
	return missing == 0, missing & -missing
}

// syncSatisfies is, for a sync mask, every access bit it satisfies: those
// whose row lists one of its scopes (umbrellas expanded) or needs none, and
// those without a row. An access is satisfied by s|t when it is by s or by
// t, so this is a table.
var syncSatisfies = ortable.New(func(s uint32) uint32 {
	have := BarrierSync(s) | expandSync(BarrierSync(s))
	var ok BarrierAccess
	for i, row := range accessSyncIndex {
		if row == nil || row.Any || row.Syncs&have != 0 {
			ok |= 1 << i
		}
	}
	return uint32(ok)
})

// RequiredSyncs returns the row for one access bit (or COMMON).
func RequiredSyncs(bit BarrierAccess) (*AccessSyncRow, bool) {
	if bit == AccessCommon {
		return accessSyncCommon, true
	}
	if bit&(bit-1) != 0 {
		return nil, false
	}
	r := accessSyncIndex[bits.TrailingZeros32(uint32(bit))]
	return r, r != nil
}

// LegacyStateRow is a legacy state bit's enhanced-barrier equivalent.
// HasLayout is false where the spec says N/A (buffer-only states).
type LegacyStateRow struct {
	Name      string // the D3D12_RESOURCE_STATE_ name without prefix
	State     ResourceStates
	HasLayout bool
	Layout    BarrierLayout
	Access    BarrierAccess
	Sync      BarrierSync
	Cite      string
	Erratum   string
}

const citeLegacy = citeLegacyLayout + ", " + citeLegacyAccess + ", " + citeLegacySync

// LegacyStates maps each legacy state bit (and COMMON) to a layout, accesses
// and syncs. Rows are keyed by name because INDIRECT_ARGUMENT and PREDICATION
// share a bit but the spec gives them different accesses and syncs (which
// themselves alias).
var LegacyStates = []LegacyStateRow{
	{"COMMON", StateCommon, true, LayoutCommon, AccessCommon, SyncAll, citeLegacy, ""},
	{"VERTEX_AND_CONSTANT_BUFFER", StateVertexAndConstantBuffer, false, 0, AccessVertexBuffer | AccessConstantBuffer, SyncAllShading, citeLegacy, "E-LEGACY-VB-CB"},
	{"INDEX_BUFFER", StateIndexBuffer, false, 0, AccessIndexBuffer, SyncInputAssembler, citeLegacy, "E-INDEX-INPUT"},
	{"RENDER_TARGET", StateRenderTarget, true, LayoutRenderTarget, AccessRenderTarget, SyncRenderTarget, citeLegacy, ""},
	{"UNORDERED_ACCESS", StateUnorderedAccess, true, LayoutUnorderedAccess, AccessUnorderedAccess,
		SyncAllShading | SyncClearUnorderedAccessView | SyncBuildRaytracingAccelerationStructure | SyncCopyRaytracingAccelerationStructure |
			SyncEmitRaytracingAccelerationStructurePostbuildInfo, citeLegacySync002, "E-LEGACY-UAV-SYNC"},
	{"DEPTH_WRITE", StateDepthWrite, true, LayoutDepthStencilWrite, AccessDepthStencilWrite, SyncDepthStencil, citeLegacy, ""},
	{"DEPTH_READ", StateDepthRead, true, LayoutDepthStencilRead, AccessDepthStencilRead, SyncDepthStencil, citeLegacy, ""},
	{"NON_PIXEL_SHADER_RESOURCE", StateNonPixelShaderResource, true, LayoutLegacyShaderResource, AccessShaderResource, SyncNonPixelShading, citeLegacy, ""},
	{"PIXEL_SHADER_RESOURCE", StatePixelShaderResource, true, LayoutLegacyPixelShaderResource, AccessShaderResource, SyncPixelShading, citeLegacy, "E-LEGACY-PSR"},
	{"STREAM_OUT", StateStreamOut, false, 0, AccessStreamOutput, SyncVertexShading, citeLegacy, ""},
	{"INDIRECT_ARGUMENT", StateIndirectArgument, false, 0, AccessIndirectArgument, SyncExecuteIndirect, citeLegacy, ""},
	{"PREDICATION", StatePredication, false, 0, AccessPredication, SyncPredication, citeLegacy, ""},
	{"COPY_DEST", StateCopyDest, true, LayoutLegacyCopyDest, AccessCopyDest, SyncCopy, citeLegacy, ""},
	{"COPY_SOURCE", StateCopySource, true, LayoutLegacyCopySource, AccessCopySource, SyncCopy, citeLegacy, ""},
	{"RESOLVE_DEST", StateResolveDest, true, LayoutResolveDest, AccessResolveDest, SyncResolve, citeLegacy, ""},
	{"RESOLVE_SOURCE", StateResolveSource, true, LayoutResolveSource, AccessResolveSource, SyncResolve, citeLegacy, ""},
	{"RAYTRACING_ACCELERATION_STRUCTURE", StateRaytracingAccelerationStructure, false, 0,
		AccessRaytracingAccelerationStructureRead | AccessRaytracingAccelerationStructureWrite, SyncRaytracing, citeLegacy, "E-LEGACY-RTAS-ACCESS"},
	{"SHADING_RATE_SOURCE", StateShadingRateSource, true, LayoutShadingRateSource, AccessShadingRateSource, SyncPixelShading, citeLegacy, ""},
	{"VIDEO_DECODE_READ", StateVideoDecodeRead, true, LayoutVideoDecodeRead, AccessVideoDecodeRead, SyncVideoDecode, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_DECODE_READ\"", "E-LEGACY-VIDEO"},
	{"VIDEO_DECODE_WRITE", StateVideoDecodeWrite, true, LayoutVideoDecodeWrite, AccessVideoDecodeWrite, SyncVideoDecode, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_DECODE_WRITE\"", "E-LEGACY-VIDEO"},
	{"VIDEO_PROCESS_READ", StateVideoProcessRead, true, LayoutVideoProcessRead, AccessVideoProcessRead, SyncVideoProcess, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_PROCESS_READ\"", "E-LEGACY-VIDEO"},
	{"VIDEO_PROCESS_WRITE", StateVideoProcessWrite, true, LayoutVideoProcessWrite, AccessVideoProcessWrite, SyncVideoProcess, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_PROCESS_WRITE\"", "E-LEGACY-VIDEO"},
	{"VIDEO_ENCODE_READ", StateVideoEncodeRead, true, LayoutVideoEncodeRead, AccessVideoEncodeRead, SyncVideoEncode, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_ENCODE_READ\"", "E-LEGACY-VIDEO"},
	{"VIDEO_ENCODE_WRITE", StateVideoEncodeWrite, true, LayoutVideoEncodeWrite, AccessVideoEncodeWrite, SyncVideoEncode, "000 \"D3D12_BARRIER_LAYOUT_VIDEO_ENCODE_WRITE\"", "E-LEGACY-VIDEO"},
}

// Access classes the driver and the resource rules use.
const (
	// WriteAccesses are the access bits that write memory. VIDEO_*_WRITE are
	// writes although the spec calls them read-only (E-VIDEO-WRITE).
	WriteAccesses = AccessRenderTarget | AccessUnorderedAccess | AccessDepthStencilWrite | AccessStreamOutput |
		AccessCopyDest | AccessResolveDest | AccessRaytracingAccelerationStructureWrite |
		AccessVideoDecodeWrite | AccessVideoProcessWrite | AccessVideoEncodeWrite

	// CommonLayoutBarrierFreeAccesses may touch a texture in COMMON or a
	// queue-specific common layout without a barrier at the start of an
	// ExecuteCommandLists scope (000 "Barrier-Free Access").
	CommonLayoutBarrierFreeAccesses = AccessShaderResource | AccessCopySource | AccessCopyDest

	// QueueCommonLayoutBarrierFreeAccesses adds UNORDERED_ACCESS for the
	// queue-specific common layouts (000 "Barrier-Free Access").
	QueueCommonLayoutBarrierFreeAccesses = CommonLayoutBarrierFreeAccesses | AccessUnorderedAccess

	// SimultaneousBarrierFreeAccesses may touch a buffer or a
	// simultaneous-access texture without a barrier (000 "Barrier-Free Access").
	SimultaneousBarrierFreeAccesses = AccessVertexBuffer | AccessConstantBuffer | AccessIndexBuffer |
		AccessRenderTarget | AccessUnorderedAccess | AccessShaderResource | AccessStreamOutput |
		AccessIndirectArgument | AccessCopyDest | AccessCopySource | AccessResolveDest | AccessResolveSource |
		AccessPredication

	// UploadHeapAccesses are the only accesses an upload-heap buffer allows;
	// RESOLVE_SOURCE needs sampler feedback (000 "Upload Heap Resources").
	UploadHeapAccesses = AccessVertexBuffer | AccessConstantBuffer | AccessIndexBuffer | AccessShaderResource |
		AccessIndirectArgument | AccessCopySource | AccessResolveSource

	// ReadbackHeapAccesses are the only accesses a readback-heap buffer
	// allows; RESOLVE_DEST needs sampler feedback (000 "Readback Heap
	// Resources").
	ReadbackHeapAccesses = AccessCopyDest | AccessResolveDest

	// SamplerFeedbackAccesses are the heap accesses that need a device with
	// sampler feedback.
	SamplerFeedbackAccesses = AccessResolveSource | AccessResolveDest

	// BufferForbiddenAccesses can never apply to a buffer or a
	// simultaneous-access texture: depth-stencil, which needs a layout
	// (000 "Equivalent D3D12_BARRIER_ACCESS bit for each D3D12_RESOURCE_STATES
	// bit", closing paragraph). The acceleration-structure accesses the same
	// paragraph excludes are allowed on buffers created with the
	// RAYTRACING_ACCELERATION_STRUCTURE flag (E-RTAS-BUFFER-ACCESS).
	BufferForbiddenAccesses = AccessDepthStencilWrite | AccessDepthStencilRead
)
