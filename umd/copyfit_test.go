package umd

import (
	"math"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopyFitChecksAre64Bit: a CopyTextureRegion destination point near
// 2^32 wrapped the uint32 fit check and the copy faulted the GPU (issue
// 32); it is refused with the driver's validation error, on each axis, and
// a buffer copy whose offsets wrap 64 bits is refused as out of bounds,
// not judged for self-intersection on wrapped ends. Points that do fit are
// still recorded, and the refused lists never reach the GPU.
func TestCopyFitChecksAre64Bit(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	desc := func(w, h uint32, depth uint16) ddi.CreateResource0088 {
		d := Texture2DDesc(ddi.FormatR8G8B8A8Unorm, w, h, 1, 1, 0, ddi.LayoutCommon)
		d.ResourceType, d.DepthOrArraySize = ddi.ResourceTypeTexture3D, depth
		return d
	}
	mk := func(name string) ddi.HResource {
		r, err := e.d.CreateCommitted(desc(64, 64, 4), resource.HeapDefault)
		require.NoError(t, err)
		require.NoError(t, e.d.SetName(r, name))
		return r
	}
	src, dst := mk("S"), mk("D")
	box := &Box{Right: 32, Bottom: 32, Back: 2}
	near := uint32(math.MaxUint32 - 15) // + 32 (x, y) wraps to 16
	nearZ := uint32(math.MaxUint32 - 0) // + 2 (z) wraps to 1
	for _, c := range []struct {
		name    string
		x, y, z uint32
	}{
		{"x", near, 0, 0}, {"y", 0, near, 0}, {"z", 0, 0, nearZ},
		{"x at 2^32-1", math.MaxUint32, 0, 0}, {"all three", near, near, nearZ},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := e.list(ddi.CommandListTypeDirect)
			cl.CopyTextureRegion(dst, 0, 0, 0, 0, src, 0, box) // one call before: fine
			require.NoError(t, cl.Err())
			cl.CopyTextureRegion(dst, 0, c.x, c.y, c.z, src, 0, box)
			m := requireMessage(t, cl.Err(), MsgInvalidWork)
			assert.Equal(t, "DstX/DstY/DstZ", m.Field)
			assert.Equal(t, "CopyTextureRegion", m.Command)
			assert.Contains(t, m.Rule, "the box does not fit the 64x64x4 destination")
			require.Error(t, cl.Close())
			require.Error(t, e.direct.ExecuteCommandLists(cl), "a list in error is not submitted")
		})
	}
	t.Run("the last point that fits", func(t *testing.T) {
		cl := e.list(ddi.CommandListTypeDirect)
		cl.CopyTextureRegion(dst, 0, 32, 32, 2, src, 0, box)
		e.run(cl)
		e.clean(dst)
	})

	b := e.buffer("B", 1<<20, 0, resource.HeapDefault)
	for _, c := range []struct {
		name          string
		dstOff, srcOf uint64
		size          uint64
		field         string
	}{
		{"source end wraps", 0, math.MaxUint64 - 3, 8, "pSrcBuffer"},
		{"destination end wraps", math.MaxUint64 - 3, 0, 8, "pDstBuffer"},
		{"size wraps", 4096, 0, math.MaxUint64 - 4000, "pSrcBuffer"},
	} {
		t.Run("self copy, "+c.name, func(t *testing.T) {
			cl := e.list(ddi.CommandListTypeDirect)
			cl.CopyBufferRegion(b, c.dstOff, b, c.srcOf, c.size)
			m := requireMessage(t, cl.Err(), MsgInvalidWork)
			assert.Equal(t, c.field, m.Field)
			assert.Contains(t, m.Rule, "outside the 1048576-byte buffer")
		})
	}
	cl := e.list(ddi.CommandListTypeDirect)
	cl.CopyBufferRegion(b, 4096, b, 0, 4097)
	m := requireMessage(t, cl.Err(), MsgSelfCopyIntersects)
	assert.Contains(t, m.Rule, "[4096,8193) and the source [0,4097) of the same buffer intersect")
	assert.Empty(t, e.d.Machine().Faults(), "nothing reached the GPU to fault it")
}

// TestBlockCopiesAreWholeBlocks: a copy of a block format (BC, packed)
// moves whole elements, so a box or a destination point off a block was
// rounded down to one and the copy landed elsewhere, silently (the
// reference, following the same packets, agreed). Such copies are refused
// naming the member; a box may still end at the subresource's edge.
func TestBlockCopiesAreWholeBlocks(t *testing.T) {
	e := newEnv(t, "discrete", Options{})
	bc := func(name string, w, h uint32, mips uint16) ddi.HResource {
		r, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatBC1Unorm, w, h, 1, mips, 0, ddi.LayoutCommon), resource.HeapDefault)
		require.NoError(t, err)
		require.NoError(t, e.d.SetName(r, name))
		return r
	}
	src, dst := bc("S", 64, 64, 1), bc("D", 64, 64, 1)
	for _, c := range []struct {
		name    string
		x, y    uint32
		box     Box
		field   string
		message string
	}{
		{"point off a block across", 2, 0, Box{Right: 8, Bottom: 8, Back: 1}, "DstX/DstY/DstZ", "a BC1_UNORM destination point must lie on a whole 4x4 block"},
		{"point off a block down", 0, 6, Box{Right: 8, Bottom: 8, Back: 1}, "DstX/DstY/DstZ", "must lie on a whole 4x4 block"},
		{"box left off a block", 0, 0, Box{Left: 1, Right: 8, Bottom: 8, Back: 1}, "pSrcBox", "a BC1_UNORM box must be whole 4x4 blocks"},
		{"box bottom off a block", 0, 0, Box{Right: 8, Bottom: 7, Back: 1}, "pSrcBox", "must be whole 4x4 blocks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := e.list(ddi.CommandListTypeDirect)
			cl.CopyTextureRegion(dst, 0, c.x, c.y, 0, src, 0, &c.box)
			m := requireMessage(t, cl.Err(), MsgInvalidWork)
			assert.Equal(t, c.field, m.Field)
			assert.Contains(t, m.Rule, c.message)
		})
	}
	t.Run("whole blocks, and a box that ends at a small mip's edge", func(t *testing.T) {
		mipped := bc("M", 64, 64, 6) // mip 5 is 2x2 texels: one block
		cl := e.list(ddi.CommandListTypeDirect)
		cl.CopyTextureRegion(dst, 0, 8, 4, 0, src, 0, &Box{Left: 4, Top: 8, Right: 12, Bottom: 16, Back: 1})
		cl.CopyTextureRegion(mipped, 4, 0, 0, 0, mipped, 5, &Box{Right: 2, Bottom: 2, Back: 1}) // all of mip 5 into mip 4 (4x4)
		require.NoError(t, cl.Err())
		e.run(cl)
		e.clean(dst, mipped)
	})
	t.Run("formats of other blocks", func(t *testing.T) {
		plain, err := e.d.CreateCommitted(Texture2DDesc(ddi.FormatR16G16B16A16Unorm, 16, 16, 1, 1, 0, ddi.LayoutCommon), resource.HeapDefault)
		require.NoError(t, err)
		cl := e.list(ddi.CommandListTypeDirect)
		cl.CopyTextureRegion(plain, 0, 0, 0, 0, src, 0, &Box{Right: 4, Bottom: 4, Back: 1})
		m := requireMessage(t, cl.Err(), MsgInvalidWork)
		assert.Equal(t, "pDst", m.Field)
		assert.Contains(t, m.Rule, "only between formats of the same 4x4 blocks")
	})
}
