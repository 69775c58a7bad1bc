package scenario

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/stretchr/testify/assert"
)

// TestUsesCoverTheLanguage: every view a work command can be given has a
// use, and every use is of a view the language can give.
func TestUsesCoverTheLanguage(t *testing.T) {
	want := map[string][]string{"resolve-query": {"0"}}
	for cmd, roles := range commandRoles {
		want[cmd] = append(want[cmd], roles...)
	}
	for cmd, ops := range positional {
		for i, k := range ops {
			if k == 'v' {
				want[cmd] = append(want[cmd], fmt.Sprint(i))
			}
		}
	}
	for cmd, roles := range want {
		for _, r := range roles {
			_, ok := Uses[cmd][r]
			assert.True(t, ok, "%s %s has no use", cmd, r)
		}
	}
	for cmd, roles := range Uses {
		for r := range roles {
			assert.True(t, slices.Contains(want[cmd], r), "use %s %s is of no view the language gives", cmd, r)
		}
	}
}

// TestUsesAgreeWithTheRuleTables: each use is a barrier state ddi's tables
// accept: its access is legal in its sync scope, a texture's layout
// supports its access, and the legacy state that stands for it allows the
// access.
func TestUsesAgreeWithTheRuleTables(t *testing.T) {
	for cmd, roles := range Uses {
		for r, u0 := range roles {
			for _, u := range []Use{u0, u0.On(true)} {
				name := fmt.Sprintf("%s %s (%s)", cmd, r, u.Access)
				ok, _ := ddi.AccessSyncOK(u.Access, u.Sync)
				assert.True(t, ok, "%s: access not legal in sync %s", name, u.Sync)
				if u.Layout != ddi.LayoutUndefined {
					assert.True(t, ddi.TextureLayoutAccessOK(u.Layout, u.Layout, u.Access, false), "%s: layout %s", name, u.Layout)
					_, ok := u.LayoutOn(ddi.CommandListTypeDirect)
					if !ok {
						_, ok = u.LayoutOn(ddi.CommandListTypeVideoDecode)
						ok = ok || u.Sync&(ddi.SyncVideoProcess|ddi.SyncVideoEncode) != 0
					}
					assert.True(t, ok, "%s: no queue type takes layout %s", name, u.Layout)
				}
				texture := u.Layout != ddi.LayoutUndefined
				eq, err := ddi.LegacyEquivalent(u.State, texture)
				if assert.NoError(t, err, name) {
					assert.Equal(t, u.Access, eq.Access&u.Access, "%s: legacy %s covers access", name, u.State)
				}
				assert.Equal(t, u.Writes(), u.Access&(ddi.AccessRenderTarget|ddi.AccessUnorderedAccess|ddi.AccessDepthStencilWrite|
					ddi.AccessStreamOutput|ddi.AccessCopyDest|ddi.AccessResolveDest|ddi.AccessRaytracingAccelerationStructureWrite|
					ddi.AccessVideoDecodeWrite|ddi.AccessVideoProcessWrite|ddi.AccessVideoEncodeWrite) != 0, "%s: writes", name)
			}
		}
	}
}

// TestLayoutOn: a use's layout moves to the queue type that runs it.
func TestLayoutOn(t *testing.T) {
	for _, c := range []struct {
		u    Use
		q    ddi.CommandListType
		want ddi.BarrierLayout
		ok   bool
	}{
		{Uses["dispatch"]["srv"], ddi.CommandListTypeDirect, ddi.LayoutDirectQueueShaderResource, true},
		{Uses["dispatch"]["srv"], ddi.CommandListTypeCompute, ddi.LayoutComputeQueueShaderResource, true},
		{Uses["copy-buffer"]["0"], ddi.CommandListTypeCopy, ddi.LayoutCommon, true},
		{Uses["draw"]["rt"], ddi.CommandListTypeCompute, 0, false},
		{Uses["decode"]["out"], ddi.CommandListTypeVideoDecode, ddi.LayoutVideoDecodeWrite, true},
	} {
		got, ok := c.u.LayoutOn(c.q)
		assert.Equal(t, []any{c.want, c.ok}, []any{got, ok}, "%s on %s", c.u.Layout, c.q)
	}
	assert.Equal(t, ddi.LayoutCopyDest, Uses["copy-buffer"]["0"].Generic())
	assert.Equal(t, ddi.LayoutRenderTarget, Uses["draw"]["rt"].Generic())
}
