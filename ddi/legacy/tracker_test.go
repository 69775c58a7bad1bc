package legacy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/ddi/debug"
)

const (
	bufH ddi.HResource = 1 + iota
	texH
	saH
	rtH
)

var (
	bufR = Resource{}
	texR = Resource{Texture: true}
	saR  = Resource{Texture: true, Simultaneous: true}
)

// newTracked is a tracker of a buffer, a texture of two subresources in
// COMMON, a simultaneous-access texture and a render target created in
// RENDER_TARGET.
func newTracked(t *testing.T) *Tracker {
	tr := NewTracker()
	for _, c := range []struct {
		h     ddi.HResource
		r     Resource
		subs  uint32
		state ddi.ResourceStates
	}{{bufH, bufR, 1, ddi.StateCommon}, {texH, texR, 2, ddi.StateCommon}, {saH, saR, 1, ddi.StateCommon},
		{rtH, texR, 1, ddi.StateRenderTarget}} {
		_, err := InitialLayout(c.r, c.state)
		require.NoError(t, err)
		require.Empty(t, tr.Create(c.h, c.r, c.subs, c.state))
	}
	return tr
}

// ids lists the messages' IDs.
func ids(ms []Message) []MessageID {
	var out []MessageID
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func state(tr *Tracker, h ddi.HResource, sub uint32) ddi.ResourceStates {
	s, _ := tr.State(h, sub)
	return s
}

// TestCreate: the initial layout a legacy state gives, and buffers in
// COMMON whatever state is given.
func TestCreate(t *testing.T) {
	tr := NewTracker()
	l, err := InitialLayout(bufR, ddi.StateCopyDest)
	require.NoError(t, err)
	assert.Equal(t, ddi.LayoutUndefined, l)
	msgs := tr.Create(bufH, bufR, 1, ddi.StateCopyDest)
	require.Equal(t, []MessageID{MsgCreateStateIgnored}, ids(msgs))
	assert.Equal(t, debug.SeverityWarning, msgs[0].Severity)
	assert.Contains(t, msgs[0].Error(), "COPY_DEST is ignored")
	assert.Equal(t, ddi.StateCommon, state(tr, bufH, 0))

	l, err = InitialLayout(texR, ddi.StateNonPixelShaderResource)
	require.NoError(t, err)
	assert.Equal(t, ddi.LayoutLegacyShaderResource, l)
	assert.Empty(t, tr.Create(texH, texR, 3, ddi.StateNonPixelShaderResource))
	assert.Equal(t, ddi.StateNonPixelShaderResource, state(tr, texH, 2))
	l, err = InitialLayout(saR, ddi.StateUnorderedAccess)
	require.NoError(t, err)
	assert.Equal(t, ddi.LayoutCommon, l, "a simultaneous-access texture is always COMMON")
	_, err = InitialLayout(texR, ddi.StateIndexBuffer)
	assert.ErrorContains(t, err, "buffer-only")
}

// TestBarrierValidation: each legacy barrier rule, its ID, and the barriers
// that reach the driver.
func TestBarrierValidation(t *testing.T) {
	for _, c := range []struct {
		name string
		bs   []Barrier
		want []MessageID
		out  int
	}{
		{"a transition", []Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StatePixelShaderResource)}, nil, 1},
		{"matching states", []Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StateRenderTarget)}, []MessageID{MsgMatchingStates}, 0},
		{"a write with a read", []Barrier{Transition(bufH, 0, ddi.StateCommon, ddi.StateCopyDest|ddi.StateCopySource)}, []MessageID{MsgInvalidCombination}, 0},
		{"no such subresource", []Barrier{Transition(texH, 2, ddi.StateCommon, ddi.StateCopyDest)}, []MessageID{MsgInvalidSubresource}, 0},
		{"no such resource", []Barrier{Transition(99, 0, ddi.StateCommon, ddi.StateCopyDest), UAV(99), Aliasing(0, 99)},
			[]MessageID{MsgInvalidResource, MsgInvalidResource, MsgInvalidResource}, 0},
		{"no such type", []Barrier{{Type: 7}}, []MessageID{MsgInvalidType}, 0},
		{"both halves at once", []Barrier{{Type: TypeTransition, Flags: FlagBeginOnly | FlagEndOnly, Resource: bufH,
			StateAfter: ddi.StateCopyDest}}, []MessageID{MsgInvalidFlags}, 0},
		{"a second transition that starts elsewhere", []Barrier{
			Transition(rtH, 0, ddi.StateRenderTarget, ddi.StatePixelShaderResource),
			Transition(rtH, 0, ddi.StateRenderTarget, ddi.StateCopySource)}, []MessageID{MsgBeforeAfterMismatch}, 1},
		{"UAV and aliasing of NULL", []Barrier{UAV(0), Aliasing(0, 0), Aliasing(bufH, texH)}, nil, 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newTracked(t).NewList(ddi.CommandListTypeDirect)
			out, msgs := l.ResourceBarrier(c.bs)
			assert.Equal(t, c.want, ids(msgs))
			assert.Len(t, out, c.out)
			for _, m := range msgs {
				assert.Contains(t, m.Error(), "D3D12 ERROR: ResourceBarrier, barrier")
			}
		})
	}
}

// TestDuplicateTransitions: a call that transitions a subresource twice
// draws one warning, on the second transition, and still applies both in
// order; the same transitions in two calls draw none.
func TestDuplicateTransitions(t *testing.T) {
	tr := newTracked(t)
	l := tr.NewList(ddi.CommandListTypeDirect)
	out, msgs := l.ResourceBarrier([]Barrier{
		Transition(texH, AllSubresources, ddi.StateCommon, ddi.StateCopyDest),
		Transition(bufH, 0, ddi.StateCommon, ddi.StateCopyDest),
		Transition(texH, 1, ddi.StateCopyDest, ddi.StateCopySource)})
	require.Equal(t, []MessageID{MsgDuplicateTransition}, ids(msgs))
	assert.Len(t, out, 3, "a warning refuses nothing")
	assert.Equal(t, debug.SeverityWarning, msgs[0].Severity)
	assert.Equal(t, 2, msgs[0].Barrier)
	assert.Equal(t, uint32(1), msgs[0].Subresource)
	assert.Contains(t, msgs[0].Error(), "D3D12 WARNING: ResourceBarrier, barrier 2")
	assert.Contains(t, msgs[0].Error(), "#1008: RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS")

	// Refused transitions name nothing; separate calls are not duplicates.
	l = tr.NewList(ddi.CommandListTypeDirect)
	_, msgs = l.ResourceBarrier([]Barrier{Transition(texH, 1, ddi.StateRenderTarget, ddi.StateCopyDest),
		Transition(texH, 1, ddi.StateNonPixelShaderResource, ddi.StateCopyDest)})
	assert.Equal(t, []MessageID{MsgBeforeAfterMismatch}, ids(msgs))
	_, msgs = l.ResourceBarrier([]Barrier{Transition(texH, 1, ddi.StateCopyDest, ddi.StateCopySource)})
	assert.Empty(t, msgs)
}

// TestSplitTransitions: a begun subresource is unusable until its end,
// which repeats its states; both halves in one list.
func TestSplitTransitions(t *testing.T) {
	tr := newTracked(t)
	begin := Transition(rtH, 0, ddi.StateRenderTarget, ddi.StatePixelShaderResource)
	begin.Flags = FlagBeginOnly
	end := begin
	end.Flags = FlagEndOnly

	l := tr.NewList(ddi.CommandListTypeDirect)
	_, msgs := l.ResourceBarrier([]Barrier{begin})
	require.Empty(t, msgs)
	assert.Equal(t, []MessageID{MsgInvalidSplitBarrier}, ids(l.Use("Draw", rtH, 0, ddi.StatePixelShaderResource)))
	_, msgs = l.ResourceBarrier([]Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StateCopySource)})
	assert.Equal(t, []MessageID{MsgInvalidSplitBarrier}, ids(msgs))
	wrong := end
	wrong.StateAfter = ddi.StateCopySource
	_, msgs = l.ResourceBarrier([]Barrier{wrong})
	assert.Equal(t, []MessageID{MsgMismatchingBeginEnd}, ids(msgs))
	out, msgs := l.ResourceBarrier([]Barrier{end})
	require.Empty(t, msgs)
	require.Len(t, out, 1)
	assert.Equal(t, ddi.SyncSplit, out[0].Texture().SyncBefore)
	assert.Empty(t, l.Use("Draw", rtH, 0, ddi.StatePixelShaderResource))
	assert.Empty(t, l.Close())

	l = tr.NewList(ddi.CommandListTypeDirect)
	_, msgs = l.ResourceBarrier([]Barrier{end})
	assert.Equal(t, []MessageID{MsgUnmatchedEnd}, ids(msgs))
	_, msgs = l.ResourceBarrier([]Barrier{begin})
	require.Empty(t, msgs)
	assert.Equal(t, []MessageID{MsgUnmatchedBegin}, ids(l.Close()))
}

// TestSubmissionChecksAssumptions: the first transition's StateBefore is
// checked against the state the submission finds, which may be COMMON
// promoted in the barrier itself.
func TestSubmissionChecksAssumptions(t *testing.T) {
	tr := newTracked(t)
	l := tr.NewList(ddi.CommandListTypeDirect)
	l.ResourceBarrier([]Barrier{Transition(rtH, 0, ddi.StatePixelShaderResource, ddi.StateRenderTarget)})
	msgs := tr.Execute(ddi.CommandListTypeDirect, l)
	require.Equal(t, []MessageID{MsgBeforeAfterMismatch}, ids(msgs))
	assert.Contains(t, msgs[0].Error(), "expects PIXEL_SHADER_RESOURCE, but the subresource is in RENDER_TARGET")

	// COMMON promotes to COPY_DEST in the barrier; not to RENDER_TARGET.
	l = tr.NewList(ddi.CommandListTypeDirect)
	l.ResourceBarrier([]Barrier{Transition(texH, 0, ddi.StateCopyDest, ddi.StatePixelShaderResource),
		Transition(texH, 1, ddi.StateRenderTarget, ddi.StatePixelShaderResource)})
	msgs = tr.Execute(ddi.CommandListTypeDirect, l)
	require.Equal(t, []MessageID{MsgBeforeAfterMismatch}, ids(msgs))
	assert.Equal(t, uint32(1), msgs[0].Subresource)
	assert.Equal(t, ddi.StatePixelShaderResource, state(tr, texH, 0), "explicitly transitioned: no decay")
}

// TestPromotionAndDecay: promotion on first use, no decay between the
// lists of one submission, decay after it for buffers, simultaneous-access
// textures, copy queues and read promotions.
func TestPromotionAndDecay(t *testing.T) {
	tr := newTracked(t)
	a := tr.NewList(ddi.CommandListTypeDirect)
	require.Empty(t, a.Use("CopyBufferRegion", bufH, 0, ddi.StateCopyDest))
	require.Empty(t, a.Use("CopyTextureRegion", texH, 0, ddi.StateCopyDest))
	require.Empty(t, a.Use("Draw", texH, 1, ddi.StateNonPixelShaderResource))
	require.Empty(t, a.Use("Draw", texH, 1, ddi.StatePixelShaderResource), "reads accumulate")
	require.Empty(t, a.Use("Dispatch", saH, 0, ddi.StateUnorderedAccess))
	b := tr.NewList(ddi.CommandListTypeDirect)
	// B relies on A's promotion: no decay between the lists of one call.
	_, msgs := b.ResourceBarrier([]Barrier{Transition(bufH, 0, ddi.StateCopyDest, ddi.StateVertexAndConstantBuffer)})
	require.Empty(t, msgs)
	require.Empty(t, tr.Execute(ddi.CommandListTypeDirect, a, b))
	assert.Equal(t, ddi.StateCommon, state(tr, bufH, 0), "buffers decay")
	assert.Equal(t, ddi.StateCopyDest, state(tr, texH, 0), "a texture promoted to a write state keeps it")
	assert.Equal(t, ddi.StateCommon, state(tr, texH, 1), "read promotions decay")
	assert.Equal(t, ddi.StateCommon, state(tr, saH, 0), "simultaneous-access textures decay")

	// On a copy queue everything decays.
	c := tr.NewList(ddi.CommandListTypeCopy)
	_, msgs = c.ResourceBarrier([]Barrier{Transition(texH, 0, ddi.StateCopyDest, ddi.StateCopySource)})
	require.Empty(t, msgs)
	require.Empty(t, tr.Execute(ddi.CommandListTypeCopy, c))
	assert.Equal(t, ddi.StateCommon, state(tr, texH, 0))

	// A read promotion then a write: not one state; a texture is not
	// promoted to RENDER_TARGET.
	d := tr.NewList(ddi.CommandListTypeDirect)
	require.Empty(t, d.Use("Draw", texH, 0, ddi.StatePixelShaderResource))
	require.Empty(t, d.Use("CopyTextureRegion", texH, 0, ddi.StateCopyDest))
	require.Empty(t, d.Use("Draw", texH, 1, ddi.StateRenderTarget))
	msgs = tr.Execute(ddi.CommandListTypeDirect, d)
	assert.Equal(t, []MessageID{MsgIncompatibleState, MsgIncompatibleState}, ids(msgs))

	// After work promoted a subresource, a barrier naming COMMON (or any
	// state without that use) as StateBefore mismatches.
	f := tr.NewList(ddi.CommandListTypeDirect)
	require.Empty(t, f.Use("CopyBufferRegion", bufH, 0, ddi.StateCopyDest))
	_, msgs = f.ResourceBarrier([]Barrier{Transition(bufH, 0, ddi.StateCommon, ddi.StateVertexAndConstantBuffer)})
	require.Equal(t, []MessageID{MsgBeforeAfterMismatch}, ids(msgs))
	assert.Contains(t, msgs[0].Error(), "used the subresource as COPY_DEST before it")
	_, msgs = f.ResourceBarrier([]Barrier{Transition(bufH, 0, ddi.StateCopyDest, ddi.StateVertexAndConstantBuffer)})
	require.Empty(t, msgs)

	// Where the list knows the state, a use it does not hold is an error
	// now.
	e := tr.NewList(ddi.CommandListTypeDirect)
	e.ResourceBarrier([]Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StatePixelShaderResource)})
	assert.Equal(t, []MessageID{MsgIncompatibleState}, ids(e.Use("CopyTextureRegion", rtH, 0, ddi.StateCopyDest)))
	assert.Empty(t, e.Use("Draw", rtH, 0, ddi.StatePixelShaderResource))
}

// TestInterop: a resource with a legacy state meets an enhanced barrier
// only in COMMON.
func TestInterop(t *testing.T) {
	tr := newTracked(t)
	l := tr.NewList(ddi.CommandListTypeDirect)
	assert.Empty(t, l.EnhancedBarrier("Barrier #1", rtH), "the list does not know the state")
	msgs := tr.Execute(ddi.CommandListTypeDirect, l)
	require.Equal(t, []MessageID{MsgInteropInvalidState}, ids(msgs))
	assert.Contains(t, msgs[0].Error(), "in RENDER_TARGET")

	l = tr.NewList(ddi.CommandListTypeDirect)
	l.ResourceBarrier([]Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StatePixelShaderResource)})
	assert.Equal(t, []MessageID{MsgInteropInvalidState}, ids(l.EnhancedBarrier("Barrier #2", rtH)))

	l = tr.NewList(ddi.CommandListTypeDirect)
	l.ResourceBarrier([]Barrier{Transition(rtH, 0, ddi.StateRenderTarget, ddi.StateCommon)})
	assert.Empty(t, l.EnhancedBarrier("Barrier #2", rtH))
	require.Empty(t, tr.Execute(ddi.CommandListTypeDirect, l))
	_, legacy := tr.State(rtH, 0)
	assert.False(t, legacy, "an enhanced barrier ends the legacy state")
}

// TestUseOfASubresourcePastTheResource: the driver reports it; the
// tracker records nothing of it.
func TestUseOfASubresourcePastTheResource(t *testing.T) {
	l := newTracked(t).NewList(ddi.CommandListTypeDirect)
	assert.Empty(t, l.Use("Draw", texH, 2, ddi.StatePixelShaderResource))
	assert.Empty(t, l.Use("Draw", 99, 0, ddi.StatePixelShaderResource))
	assert.Empty(t, l.order)
}

// TestEnhancedResourcesAreNotTracked: work on a resource created with a
// layout and never named by a legacy barrier is the driver's to check.
func TestEnhancedResourcesAreNotTracked(t *testing.T) {
	tr := NewTracker()
	tr.CreateEnhanced(texH, texR, 1)
	l := tr.NewList(ddi.CommandListTypeDirect)
	assert.Empty(t, l.Use("Draw", texH, 0, ddi.StateRenderTarget))
	assert.Empty(t, l.EnhancedBarrier("Barrier #2", texH))
	assert.Empty(t, tr.Execute(ddi.CommandListTypeDirect, l))
	s, legacy := tr.State(texH, 0)
	assert.Equal(t, ddi.StateCommon, s)
	assert.False(t, legacy)
}

// TestCopyQueueTextureLayouts: on a copy list a texture's transition keeps
// COMMON (E-LEGACY-COPY-QUEUE); a buffer's is untouched.
func TestCopyQueueTextureLayouts(t *testing.T) {
	tr := newTracked(t)
	l := tr.NewList(ddi.CommandListTypeCopy)
	out, msgs := l.ResourceBarrier([]Barrier{Transition(texH, 0, ddi.StateCopyDest, ddi.StateCopySource),
		Transition(bufH, 0, ddi.StateCopyDest, ddi.StateCopySource)})
	require.Empty(t, msgs)
	require.Len(t, out, 2)
	assert.Equal(t, ddi.LayoutCommon, out[0].Texture().LayoutBefore)
	assert.Equal(t, ddi.LayoutCommon, out[0].Texture().LayoutAfter)
	assert.Equal(t, ddi.AccessCopySource, out[0].Texture().AccessAfter)
	assert.Equal(t, bufH, out[1].Buffer().Resource)
	assert.Equal(t, ddi.AccessCopySource, out[1].Buffer().AccessAfter)
}

// A texture promoted to a read by one list and used in that state by a
// later list of the same submission is still a promotion: it decays when
// the submission ends (000 "Resource State Promotion and Decay"). The
// random legacy programs' model found the layer keeping it.
func TestPromotionUsedAgainInALaterListDecays(t *testing.T) {
	tr := newTracked(t)
	a, b := tr.NewList(ddi.CommandListTypeDirect), tr.NewList(ddi.CommandListTypeDirect)
	assert.Empty(t, a.Use("Dispatch", texH, 0, ddi.StateNonPixelShaderResource))
	assert.Empty(t, b.Use("Dispatch", texH, 0, ddi.StateNonPixelShaderResource))
	assert.Empty(t, tr.Execute(ddi.CommandListTypeDirect, a, b))
	assert.Equal(t, ddi.StateCommon, state(tr, texH, 0))
	// A write promotion used again stays.
	c, d := tr.NewList(ddi.CommandListTypeDirect), tr.NewList(ddi.CommandListTypeDirect)
	assert.Empty(t, c.Use("Copy", texH, 1, ddi.StateCopyDest))
	assert.Empty(t, d.Use("Copy", texH, 1, ddi.StateCopyDest))
	assert.Empty(t, tr.Execute(ddi.CommandListTypeDirect, c, d))
	assert.Equal(t, ddi.StateCopyDest, state(tr, texH, 1))
}
