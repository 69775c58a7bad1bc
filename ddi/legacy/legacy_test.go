package legacy

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
)

// TestSingleStatesFollowTheTable: one state bit stands for its row of
// ddi.LegacyStates, on buffers without a layout and on textures with one
// (buffer-only states have none).
func TestSingleStatesFollowTheTable(t *testing.T) {
	for _, r := range ddi.LegacyStates {
		e, err := StateEquivalent(r.State, false)
		require.NoError(t, err, r.Name)
		assert.Equal(t, Equivalent{Sync: r.Sync, Access: r.Access}, e, r.Name)
		e, err = StateEquivalent(r.State, true)
		if !r.HasLayout {
			var se *StateError
			require.True(t, errors.As(err, &se), "%s on a texture: %v", r.Name, err)
			assert.Contains(t, err.Error(), "buffer-only")
			continue
		}
		require.NoError(t, err, r.Name)
		assert.Equal(t, Equivalent{Sync: r.Sync, Access: r.Access, Layout: r.Layout}, e, r.Name)
	}
}

// TestReadCombinations: read states combine by ORing syncs and accesses;
// a texture in several read states is in layout 31, except the two
// shader-resource states together (E-LEGACY-PSR, E-LEGACY-COMBINATIONS).
func TestReadCombinations(t *testing.T) {
	const dq31 = ddi.LayoutLegacyDirectQueueGenericReadComputeQueueAccessible
	for _, c := range []struct {
		s      ddi.ResourceStates
		sync   ddi.BarrierSync
		access ddi.BarrierAccess
		layout ddi.BarrierLayout
	}{
		{ddi.StateAllShaderResource, ddi.SyncNonPixelShading | ddi.SyncPixelShading, ddi.AccessShaderResource, ddi.LayoutLegacyShaderResource},
		{ddi.StateNonPixelShaderResource | ddi.StateCopySource, ddi.SyncNonPixelShading | ddi.SyncCopy,
			ddi.AccessShaderResource | ddi.AccessCopySource, dq31},
		{ddi.StatePixelShaderResource | ddi.StateDepthRead, ddi.SyncPixelShading | ddi.SyncDepthStencil,
			ddi.AccessShaderResource | ddi.AccessDepthStencilRead, dq31},
		{ddi.StateDepthRead | ddi.StateCopySource | ddi.StateResolveSource, ddi.SyncDepthStencil | ddi.SyncCopy | ddi.SyncResolve,
			ddi.AccessDepthStencilRead | ddi.AccessCopySource | ddi.AccessResolveSource, dq31},
		// GENERIC_READ on a texture: its texture reads only.
		{ddi.StateGenericRead, ddi.SyncNonPixelShading | ddi.SyncPixelShading | ddi.SyncCopy,
			ddi.AccessShaderResource | ddi.AccessCopySource, dq31},
		// One texture read among buffer-only states: that read's layout.
		{ddi.StateIndexBuffer | ddi.StateCopySource, ddi.SyncCopy, ddi.AccessCopySource, ddi.LayoutLegacyCopySource},
	} {
		e, err := StateEquivalent(c.s, true)
		require.NoError(t, err, c.s.String())
		assert.Equal(t, Equivalent{Sync: c.sync, Access: c.access, Layout: c.layout}, e, c.s.String())
		// Every access the texture gets is one its layout allows.
		ok, _ := ddi.CompatibleAccesses(e.Layout)
		assert.Zero(t, e.Access&^ok, "%s: %s allows %s", c.s, e.Layout, ok)
	}
	e, err := StateEquivalent(ddi.StateGenericRead, false)
	require.NoError(t, err)
	assert.Equal(t, ddi.AccessVertexBuffer|ddi.AccessConstantBuffer|ddi.AccessIndexBuffer|ddi.AccessShaderResource|
		ddi.AccessIndirectArgument|ddi.AccessCopySource, e.Access)
	assert.Equal(t, ddi.SyncAllShading|ddi.SyncInputAssembler|ddi.SyncNonPixelShading|ddi.SyncPixelShading|
		ddi.SyncExecuteIndirect|ddi.SyncCopy, e.Sync)
	assert.Zero(t, e.Layout)
}

// TestInvalidStates: undefined bits, and a write state with anything else.
func TestInvalidStates(t *testing.T) {
	for _, c := range []struct {
		s    ddi.ResourceStates
		want string
	}{
		{0x4000, "bits 0x4000 are no D3D12_RESOURCE_STATES"},
		{ddi.StateRenderTarget | ddi.StatePixelShaderResource, "a write state"},
		{ddi.StateCopyDest | ddi.StateCopySource, "a write state"},
		{ddi.StateUnorderedAccess | ddi.StateRenderTarget, "a write state"},
		{ddi.StateRaytracingAccelerationStructure | ddi.StateNonPixelShaderResource, "a write state"},
		{ddi.StateVideoDecodeRead | ddi.StateNonPixelShaderResource, "a video state"},
		{ddi.StateVideoDecodeRead | ddi.StateVideoProcessRead, "a video state"},
	} {
		for _, texture := range []bool{false, true} {
			_, err := StateEquivalent(c.s, texture)
			require.ErrorContains(t, err, c.want, "%s texture=%t", c.s, texture)
			assert.ErrorContains(t, err, c.s.String())
		}
	}
}

const direct = ddi.CommandListTypeDirect

// TestTranslate: what each kind of legacy barrier becomes at the DDI.
func TestTranslate(t *testing.T) {
	const r = ddi.HResource(7)
	tex, buf, sa := Resource{Texture: true}, Resource{}, Resource{Texture: true, Simultaneous: true}
	b, err := Translate(Transition(r, 3, ddi.StateRenderTarget, ddi.StatePixelShaderResource), tex, direct)
	require.NoError(t, err)
	assert.Equal(t, &ddi.TextureBarrier{SyncBefore: ddi.SyncRenderTarget, SyncAfter: ddi.SyncPixelShading,
		AccessBefore: ddi.AccessRenderTarget, AccessAfter: ddi.AccessShaderResource,
		LayoutBefore: ddi.LayoutRenderTarget, LayoutAfter: ddi.LayoutLegacyPixelShaderResource,
		Resource: r, Subresources: ddi.SubresourceRange{IndexOrFirstMipLevel: 3}}, b.Texture())

	b, err = Translate(Transition(r, AllSubresources, ddi.StateCommon, ddi.StateCopyDest), buf, direct)
	require.NoError(t, err)
	assert.Equal(t, &ddi.BufferBarrier{SyncBefore: ddi.SyncAll, SyncAfter: ddi.SyncCopy,
		AccessBefore: ddi.AccessCommon, AccessAfter: ddi.AccessCopyDest, Resource: r}, b.Buffer())

	begin := Transition(r, AllSubresources, ddi.StateUnorderedAccess, ddi.StateNonPixelShaderResource)
	begin.Flags = FlagBeginOnly
	b, err = Translate(begin, sa, direct)
	require.NoError(t, err)
	assert.Equal(t, ddi.SyncSplit, b.Texture().SyncAfter)
	assert.Equal(t, ddi.LayoutCommon, b.Texture().LayoutBefore, "a simultaneous-access texture stays COMMON")
	assert.Equal(t, ddi.LayoutCommon, b.Texture().LayoutAfter)
	assert.Equal(t, ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresourcesIndex}, b.Texture().Subresources)
	end := begin
	end.Flags = FlagEndOnly
	b, err = Translate(end, tex, direct)
	require.NoError(t, err)
	assert.Equal(t, ddi.SyncSplit, b.Texture().SyncBefore)
	assert.Equal(t, ddi.SyncNonPixelShading, b.Texture().SyncAfter)

	b, err = Translate(UAV(0), Resource{}, direct)
	require.NoError(t, err)
	require.Equal(t, ddi.BarrierTypeGlobal, b.Type)
	assert.Equal(t, uavAccess, b.Global().AccessBefore)
	b, err = Translate(UAV(r), tex, direct)
	require.NoError(t, err)
	assert.Equal(t, ddi.LayoutUnorderedAccess, b.Texture().LayoutAfter)
	assert.Equal(t, ddi.AccessUnorderedAccess, b.Texture().AccessAfter, "no acceleration-structure access on a texture")
	b, err = Translate(UAV(r), buf, direct)
	require.NoError(t, err)
	assert.Equal(t, uavSync, b.Buffer().SyncBefore)
	assert.Equal(t, ddi.AccessUnorderedAccess, b.Buffer().AccessBefore, "only an acceleration-structure buffer has those accesses")
	b, err = Translate(UAV(r), Resource{AccelerationStructure: true}, direct)
	require.NoError(t, err)
	assert.Equal(t, uavAccess, b.Buffer().AccessAfter)

	// On a copy list a texture stays in COMMON (E-LEGACY-COPY-QUEUE).
	b, err = Translate(Transition(r, 0, ddi.StateCopyDest, ddi.StateCopySource), tex, ddi.CommandListTypeCopy)
	require.NoError(t, err)
	assert.Equal(t, ddi.LayoutCommon, b.Texture().LayoutBefore)
	assert.Equal(t, ddi.LayoutCommon, b.Texture().LayoutAfter)
	assert.Equal(t, ddi.AccessCopySource, b.Texture().AccessAfter)

	for _, a := range []Barrier{Aliasing(0, 0), Aliasing(r, 0), Aliasing(0, r), Aliasing(r, r+1)} {
		b, err = Translate(a, tex, direct)
		require.NoError(t, err)
		assert.Equal(t, &ddi.GlobalBarrier{SyncBefore: ddi.SyncAll, SyncAfter: ddi.SyncAll}, b.Global())
	}
}

// TestTranslateRefuses: what cannot be translated says which member.
func TestTranslateRefuses(t *testing.T) {
	tex := Resource{Texture: true}
	for _, c := range []struct {
		b    Barrier
		want string
	}{
		{Transition(1, 0, ddi.StateIndexBuffer, ddi.StateCommon), "StateBefore: resource state INDEX_BUFFER (0x2): a texture has no layout"},
		{Transition(1, 0, ddi.StateCommon, ddi.StateRenderTarget|ddi.StateCopySource), "StateAfter: resource state RENDER_TARGET|COPY_SOURCE"},
		{Barrier{Type: TypeTransition, Flags: FlagBeginOnly | FlagEndOnly}, "Flags BarrierFlags(0x3)"},
		{Barrier{Type: TypeUAV, Flags: FlagBeginOnly}, "a UAV barrier takes no flags (Flags BEGIN_ONLY)"},
		{Barrier{Type: TypeAliasing, Flags: FlagEndOnly}, "an aliasing barrier takes no flags (Flags END_ONLY)"},
		{Barrier{Type: 3}, "no resource barrier type is 3"},
	} {
		_, err := Translate(c.b, tex, direct)
		assert.ErrorContains(t, err, c.want)
	}
}
