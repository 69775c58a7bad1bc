package umd

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixture is a device with one resource of each kind the validation rules
// tell apart.
type fixture struct {
	*env
	rt     ddi.HResource // render target + shader resource, RENDER_TARGET
	plain  ddi.HResource // shader resource only, COMMON
	mips   ddi.HResource // 2 slices × 3 mips, unordered access, COMMON
	sa     ddi.HResource // simultaneous-access render target
	ds     ddi.HResource // depth-stencil, DEPTH_STENCIL_WRITE
	buf    ddi.HResource // default-heap buffer, unordered access
	plainB ddi.HResource // default-heap buffer without unordered access
	upload ddi.HResource // upload-heap buffer
}

func newFixture(t *testing.T) *fixture {
	e := newEnv(t, "discrete", Options{})
	f := &fixture{env: e}
	f.rt = e.texture("RT", 64, 64, rtFlags, ddi.LayoutRenderTarget)
	f.plain = e.texture("PLAIN", 16, 16, ddi.ResourceFlagShaderResource, ddi.LayoutCommon)
	var err error
	f.mips, err = e.d.CreateCommitted(Texture2DDesc(ddi.FormatR8G8B8A8Unorm, 32, 32, 2, 3, uavFlags, ddi.LayoutCommon), resource.HeapDefault)
	require.NoError(t, err)
	f.sa = e.texture("SA", 16, 16, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon)
	f.ds, err = e.d.CreateCommitted(Texture2DDesc(ddi.FormatD32Float, 32, 32, 1, 1, ddi.ResourceFlagDepthStencil,
		ddi.LayoutDepthStencilWrite), resource.HeapDefault)
	require.NoError(t, err)
	f.buf = e.buffer("BUF", 4096, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	f.plainB = e.buffer("PLAINBUF", 4096, 0, resource.HeapDefault)
	f.upload = e.buffer("UPLOAD", 4096, 0, resource.HeapUpload)
	return f
}

// undefinedBit is the lowest bit a flag set does not define.
func undefinedBit(defined uint32) uint32 { return 1 << bits.TrailingZeros32(^defined) }

func all() ddi.SubresourceRange {
	return ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
}

func ranged(flags ddi.RangedBarrierFlags, r ddi.HResource, begin, end uint64) ddi.Barrier {
	return ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: flags, Resource: r, Range: ddi.Range{Begin: begin, End: end}})
}

// rejection is one invalid use: what the list records first (valid), the
// call that breaks a rule, and the message it must draw.
type rejection struct {
	name  string
	list  ddi.CommandListType
	prep  func(f *fixture, cl *CommandList)
	call  func(f *fixture) []ddi.Barrier
	id    MessageID
	field string
	value string
	rule  string // a part of the rule's text, where it names what is wrong
	index int    // the barrier at fault
}

const (
	syncNone   = ddi.SyncNone
	noAccess   = ddi.AccessNoAccess
	layoutNone = ddi.LayoutUndefined
)

var rejections = []rejection{
	// The sync members (000 "D3D12DDI_BARRIER_SYNC", "Command Queue Sync
	// Compatibility", "Split Barriers").
	{name: "sync-undefined-bit", call: func(f *fixture) []ddi.Barrier {
		s := ddi.BarrierSync(undefinedBit(uint32(ddi.DefinedSyncBits)))
		return []ddi.Barrier{glob(s, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)}
	}, id: MsgIncompatibleBarrierSync, field: "SyncBefore", value: "0x10000"},
	{name: "split-with-other-bits", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncSplit|ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, f.buf)}
	}, id: MsgIncompatibleBarrierValues, field: "SyncAfter", value: "COPY|SPLIT"},
	{name: "sync-not-on-queue", list: ddi.CommandListTypeCompute, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncRenderTarget, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, f.buf)}
	}, id: MsgIncompatibleBarrierSync, field: "SyncBefore", value: "RENDER_TARGET",
		rule: "RENDER_TARGET is not a sync a COMPUTE command list supports"},
	{name: "sync-partly-not-on-queue", list: ddi.CommandListTypeCompute, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncRenderTarget|ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, f.buf)}
	}, id: MsgIncompatibleBarrierSync, field: "SyncBefore", rule: "RENDER_TARGET is not a sync a COMPUTE command list supports"},
	{name: "split-both-sides", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncSplit, ddi.SyncSplit, ddi.AccessUnorderedAccess, ddi.AccessCopySource, f.buf)}
	}, id: MsgIncompatibleBarrierValues, field: "SyncBefore/SyncAfter", value: "SPLIT/SPLIT"},
	{name: "global-split", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{glob(ddi.SyncComputeShading, ddi.SyncSplit, ddi.AccessUnorderedAccess, ddi.AccessShaderResource)}
	}, id: MsgIncompatibleBarrierValues, field: "SyncBefore/SyncAfter", value: "SPLIT"},

	// The access members (000 "D3D12DDI_BARRIER_ACCESS", "Command Queue
	// Access Compatibility", "Access Bits Barrier Sync Compatibility").
	{name: "access-undefined-bit", call: func(f *fixture) []ddi.Barrier {
		a := ddi.BarrierAccess(undefinedBit(uint32(ddi.DefinedAccessBits)))
		return []ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, a)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter", value: "0x800000"},
	{name: "no-access-combined", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, noAccess|ddi.AccessCopySource, f.buf)}
	}, id: MsgIncompatibleBarrierValues, field: "AccessAfter", value: "COPY_SOURCE|NO_ACCESS"},
	{name: "sync-none-with-access", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(syncNone, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, f.buf)}
	}, id: MsgIncompatibleBarrierValues, field: "AccessBefore", value: "COPY_DEST"},
	{name: "access-not-on-queue", list: ddi.CommandListTypeCompute, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessIndexBuffer, f.buf)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter", value: "INDEX_BUFFER"},
	{name: "access-without-its-sync", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessShaderResource, f.buf)}
	}, id: MsgIncompatibleBarrierSync, field: "SyncAfter", value: "COPY"},

	// Handles and barrier types (000 "Barrier Types", "D3D12DDI_BARRIER_TYPE").
	{name: "null-resource", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, 0)}
	}, id: MsgInvalidHandle, field: "pResource", value: "NULL"},
	{name: "unknown-resource", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, 0xdead)}
	}, id: MsgInvalidHandle, field: "pResource", value: "0xdead"},
	{name: "unknown-type", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon), {Type: 7}}
	}, id: MsgIncompatibleBarrierType, field: "Type", value: "0x7", index: 1},
	{name: "texture-barrier-on-buffer", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, ddi.LayoutCommon, ddi.LayoutCommon, f.buf)}
	}, id: MsgIncompatibleBarrierType, field: "Type", value: "TEXTURE"},
	{name: "buffer-barrier-on-texture", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, f.plain)}
	}, id: MsgIncompatibleBarrierType, field: "Type", value: "BUFFER"},

	// Texture barriers: flags, layouts, layout-access compatibility,
	// subresources (000 "Texture Barriers", "Layout Access Compatibility",
	// "D3D12_BARRIER_LAYOUT_UNDEFINED", "Copy Queues").
	{name: "texture-flags-undefined", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{texRange(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopySource, ddi.AccessCopySource,
			ddi.LayoutCommon, ddi.LayoutCommon, f.plain, all(), 0x2)}
	}, id: MsgIncompatibleBarrierValues, field: "Flags", value: "0x2"},
	{name: "layout-not-a-layout", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopySource, ddi.AccessCopySource, 77, ddi.LayoutCommon, f.plain)}
	}, id: MsgUnsupportedBarrierLayout, field: "LayoutBefore", value: "0x4d"},
	{name: "layout-not-on-queue", list: ddi.CommandListTypeCompute, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessShaderResource, ddi.AccessShaderResource,
			ddi.LayoutShaderResource, ddi.LayoutDirectQueueShaderResource, f.plain)}
	}, id: MsgIncompatibleBarrierLayout, field: "LayoutAfter", value: "DIRECT_QUEUE_SHADER_RESOURCE"},
	{name: "layout-not-for-resource", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(syncNone, ddi.SyncRenderTarget, noAccess, ddi.AccessRenderTarget, ddi.LayoutCommon, ddi.LayoutRenderTarget, f.plain)}
	}, id: MsgIncompatibleBarrierLayout, field: "LayoutAfter", value: "RENDER_TARGET"},
	{name: "simultaneous-access-layout", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(syncNone, ddi.SyncPixelShading, noAccess, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutShaderResource, f.sa)}
	}, id: MsgIncompatibleBarrierLayout, field: "LayoutAfter", value: "SHADER_RESOURCE"},
	{name: "copy-queue-transition", list: ddi.CommandListTypeCopy, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, ddi.LayoutCommon, ddi.LayoutCopySource, f.plain)}
	}, id: MsgIncompatibleBarrierLayout, field: "LayoutAfter"},
	{name: "discard-needs-undefined", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{texRange(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.AccessRenderTarget,
			ddi.LayoutRenderTarget, ddi.LayoutRenderTarget, f.rt, all(), ddi.TextureBarrierFlagDiscard)}
	}, id: MsgIncompatibleBarrierValues, field: "Flags", value: "DISCARD"},
	{name: "undefined-before-with-access", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.AccessRenderTarget,
			layoutNone, ddi.LayoutRenderTarget, f.rt)}
	}, id: MsgIncompatibleBarrierValues, field: "AccessBefore", value: "RENDER_TARGET"},
	{name: "undefined-after-with-access", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.AccessRenderTarget,
			ddi.LayoutRenderTarget, layoutNone, f.rt)}
	}, id: MsgIncompatibleBarrierValues, field: "AccessAfter", value: "RENDER_TARGET"},
	{name: "access-before-not-in-layout", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutRenderTarget, ddi.LayoutRenderTarget, f.rt)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessBefore", value: "SHADER_RESOURCE"},
	{name: "access-after-not-in-layout", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget, ddi.AccessRenderTarget,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter", value: "RENDER_TARGET"},
	{name: "simultaneous-access-no-depth", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncDepthStencil, ddi.AccessRenderTarget, ddi.AccessDepthStencilRead,
			ddi.LayoutCommon, ddi.LayoutCommon, f.sa)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter", value: "DEPTH_STENCIL_READ"},
	{name: "subresource-out-of-range", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{texRange(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessShaderResource, ddi.AccessShaderResource,
			ddi.LayoutCommon, ddi.LayoutCommon, f.mips, ddi.SubresourceRange{IndexOrFirstMipLevel: 6}, 0)}
	}, id: MsgOutOfBoundsBarrierSubresource, field: "Subresources.IndexOrFirstMipLevel"},
	{name: "mip-range-out-of-range", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{texRange(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessShaderResource, ddi.AccessShaderResource,
			ddi.LayoutCommon, ddi.LayoutCommon, f.mips, ddi.SubresourceRange{IndexOrFirstMipLevel: 2, NumMipLevels: 2, NumArraySlices: 1, NumPlanes: 1}, 0)}
	}, id: MsgOutOfBoundsBarrierSubresource},

	// What the resource allows (000 "Upload Heap Resources", the flags a
	// view needs, "Barrier-Free Access").
	{name: "buffer-uav-without-flag", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCopyDest, ddi.AccessUnorderedAccess, f.plainB)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter"},
	{name: "upload-heap-copy-dest", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopySource, ddi.AccessCopyDest, f.upload)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter"},
	{name: "buffer-depth-access", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncDepthStencil, ddi.AccessCopyDest, ddi.AccessDepthStencilRead, f.buf)}
	}, id: MsgIncompatibleBarrierAccess, field: "AccessAfter"},

	// Ranged barriers (000 "D3D12DDI_RANGED_BARRIER_0094", errata E-RANGED-FLAGS).
	{name: "ranged-undefined-flag", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy|0x8, f.buf, 0, 8)}
	}, id: MsgIncompatibleBarrierValues, field: "Flags"},
	{name: "ranged-not-atomic-copy", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAcquire, f.buf, 0, 8)}
	}, id: MsgIncompatibleBarrierValues, field: "Flags", value: "ACQUIRE"},
	{name: "ranged-acquire-and-release", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy|ddi.RangedBarrierFlagAcquire|ddi.RangedBarrierFlagRelease, f.buf, 0, 8)}
	}, id: MsgIncompatibleBarrierValues, field: "Flags", value: "ATOMIC_COPY|ACQUIRE|RELEASE"},
	{name: "ranged-unknown-handle", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy, 0x7777, 0, 8)}
	}, id: MsgInvalidHandle, field: "hResource", value: "0x7777"},
	{name: "ranged-subresource", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: ddi.RangedBarrierFlagAtomicCopy, Resource: f.buf,
			Subresource: 1, Range: ddi.Range{Begin: 0, End: 8}})}
	}, id: MsgOutOfBoundsBarrierSubresource, field: "Subresource", value: "1"},
	{name: "ranged-texture", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy, f.plain, 0, 8)}
	}, id: MsgIncompatibleBarrierDimension, field: "hResource", value: "TEXTURE2D"},
	{name: "ranged-empty", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy, f.buf, 8, 8)}
	}, id: MsgBufferBarrierSubregionOutOfBounds, field: "Range", value: "[8,8)"},
	{name: "ranged-past-end", call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy, f.buf, 4088, 4104)}
	}, id: MsgBufferBarrierSubregionOutOfBounds, field: "Range", value: "[4088,4104)"},

	// Sequencing within the list (000 "Sequential Barriers", "Layout
	// Transitions", "D3D12_BARRIER_SYNC_NONE", "Split Barriers").
	{name: "after-sync-none", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, syncNone, ddi.AccessUnorderedAccess, noAccess, f.buf)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource, f.buf)}
	}, id: MsgSyncNoneAccessed, field: "SyncBefore", value: "COPY"},
	{name: "sync-none-after-access", prep: func(f *fixture, cl *CommandList) {
		cl.CopyBufferRegion(f.buf, 0, f.plainB, 0, 64)
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(syncNone, ddi.SyncCopy, noAccess, ddi.AccessCopySource, f.buf)}
	}, id: MsgSyncNoneAccessed, field: "SyncBefore", value: "NONE"},
	{name: "barrier-inside-split", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncPixelShading, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource,
			ddi.LayoutShaderResource, ddi.LayoutCopySource, f.rt)}
	}, id: MsgSplitMismatch, field: "SyncBefore", value: "PIXEL_SHADING"},
	{name: "split-end-after-other-barrier", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncCopy, ddi.AccessShaderResource, ddi.AccessCopySource,
			ddi.LayoutShaderResource, ddi.LayoutCopySource, f.rt)}
	}, id: MsgSplitMismatch, field: "SyncBefore", value: "SPLIT"},
	{name: "split-end-differs", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncSplit, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncSplit, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, f.rt)}
	}, id: MsgSplitMismatch, field: "SyncBefore", value: "SPLIT"},
	{name: "sync-before-misses-sync-after", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncComputeShading|ddi.SyncCopy, ddi.AccessUnorderedAccess,
			ddi.AccessCopySource|ddi.AccessShaderResource, f.buf)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopySource, ddi.AccessCopyDest, f.buf)}
	}, id: MsgSequentialBarrierSync, field: "SyncBefore", value: "COPY"},
	{name: "layout-before-not-what-list-left", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)})
	}, call: func(f *fixture) []ddi.Barrier {
		return []ddi.Barrier{tex(ddi.SyncPixelShading, ddi.SyncRenderTarget, ddi.AccessShaderResource, ddi.AccessRenderTarget,
			ddi.LayoutDirectQueueShaderResource, ddi.LayoutRenderTarget, f.rt)}
	}, id: MsgIncompatibleBarrierLayout, field: "LayoutBefore", value: "DIRECT_QUEUE_SHADER_RESOURCE"},
	{name: "access-in-wrong-layout", prep: func(f *fixture, cl *CommandList) {
		cl.Barrier([]ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutShaderResource, f.rt)})
		cl.Draw(Draw{RenderTargets: []View{WholeTexture(f.rt)}})
	}, id: MsgIncompatibleTextureLayout, field: "RenderTarget", value: "RT"},
}

func TestBarrierRejections(t *testing.T) {
	for _, c := range rejections {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			cl := f.list(c.list)
			if c.prep != nil {
				c.prep(f, cl)
			}
			if c.call != nil {
				require.NoError(t, cl.Err(), "the preparation is valid")
			}
			before := cl.Buffer().Len()
			if c.call != nil {
				cl.Barrier(c.call(f))
			}
			var m *Message
			require.True(t, errors.As(cl.Err(), &m), "%s must be rejected", c.name)
			t.Log(m.Error())
			assert.Equal(t, c.id, m.ID, "message ID: %s", m)
			assert.Equal(t, SeverityError, m.Severity)
			if c.field != "" {
				assert.Equal(t, c.field, m.Field, "field: %s", m)
			}
			if c.value != "" {
				assert.Equal(t, c.value, m.Value, "value: %s", m)
			}
			if c.call != nil {
				assert.Equal(t, "Barrier", m.Command)
				assert.Equal(t, c.index, m.Barrier, "barrier index")
				assert.Equal(t, before, cl.Buffer().Len(), "a rejected call emits nothing")
			}
			assert.Contains(t, m.Error(), fmt.Sprintf("#%d: %s", m.ID, m.ID.Name()), "the message names its ID")
			assert.NotEmpty(t, m.Rule)
			assert.Contains(t, m.Rule, c.rule)
			// The list stays in its error state: later commands record
			// nothing, Close returns the first error, and the list cannot run.
			n := cl.Buffer().Len()
			cl.Barrier([]ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)})
			assert.Equal(t, n, cl.Buffer().Len())
			assert.Equal(t, m, cl.Close())
			assert.Error(t, f.direct.ExecuteCommandLists(cl))
		})
	}
}

// Calls the rules accept with a warning, and calls on lists that cannot
// take them.
func TestBarrierCallLevelMessages(t *testing.T) {
	f := newFixture(t)

	cl := f.list(ddi.CommandListTypeDirect)
	cl.Barrier(nil)
	require.NoError(t, cl.Err())
	require.Len(t, cl.Warnings(), 1)
	assert.Equal(t, MsgZeroBarriers, cl.Warnings()[0].ID)
	assert.Equal(t, 0, cl.Buffer().Len(), "an empty call emits nothing")

	cl.Barrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCommon, ddi.AccessUnorderedAccess, f.buf)})
	require.NoError(t, cl.Err())
	require.Len(t, cl.Warnings(), 2)
	assert.Equal(t, MsgAccessBeforeCommon, cl.Warnings()[1].ID)
	assert.Equal(t, SeverityWarning, cl.Warnings()[1].Severity)

	// The same barrier as the runtime's translation of a legacy one: no
	// advice the application could act on (issue 34), but the same
	// packets as the application's own call.
	own, rt := f.list(ddi.CommandListTypeDirect), f.list(ddi.CommandListTypeDirect)
	own.Barrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCommon, ddi.AccessUnorderedAccess, f.buf)})
	rt.TranslatedBarrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCommon, ddi.AccessUnorderedAccess, f.buf)})
	require.NoError(t, rt.Err())
	assert.Len(t, own.Warnings(), 1)
	assert.Empty(t, rt.Warnings(), "the runtime's translation gets no advice")
	assert.Equal(t, own.Buffer().Len(), rt.Buffer().Len(), "a translated call is translated the same")
	rt.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessCommon, ddi.AccessCopySource, f.buf)})
	assert.Len(t, rt.Warnings(), 1, "after TranslatedBarrier the list warns about the application's calls again")

	bundle := f.list(ddi.CommandListTypeBundle)
	bundle.Barrier([]ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)})
	var m *Message
	require.True(t, errors.As(bundle.Err(), &m))
	assert.Equal(t, MsgBarrierInBundle, m.ID)

	closed := f.list(ddi.CommandListTypeDirect)
	require.NoError(t, closed.Close())
	closed.Barrier([]ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)})
	require.True(t, errors.As(closed.Err(), &m))
	assert.Equal(t, MsgCommandListClosed, m.ID)
}

// The rules the rejections break, written correctly, are accepted: the
// rejections fail for the reason they name, not for their setting.
func TestBarrierAcceptedNeighbours(t *testing.T) {
	f := newFixture(t)
	ok := []struct {
		name string
		list ddi.CommandListType
		bs   []ddi.Barrier
	}{
		{"global-all", ddi.CommandListTypeDirect, []ddi.Barrier{glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon)}},
		{"split-begin", ddi.CommandListTypeDirect, []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncSplit, ddi.AccessUnorderedAccess, ddi.AccessCopySource, f.buf)}},
		{"compute-uav", ddi.CommandListTypeCompute, []ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessUnorderedAccess, ddi.AccessUnorderedAccess, f.buf)}},
		{"sa-render-target", ddi.CommandListTypeDirect, []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget,
			ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutCommon, f.sa)}},
		{"discard-from-undefined", ddi.CommandListTypeDirect, []ddi.Barrier{texRange(syncNone, ddi.SyncRenderTarget, noAccess, ddi.AccessRenderTarget,
			layoutNone, ddi.LayoutRenderTarget, f.rt, all(), ddi.TextureBarrierFlagDiscard)}},
		{"memory-only-undefined", ddi.CommandListTypeDirect, []ddi.Barrier{tex(ddi.SyncRenderTarget, ddi.SyncRenderTarget, ddi.AccessRenderTarget,
			ddi.AccessRenderTarget, layoutNone, layoutNone, f.rt)}},
		{"one-mip", ddi.CommandListTypeDirect, []ddi.Barrier{texRange(ddi.SyncComputeShading, ddi.SyncComputeShading, ddi.AccessShaderResource,
			ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutCommon, f.mips, ddi.SubresourceRange{IndexOrFirstMipLevel: 2, NumMipLevels: 1,
				NumArraySlices: 2, NumPlanes: 1}, 0)}},
		{"ranged-acquire", ddi.CommandListTypeDirect, []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy|ddi.RangedBarrierFlagAcquire, f.buf, 4088, 4096)}},
		{"ranged-null", ddi.CommandListTypeDirect, []ddi.Barrier{ranged(ddi.RangedBarrierFlagAtomicCopy|ddi.RangedBarrierFlagRelease, 0, 0, 0)}},
		{"ranged-all-ignores-range", ddi.CommandListTypeCompute, []ddi.Barrier{ddi.NewRangedBarrier(ddi.RangedBarrier{
			Flags: ddi.RangedBarrierFlagAtomicCopy, Resource: f.buf, Subresource: ddi.AllSubresourcesIndex, Range: ddi.Range{Begin: 9, End: 1}})}},
		{"copy-queue-no-transition", ddi.CommandListTypeCopy, []ddi.Barrier{tex(ddi.SyncCopy, ddi.SyncCopy, ddi.AccessCopyDest, ddi.AccessCopySource,
			ddi.LayoutCommon, ddi.LayoutCommon, f.plain)}},
	}
	for _, c := range ok {
		cl := f.list(c.list)
		cl.Barrier(c.bs)
		assert.NoError(t, cl.Err(), c.name)
		assert.Positive(t, cl.Buffer().Len(), c.name)
	}
}

// TestZeroSliceAndPlaneCountsReadAsOne: NumArraySlices 0 and NumPlanes 0 in
// a mip range are one slice and one plane, with a warning each, and the
// barrier emits what the explicit range does (errata
// E-SUBRESOURCE-ZERO-COUNTS).
func TestZeroSliceAndPlaneCountsReadAsOne(t *testing.T) {
	f := newFixture(t)
	explicit := ddi.SubresourceRange{IndexOrFirstMipLevel: 1, NumMipLevels: 1, FirstArraySlice: 1, NumArraySlices: 1, NumPlanes: 1}
	zeros := explicit
	zeros.NumArraySlices, zeros.NumPlanes = 0, 0
	record := func(r ddi.SubresourceRange) *CommandList {
		cl := f.list(ddi.CommandListTypeDirect)
		cl.Barrier([]ddi.Barrier{texRange(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource,
			ddi.LayoutUnorderedAccess, ddi.LayoutCopySource, f.mips, r, 0)})
		require.NoError(t, cl.Err())
		return cl
	}
	a, b := record(explicit), record(zeros)
	assert.Equal(t, a.Buffer().Words(), b.Buffer().Words())
	assert.Empty(t, a.Warnings())
	require.Len(t, b.Warnings(), 2)
	assert.Equal(t, MsgSubresourceZeroCount, b.Warnings()[0].ID)
	assert.Equal(t, "Subresources.NumArraySlices", b.Warnings()[0].Field)
	assert.Equal(t, "Subresources.NumPlanes", b.Warnings()[1].Field)
}

// Members plainMembers passes break no rule but, perhaps, the access-sync
// table's, on every queue type: over random members, split, NONE,
// NO_ACCESS, COMMON and undefined bits included, plainMembers never hides
// a fault the ordered checks would report.
func TestPlainMembersBreakOnlyTheTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	syncs := []ddi.BarrierSync{ddi.SyncNone, ddi.SyncSplit, ddi.SyncAll, ddi.SyncDraw, ddi.SyncPixelShading,
		ddi.SyncComputeShading, ddi.SyncCopy, ddi.SyncRenderTarget, ddi.SyncVideoDecode, 0x40000}
	accesses := []ddi.BarrierAccess{ddi.AccessCommon, ddi.AccessNoAccess, ddi.AccessRenderTarget, ddi.AccessShaderResource,
		ddi.AccessUnorderedAccess, ddi.AccessCopyDest, ddi.AccessVideoDecodeRead, 0x40000000}
	sync := func() ddi.BarrierSync {
		s := syncs[rng.IntN(len(syncs))]
		if rng.IntN(2) == 0 {
			s |= syncs[rng.IntN(len(syncs))]
		}
		return s
	}
	access := func() ddi.BarrierAccess {
		a := accesses[rng.IntN(len(accesses))]
		if rng.IntN(2) == 0 {
			a |= accesses[rng.IntN(len(accesses))]
		}
		return a
	}
	plain := 0
	for _, q := range ddi.Queues {
		for range 20000 {
			g := ddi.GlobalBarrier{SyncBefore: sync(), SyncAfter: sync(), AccessBefore: access(), AccessAfter: access()}
			if !plainMembers(g, &q) {
				continue
			}
			plain++
			require.Equal(t, faultNone, syncFault(g.SyncBefore, &q), "%+v on %s", g, q.Type)
			require.Equal(t, faultNone, syncFault(g.SyncAfter, &q), "%+v on %s", g, q.Type)
			require.False(t, g.SyncBefore == ddi.SyncSplit && g.SyncAfter == ddi.SyncSplit)
			for _, side := range [][2]uint32{{uint32(g.AccessBefore), uint32(g.SyncBefore)}, {uint32(g.AccessAfter), uint32(g.SyncAfter)}} {
				a, s := ddi.BarrierAccess(side[0]), ddi.BarrierSync(side[1])
				want := faultNone
				if !accessSyncOK(a, s) {
					want = faultAccessSync
				}
				require.Equal(t, want, accessFault(a, s, &q), "%s with %s on %s", a, s, q.Type)
			}
		}
	}
	assert.Greater(t, plain, 1000, "plain members are common enough to test")
}

// layoutAccessOK, read from the resource's per-slot table, agrees with
// ddi.TextureLayoutAccessOK for every pair of layouts, on a plain and on a
// simultaneous-access texture, over single accesses, COMMON, NO_ACCESS and
// random masks.
func TestLayoutAccessTableIsTheRule(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	plain := e.d.resources[e.texture("T", 64, 64, rtFlags, ddi.LayoutCommon)]
	sa := e.d.resources[e.texture("SA", 64, 64, rtFlags|ddi.ResourceFlagSimultaneousAccess, ddi.LayoutCommon)]
	require.True(t, sa.simultaneous)
	rng := rand.New(rand.NewPCG(29, 3))
	accesses := []ddi.BarrierAccess{ddi.AccessCommon, ddi.AccessNoAccess}
	for b := ddi.DefinedAccessBits; b != 0; b &= b - 1 {
		accesses = append(accesses, b&-b)
	}
	for range 200 {
		accesses = append(accesses, ddi.BarrierAccess(rng.Uint32()&rng.Uint32())&ddi.DefinedAccessBits)
	}
	layouts := ddi.AllBarrierLayouts()
	for _, r := range []*Resource{plain, sa} {
		for _, l := range layouts {
			slot, ok := layoutSlot(l)
			require.True(t, ok, "%s", l)
			for _, o := range layouts {
				other, _ := layoutSlot(o)
				for _, a := range accesses {
					require.Equal(t, ddi.TextureLayoutAccessOK(l, o, a, r.simultaneous), layoutAccessOK(r, slot, other, a),
						"%s with %s beside %s, simultaneous %v", a, l, o, r.simultaneous)
				}
			}
		}
	}
}

// The runtime's translation of a legacy program: RENDER_TARGET -> COMMON,
// work that promotes the texture to COPY_SOURCE (no barrier), then
// COPY_SOURCE -> PIXEL_SHADER_RESOURCE, whose SyncBefore COPY does not
// contain the first barrier's SyncAfter ALL and whose LayoutBefore
// LEGACY_COPY_SOURCE stands for the COMMON the texture is in. The
// application's own enhanced barriers are held to both rules; the
// translation is the legacy layer's to judge (errata E-LEGACY-SEQUENTIAL,
// 000 "Legacy layouts").
func TestTranslatedBarrierAfterPromotion(t *testing.T) {
	f := newFixture(t)
	first := tex(ddi.SyncRenderTarget, ddi.SyncAll, ddi.AccessRenderTarget, ddi.AccessCommon, ddi.LayoutRenderTarget, ddi.LayoutCommon, f.rt)
	second := tex(ddi.SyncCopy, ddi.SyncPixelShading, ddi.AccessCopySource, ddi.AccessShaderResource, ddi.LayoutLegacyCopySource, ddi.LayoutLegacyShaderResource, f.rt)
	rt := f.list(ddi.CommandListTypeDirect)
	rt.TranslatedBarrier([]ddi.Barrier{first})
	rt.TranslatedBarrier([]ddi.Barrier{second})
	require.NoError(t, rt.Err())

	own := f.list(ddi.CommandListTypeDirect)
	own.Barrier([]ddi.Barrier{first})
	own.Barrier([]ddi.Barrier{tex(ddi.SyncCopy, ddi.SyncPixelShading, ddi.AccessCopySource, ddi.AccessShaderResource, ddi.LayoutCommon, ddi.LayoutShaderResource, f.rt)})
	var m *Message
	require.ErrorAs(t, own.Err(), &m)
	assert.Equal(t, MsgSequentialBarrierSync, m.ID)
}
