package umd

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
)

// TestPlanStartsEmptyEachCall: a list plans every Barrier call in one plan
// it reuses. A call after one that left every part of it in use (a split
// begin and a barrier with compression work, a metadata initialisation, a
// global barrier over whole caches, buffer spans, then a split end) emits
// exactly what the same call emits as the list's first: nothing of the
// last plan carries over into the parts the call uses again.
func TestPlanStartsEmptyEachCall(t *testing.T) {
	for _, profile := range []string{"discrete", "unified3d", "coherent"} {
		e := newEnv(t, profile, Options{})
		rts := make([]ddi.HResource, 6)
		for i := range rts {
			rts[i] = e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
		}
		a := e.buffer("A", 1<<12, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		b := e.buffer("B", 1<<12, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
		// calls holds what one Barrier call names: a split begin, a barrier
		// that decompresses now, a discard (METADATA_INIT) and a buffer.
		calls := func(split, now, discard ddi.HResource, buffer ddi.HResource) []ddi.Barrier {
			return []ddi.Barrier{
				tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessCommon,
					ddi.LayoutRenderTarget, ddi.LayoutCommon, split),
				tex(ddi.SyncRenderTarget, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCommon,
					ddi.LayoutRenderTarget, ddi.LayoutCommon, now),
				tex(ddi.SyncNone, ddi.SyncRenderTarget, ddi.AccessNoAccess, ddi.AccessRenderTarget,
					ddi.LayoutUndefined, ddi.LayoutRenderTarget, discard),
				buf(ddi.SyncComputeShading, ddi.SyncVertexShading, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, buffer),
			}
		}
		// Its global barrier drains, holds, flushes and invalidates what
		// the later call does not.
		busy := append(calls(rts[0], rts[1], rts[2], a),
			glob(ddi.SyncDepthStencil, ddi.SyncIndexInput, ddi.AccessDepthStencilWrite, ddi.AccessIndexBuffer))
		end := []ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncCopy, ddi.AccessRenderTarget, ddi.AccessCommon,
			ddi.LayoutRenderTarget, ddi.LayoutCommon, rts[0])}
		again := calls(rts[3], rts[4], rts[5], b)

		first := e.list(ddi.CommandListTypeDirect)
		first.Barrier(again)
		later := e.list(ddi.CommandListTypeDirect)
		later.Barrier(busy)
		later.Barrier(end)
		later.Barrier(again)
		require.NoError(t, first.Err(), profile)
		require.NoError(t, later.Err(), profile)

		want, got := callTexts(t, first, 0), callTexts(t, later, 2)
		require.NotEmpty(t, want, profile)
		// A split begin takes the list's next event: the second one here.
		require.True(t, slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "EVENT_SIGNAL event=2 ") }),
			"%s: %v", profile, got)
		require.Equal(t, sameEvent(want), sameEvent(got), "%s: a call after a busy one", profile)
		if profile != "coherent" { // which compresses nothing
			require.NotEmpty(t, later.SurfaceOps(later.Records()[0]), "%s: the busy call had compression work", profile)
		}
	}
}

// callTexts is the packets of the n-th Barrier call, as the listing
// prints them without offsets.
func callTexts(t *testing.T, cl *CommandList, n int) []string {
	var out []string
	for _, l := range callLines(t, cl, n) {
		out = append(out, l.Op+" "+l.Text)
	}
	return out
}

// sameEvent writes every event number in texts as E.
func sameEvent(texts []string) []string {
	out := make([]string, len(texts))
	for i, s := range texts {
		out[i] = eventNumber.ReplaceAllString(s, "event=E")
	}
	return out
}

var eventNumber = regexp.MustCompile(`\bevent=[0-9]+`)
