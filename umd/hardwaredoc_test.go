package umd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/docgen"
)

// profileRows is docs/hardware.md's table of what the driver emits on each
// profile for a render target written on the direct queue and then read,
// from the driver's own records of the Barrier call.
func profileRows(t *testing.T) string {
	rows := []struct {
		label string
		sa    ddi.BarrierSync
		aa    ddi.BarrierAccess
		la    ddi.BarrierLayout
	}{
		{"sampled on DIRECT (`RENDER_TARGET` → `DIRECT_QUEUE_SHADER_RESOURCE`)", ddi.SyncPixelShading, ddi.AccessShaderResource, ddi.LayoutDirectQueueShaderResource},
		{"sampled through a generic layout (→ `SHADER_RESOURCE`, which compute queues may also use)", ddi.SyncPixelShading, ddi.AccessShaderResource, ddi.LayoutShaderResource},
		{"copied on DIRECT (→ `DIRECT_QUEUE_COPY_SOURCE`)", ddi.SyncCopy, ddi.AccessCopySource, ddi.LayoutDirectQueueCopySource},
		{"copied through a generic layout (→ `COPY_SOURCE`, which copy and compute queues may use)", ddi.SyncCopy, ddi.AccessCopySource, ddi.LayoutCopySource},
		{"handed to the COMPUTE queue (→ `COMMON`, `SyncAfter` `NONE`, then a fence)", ddi.SyncNone, ddi.AccessNoAccess, ddi.LayoutCommon},
	}
	profiles := hwmodel.ProfileNames()
	var b strings.Builder
	b.WriteString("| a render target written on DIRECT, then |")
	for _, p := range profiles {
		fmt.Fprintf(&b, " `%s` |", p)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(profiles)) + "\n")
	for _, row := range rows {
		b.WriteString("| " + row.label + " |")
		for _, p := range profiles {
			e := newEnv(t, p, Options{})
			rt := e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
			cl := e.list(ddi.CommandListTypeDirect)
			cl.Draw(Draw{RenderTargets: []View{WholeTexture(rt)}})
			cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, row.sa, ddi.AccessRenderTarget, row.aa,
				ddi.LayoutRenderTarget, row.la, rt)})
			require.NoError(t, cl.Err(), "%s on %s", row.label, p)
			recs := cl.Records()
			require.NotEmpty(t, recs)
			rec := recs[len(recs)-1]
			var parts []string
			if rec.Waits > 0 {
				parts = append(parts, "WAIT")
			}
			var cache []string
			if rec.Flush != 0 {
				cache = append(cache, "flush "+rec.Flush.String())
			}
			if rec.Invalidate != 0 {
				cache = append(cache, "invalidate "+rec.Invalidate.String())
			}
			if len(cache) > 0 {
				parts = append(parts, strings.Join(cache, ", "))
			}
			for _, op := range cl.SurfaceOps(rec) {
				parts = append(parts, op.Work)
			}
			cell := strings.Join(parts, "; ")
			if cell == "" {
				cell = "nothing"
			}
			b.WriteString(" " + strings.ReplaceAll(cell, "|", `\|`) + " |") // a mask's | is no column
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestHardwareDocProfileRows: docs/hardware.md's table of what each profile
// needs after a render target is written is what the driver emits (go test
// ./umd -run TestHardwareDocProfileRows -update rewrites it).
func TestHardwareDocProfileRows(t *testing.T) {
	require.NoError(t, docgen.Check("../docs/hardware.md", "go test ./umd -run TestHardwareDocProfileRows -update",
		[]docgen.Section{{Name: "profile-rows", Body: profileRows(t)}}, *update))
}
