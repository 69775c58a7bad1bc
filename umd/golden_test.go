package umd

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite umd/testdata/golden from the driver's output")

// goldenCase records one command list whose disassembly is pinned per
// profile: the barrier calls between the work that makes them necessary.
type goldenCase struct {
	name   string
	list   ddi.CommandListType
	record func(e *env, cl *CommandList) []goldenCall // returns the barrier calls it made, in order
}

// goldenCall is a Barrier call of a golden case: its ordinal among the
// list's commands and its barriers.
type goldenCall struct {
	ordinal  int
	barriers []ddi.Barrier
}

// call records a Barrier call and remembers it for the golden header.
func call(cl *CommandList, calls *[]goldenCall, bs ...ddi.Barrier) {
	cl.Barrier(bs)
	*calls = append(*calls, goldenCall{cl.commands, bs})
}

var goldenCases = []goldenCase{
	{"render-target-to-pixel-shader-resource", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		call(cl, &calls, tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt))
		cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{WholeTexture(rt)}}})
		return
	}},
	{"render-target-to-common", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		call(cl, &calls, tex(ddi.SyncRenderTarget, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCopySource,
			ddi.LayoutRenderTarget, ddi.LayoutCommon, rt))
		return
	}},
	{"uav-barriers", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		t := e.texture("UAVTEX", 32, 32, uavFlags, ddi.LayoutUnorderedAccess)
		b := e.buffer("UAVBUF", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeTexture(t), WholeBuffer(b)}}})
		call(cl, &calls, tex(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess,
			ddi.LayoutUnorderedAccess, ddi.LayoutUnorderedAccess, t))
		call(cl, &calls, glob(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess))
		call(cl, &calls, buf(ddi.SyncComputeShading, ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.AccessVertexBuffer, b))
		return
	}},
	{"depth-write-to-read", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		ds, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatD32Float, 64, 64, 1, 1, ddi.ResourceFlagDepthStencil|ddi.ResourceFlagShaderResource,
			ddi.LayoutDepthStencilWrite), resource.HeapDefault)
		require.NoError(e.t, err)
		v := WholeTexture(ds)
		cl.Draw(Draw{DepthStencil: &v, DepthWrite: true})
		call(cl, &calls, tex(ddi.SyncDepthStencil, ddi.SyncDepthStencil|ddi.SyncPixelShading, ddi.AccessDepthStencilWrite,
			ddi.AccessDepthStencilRead|ddi.AccessShaderResource, ddi.LayoutDepthStencilWrite, ddi.LayoutDirectQueueGenericRead, ds))
		return
	}},
	{"aliasing-activation-with-discard", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutUndefined)
		size, _, err := e.d.AllocationSize(desc)
		require.NoError(e.t, err)
		heap, err := e.d.CreateHeap(resource.HeapDefault, size)
		require.NoError(e.t, err)
		old, err := e.d.CreatePlaced(heap, 0, BufferDesc(size, ddi.ResourceFlagUnorderedAccess))
		require.NoError(e.t, err)
		rt, err := e.d.CreatePlaced(heap, 0, desc)
		require.NoError(e.t, err)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(old)}}})
		call(cl, &calls,
			buf(ddi.SyncComputeShading, ddi.SyncNone, ddi.AccessUnorderedAccess, ddi.AccessNoAccess, old),
			texRange(ddi.SyncNone, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
				ddi.LayoutUndefined, ddi.LayoutRenderTarget, rt, ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources},
				ddi.TextureBarrierFlagDiscard))
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		return
	}},
	{"split", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		other := e.buffer("OTHER", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		call(cl, &calls, tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessCopySource,
			ddi.LayoutRenderTarget, ddi.LayoutCommon, rt))
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(other)}}})
		call(cl, &calls, tex(ddi.SyncSplit, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCopySource,
			ddi.LayoutRenderTarget, ddi.LayoutCommon, rt))
		return
	}},
	{"atomic-copy", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		src := e.buffer("SRC", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		dst := e.buffer("DST", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(src)}}})
		cl.AtomicCopyBufferUINT(dst, 64, src, 128, false)
		return
	}},
	{"legacy-shader-resource-to-copy-dest", ddi.CommandListTypeDirect, func(e *env, cl *CommandList) (calls []goldenCall) {
		t := e.texture("TEX", 32, 32, rtFlags, ddi.LayoutCommon)
		call(cl, &calls, tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopyDest,
			ddi.LayoutLegacyShaderResource, ddi.LayoutLegacyCopyDest, t))
		return
	}},
	{"compute-queue-layouts", ddi.CommandListTypeCompute, func(e *env, cl *CommandList) (calls []goldenCall) {
		t := e.texture("UAVTEX", 32, 32, uavFlags, ddi.LayoutComputeQueueUnorderedAccess)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeTexture(t)}}})
		call(cl, &calls, tex(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource,
			ddi.LayoutComputeQueueUnorderedAccess, ddi.LayoutComputeQueueShaderResource, t))
		return
	}},
	{"copy-queue-buffer", ddi.CommandListTypeCopy, func(e *env, cl *CommandList) (calls []goldenCall) {
		up := e.buffer("UPLOAD", 4096, 0, resource.HeapUpload)
		b := e.buffer("BUF", 4096, 0, resource.HeapDefault)
		c := e.buffer("COPY", 4096, 0, resource.HeapDefault)
		cl.CopyBufferRegion(b, 0, up, 0, 4096)
		call(cl, &calls, buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, b))
		cl.CopyBufferRegion(c, 0, b, 0, 4096)
		return
	}},
}

// goldenText renders every case on a profile: a header per case naming
// its barrier calls, then the list's disassembly.
func goldenText(t *testing.T, profile string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "# ebref packet disassembly, profile %s (go test ./umd -run TestGoldenDisassembly -update)\n", profile)
	for _, c := range goldenCases {
		e := newEnv(t, profile, Options{})
		cl := e.list(c.list)
		calls := c.record(e, cl)
		require.NoError(t, cl.Err(), c.name)
		fmt.Fprintf(&s, "\n## %s (%s list)\n", c.name, c.list)
		for _, call := range calls {
			for j, b := range call.barriers {
				fmt.Fprintf(&s, "#   Barrier #%d, barrier %d: %s\n", call.ordinal, j, b.String())
			}
		}
		for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
			fmt.Fprintf(&s, "%5d  %-13s %s\n", l.Offset, l.Op, l.Text)
		}
	}
	return s.String()
}

// TestGoldenDisassembly pins the packets each profile's translation emits
// for a set of barrier calls. The files were reviewed packet by packet;
// a change to them is a change to the translation and must be reviewed
// again (go test ./umd -run TestGoldenDisassembly -update, then git diff).
func TestGoldenDisassembly(t *testing.T) {
	for _, p := range hwmodel.ProfileNames() {
		t.Run(p, func(t *testing.T) {
			got := goldenText(t, p)
			path := filepath.Join("testdata", "golden", p+".txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err, "no golden file: go test ./umd -run TestGoldenDisassembly -update")
			require.Equal(t, string(want), got, "the translation changed: review it, then go test ./umd -run TestGoldenDisassembly -update")
		})
	}
}
