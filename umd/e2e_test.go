package umd

import (
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/require"
)

// env is a device on a profile with a direct queue, for tests.
type env struct {
	t      testing.TB
	d      *Device
	direct *Queue
}

func newEnv(t testing.TB, profile string, opts Options) *env {
	t.Helper()
	p, err := hwmodel.LookupProfile(profile)
	require.NoError(t, err)
	d, err := Open(p, opts)
	require.NoError(t, err)
	q, err := d.CreateQueue(ddi.CommandListTypeDirect)
	require.NoError(t, err)
	return &env{t: t, d: d, direct: q}
}

func (e *env) texture(name string, w, h uint32, flags ddi.ResourceFlags, initial ddi.BarrierLayout) ddi.HResource {
	e.t.Helper()
	r, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, w, h, 1, 1, flags, initial), resource.HeapDefault)
	require.NoError(e.t, err)
	require.NoError(e.t, e.d.SetName(r, name))
	return r
}

func (e *env) buffer(name string, size uint64, flags ddi.ResourceFlags, kind resource.HeapKind) ddi.HResource {
	e.t.Helper()
	r, err := e.d.CreateCommitted(BufferDesc(size, flags), kind)
	require.NoError(e.t, err)
	require.NoError(e.t, e.d.SetName(r, name))
	return r
}

func (e *env) list(t ddi.CommandListType) *CommandList {
	cl, err := e.d.CreateCommandList(t)
	require.NoError(e.t, err)
	return cl
}

// run closes and executes lists on the direct queue and waits.
func (e *env) run(lists ...*CommandList) {
	e.t.Helper()
	for _, cl := range lists {
		require.NoError(e.t, cl.Close())
	}
	require.NoError(e.t, e.direct.ExecuteCommandLists(lists...))
	require.NoError(e.t, e.d.WaitIdle())
	require.Empty(e.t, e.d.Machine().Faults())
}

// clean requires no hazards and the resources equal to the reference.
func (e *env) clean(rs ...ddi.HResource) {
	e.t.Helper()
	for _, h := range e.d.Machine().Hazards() {
		e.t.Errorf("hazard: %s", h.Message)
	}
	var regions []hwmodel.Region
	for _, h := range rs {
		r, _ := e.d.Resource(h)
		regions = append(regions, r.Region())
	}
	diffs, err := e.d.Machine().Compare(regions...)
	require.NoError(e.t, err)
	for _, df := range diffs {
		e.t.Errorf("%s", df)
	}
}

func tex(sb, sa ddi.BarrierSync, ab, aa ddi.BarrierAccess, lb, la ddi.BarrierLayout, r ddi.HResource) ddi.Barrier {
	return ddi.NewTextureBarrier(ddi.TextureBarrier{SyncBefore: sb, SyncAfter: sa, AccessBefore: ab, AccessAfter: aa,
		LayoutBefore: lb, LayoutAfter: la, Resource: r, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}})
}

func TestRenderTargetToShaderResource(t *testing.T) {
	for _, p := range hwmodel.ProfileNames() {
		t.Run(p, func(t *testing.T) {
			e := newEnv(t, p, Options{})
			rt := e.texture("RT", 64, 64, ddi.ResourceFlagRenderTarget|ddi.ResourceFlagShaderResource, ddi.LayoutRenderTarget)
			out := e.buffer("OUT", 64*64*4, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
			cl := e.list(ddi.CommandListTypeDirect)
			cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
				ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
			cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
			e.run(cl)
			e.clean(rt, out)
			var lines []string
			for _, l := range cmdbuf.Listing(cl.Buffer(), nil) {
				lines = append(lines, l.Op+" "+l.Text)
			}
			t.Log(lines)
		})
	}
}
