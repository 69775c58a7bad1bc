package umd

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ranged88(f *fixture, g ddi.GlobalBarrier, r ddi.HResource, sub ddi.SubresourceRange, begin, end uint64) ddi.Barrier0088 {
	return ddi.NewRangedBarrier0088(ddi.RangedBarrier0088{GlobalBarrier: g, Flags: ddi.RangedBarrierFlagAtomicCopy,
		Resource: r, Subresources: sub, Range: ddi.Range{Begin: begin, End: end}})
}

var copyToShader = ddi.GlobalBarrier{SyncBefore: ddi.SyncCopy, SyncAfter: ddi.SyncComputeShading,
	AccessBefore: ddi.AccessCopyDest, AccessAfter: ddi.AccessShaderResource}

// TestBarrier0088NonRangedIsThe0094Barrier: a global, texture or buffer
// barrier through PFND3D12DDI_BARRIER_0088 emits exactly the packets the
// same barrier does through the 0094 entry point.
func TestBarrier0088NonRangedIsThe0094Barrier(t *testing.T) {
	f := newFixture(t)
	bs := []ddi.Barrier{
		buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, f.buf),
		tex(ddi.SyncRenderTarget, ddi.SyncPixelShading, ddi.AccessRenderTarget, ddi.AccessShaderResource,
			ddi.LayoutRenderTarget, ddi.LayoutDirectQueueShaderResource, f.rt),
		glob(ddi.SyncAll, ddi.SyncAll, ddi.AccessCommon, ddi.AccessCommon),
	}
	var bs88 []ddi.Barrier0088
	for _, b := range bs {
		x, ok := b.As0088()
		require.True(t, ok)
		bs88 = append(bs88, x)
	}
	a, b := f.list(ddi.CommandListTypeDirect), f.list(ddi.CommandListTypeDirect)
	a.Barrier(bs)
	b.Barrier0088(bs88)
	require.NoError(t, a.Err())
	require.NoError(t, b.Err())
	assert.Equal(t, a.Buffer().Words(), b.Buffer().Words())
	assert.Equal(t, a.Records(), b.Records())
}

// TestBarrier0088RangedHonoursSyncAndAccess: the 0088 ranged barrier's
// syncs and accesses decide the packets, over exactly its bytes.
func TestBarrier0088RangedHonoursSyncAndAccess(t *testing.T) {
	f := newFixture(t)
	cl := f.list(ddi.CommandListTypeDirect)
	cl.Barrier0088([]ddi.Barrier0088{ranged88(f, copyToShader, f.buf, ddi.SubresourceRange{IndexOrFirstMipLevel: 0}, 64, 128)})
	require.NoError(t, cl.Err())
	rec := cl.Records()[0]
	assert.Equal(t, 1, rec.Waits)
	assert.Equal(t, Stages(ddi.SyncCopy), rec.Drain, "drains SyncBefore")
	r, _ := f.d.Resource(f.buf)
	var text strings.Builder
	require.NoError(t, cmdbuf.WriteListing(&text, cmdbuf.Listing(cl.Buffer(), nil)))
	assert.Contains(t, text.String(), fmt.Sprintf("range=0x%x+0x40", r.Addr+64), "the CACHE covers exactly the barrier's bytes:\n%s", &text)

	// A NULL resource: a global barrier, whole caches.
	null := f.list(ddi.CommandListTypeDirect)
	null.Barrier0088([]ddi.Barrier0088{ranged88(f, copyToShader, 0, ddi.SubresourceRange{}, 0, 0)})
	glob := f.list(ddi.CommandListTypeDirect)
	glob.Barrier([]ddi.Barrier{ddi.NewGlobalBarrier(copyToShader)})
	require.NoError(t, null.Err())
	assert.Equal(t, glob.Buffer().Words(), null.Buffer().Words())
}

// TestBarrier0088Rejections: every rule of the 0088 ranged barrier, each
// with its message ID, member and value.
func TestBarrier0088Rejections(t *testing.T) {
	all := ddi.SubresourceRange{IndexOrFirstMipLevel: ddi.AllSubresources}
	cases := []struct {
		name  string
		b     func(f *fixture) ddi.Barrier0088
		id    MessageID
		field string
		value string
	}{
		{"sync-split", func(f *fixture) ddi.Barrier0088 {
			g := copyToShader
			g.SyncAfter = ddi.SyncSplit
			return ranged88(f, g, f.buf, all, 0, 8)
		}, MsgIncompatibleBarrierValues, "SyncBefore/SyncAfter", "SPLIT"},
		{"access-sync", func(f *fixture) ddi.Barrier0088 {
			g := copyToShader
			g.SyncBefore = ddi.SyncPixelShading
			return ranged88(f, g, f.buf, all, 0, 8)
		}, MsgIncompatibleBarrierSync, "SyncBefore", "PIXEL_SHADING"},
		{"acquire-is-0094", func(f *fixture) ddi.Barrier0088 {
			b := ranged88(f, copyToShader, f.buf, all, 0, 8)
			b.Ranged().Flags |= ddi.RangedBarrierFlagAcquire
			return b
		}, MsgIncompatibleBarrierValues, "Flags", "ATOMIC_COPY|ACQUIRE"},
		{"not-atomic-copy", func(f *fixture) ddi.Barrier0088 {
			b := ranged88(f, copyToShader, f.buf, all, 0, 8)
			b.Ranged().Flags = 0
			return b
		}, MsgIncompatibleBarrierValues, "Flags", "NONE"},
		{"texture", func(f *fixture) ddi.Barrier0088 {
			return ranged88(f, copyToShader, f.plain, all, 0, 8)
		}, MsgIncompatibleBarrierDimension, "hResource", "TEXTURE2D"},
		{"subresource", func(f *fixture) ddi.Barrier0088 {
			return ranged88(f, copyToShader, f.buf, ddi.SubresourceRange{IndexOrFirstMipLevel: 1}, 0, 8)
		}, MsgOutOfBoundsBarrierSubresource, "", ""},
		{"range-past-end", func(f *fixture) ddi.Barrier0088 {
			return ranged88(f, copyToShader, f.buf, ddi.SubresourceRange{}, 4090, 4100)
		}, MsgBufferBarrierSubregionOutOfBounds, "Range", "[4090,4100)"},
		{"heap-access", func(f *fixture) ddi.Barrier0088 {
			g := copyToShader
			g.AccessAfter, g.SyncAfter = ddi.AccessUnorderedAccess, ddi.SyncComputeShading
			return ranged88(f, g, f.plainB, all, 0, 8)
		}, MsgIncompatibleBarrierAccess, "", ""},
		{"undefined-type", func(f *fixture) ddi.Barrier0088 { return ddi.Barrier0088{Type: 7} },
			MsgIncompatibleBarrierType, "Type", "0x7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			cl := f.list(ddi.CommandListTypeDirect)
			cl.Barrier0088([]ddi.Barrier0088{c.b(f)})
			var m *Message
			require.True(t, errors.As(cl.Err(), &m), "%s must be rejected", c.name)
			assert.Equal(t, c.id, m.ID, "%s", m)
			if c.field != "" {
				assert.Equal(t, c.field, m.Field)
				assert.Equal(t, c.value, m.Value)
			}
			assert.Zero(t, cl.Buffer().Len(), "a rejected call emits nothing")
		})
	}
}

// TestBarrier0088AllocatesNothing: the 0088 entry point records without
// allocating, like the 0094 one.
func TestBarrier0088AllocatesNothing(t *testing.T) {
	f := newFixture(t)
	cl := f.list(ddi.CommandListTypeDirect)
	b := buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, f.buf)
	x, _ := b.As0088()
	bs := []ddi.Barrier0088{x, ranged88(f, copyToShader, f.buf, ddi.SubresourceRange{}, 0, 64)}
	for range 4 {
		cl.Barrier0088(bs)
	}
	allocs := testing.AllocsPerRun(50, func() {
		cl.Reset()
		cl.Barrier0088(bs)
	})
	require.NoError(t, cl.Err())
	assert.Zero(t, allocs)
}
