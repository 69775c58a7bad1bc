package umd

import (
	"fmt"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The debug layer's execute-time checks (000 "ExecuteCommandLists
// Call-Site Validation Phase"): what a list assumed of layouts when it was
// recorded, checked against the layouts the earlier submissions left.

// twoLists records a list that takes RT from RENDER_TARGET to
// SHADER_RESOURCE and a second list built by second, and runs both in one
// ExecuteCommandLists; it returns the device's messages.
func twoLists(t *testing.T, debug bool, second func(e *env, rt ddi.HResource, cl *CommandList)) []Message {
	e := newEnv(t, "discrete", Options{Debug: debug})
	rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
	a := e.list(ddi.CommandListTypeDirect)
	a.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutShaderResource, rt)})
	b := e.list(ddi.CommandListTypeDirect)
	second(e, rt, b)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close())
	require.NoError(t, e.direct.ExecuteCommandLists(a, b))
	require.NoError(t, e.d.WaitIdle())
	return e.d.Messages()
}

func TestDebugLayoutBeforeMismatch(t *testing.T) {
	stale := func(e *env, rt ddi.HResource, cl *CommandList) {
		// Assumes RT is still a render target.
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopySource,
			ddi.LayoutRenderTarget, ddi.LayoutCopySource, rt)})
	}
	msgs := twoLists(t, true, stale)
	require.Len(t, msgs, 1)
	m := msgs[0]
	t.Log(m.Error())
	assert.Equal(t, MsgLayoutMismatch, m.ID)
	assert.Equal(t, CategoryExecution, m.Category)
	assert.Equal(t, SeverityError, m.Severity)
	assert.Equal(t, "ExecuteCommandLists list 1", m.Command)
	assert.Equal(t, "LayoutBefore", m.Field)
	assert.Equal(t, "RENDER_TARGET", m.Value)
	assert.Contains(t, m.Rule, "RT subresource 0")
	assert.Contains(t, m.Rule, "SHADER_RESOURCE")

	assert.Empty(t, twoLists(t, false, stale), "without the debug layer nothing is checked")

	correct := func(e *env, rt ddi.HResource, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopySource,
			ddi.LayoutShaderResource, ddi.LayoutCopySource, rt)})
	}
	assert.Empty(t, twoLists(t, true, correct))

	// A LEGACY_ layout stands for the legacy state's layout or COMMON; an
	// UNDEFINED LayoutBefore assumes nothing.
	undefined := func(e *env, rt ddi.HResource, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessNoAccess,
			ddi.LayoutUndefined, ddi.LayoutCopySource, rt)})
	}
	assert.Empty(t, twoLists(t, true, undefined))
}

func TestDebugBarrierFreeAccessNeedsItsLayout(t *testing.T) {
	// The second list samples RT with no barrier; after the first it is in
	// SHADER_RESOURCE, which allows it.
	sample := func(e *env, rt ddi.HResource, cl *CommandList) {
		out := e.buffer("OUT", 64*64*4, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeTexture(rt)}, UnorderedAccess: []View{WholeBuffer(out)}}})
	}
	assert.Empty(t, twoLists(t, true, sample))

	// Rendering to it with no barrier assumes a layout it is not in.
	render := func(e *env, rt ddi.HResource, cl *CommandList) {
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
	}
	msgs := twoLists(t, true, render)
	require.Len(t, msgs, 1)
	t.Log(msgs[0].Error())
	assert.Equal(t, MsgIncompatibleTextureLayout, msgs[0].ID)
	assert.Equal(t, "Draw", msgs[0].Field)
	assert.Equal(t, "SHADER_RESOURCE", msgs[0].Value)
	assert.Contains(t, msgs[0].Rule, "RENDER_TARGET")
}

func TestDebugSplitAcrossExecuteOnBuffers(t *testing.T) {
	e := newEnv(t, "discrete", Options{Debug: true})
	var bufs []ddi.HResource
	for _, name := range []string{"B0", "B1", "B2"} {
		bufs = append(bufs, e.buffer(name, 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault))
	}
	begin := e.list(ddi.CommandListTypeDirect)
	for _, b := range bufs {
		begin.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncSplit, ddi.AccessUnorderedAccess, ddi.AccessCopySource, b)})
	}
	e.run(begin)
	msgs := e.d.Messages()
	require.Len(t, msgs, 3)
	for i, m := range msgs {
		t.Log(m.Error())
		assert.Equal(t, MsgUnusedCrossExecuteSplitBarrier, m.ID)
		assert.Equal(t, SeverityWarning, m.Severity)
		assert.Equal(t, "SyncAfter", m.Field)
		assert.Contains(t, m.Rule, []string{"B0", "B1", "B2"}[i], "ordered by resource")
	}

	end := e.list(ddi.CommandListTypeDirect)
	end.Barrier([]ddi.Barrier{buf(ddi.SyncSplit, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, bufs[1])})
	e.run(end)
	msgs = e.d.Messages()[3:]
	require.Len(t, msgs, 1)
	assert.Equal(t, "SyncBefore", msgs[0].Field)
	assert.Contains(t, msgs[0].Rule, "B1")

	// Begin and end in different lists of one ExecuteCommandLists pair up.
	a, b := e.list(ddi.CommandListTypeDirect), e.list(ddi.CommandListTypeDirect)
	a.Barrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncSplit, ddi.AccessCopySource, ddi.AccessUnorderedAccess, bufs[0])})
	b.Barrier([]ddi.Barrier{buf(ddi.SyncSplit, ddi.SyncComputeShading, ddi.AccessCopySource, ddi.AccessUnorderedAccess, bufs[0])})
	e.run(a, b)
	assert.Len(t, e.d.Messages(), 4)
}

// A texture split that names COMMON warns across ExecuteCommandLists
// like a buffer's, once per subresource, in subresource order (000
// "Barrier API Call Validation"; errata E-SPLIT-COMMON-ACROSS-EXECUTE).
func TestDebugCommonSplitAcrossExecute(t *testing.T) {
	e := newEnv(t, "discrete", Options{Debug: true})
	tx, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 128, 128, 1, 8, ddi.ResourceFlagRenderTarget, ddi.LayoutCommon), resource.HeapDefault)
	require.NoError(t, err)
	require.NoError(t, e.d.SetName(tx, "T"))
	begin := e.list(ddi.CommandListTypeDirect)
	// One call per mip, in reverse: the track holds each subresource
	// apart, and the order of the warnings is not the calls'.
	for mip := uint32(7); mip <= 7; mip-- {
		begin.Barrier([]ddi.Barrier{texRange(ddi.SyncNone, ddi.SyncSplit, ddi.AccessNoAccess, ddi.AccessRenderTarget,
			ddi.LayoutCommon, ddi.LayoutRenderTarget, tx,
			ddi.SubresourceRange{IndexOrFirstMipLevel: mip, NumMipLevels: 1, NumArraySlices: 1, NumPlanes: 1}, 0)})
	}
	e.run(begin)
	msgs := e.d.Messages()
	require.Len(t, msgs, 8)
	for i, m := range msgs {
		assert.Equal(t, MsgUnusedCrossExecuteSplitBarrier, m.ID)
		assert.Equal(t, "SyncAfter", m.Field)
		assert.Contains(t, m.Rule, fmt.Sprintf("T subresource %d:", i), "ordered by subresource")
		assert.Contains(t, m.Rule, "names the COMMON layout")
	}
}

// Legacy and enhanced barriers on one subresource meet only in COMMON
// (000 "Interop with legacy ResourceBarrier"); a LEGACY_ LayoutBefore also
// accepts COMMON, where a state promotion leaves the texture (000 "Legacy
// layouts").
func TestDebugLegacyInterop(t *testing.T) {
	cases := []struct {
		name        string
		first, then ddi.Barrier
		want        MessageID // 0: no message
	}{
		{"legacy-after-promotion",
			tex(ddi.SyncNone, ddi.SyncNone, ddi.AccessNoAccess, ddi.AccessNoAccess, ddi.LayoutUndefined, ddi.LayoutUndefined, 0),
			tex(ddi.SyncCopy, ddi.SyncPixelShading, ddi.AccessCopyDest, ddi.AccessShaderResource, ddi.LayoutLegacyCopyDest, ddi.LayoutLegacyShaderResource, 0),
			0},
		{"legacy-after-legacy",
			tex(ddi.SyncNone, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutLegacyShaderResource, 0),
			tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource, ddi.LayoutLegacyShaderResource, ddi.LayoutLegacyCopySource, 0),
			0},
		{"legacy-after-enhanced",
			tex(ddi.SyncNone, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutShaderResource, 0),
			tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource, ddi.LayoutLegacyShaderResource, ddi.LayoutLegacyCopySource, 0),
			MsgBarrierInteropInvalidLayout},
		{"enhanced-after-legacy",
			tex(ddi.SyncNone, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutLegacyShaderResource, 0),
			tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource, ddi.LayoutShaderResource, ddi.LayoutCopySource, 0),
			MsgBarrierInteropInvalidLayout},
		{"legacy-state-mismatch",
			tex(ddi.SyncNone, ddi.SyncCopy, ddi.AccessNoAccess, ddi.AccessCopyDest, ddi.LayoutCommon, ddi.LayoutLegacyCopyDest, 0),
			tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource, ddi.LayoutLegacyShaderResource, ddi.LayoutLegacyCopySource, 0),
			MsgLayoutMismatch},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, "discrete", Options{Debug: true})
			h := e.texture("T", 16, 16, ddi.ResourceFlagShaderResource, ddi.LayoutCommon)
			first, then := c.first, c.then
			first.Texture().Resource, then.Texture().Resource = h, h
			a, b := e.list(ddi.CommandListTypeDirect), e.list(ddi.CommandListTypeDirect)
			a.Barrier([]ddi.Barrier{first})
			b.Barrier([]ddi.Barrier{then})
			e.run(a, b)
			msgs := e.d.Messages()
			if c.want == 0 {
				assert.Empty(t, msgs)
				return
			}
			require.Len(t, msgs, 1)
			t.Log(msgs[0].Error())
			assert.Equal(t, c.want, msgs[0].ID)
			assert.Equal(t, "LayoutBefore", msgs[0].Field)
		})
	}
}

// A memory-only barrier (both layouts UNDEFINED) leaves the layout as it
// was: the next submission still sees the texture in RENDER_TARGET.
func TestMemoryOnlyBarrierKeepsTheLayout(t *testing.T) {
	e := newEnv(t, "discrete", Options{Debug: true})
	rt := e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget)
	a := e.list(ddi.CommandListTypeDirect)
	a.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
	a.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.AccessRenderTarget,
		ddi.LayoutUndefined, ddi.LayoutUndefined, rt)})
	a.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
	e.run(a)
	r, _ := e.d.Resource(rt)
	assert.Equal(t, ddi.LayoutRenderTarget, r.layoutOf(0))
	assert.Empty(t, e.d.Messages())
	e.clean(rt)
}

// The end of a split begun in an earlier submission names the begin's
// LayoutBefore, but the subresource is already in LayoutAfter: no mismatch.
func TestDebugSplitEndAcrossSubmissions(t *testing.T) {
	e := newEnv(t, "discrete", Options{Debug: true})
	rt := e.texture("RT", 16, 16, rtFlags, ddi.LayoutRenderTarget)
	a, b := e.list(ddi.CommandListTypeDirect), e.list(ddi.CommandListTypeDirect)
	a.Barrier([]ddi.Barrier{tex(ddi.SyncNone, ddi.SyncSplit, ddi.AccessNoAccess, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
	b.Barrier([]ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncPixelShading, ddi.AccessNoAccess, ddi.AccessShaderResource,
		ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, rt)})
	e.run(a)
	e.run(b)
	assert.Empty(t, e.d.Messages())
	r, _ := e.d.Resource(rt)
	assert.Equal(t, ddi.LayoutDirectQueueShaderResource, r.layoutOf(0))
}
