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
	// 000 "Self Resource Copy": copies within one buffer and within one
	// texture subresource, between regions that do not intersect.
	{"self-copy", func(e *env) []ddi.HResource {
		b := e.buffer("B", 8192, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		t := e.texture("T", 64, 64, rtFlags, ddi.LayoutCommon)
		out := e.buffer("OUT", 8192, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource|ddi.AccessCopyDest, b)})
		cl.CopyBufferRegion(b, 4096, b, 0, 4096)
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCopyDest, ddi.AccessShaderResource, b)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(b)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
			ddi.LayoutCommon, ddi.LayoutRenderTarget, t)})
		cl.ClearRenderTargetView(WholeTexture(t), 0x01020304)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(t)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCopySource|ddi.AccessCopyDest,
			ddi.LayoutRenderTarget, ddi.LayoutCommon, t)})
		cl.CopyTextureRegion(t, 0, 32, 0, 0, t, 0, &Box{Right: 32, Bottom: 64, Back: 1})
		e.run(cl)
		return []ddi.HResource{b, t, out}
	}},
	// 000 "Single-Queue Simultaneous Access": a buffer written in one half
	// while its other half is read, with no barrier; then a barrier for the
	// half that was written. And a simultaneous-access texture used as a
	// render target and sampled in COMMON, no layout change.
	{"simultaneous-access", func(e *env) []ddi.HResource {
		b := e.buffer("B", 8192, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		out := e.buffer("OUT", 8192, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		sa := e.texture("SA", 32, 32, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(b, 0, 4096)}}})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{BufferRange(b, 4096, 4096)}, UnorderedAccess: []View{BufferRange(out, 0, 4096)}}})
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, b)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{BufferRange(b, 0, 4096)}, UnorderedAccess: []View{BufferRange(out, 4096, 4096)}}})
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(sa)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutCommon, ddi.LayoutCommon, sa)})
		cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{WholeTexture(sa)}}, RenderTargets: []View{WholeTexture(e.texture("OUT2", 32, 32, rtFlags, ddi.LayoutRenderTarget))}})
		e.run(cl)
		return []ddi.HResource{b, out, sa}
	}},
	// 000 "Subresource Ranges": barriers on a mip and on a slice of a
	// mipped array, the rest left where it is.
	{"subresource-ranges", func(e *env) []ddi.HResource {
		r, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 64, 64, 2, 3, rtFlags, ddi.LayoutRenderTarget), resource.HeapDefault)
		require.NoError(e.t, err)
		out := e.buffer("OUT", 65536, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		mip0 := ddi.SubresourceRange{IndexOrFirstMipLevel: 0, NumMipLevels: 1, FirstArraySlice: 0, NumArraySlices: 2, FirstPlane: 0, NumPlanes: 1}
		mip1 := ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 2, FirstArraySlice: 1, NumArraySlices: 1, FirstPlane: 0, NumPlanes: 1}
		cl := e.list(ddi.CommandListTypeDirect)
		cl.ClearRenderTargetView(WholeTexture(r), 0x7f7f7f7f)
		cl.Draw(Draw{RenderTargets: []View{{Resource: r, Subresources: mip0}}})
		cl.Barrier([]ddi.Barrier{texRange(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, r, mip0, 0)})
		cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{{Resource: r, Subresources: mip0}}}, RenderTargets: []View{{Resource: r, Subresources: mip1}}})
		cl.Barrier([]ddi.Barrier{texRange(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, r, mip1, 0)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{{Resource: r, Subresources: mip0}, {Resource: r, Subresources: mip1}},
			UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{r, out}
	}},
	// 000 "Split Barriers": the transition of a render target to a shader
	// resource begins after the draw and ends before the read, with other
	// work in between.
	{"split", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		other := e.buffer("OTHER", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		out := e.buffer("OUT", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, rt)})
		cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(other)}}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, rt)})
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{rt, other, out}
	}},
	// 000 "D3D12DDI_RANGED_BARRIER_0094": an atomic copy between buffers;
	// its ranged barriers alone order and publish it.
	{"atomic-copy", func(e *env) []ddi.HResource {
		src := e.buffer("SRC", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		dst := e.buffer("DST", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		out := e.buffer("OUT", 8192, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(dst)}, UnorderedAccess: []View{WholeBuffer(src)}}})
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, src)})
		cl.AtomicCopyBufferUINT(dst, 16, src, 64, true)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(dst)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{src, dst, out}
	}},
	// A copy queue uploading into a buffer the direct queue then reads,
	// ordered by a fence (000 "Copy Queues").
	{"copy-queue-upload", func(e *env) []ddi.HResource {
		up := e.buffer("UP", 4096, 0, resource.HeapUpload)
		data := make([]byte, 4096)
		for i := range data {
			data[i] = byte(i * 7)
		}
		require.NoError(e.t, e.d.WriteBuffer(up, 0, data))
		b := e.buffer("B", 4096, 0, resource.HeapDefault)
		out := e.buffer("OUT", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		copyQ, err := e.d.CreateQueue(ddi.CommandListTypeCopy)
		require.NoError(e.t, err)
		f := e.d.CreateFence()
		cc := e.list(ddi.CommandListTypeCopy)
		cc.CopyBufferRegion(b, 0, up, 0, 4096)
		require.NoError(e.t, cc.Close())
		require.NoError(e.t, copyQ.ExecuteCommandLists(cc))
		copyQ.Signal(f, 1)
		e.direct.Wait(f, 1)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(b)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{b, out}
	}},
	// The runtime's translation of legacy ResourceBarrier states reaches the
	// driver as LEGACY_* layouts (000 "Legacy layouts").
	{"legacy-layouts", func(e *env) []ddi.HResource {
		rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		out := e.texture("OUT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutLegacyPixelShaderResource, rt)})
		cl.Draw(Draw{Pixel: Shader{ShaderResources: []View{WholeTexture(rt)}}, RenderTargets: []View{WholeTexture(out)}})
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutLegacyPixelShaderResource, ddi.LayoutRenderTarget, rt)})
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
		e.run(cl)
		return []ddi.HResource{rt, out}
	}},
	// A video decode queue writing a texture the direct queue then samples.
	{"video-decode", func(e *env) []ddi.HResource {
		bits := e.buffer("BITSTREAM", 4096, 0, resource.HeapDefault)
		frame := e.texture("FRAME", 64, 64, ddi.ResourceFlagShaderResource, ddi.LayoutCommon)
		out := e.buffer("OUT", 16384, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		vq, err := e.d.CreateQueue(ddi.CommandListTypeVideoDecode)
		require.NoError(e.t, err)
		f := e.d.CreateFence()
		vl := e.list(ddi.CommandListTypeVideoDecode)
		vl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncVideoDecode, ddi.AccessNoAccess, ddi.AccessVideoDecodeWrite,
			ddi.LayoutCommon, ddi.LayoutVideoDecodeWrite, frame)})
		vl.DecodeFrame(Video{Inputs: []View{WholeBuffer(bits)}, Outputs: []View{WholeTexture(frame)}})
		vl.Barrier([]ddi.Barrier{tex(ddi.SyncVideoDecode, ddi.SyncNone, ddi.AccessVideoDecodeWrite, ddi.AccessNoAccess,
			ddi.LayoutVideoDecodeWrite, ddi.LayoutCommon, frame)})
		require.NoError(e.t, vl.Close())
		require.NoError(e.t, vq.ExecuteCommandLists(vl))
		vq.Signal(f, 1)
		e.direct.Wait(f, 1)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(frame)}, UnorderedAccess: []View{WholeBuffer(out)}}})
		e.run(cl)
		return []ddi.HResource{frame, out}
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
	{"drop-split-end-wait", []hwmodel.HazardKind{hwmodel.HazardReadAfterWrite}, []string{"discrete", "unified3d", "coherent"}},
	{"drop-ranged-flush", []hwmodel.HazardKind{hwmodel.HazardMissingInvalidate}, []string{"discrete", "unified3d"}},
	{"drop-metadata-writeback", []hwmodel.HazardKind{hwmodel.HazardWriteAfterWrite}, []string{"discrete", "unified3d"}},
}

func TestFaultsAreCaught(t *testing.T) {
	for _, fh := range faultHazards {
		for _, p := range fh.profiles {
			t.Run(fh.fault+"/"+p, func(t *testing.T) {
				f, err := FaultByName(fh.fault)
				require.NoError(t, err)
				// seen: the scenarios where each hazard was reported;
				// wrong: those of them whose bytes also differ from the
				// reference.
				seen := map[hwmodel.HazardKind][]string{}
				wrong := map[hwmodel.HazardKind][]string{}
				for _, s := range scenarios {
					e := newEnv(t, p, Options{Faults: f})
					rs := s.run(e)
					var regions []hwmodel.Region
					for _, h := range rs {
						r, _ := e.d.Resource(h)
						regions = append(regions, r.Region())
					}
					diffs, err := e.d.Machine().Compare(regions...)
					require.NoError(t, err)
					for _, h := range e.d.Machine().Hazards() {
						seen[h.Kind] = append(seen[h.Kind], s.name)
						if len(diffs) > 0 {
							wrong[h.Kind] = append(wrong[h.Kind], s.name)
						}
					}
				}
				for _, k := range fh.kinds {
					assert.NotEmpty(t, seen[k], "no scenario shows %s with %s on %s (saw %v)", k, fh.fault, p, seen)
					assert.NotEmpty(t, wrong[k], "no scenario with %s under %s on %s has wrong bytes", k, fh.fault, p)
				}
			})
		}
	}
}
