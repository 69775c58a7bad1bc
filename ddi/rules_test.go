package ddi

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

func eachBit[T ~uint32](m T, f func(T)) {
	for rest := m; rest != 0; rest &= rest - 1 {
		f(T(1) << bits.TrailingZeros32(uint32(rest)))
	}
}

func TestExpandSync(t *testing.T) {
	assert.Equal(t, SyncVertexShading|SyncComputeShading, ExpandSync(SyncNonPixelShading))
	assert.Equal(t, SyncVertexShading|SyncPixelShading|SyncComputeShading, ExpandSync(SyncAllShading))
	assert.Equal(t, SyncInputAssembler|SyncVertexShading|SyncPixelShading|SyncDepthStencil|SyncRenderTarget, ExpandSync(SyncDraw))
	assert.Equal(t, SyncSplit|SyncCopy, ExpandSync(SyncSplit|SyncCopy))
	assert.Equal(t, BarrierSync(0x40000)|SyncPixelShading, ExpandSync(0x40000|SyncPixelShading), "undefined bits pass through")
	assert.Equal(t, SyncNone, ExpandSync(SyncNone))

	// Every subset of the umbrellas expands to the union of their rows, with
	// no umbrella bit left, and expanding again changes nothing.
	umbrellas := []BarrierSync{SyncAll, SyncDraw, SyncAllShading, SyncNonPixelShading}
	for m := 0; m < 1<<len(umbrellas); m++ {
		var s, want BarrierSync
		for i, u := range umbrellas {
			if m&(1<<i) != 0 {
				s |= u
				for _, r := range UmbrellaSyncs {
					if r.Umbrella == u {
						want |= r.Covers
					}
				}
			}
		}
		want &^= umbrellaMask
		got := ExpandSync(s | SyncCopy)
		assert.Equal(t, want|SyncCopy, got, s.String())
		assert.Zero(t, got&umbrellaMask)
		assert.Equal(t, got, ExpandSync(got))
	}
	// ALL covers every leaf scope.
	assert.Equal(t, DefinedSyncBits&^umbrellaMask&^SyncSplit, LeafSyncs)
	for _, r := range UmbrellaSyncs {
		assert.Zero(t, r.Covers&^DefinedSyncBits, r.Umbrella.String())
		assert.Zero(t, r.Covers&SyncSplit, r.Umbrella.String())
	}
}

func TestQueueTables(t *testing.T) {
	require.Len(t, Queues, len(QueueTypes))
	_, ok := QueueRulesFor(CommandListTypeBundle)
	assert.False(t, ok, "bundles record no barriers")

	owner := map[BarrierLayout]CommandListType{}
	for l := LayoutDirectQueueCommon; l <= LayoutDirectQueueCopyDest; l++ {
		owner[l] = CommandListTypeDirect
	}
	for l := LayoutComputeQueueCommon; l <= LayoutComputeQueueCopyDest; l++ {
		owner[l] = CommandListTypeCompute
	}
	videoOwner := map[BarrierLayout]CommandListType{
		LayoutVideoDecodeRead: CommandListTypeVideoDecode, LayoutVideoDecodeWrite: CommandListTypeVideoDecode,
		LayoutVideoProcessRead: CommandListTypeVideoProcess, LayoutVideoProcessWrite: CommandListTypeVideoProcess,
		LayoutVideoEncodeRead: CommandListTypeVideoEncode, LayoutVideoEncodeWrite: CommandListTypeVideoEncode,
	}
	for i, qt := range QueueTypes {
		q, ok := QueueRulesFor(qt)
		require.True(t, ok, qt.String())
		assert.Equal(t, &Queues[i], q)
		assert.Zero(t, q.Accesses&^DefinedAccessBits, qt.String())
		assert.Zero(t, q.Syncs&^DefinedSyncBits, qt.String())
		assert.True(t, q.AllowsLayout(LayoutCommon), qt.String())
		assert.True(t, q.AllowsLayout(LayoutUndefined), qt.String())
		assert.NotZero(t, q.Accesses&AccessNoAccess, qt.String())
		assert.NotZero(t, q.Syncs&SyncAll, qt.String())
		assert.NotZero(t, q.Syncs&SyncSplit, qt.String())
		seen := map[BarrierLayout]bool{}
		for _, l := range q.Layouts {
			assert.True(t, l.Valid(), "%s: %s", qt, l)
			assert.False(t, seen[l], "%s lists %s twice", qt, l)
			seen[l] = true
			if o, ok := owner[l]; ok {
				assert.Equal(t, o, qt, "%s is %s-only", l, o)
			}
			if o, ok := videoOwner[l]; ok {
				assert.Equal(t, o, qt, "%s belongs to %s", l, o)
			}
		}
		// Every access a queue allows can be synchronized on that queue:
		// some scope the access needs is a scope the queue has.
		eachBit(q.Accesses&^AccessNoAccess, func(a BarrierAccess) {
			row, ok := RequiredSyncs(a)
			require.True(t, ok, a.String())
			assert.NotZero(t, row.Syncs&(q.Syncs|ExpandSync(q.Syncs)), "%s allows %s but none of its scopes", qt, a)
		})
	}
	// Queue-specific layouts appear on exactly their queue.
	for l, o := range owner {
		for _, q := range Queues {
			assert.Equal(t, q.Type == o, q.AllowsLayout(l), "%s on %s", l, q.Type)
		}
	}
	d, _ := QueueRulesFor(CommandListTypeDirect)
	assert.False(t, d.AllowsLayout(LayoutComputeQueueUnorderedAccess))
	c, _ := QueueRulesFor(CommandListTypeCompute)
	assert.False(t, c.AllowsLayout(LayoutRenderTarget), "000 \"Layout Transitions\": compute cannot use RENDER_TARGET")
	assert.False(t, c.AllowsLayout(LayoutDirectQueueUnorderedAccess))
}

func TestLayoutAccessTable(t *testing.T) {
	seen := map[BarrierLayout]bool{}
	for _, r := range LayoutAccesses {
		assert.False(t, seen[r.Layout], r.Layout.String())
		seen[r.Layout] = true
		assert.Zero(t, r.Accesses&^DefinedAccessBits, r.Layout.String())
		assert.NotZero(t, r.Accesses&AccessNoAccess, "%s: every layout accepts NO_ACCESS", r.Layout)
	}
	for _, l := range AllBarrierLayouts() {
		assert.True(t, seen[l], "no row for %s", l)
	}
	// Every layout × every access bit, against the row; COMMON always fits;
	// both-UNDEFINED fits anything; a half-UNDEFINED barrier needs NO_ACCESS.
	for _, l := range AllBarrierLayouts() {
		row, ok := CompatibleAccesses(l)
		require.True(t, ok)
		assert.True(t, LayoutAccessOK(l, LayoutCommon, AccessCommon))
		for i := 0; i < 32; i++ {
			a := BarrierAccess(1) << i
			assert.Equal(t, row&a != 0, LayoutAccessOK(l, LayoutCommon, a), "%s with %s", l, a)
			assert.True(t, LayoutAccessOK(LayoutUndefined, LayoutUndefined, a), a.String())
		}
	}
	assert.False(t, LayoutAccessOK(LayoutUndefined, LayoutRenderTarget, AccessRenderTarget))
	assert.True(t, LayoutAccessOK(LayoutUndefined, LayoutRenderTarget, AccessNoAccess))
	assert.False(t, LayoutAccessOK(BarrierLayout(99), LayoutCommon, AccessShaderResource))
	assert.False(t, LayoutAccessOK(LayoutShaderResource, LayoutCommon, AccessShaderResource|AccessUnorderedAccess))
}

func TestAccessSyncTable(t *testing.T) {
	seen := map[BarrierAccess]bool{}
	for _, r := range AccessSyncs {
		assert.False(t, seen[r.Access], r.Access.String())
		seen[r.Access] = true
		assert.Zero(t, r.Syncs&^DefinedSyncBits, r.Access.String())
		assert.Equal(t, r.Any, r.Syncs == 0, r.Access.String())
	}
	eachBit(DefinedAccessBits, func(a BarrierAccess) { assert.True(t, seen[a], "no row for %s", a) })
	assert.True(t, seen[AccessCommon])

	// Every access bit × every sync bit.
	eachBit(DefinedAccessBits, func(a BarrierAccess) {
		row, _ := RequiredSyncs(a)
		for i := 0; i < 32; i++ {
			s := BarrierSync(1) << i
			want := row.Any || row.Syncs&(s|ExpandSync(s)) != 0
			ok, bad := AccessSyncOK(a, s)
			assert.Equal(t, want, ok, "%s with %s", a, s)
			if !ok {
				assert.Equal(t, a, bad)
			}
		}
	})
	// An umbrella in the barrier names its scopes: NON_PIXEL_SHADING
	// satisfies SHADER_RESOURCE through VERTEX_SHADING and COMPUTE_SHADING.
	// ALL in a row is not expanded: PIXEL_SHADING does not satisfy
	// COPY_SOURCE (ALL|COPY), and DEPTH_STENCIL not SHADER_RESOURCE (…DRAW…).
	ok, _ := AccessSyncOK(AccessShaderResource, SyncNonPixelShading)
	assert.True(t, ok)
	ok, bad := AccessSyncOK(AccessShaderResource|AccessCopySource, SyncPixelShading)
	assert.False(t, ok)
	assert.Equal(t, AccessCopySource, bad)
	ok, _ = AccessSyncOK(AccessShaderResource, SyncDepthStencil)
	assert.False(t, ok)
	ok, _ = AccessSyncOK(AccessCopySource, SyncAll)
	assert.True(t, ok)
	ok, _ = AccessSyncOK(AccessNoAccess, SyncNone)
	assert.True(t, ok)
	ok, _ = AccessSyncOK(AccessRenderTarget, SyncNone)
	assert.False(t, ok)
}

// The tables behind ExpandSync and AccessSyncOK give what the rows say
// for masks of many bits: the umbrellas' union, and the lowest access bit
// whose row finds none of its scopes.
func TestSyncTablesFollowTheRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		s := BarrierSync(rng.Uint32() & rng.Uint32())
		a := BarrierAccess(rng.Uint32() & rng.Uint32() & rng.Uint32())
		if rng.IntN(4) == 0 {
			s &= DefinedSyncBits
			a &= DefinedAccessBits
		}
		want := s &^ umbrellaMask
		for _, r := range UmbrellaSyncs {
			if s&r.Umbrella != 0 {
				want |= r.Covers &^ umbrellaMask
			}
		}
		require.Equal(t, want, ExpandSync(s), "ExpandSync(%#x)", uint32(s))

		var bad BarrierAccess
		for rest := a; rest != 0 && bad == 0; rest &= rest - 1 {
			bit := rest & -rest
			row, ok := RequiredSyncs(bit)
			if ok && !row.Any && row.Syncs&(s|want) == 0 {
				bad = bit
			}
		}
		ok, got := AccessSyncOK(a, s)
		require.Equal(t, bad == 0, ok, "AccessSyncOK(%#x, %#x)", uint32(a), uint32(s))
		require.Equal(t, bad, got, "AccessSyncOK(%#x, %#x)", uint32(a), uint32(s))
	}
}

func TestLegacyStateTable(t *testing.T) {
	byState := map[ResourceStates][]string{}
	names := map[string]bool{}
	for _, r := range LegacyStates {
		assert.False(t, names[r.Name], r.Name)
		names[r.Name] = true
		st, err := ParseResourceStates(r.Name)
		require.NoError(t, err, r.Name)
		assert.Equal(t, st, r.State, r.Name)
		byState[r.State] = append(byState[r.State], r.Name)
		assert.Zero(t, r.Access&^DefinedAccessBits, r.Name)
		assert.Zero(t, r.Sync&^DefinedSyncBits, r.Name)
		ok, bad := AccessSyncOK(r.Access, r.Sync)
		assert.True(t, ok, "%s: access %s needs a sync its sync %s lacks", r.Name, bad, r.Sync)
		if r.HasLayout {
			assert.True(t, r.Layout.Valid(), r.Name)
			assert.True(t, LayoutAccessOK(r.Layout, LayoutCommon, r.Access), "%s: %s does not accept %s", r.Name, r.Layout, r.Access)
			on := false
			for _, q := range Queues {
				on = on || q.AllowsLayout(r.Layout)
			}
			assert.True(t, on, "%s: %s is allowed on no queue", r.Name, r.Layout)
		}
	}
	// Each state bit has a row (two for the aliased 0x200).
	for i := 0; i < 32; i++ {
		st := ResourceStates(1) << i
		if _, named := stateNames.primary[uint32(st)]; !named {
			continue
		}
		assert.NotEmpty(t, byState[st], st.String())
	}
	assert.Len(t, byState[StateIndirectArgument], 2)
}

func TestAccessClasses(t *testing.T) {
	assert.Zero(t, WriteAccesses&AccessShaderResource)
	assert.NotZero(t, WriteAccesses&AccessVideoEncodeWrite, "E-VIDEO-WRITE")
	assert.Zero(t, UploadHeapAccesses&WriteAccesses, "upload heaps are read by the GPU")
	assert.Equal(t, ReadbackHeapAccesses, ReadbackHeapAccesses&WriteAccesses, "readback heaps are written by the GPU")
	assert.Zero(t, SimultaneousBarrierFreeAccesses&BufferForbiddenAccesses)
}

// TestRulesDocumentGolden pins `ebref rules --json`.
func TestRulesDocumentGolden(t *testing.T) {
	got, err := json.MarshalIndent(Rules(), "", " ")
	require.NoError(t, err)
	got = append(got, '\n')
	const golden = "testdata/rules.golden.json"
	if *update {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go test ./ddi -update after an intended change")

	var text bytes.Buffer
	require.NoError(t, Rules().WriteText(&text))
	assert.Contains(t, text.String(), "Umbrella sync scopes")
	assert.Contains(t, text.String(), "LEGACY_PIXEL_SHADER_RESOURCE | SHADER_RESOURCE | PIXEL_SHADING")
}
