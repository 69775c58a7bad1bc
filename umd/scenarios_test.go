package umd

import (
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The spec's scenarios, each a small program recorded through the driver:
// correct as written, so on every profile they must run with no hazard
// and bytes equal to the reference; and each fault injected into the
// driver (faults.go) must make at least one of them fail with the hazard
// that fault causes.

type scenario struct {
	name string
	run  func(e *env) []ddi.HResource // returns what to compare
}

func buf(sb, sa ddi.BarrierSync, ab, aa ddi.BarrierAccess, r ddi.HResource) ddi.Barrier {
	return ddi.NewBufferBarrier(ddi.BufferBarrier{SyncBefore: sb, SyncAfter: sa, AccessBefore: ab, AccessAfter: aa, Resource: r})
}

func glob(sb, sa ddi.BarrierSync, ab, aa ddi.BarrierAccess) ddi.Barrier {
	return ddi.NewGlobalBarrier(ddi.GlobalBarrier{SyncBefore: sb, SyncAfter: sa, AccessBefore: ab, AccessAfter: aa})
}

func texRange(sb, sa ddi.BarrierSync, ab, aa ddi.BarrierAccess, lb, la ddi.BarrierLayout, r ddi.HResource, rg ddi.SubresourceRange, flags ddi.TextureBarrierFlags) ddi.Barrier {
	return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: sb, SyncAfter: sa, AccessBefore: ab, AccessAfter: aa,
		LayoutBefore: lb, LayoutAfter: la, Resource: r, Subresources: rg, Flags: flags})
}

const (
	rtFlags  = ddi.ResourceFlagRenderTarget | ddi.ResourceFlagShaderResource
	uavFlags = ddi.ResourceFlagUnorderedAccess | ddi.ResourceFlagShaderResource
)

var scenarios = []scenario{
	// 000 "Barrier Examples", the first: RENDER_TARGET → PIXEL_SHADER_RESOURCE,
	// here with the umbrella DRAW as SyncBefore, then sampled by a draw.
	{"rt-to-pixel-srv", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		out := e.texture("OUT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncDraw, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
		cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{WholeTexture(rt)}}, RenderTargets: []View{WholeTexture(out)}})
		e.run(cl)
		return []ddi.HResource{rt, out}
	}},
	// The second: a stream-output buffer read as a shader resource in the
	// vertex stage (SyncBefore VERTEX_SHADING: errata E-EXAMPLES).
	{"stream-out-to-vertex-srv", func(e *env) []ddi.HResource {
		so := e.buffer("SO", 4096, 0, resource.HeapDefault)
		out := e.texture("OUT", 32, 32, rtFlags, ddi.LayoutRenderTarget)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{StreamOutput: []View{WholeBuffer(so)}})
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncVertexShading, ddi.SyncVertexShading, ddi.AccessStreamOutput, ddi.AccessShaderResource, so)})
		cl.Draw(Draw{Vertex: Shader{ShaderResources: []View{WholeBuffer(so)}}, RenderTargets: []View{WholeTexture(out)}})
		e.run(cl)
		return []ddi.HResource{so, out}
	}},
	// The third and fourth: texture and global (NULL) UAV barriers between
	// dispatches.
	{"uav-barriers", func(e *env) []ddi.HResource {
		t := e.texture("UAVTEX", 64, 64, uavFlags, ddi.LayoutUnorderedAccess)
		b := e.buffer("UAVBUF", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeTexture(t)}}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess,
			ddi.LayoutUnorderedAccess, ddi.LayoutUnorderedAccess, t)})
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeTexture(t), WholeBuffer(b)}}})
		cl.Barrier([]ddi.Barrier{glob(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess)})
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
		e.run(cl)
		return []ddi.HResource{t, b}
	}},
	// A texture read, rewritten and read again: the second read must not
	// hit what the first left in the read caches.
	{"read-write-read", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutDirectQueueShaderResource)
		a := e.buffer("A", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		b := e.buffer("B", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(a)}}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, rt)})
		cl.ClearRenderTargetView(WholeTexture(rt), 0x11223344)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(b)}}})
		e.run(cl)
		return []ddi.HResource{rt, a, b}
	}},
	// 000 "Queue type specific layouts": SHADER_RESOURCE may be read by a
	// compute queue, so a render target moved to it is made readable there.
	{"cross-queue-shader-resource", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		out := e.buffer("OUT", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		compute, err := e.d.CreateQueue(ddi.CommandListTypeCompute)
		require.NoError(e.t, err)
		f := e.d.CreateFence()
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncNone, ddi.AccessRenderTarget, ddi.AccessNoAccess,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, rt)})
		require.NoError(e.t, cl.Close())
		require.NoError(e.t, e.direct.ExecuteCommandLists(cl))
		e.direct.Signal(f, 1)
		cc := e.list(ddi.CommandListTypeCompute)
		cc.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		require.NoError(e.t, cc.Close())
		compute.Wait(f, 1)
		require.NoError(e.t, compute.ExecuteCommandLists(cc))
		require.NoError(e.t, e.d.WaitIdle())
		return []ddi.HResource{rt, out}
	}},
	// A render target copied on the direct queue: COPY_SOURCE.
	{"rt-to-copy-source", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		dst := e.buffer("DST", 16384, 0, resource.HeapReadback)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCopySource,
			ddi.LayoutRenderTarget, ddi.LayoutCopySource, rt)})
		cl.CopyTextureToBuffer(dst, 0, rt, 0)
		e.run(cl)
		return []ddi.HResource{rt, dst}
	}},
	// 000 "Placed Resource Metadata Initialization" and "Resource
	// Aliasing": a buffer deactivated, a render target placed over it
	// activated with DISCARD, rendered with blending, then sampled.
	{"aliasing-discard", func(e *env) []ddi.HResource {
		desc := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 1, 1, rtFlags, ddi.LayoutUndefined)
		size, _, err := e.d.AllocationSize(desc)
		require.NoError(e.t, err)
		heap, err := e.d.CreateHeap(resource.HeapDefault, size)
		require.NoError(e.t, err)
		b, err := e.d.CreatePlaced(heap, 0, BufferDesc(size, ddi.ResourceFlagUnorderedAccess))
		require.NoError(e.t, err)
		rt, err := e.d.CreatePlaced(heap, 0, desc)
		require.NoError(e.t, err)
		out := e.buffer("OUT", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(b)}}})
		cl.Barrier([]ddi.Barrier{
			buf(ddi.SyncComputeShading, ddi.SyncRenderTarget, ddi.AccessUnorderedAccess, ddi.AccessNoAccess, b),
			texRange(ddi.SyncComputeShading, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
				ddi.LayoutUndefined, ddi.LayoutRenderTarget, rt, ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources},
				ddi.TextureBarrierFlagDiscard),
		})
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{rt, out}
	}},
}

func TestScenariosClean(t *testing.T) {
	for _, p := range hwmodel.ProfileNames() {
		for _, s := range scenarios {
			t.Run(p+"/"+s.name, func(t *testing.T) {
				e := newEnv(t, p, Options{})
				rs := s.run(e)
				e.clean(rs...)
			})
		}
	}
}

// faultHazards says which hazard each fault must cause in some scenario,
// and on which profiles it can (without caches a cache fault changes
// nothing; without compression neither does a compression fault).
var faultHazards = []struct {
	fault    string
	kinds    []hwmodel.HazardKind
	profiles []string
}{
	{"drop-wait", []hwmodel.HazardKind{hwmodel.HazardReadAfterWrite}, []string{"discrete", "unified3d", "coherent"}},
	{"narrow-drain", []hwmodel.HazardKind{hwmodel.HazardReadAfterWrite}, []string{"discrete", "unified3d", "coherent"}},
	{"drop-flush", []hwmodel.HazardKind{hwmodel.HazardMissingFlush}, []string{"discrete", "unified3d"}},
	{"drop-invalidate", []hwmodel.HazardKind{hwmodel.HazardMissingInvalidate}, []string{"discrete", "unified3d"}},
	{"drop-decompress", []hwmodel.HazardKind{hwmodel.HazardCompressedRead}, []string{"discrete", "unified3d"}},
	{"drop-metadata-init", []hwmodel.HazardKind{hwmodel.HazardUninitializedMetadata}, []string{"discrete", "unified3d"}},
}

func TestFaultsAreCaught(t *testing.T) {
	for _, fh := range faultHazards {
		for _, p := range fh.profiles {
			t.Run(fh.fault+"/"+p, func(t *testing.T) {
				f, err := FaultByName(fh.fault)
				require.NoError(t, err)
				seen := map[hwmodel.HazardKind][]string{}
				for _, s := range scenarios {
					e := newEnv(t, p, Options{Faults: f})
					s.run(e)
					for _, h := range e.d.Machine().Hazards() {
						seen[h.Kind] = append(seen[h.Kind], s.name)
					}
				}
				for _, k := range fh.kinds {
					assert.NotEmpty(t, seen[k], "no scenario shows %s with %s on %s (saw %v)", k, fh.fault, p, seen)
				}
			})
		}
	}
}
