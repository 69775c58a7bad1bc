package scenario

import (
	"strings"

	"github.com/ebref/ebref/ddi"
)

// A Use is what a work command does to one of its views: the enhanced
// barrier members that stand for it (the sync scope the command runs in,
// the access it makes, the texture layout it needs) and the legacy state
// that stands for it. Everything that writes a program with barriers in it
// (the generators, bench's compiler) takes these from Uses, so each fact is
// written once.
type Use struct {
	Sync   ddi.BarrierSync
	Access ddi.BarrierAccess
	// Layout is a texture's layout on a direct list: the queue-specific
	// form where the spec has one (DIRECT_QUEUE_SHADER_RESOURCE), which
	// LayoutOn turns into another queue type's. Buffers have no layout.
	Layout ddi.BarrierLayout
	State  ddi.ResourceStates // D3D12_RESOURCE_STATES
	Flags  UseFlags
	// Depth is the use on a depth-stencil texture where it differs (a
	// discard of a depth buffer writes it as depth, not as a render target).
	Depth *Use
}

// UseFlags say what a use does beyond its members.
type UseFlags uint8

const (
	// UseWrite: the use writes the view.
	UseWrite UseFlags = 1 << iota
	// UseWhole: the command replaces every byte of the view (a clear or a
	// resolve of a whole subresource), so its contents before do not
	// matter (000 "Full-Subresource Clear, Copy or Discard").
	UseWhole
	// UseOrdered: successive uses of this kind are ordered without a
	// barrier (render-target and depth writes retire in order).
	UseOrdered
)

// Writes reports whether the use writes its view.
func (u Use) Writes() bool { return u.Flags&UseWrite != 0 }

// On returns the use on a resource: its depth form on a depth-stencil
// texture where it has one.
func (u Use) On(depth bool) Use {
	if depth && u.Depth != nil {
		return *u.Depth
	}
	return u
}

// LayoutOn is the use's layout on a list of type t, and whether a texture
// can be in a layout for this use there at all: the layout itself where
// the queue type allows it; a DIRECT_QUEUE_ layout's COMPUTE_QUEUE_ form on
// a compute list; COMMON on a queue type that allows the access but none of
// its layouts (a copy queue's textures are COMMON: 000 "Barrier Layouts",
// ddi.Queues).
func (u Use) LayoutOn(t ddi.CommandListType) (ddi.BarrierLayout, bool) {
	q, ok := ddi.QueueRulesFor(t)
	if !ok {
		return 0, false
	}
	if q.AllowsLayout(u.Layout) {
		return u.Layout, true
	}
	if rest, ok := strings.CutPrefix(u.Layout.String(), "DIRECT_QUEUE_"); ok && t == ddi.CommandListTypeCompute {
		if l, err := ddi.ParseBarrierLayout("COMPUTE_QUEUE_" + rest); err == nil && q.AllowsLayout(l) {
			return l, true
		}
	}
	if u.Access&^q.Accesses == 0 {
		return ddi.LayoutCommon, true
	}
	return 0, false
}

// Generic is the use's layout without its queue prefix: the one every
// queue type that may use the layout shares (DIRECT_QUEUE_COPY_DEST ->
// COPY_DEST), for a texture more than one type of queue uses.
func (u Use) Generic() ddi.BarrierLayout {
	if rest, ok := strings.CutPrefix(u.Layout.String(), "DIRECT_QUEUE_"); ok {
		if l, err := ddi.ParseBarrierLayout(rest); err == nil {
			return l
		}
	}
	return u.Layout
}

// The uses, one per way a view is used. Shader-resource and
// unordered-access uses exist once per shader stage: a draw's pixel
// shader and its vertex shader read in different sync scopes.
var (
	useRT         = Use{ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.LayoutRenderTarget, ddi.StateRenderTarget, UseWrite | UseOrdered, nil}
	useClearRT    = Use{ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.LayoutRenderTarget, ddi.StateRenderTarget, UseWrite | UseWhole | UseOrdered, nil}
	useDepthWrite = Use{ddi.SyncDepthStencil, ddi.AccessDepthStencilWrite, ddi.LayoutDepthStencilWrite, ddi.StateDepthWrite, UseWrite | UseOrdered, nil}
	useClearDS    = Use{ddi.SyncDepthStencil, ddi.AccessDepthStencilWrite, ddi.LayoutDepthStencilWrite, ddi.StateDepthWrite, UseWrite | UseWhole | UseOrdered, nil}
	useDepthRead  = Use{ddi.SyncDepthStencil, ddi.AccessDepthStencilRead, ddi.LayoutDepthStencilRead, ddi.StateDepthRead, 0, nil}

	useVertexSRV  = Use{ddi.SyncVertexShading, ddi.AccessShaderResource, ddi.LayoutDirectQueueShaderResource, ddi.StateNonPixelShaderResource, 0, nil}
	useVertexCBV  = Use{ddi.SyncVertexShading, ddi.AccessConstantBuffer, ddi.LayoutUndefined, ddi.StateVertexAndConstantBuffer, 0, nil}
	useVertexUAV  = Use{ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.LayoutDirectQueueUnorderedAccess, ddi.StateUnorderedAccess, UseWrite, nil}
	usePixelSRV   = Use{ddi.SyncPixelShading, ddi.AccessShaderResource, ddi.LayoutDirectQueueShaderResource, ddi.StatePixelShaderResource, 0, nil}
	usePixelCBV   = Use{ddi.SyncPixelShading, ddi.AccessConstantBuffer, ddi.LayoutUndefined, ddi.StateVertexAndConstantBuffer, 0, nil}
	usePixelUAV   = Use{ddi.SyncPixelShading, ddi.AccessUnorderedAccess, ddi.LayoutDirectQueueUnorderedAccess, ddi.StateUnorderedAccess, UseWrite, nil}
	useComputeSRV = Use{ddi.SyncComputeShading, ddi.AccessShaderResource, ddi.LayoutDirectQueueShaderResource, ddi.StateNonPixelShaderResource, 0, nil}
	useComputeCBV = Use{ddi.SyncComputeShading, ddi.AccessConstantBuffer, ddi.LayoutUndefined, ddi.StateVertexAndConstantBuffer, 0, nil}
	useComputeUAV = Use{ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.LayoutDirectQueueUnorderedAccess, ddi.StateUnorderedAccess, UseWrite, nil}
	useRaysSRV    = Use{ddi.SyncRaytracing, ddi.AccessShaderResource, ddi.LayoutDirectQueueShaderResource, ddi.StateNonPixelShaderResource, 0, nil}
	// The access-sync table lists no RAYTRACING for CONSTANT_BUFFER, so a
	// ray-tracing shader's constants are read in ALL_SHADING, which holds
	// RAYTRACING (ddi.AccessSyncs).
	useRaysCBV = Use{ddi.SyncAllShading, ddi.AccessConstantBuffer, ddi.LayoutUndefined, ddi.StateVertexAndConstantBuffer, 0, nil}
	useRaysUAV = Use{ddi.SyncRaytracing, ddi.AccessUnorderedAccess, ddi.LayoutDirectQueueUnorderedAccess, ddi.StateUnorderedAccess, UseWrite, nil}
	useRaysAS  = Use{ddi.SyncRaytracing, ddi.AccessRaytracingAccelerationStructureRead, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, 0, nil}

	useArgs        = Use{ddi.SyncExecuteIndirect, ddi.AccessIndirectArgument, ddi.LayoutUndefined, ddi.StateIndirectArgument, 0, nil}
	useIndex       = Use{ddi.SyncIndexInput, ddi.AccessIndexBuffer, ddi.LayoutUndefined, ddi.StateIndexBuffer, 0, nil}
	useVertex      = Use{ddi.SyncVertexShading, ddi.AccessVertexBuffer, ddi.LayoutUndefined, ddi.StateVertexAndConstantBuffer, 0, nil}
	useStreamOut   = Use{ddi.SyncVertexShading, ddi.AccessStreamOutput, ddi.LayoutUndefined, ddi.StateStreamOut, UseWrite, nil}
	useShadingRate = Use{ddi.SyncPixelShading, ddi.AccessShadingRateSource, ddi.LayoutShadingRateSource, ddi.StateShadingRateSource, 0, nil}
	usePredicate   = Use{ddi.SyncPredication, ddi.AccessPredication, ddi.LayoutUndefined, ddi.StatePredication, 0, nil}

	useClearUAV   = Use{ddi.SyncClearUnorderedAccessView, ddi.AccessUnorderedAccess, ddi.LayoutDirectQueueUnorderedAccess, ddi.StateUnorderedAccess, UseWrite | UseWhole, nil}
	useCopySrc    = Use{ddi.SyncCopy, ddi.AccessCopySource, ddi.LayoutDirectQueueCopySource, ddi.StateCopySource, 0, nil}
	useCopyDst    = Use{ddi.SyncCopy, ddi.AccessCopyDest, ddi.LayoutDirectQueueCopyDest, ddi.StateCopyDest, UseWrite, nil}
	useResolveSrc = Use{ddi.SyncResolve, ddi.AccessResolveSource, ddi.LayoutResolveSource, ddi.StateResolveSource, 0, nil}
	useResolveDst = Use{ddi.SyncResolve, ddi.AccessResolveDest, ddi.LayoutResolveDest, ddi.StateResolveDest, UseWrite | UseWhole, nil}
	// A discard writes an undefined pattern, as the view's own writer
	// would: a render target's, or a depth buffer's.
	useDiscard = Use{ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.LayoutRenderTarget, ddi.StateRenderTarget, UseWrite | UseWhole, &useDiscardDepth}

	useDiscardDepth = Use{ddi.SyncDepthStencil, ddi.AccessDepthStencilWrite, ddi.LayoutDepthStencilWrite, ddi.StateDepthWrite, UseWrite | UseWhole, nil}

	// Acceleration structures are buffers: they have no layout, and their
	// one legacy state both reads and writes.
	useBuildDest     = Use{ddi.SyncBuildRaytracingAccelerationStructure, ddi.AccessRaytracingAccelerationStructureWrite, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, UseWrite, nil}
	useBuildInputs   = Use{ddi.SyncBuildRaytracingAccelerationStructure, ddi.AccessShaderResource, ddi.LayoutUndefined, ddi.StateNonPixelShaderResource, 0, nil}
	useBuildSource   = Use{ddi.SyncBuildRaytracingAccelerationStructure, ddi.AccessRaytracingAccelerationStructureRead, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, 0, nil}
	useBuildScratch  = Use{ddi.SyncBuildRaytracingAccelerationStructure, ddi.AccessUnorderedAccess, ddi.LayoutUndefined, ddi.StateUnorderedAccess, UseWrite, nil}
	useCopyASDest    = Use{ddi.SyncCopyRaytracingAccelerationStructure, ddi.AccessRaytracingAccelerationStructureWrite, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, UseWrite, nil}
	useCopyASSource  = Use{ddi.SyncCopyRaytracingAccelerationStructure, ddi.AccessRaytracingAccelerationStructureRead, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, 0, nil}
	usePostbuildDest = Use{ddi.SyncEmitRaytracingAccelerationStructurePostbuildInfo, ddi.AccessUnorderedAccess, ddi.LayoutUndefined, ddi.StateUnorderedAccess, UseWrite, nil}
	usePostbuildAS   = Use{ddi.SyncEmitRaytracingAccelerationStructurePostbuildInfo, ddi.AccessRaytracingAccelerationStructureRead, ddi.LayoutUndefined, ddi.StateRaytracingAccelerationStructure, 0, nil}

	useDecodeIn   = Use{ddi.SyncVideoDecode, ddi.AccessVideoDecodeRead, ddi.LayoutVideoDecodeRead, ddi.StateVideoDecodeRead, 0, nil}
	useDecodeOut  = Use{ddi.SyncVideoDecode, ddi.AccessVideoDecodeWrite, ddi.LayoutVideoDecodeWrite, ddi.StateVideoDecodeWrite, UseWrite, nil}
	useProcessIn  = Use{ddi.SyncVideoProcess, ddi.AccessVideoProcessRead, ddi.LayoutVideoProcessRead, ddi.StateVideoProcessRead, 0, nil}
	useProcessOut = Use{ddi.SyncVideoProcess, ddi.AccessVideoProcessWrite, ddi.LayoutVideoProcessWrite, ddi.StateVideoProcessWrite, UseWrite, nil}
	useEncodeIn   = Use{ddi.SyncVideoEncode, ddi.AccessVideoEncodeRead, ddi.LayoutVideoEncodeRead, ddi.StateVideoEncodeRead, 0, nil}
	useEncodeOut  = Use{ddi.SyncVideoEncode, ddi.AccessVideoEncodeWrite, ddi.LayoutVideoEncodeWrite, ddi.StateVideoEncodeWrite, UseWrite, nil}
)

// Uses gives every view of every work command its use, by command and
// role: the role keyword a view follows ("rt", "ps-srv"), or for a
// command whose operands are positional the operand's position ("0" the
// destination of a copy, "2" its source). Every role the language accepts
// has a row (TestUsesCoverTheLanguage).
var Uses = map[string]map[string]Use{
	"draw": {"rt": useRT, "ds-write": useDepthWrite, "ds": useDepthRead, "vs-srv": useVertexSRV, "vs-cbv": useVertexCBV,
		"vs-uav": useVertexUAV, "ps-srv": usePixelSRV, "ps-cbv": usePixelCBV, "ps-uav": usePixelUAV, "vb": useVertex,
		"ib": useIndex, "so": useStreamOut, "args": useArgs, "shading-rate": useShadingRate},
	"dispatch":               {"srv": useComputeSRV, "cbv": useComputeCBV, "uav": useComputeUAV, "args": useArgs},
	"dispatch-rays":          {"as": useRaysAS, "srv": useRaysSRV, "cbv": useRaysCBV, "uav": useRaysUAV},
	"build-as":               {"0": useBuildDest, "inputs": useBuildInputs, "source": useBuildSource, "scratch": useBuildScratch},
	"copy-as":                {"0": useCopyASDest, "1": useCopyASSource},
	"postbuild-info":         {"0": usePostbuildDest, "1": usePostbuildAS},
	"copy-buffer":            {"0": useCopyDst, "2": useCopySrc},
	"copy-resource":          {"0": useCopyDst, "1": useCopySrc},
	"copy-texture":           {"0": useCopyDst, "4": useCopySrc},
	"copy-texture-to-buffer": {"0": useCopyDst, "2": useCopySrc},
	"copy-buffer-to-texture": {"0": useCopyDst, "1": useCopySrc},
	"atomic-copy":            {"0": useCopyDst, "2": useCopySrc},
	"resolve":                {"0": useResolveDst, "1": useResolveSrc},
	"resolve-query":          {"0": useCopyDst},
	"clear-rt":               {"0": useClearRT},
	"clear-ds":               {"0": useClearDS},
	"clear-uav":              {"0": useClearUAV},
	"discard":                {"0": useDiscard},
	"predication":            {"0": usePredicate},
	"decode":                 {"in": useDecodeIn, "ref": useDecodeIn, "out": useDecodeOut},
	"process":                {"in": useProcessIn, "ref": useProcessIn, "out": useProcessOut},
	"encode":                 {"in": useEncodeIn, "ref": useEncodeIn, "out": useEncodeOut},
}
