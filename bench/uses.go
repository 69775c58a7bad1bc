package bench

import "strings"

// A use is how one work command touches one of its views: the legacy state
// that use needs and the enhanced barrier members (sync, access, layout)
// that stand for it. The table is by command and role, the role being the
// scenario language's (docs/scenarios.md "Work"): a keyword such as "rt",
// or a position ("0", "2") for positional views.
type use struct {
	state  string // D3D12_RESOURCE_STATES, without the prefix
	sync   string // D3D12_BARRIER_SYNC
	access string // D3D12_BARRIER_ACCESS
	// layout is the texture layout on a direct list; compute lists use the
	// COMPUTE_QUEUE_ form (layoutFor).
	layout string
	flags  useFlags
}

// useFlags say what a use does beyond its members.
type useFlags uint8

const (
	// write: the use writes.
	write useFlags = 1 << iota
	// whole: the command replaces every byte of the view (a clear of a
	// whole subresource), so its contents before do not matter (000
	// "Full-Subresource Clear, Copy or Discard").
	whole
	// ordered: successive uses of this kind are ordered without a
	// barrier (render-target and depth writes retire in order).
	ordered
)

func (u use) writes() bool { return u.flags&write != 0 }

var (
	useRT         = use{"RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", write | ordered}
	useClearRT    = use{"RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", write | whole | ordered}
	useDepthWrite = use{"DEPTH_WRITE", "DEPTH_STENCIL", "DEPTH_STENCIL_WRITE", "DEPTH_STENCIL_WRITE", write | ordered}
	useClearDS    = use{"DEPTH_WRITE", "DEPTH_STENCIL", "DEPTH_STENCIL_WRITE", "DEPTH_STENCIL_WRITE", write | whole | ordered}
	useDepthRead  = use{"DEPTH_READ", "DEPTH_STENCIL", "DEPTH_STENCIL_READ", "DEPTH_STENCIL_READ", 0}
	usePixelSRV   = use{"PIXEL_SHADER_RESOURCE", "PIXEL_SHADING", "SHADER_RESOURCE", "DIRECT_QUEUE_SHADER_RESOURCE", 0}
	useVertexSRV  = use{"NON_PIXEL_SHADER_RESOURCE", "VERTEX_SHADING", "SHADER_RESOURCE", "DIRECT_QUEUE_SHADER_RESOURCE", 0}
	useComputeSRV = use{"NON_PIXEL_SHADER_RESOURCE", "COMPUTE_SHADING", "SHADER_RESOURCE", "DIRECT_QUEUE_SHADER_RESOURCE", 0}
	useComputeUAV = use{"UNORDERED_ACCESS", "COMPUTE_SHADING", "UNORDERED_ACCESS", "DIRECT_QUEUE_UNORDERED_ACCESS", write}
	usePixelUAV   = use{"UNORDERED_ACCESS", "PIXEL_SHADING", "UNORDERED_ACCESS", "DIRECT_QUEUE_UNORDERED_ACCESS", write}
	useClearUAV   = use{"UNORDERED_ACCESS", "CLEAR_UNORDERED_ACCESS_VIEW", "UNORDERED_ACCESS", "DIRECT_QUEUE_UNORDERED_ACCESS", write | whole}
	useCopySrc    = use{"COPY_SOURCE", "COPY", "COPY_SOURCE", "DIRECT_QUEUE_COPY_SOURCE", 0}
	useCopyDst    = use{"COPY_DEST", "COPY", "COPY_DEST", "DIRECT_QUEUE_COPY_DEST", write}
	useResolveSrc = use{"RESOLVE_SOURCE", "RESOLVE", "RESOLVE_SOURCE", "RESOLVE_SOURCE", 0}
	useResolveDst = use{"RESOLVE_DEST", "RESOLVE", "RESOLVE_DEST", "RESOLVE_DEST", write | whole}
	useArgs       = use{"INDIRECT_ARGUMENT", "EXECUTE_INDIRECT", "INDIRECT_ARGUMENT", "", 0}
	useIndex      = use{"INDEX_BUFFER", "INDEX_INPUT", "INDEX_BUFFER", "", 0}
	useVertex     = use{"VERTEX_AND_CONSTANT_BUFFER", "VERTEX_SHADING", "VERTEX_BUFFER", "", 0}
	// Constant buffer views (buffers only): the transcribed samples bind
	// them (samples.go).
	useVertexCBV  = use{"VERTEX_AND_CONSTANT_BUFFER", "VERTEX_SHADING", "CONSTANT_BUFFER", "", 0}
	usePixelCBV   = use{"VERTEX_AND_CONSTANT_BUFFER", "PIXEL_SHADING", "CONSTANT_BUFFER", "", 0}
	useComputeCBV = use{"VERTEX_AND_CONSTANT_BUFFER", "COMPUTE_SHADING", "CONSTANT_BUFFER", "", 0}
)

// uses gives each command's roles their use. A role a command has that
// is missing here is an error when a workload uses it (compile).
var uses = map[string]map[string]use{
	"draw": {"rt": useRT, "ds-write": useDepthWrite, "ds": useDepthRead, "ps-srv": usePixelSRV, "vs-srv": useVertexSRV,
		"ps-uav": usePixelUAV, "args": useArgs, "ib": useIndex, "vb": useVertex, "vs-cbv": useVertexCBV, "ps-cbv": usePixelCBV},
	"dispatch":     {"srv": useComputeSRV, "uav": useComputeUAV, "args": useArgs, "cbv": useComputeCBV},
	"clear-rt":     {"0": useClearRT},
	"clear-ds":     {"0": useClearDS},
	"clear-uav":    {"0": useClearUAV},
	"copy-buffer":  {"0": useCopyDst, "2": useCopySrc},
	"copy-texture": {"0": useCopyDst, "4": useCopySrc},
	// DST@SUB SRC OFFSET and DST OFFSET SRC@SUB: the uploads and
	// read-backs of one subresource (the samples' UpdateSubresources).
	"copy-buffer-to-texture": {"0": useCopyDst, "1": useCopySrc},
	"copy-texture-to-buffer": {"0": useCopyDst, "2": useCopySrc},
	"resolve":                {"0": useResolveDst, "1": useResolveSrc},
}

// layoutFor is the layout a use takes on a list of the given type: the
// DIRECT_QUEUE_ layouts become COMPUTE_QUEUE_ ones on compute lists
// (the layouts a queue type may use, 000 "Barrier Layouts"); with generic,
// the layout without its queue prefix: a texture that more than one type of queue uses takes the
// layouts they all may (000 "Barrier Layouts": the generic layouts are
// the direct and compute queues' alike).
func (u use) layoutFor(listType string, generic bool) string {
	if generic {
		if rest, ok := strings.CutPrefix(u.layout, "DIRECT_QUEUE_"); ok {
			return rest
		}
		return u.layout
	}
	if rest, ok := strings.CutPrefix(u.layout, "DIRECT_QUEUE_"); ok && listType == "COMPUTE" {
		return "COMPUTE_QUEUE_" + rest
	}
	return u.layout
}
