package gen

import (
	"fmt"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// The legacy state pairs: for every pair of legacy states a colour,
// depth, multisampled or shading-rate texture, a buffer or a video frame
// can be used in on a queue type, a legacy program
// that fills the resource by a copy (promoting it from COMMON to
// COPY_DEST; a video frame starts in COMMON), transitions it to the first
// state, uses it there, transitions it to the second and uses it there,
// checked against the reference bytes on every profile.
// The runtime's legacy layer translates each ResourceBarrier (ddi/legacy);
// the cases hold the driver to what the translation asks of it, the
// LEGACY_* layouts included.

// legacyUse is how a program uses a resource X in a legacy state.
type legacyUse struct {
	state ddi.ResourceStates
	cmd   string // "" where the state is only passed through (COMMON)
	// queues are the queue types the use runs on.
	queues []ddi.CommandListType
}

// legacyTextureUses are a 32x32 colour texture's (render target, UAV and
// shader resource); legacyBufferUses a 16 KiB UAV buffer's.
var (
	legacyTextureUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateRenderTarget, "draw rt X", []ddi.CommandListType{direct}},
		{ddi.StateUnorderedAccess, "dispatch uav X", []ddi.CommandListType{direct, compute}},
		{ddi.StateNonPixelShaderResource, "dispatch srv X uav OUTB", []ddi.CommandListType{direct, compute}},
		{ddi.StatePixelShaderResource, "draw ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateAllShaderResource, "draw vs-srv X ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateCopySource, "copy-texture-to-buffer OUTB 0 X@0", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateCopyDest, "copy-buffer-to-texture X@0 SRC 0", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateNonPixelShaderResource | ddi.StateCopySource, "dispatch srv X uav OUTB", []ddi.CommandListType{direct}},
		{ddi.StatePixelShaderResource | ddi.StateCopySource, "copy-texture-to-buffer OUTB 0 X@0", []ddi.CommandListType{direct}},
		{ddi.StateGenericRead, "draw ps-srv X rt OUT", []ddi.CommandListType{direct}},
	}
	legacyBufferUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateVertexAndConstantBuffer, "draw vb X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateIndexBuffer, "draw ib X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateUnorderedAccess, "dispatch uav X", []ddi.CommandListType{direct, compute}},
		{ddi.StateNonPixelShaderResource, "dispatch srv X uav OUTB", []ddi.CommandListType{direct, compute}},
		{ddi.StatePixelShaderResource, "draw ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateStreamOut, "draw so X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateIndirectArgument, "dispatch args X uav OUTB", []ddi.CommandListType{direct, compute}},
		{ddi.StateCopySource, "copy-buffer OUTB 0 X 0 4096", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateCopyDest, "copy-buffer X 0 SRC 0 4096", []ddi.CommandListType{direct, compute, copyQ}},
		{ddi.StateGenericRead, "draw vb X ib X rt OUT", []ddi.CommandListType{direct}},
	}
	// legacyDepthUses are a 32x32 D32_FLOAT depth buffer's that shaders
	// may sample.
	legacyDepthUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{direct, compute}},
		{ddi.StateDepthWrite, "draw ds-write X", []ddi.CommandListType{direct}},
		{ddi.StateDepthRead, "draw ds X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateNonPixelShaderResource, "dispatch srv X uav OUTB", []ddi.CommandListType{direct, compute}},
		{ddi.StatePixelShaderResource, "draw ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateDepthRead | ddi.StatePixelShaderResource, "draw ds X ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateCopySource, "copy-texture-to-buffer OUTB 0 X@0", []ddi.CommandListType{direct, compute}},
		{ddi.StateCopyDest, "copy-buffer-to-texture X@0 SRC 0", []ddi.CommandListType{direct, compute}},
	}
	// legacyMSUses are a 4-sample render target's.
	legacyMSUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{direct}},
		{ddi.StateRenderTarget, "draw rt X", []ddi.CommandListType{direct}},
		{ddi.StateResolveSource, "resolve OUTR@0 X@0", []ddi.CommandListType{direct}},
		{ddi.StatePixelShaderResource, "draw ps-srv X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateResolveSource | ddi.StatePixelShaderResource, "resolve OUTR@0 X@0", []ddi.CommandListType{direct}},
	}
	// legacyShadingRateUses are a shading-rate image's.
	legacyShadingRateUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{direct}},
		{ddi.StateShadingRateSource, "draw shading-rate X rt OUT", []ddi.CommandListType{direct}},
		{ddi.StateUnorderedAccess, "dispatch uav X", []ddi.CommandListType{direct}},
		{ddi.StateNonPixelShaderResource, "dispatch srv X uav OUTB", []ddi.CommandListType{direct}},
		{ddi.StateCopyDest, "copy-buffer-to-texture X@0 SRC 0", []ddi.CommandListType{direct}},
	}
	// legacyVideoUses are a 64x64 NV12 frame's on the three video queues.
	legacyVideoUses = []legacyUse{
		{ddi.StateCommon, "", []ddi.CommandListType{vDecode, vProc, vEncode}},
		{ddi.StateVideoDecodeRead, "decode in X out OUTV", []ddi.CommandListType{vDecode}},
		{ddi.StateVideoDecodeWrite, "decode out X", []ddi.CommandListType{vDecode}},
		{ddi.StateVideoProcessRead, "process in X out OUTV", []ddi.CommandListType{vProc}},
		{ddi.StateVideoProcessWrite, "process out X", []ddi.CommandListType{vProc}},
		{ddi.StateVideoEncodeRead, "encode in X out OUTB", []ddi.CommandListType{vEncode}},
	}
)

func runsOn(u legacyUse, q ddi.CommandListType) bool {
	for _, x := range u.queues {
		if x == q {
			return true
		}
	}
	return false
}

func genLegacy() map[string]string {
	out := map[string]string{}
	const (
		fillTexture = "copy-buffer-to-texture X@0 SRC 0"
		fillBuffer  = "copy-buffer X 0 SRC 0 16384"
	)
	for _, kind := range []struct {
		name string
		decl string
		uses []legacyUse
		// fill is the copy that fills X first, promoting it to COPY_DEST
		// ("": X starts from COMMON).
		fill string
	}{
		{"texture", "texture X 32x32 flags RENDER_TARGET|UNORDERED_ACCESS|SHADER_RESOURCE state COMMON", legacyTextureUses, fillTexture},
		{"buffer", "buffer X 16384 flags UNORDERED_ACCESS state COMMON", legacyBufferUses, fillBuffer},
		{"depth", "texture X 32x32 format D32_FLOAT flags DEPTH_STENCIL|SHADER_RESOURCE state COMMON", legacyDepthUses, fillTexture},
		{"multisampled", "texture X 32x32 samples 4 flags RENDER_TARGET|SHADER_RESOURCE state COMMON", legacyMSUses, ""},
		{"shading-rate", "texture X 16x16 format R8_UINT flags UNORDERED_ACCESS|SHADER_RESOURCE state COMMON", legacyShadingRateUses, fillTexture},
		{"video", "texture X 64x64 format NV12 state COMMON", legacyVideoUses, ""},
	} {
		for _, q := range []ddi.CommandListType{direct, compute, copyQ, vDecode, vProc, vEncode} {
			var g genFile
			n := 0
			for _, a := range kind.uses {
				for _, b := range kind.uses {
					if a.state == b.state || !runsOn(a, q) || !runsOn(b, q) {
						continue
					}
					if n == 0 {
						g.header("every pair of legacy states of a %s on %s lists, through ResourceBarrier (legacy.go)", kind.name, q)
					}
					n++
					g.section(fmt.Sprintf("%s %s -> %s", kind.name, a.state, b.state), legacyPairCase(kind.decl, kind.fill, q, a, b)...)
				}
			}
			if n > 0 {
				out[fmt.Sprintf("%s-%s.ebs", kind.name, strings.ToLower(q.String()))] = g.text()
			}
		}
	}
	return out
}

// legacyPairCase fills X by a copy, which promotes it to COPY_DEST (a
// kind without fill starts from COMMON: video lists do not copy, nor does
// anything into a multisampled texture), then moves it to a's state, uses
// it, moves it to b's and uses it.
func legacyPairCase(decl, fill string, q ddi.CommandListType, a, b legacyUse) []string {
	// Each use writes outputs of its own (OUTB1, OUT1; OUTB2, OUT2), so
	// the two uses do not race on them.
	lines := []string{decl,
		"buffer SRC 16384 in upload", "write SRC 0 fill 0x5a 16384",
		"buffer OUTB1 16384 flags UNORDERED_ACCESS state COMMON", "buffer OUTB2 16384 flags UNORDERED_ACCESS state COMMON"}
	switch q {
	case direct:
		lines = append(lines, "texture OUT1 32x32 flags RENDER_TARGET state RENDER_TARGET",
			"texture OUT2 32x32 flags RENDER_TARGET state RENDER_TARGET",
			"texture OUTR1 32x32 flags RENDER_TARGET state RESOLVE_DEST", "texture OUTR2 32x32 flags RENDER_TARGET state RESOLVE_DEST")
	case vDecode, vProc:
		w := ddi.StateVideoDecodeWrite
		if q == vProc {
			w = ddi.StateVideoProcessWrite
		}
		lines = append(lines, "texture OUTV1 64x64 format NV12 state "+w.String(), "texture OUTV2 64x64 format NV12 state "+w.String())
	}
	lines = append(lines, "queue Q "+q.String(), "list L "+q.String())
	from := ddi.StateCommon
	if fill != "" {
		lines, from = append(lines, "  "+fill), ddi.StateCopyDest
	}
	for i, u := range []legacyUse{a, b} {
		if u.state != from {
			lines = append(lines, fmt.Sprintf("  resource-barrier transition X %s -> %s", from, u.state))
			from = u.state
		}
		if u.cmd != "" {
			n := fmt.Sprint(i + 1)
			lines = append(lines, "  "+strings.TrimSpace(strings.NewReplacer("OUTB", "OUTB"+n, "OUTV", "OUTV"+n, "OUTR", "OUTR"+n, "OUT ", "OUT"+n+" ").Replace(u.cmd+" ")))
		}
	}
	return append(lines, "end", "execute Q L", "expect reference", "expect no-hazard")
}
