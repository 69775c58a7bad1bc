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
