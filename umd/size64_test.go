package umd

import (
	"runtime"
	"testing"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/resource"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	kib = uint64(1) << 10
	gib = uint64(1) << 30
)

// workAccesses decodes every WORK access of a list, in order.
func workAccesses(t *testing.T, cl *CommandList) []cmdbuf.Access {
	t.Helper()
	var out []cmdbuf.Access
	require.NoError(t, cl.Buffer().Walk(func(_ int, p cmdbuf.Packet, err error) error {
		if err != nil {
			return err
		}
		if p.Op() == cmdbuf.OpWork {
			for i := range p.Work().NumAccesses {
				out = append(out, p.Access(i))
			}
		}
		return nil
	}))
	return out
}

// TestWorkOf4GiBAndMore: every command that takes a size or a whole
// resource records accesses covering exactly the bytes asked for, at and
// across 4 GiB (issue 32: a 32-bit size cut a copy of 4 GiB + 8 KiB to
// 8 KiB, made exactly 4 GiB an empty access and 5 GiB one of 1 GiB). The
// model cannot execute work this large in a test's memory (each byte of
// an access costs it about four to five bytes of host memory:
// TestWorkAcross4GiBRuns), so this checks what the GPU is told.
func TestWorkOf4GiBAndMore(t *testing.T) {
	rw := func(addr, size uint64, c cmdbuf.Client) []cmdbuf.Access {
		return []cmdbuf.Access{{Addr: addr, Size: size, Dir: cmdbuf.DirRead, Client: c}, {Addr: addr, Size: size, Dir: cmdbuf.DirWrite, Client: c}}
	}
	copyOf := func(src, dst, size uint64) []cmdbuf.Access {
		return []cmdbuf.Access{{Addr: src, Size: size, Dir: cmdbuf.DirRead, Client: cmdbuf.ClientCopy},
			{Addr: dst, Size: size, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientCopy}}
	}
	// Two 5 GiB buffers (the GPU has 16 GiB; committed memory costs the
	// model nothing until touched).
	e := newEnv(t, "discrete", Options{})
	src := e.buffer("SRC", 5*gib, 0, resource.HeapDefault)
	dst := e.buffer("DST", 5*gib, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	rs, _ := e.d.Resource(src)
	rd, _ := e.d.Resource(dst)
	cases := []struct {
		name   string
		record func(cl *CommandList)
		want   []cmdbuf.Access
	}{
		{"copy of 4 GiB", func(cl *CommandList) { cl.CopyBufferRegion(dst, 0, src, 0, 4*gib) }, copyOf(rs.Addr, rd.Addr, 4*gib)},
		{"copy of 4 GiB + 8 KiB", func(cl *CommandList) { cl.CopyBufferRegion(dst, 0, src, 0, 4*gib+8*kib) },
			copyOf(rs.Addr, rd.Addr, 4*gib+8*kib)},
		{"copy of 5 GiB", func(cl *CommandList) { cl.CopyBufferRegion(dst, 0, src, 0, 5*gib) }, copyOf(rs.Addr, rd.Addr, 5*gib)},
		{"copy of 4 GiB - 4 at offsets past 1 GiB", func(cl *CommandList) { cl.CopyBufferRegion(dst, gib+4, src, gib, 4*gib-4) },
			copyOf(rs.Addr+gib, rd.Addr+gib+4, 4*gib-4)},
		{"copy of a whole 5 GiB buffer", func(cl *CommandList) { cl.CopyResource(dst, src) }, copyOf(rs.Addr, rd.Addr, 5*gib)},
		{"dispatch over 4 GiB", func(cl *CommandList) {
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(dst, 0, 4*gib)}}})
		}, rw(rd.Addr, 4*gib, cmdbuf.ClientShaderStore)},
		{"dispatch over 5 GiB", func(cl *CommandList) {
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{WholeBuffer(dst)}}})
		}, rw(rd.Addr, 5*gib, cmdbuf.ClientShaderStore)},
		{"dispatch over the last 4 GiB + 8 KiB, size 0 (to the end)", func(cl *CommandList) {
			cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(dst, gib-8*kib, 0)}}})
		}, rw(rd.Addr+gib-8*kib, 4*gib+8*kib, cmdbuf.ClientShaderStore)},
		{"shader resource of 5 GiB", func(cl *CommandList) {
			cl.Dispatch(Dispatch{Shader: Shader{ShaderResources: []View{WholeBuffer(src)}}})
		}, []cmdbuf.Access{{Addr: rs.Addr, Size: 5 * gib, Dir: cmdbuf.DirRead, Client: cmdbuf.ClientShaderLoad}}},
		{"clear of 5 GiB", func(cl *CommandList) { cl.ClearUnorderedAccessView(WholeBuffer(dst), 7) },
			[]cmdbuf.Access{{Addr: rd.Addr, Size: 5 * gib, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientShaderStore}}},
		{"discard of 5 GiB", func(cl *CommandList) { cl.DiscardResource(WholeBuffer(dst)) },
			[]cmdbuf.Access{{Addr: rd.Addr, Size: 5 * gib, Dir: cmdbuf.DirWrite, Client: cmdbuf.ClientShaderStore}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := e.list(ddi.CommandListTypeDirect)
			c.record(cl)
			require.NoError(t, cl.Close())
			assert.Equal(t, c.want, workAccesses(t, cl))
		})
	}

	// A texture subresource of exactly 4 GiB (16384 x 16384 texels of 16
	// bytes, rows 256 KiB apart), copied whole and to a buffer.
	t.Run("texture of 4 GiB", func(t *testing.T) {
		e := newEnv(t, "discrete", Options{})
		desc := Texture2DDesc(ddi.FormatR32G32B32A32Float, 16384, 16384, 1, 1, 0, ddi.LayoutCommon)
		a, err := e.d.CreateCommitted(desc, resource.HeapDefault)
		require.NoError(t, err)
		b, err := e.d.CreateCommitted(desc, resource.HeapDefault)
		require.NoError(t, err)
		buf := e.buffer("BUF", 4*gib+64*kib, 0, resource.HeapDefault)
		ra, _ := e.d.Resource(a)
		rb, _ := e.d.Resource(b)
		rbuf, _ := e.d.Resource(buf)
		require.Equal(t, 4*gib, ra.Desc.Footprints[0].Size)

		cl := e.list(ddi.CommandListTypeDirect)
		cl.CopyResource(b, a)
		require.NoError(t, cl.Close())
		assert.Equal(t, copyOf(ra.Addr, rb.Addr, 4*gib), workAccesses(t, cl))

		cl = e.list(ddi.CommandListTypeDirect)
		cl.CopyTextureToBuffer(buf, 64*kib, a, 0)
		require.NoError(t, cl.Close())
		assert.Equal(t, copyOf(ra.Addr, rbuf.Addr+64*kib, 4*gib), workAccesses(t, cl))

		cl = e.list(ddi.CommandListTypeDirect)
		cl.CopyBufferToTexture(b, 0, buf, 0)
		require.NoError(t, cl.Close())
		assert.Equal(t, copyOf(rbuf.Addr, rb.Addr, 4*gib), workAccesses(t, cl))

		// A box of every row but the first and last columns: one pair a row.
		cl = e.list(ddi.CommandListTypeDirect)
		cl.CopyTextureRegion(b, 0, 1, 0, 0, a, 0, &Box{Left: 0, Top: 0, Front: 0, Right: 16383, Bottom: 16384, Back: 1})
		require.NoError(t, cl.Close())
		got := workAccesses(t, cl)
		require.Len(t, got, 2*16384)
		last := got[len(got)-2:]
		const pitch = 16384 * 16
		assert.Equal(t, copyOf(ra.Addr+16383*pitch, rb.Addr+16383*pitch+16, 16383*16), last, "the last row, past 4 GiB - 256 KiB")
	})
}

// TestWorkAcross4GiBRuns executes work the model can hold at addresses
// across the 4 GiB offset of a 5 GiB buffer, and measures what it costs
// the model in host memory. Work of 4 GiB and more itself costs the model
// about four (a copy) to five (a dispatch) times its size — copies of
// 16 MiB to 2 GiB + 8 KiB allocated 3.8 to 3.9 times their size, the last
// 7.9 GB in 27 s — far more than a test may take, so TestWorkOf4GiBAndMore
// checks those sizes in the packets instead.
func TestWorkAcross4GiBRuns(t *testing.T) {
	const n = 64 << 20 // straddling the 4 GiB offset, 32 MiB each side
	start := 4*gib - n/2
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	e := newEnv(t, "discrete", Options{})
	src := e.buffer("SRC", 5*gib, 0, resource.HeapUpload)
	dst := e.buffer("DST", 5*gib, ddi.ResourceFlagUnorderedAccess, resource.HeapDefault)
	out := e.buffer("OUT", 5*gib, 0, resource.HeapDefault)
	marks := map[uint64][]byte{start: {1, 2, 3, 4}, 4*gib - 4: {5, 6, 7, 8}, 4 * gib: {9, 10, 11, 12}, start + n - 4: {13, 14, 15, 16}}
	for off, b := range marks {
		require.NoError(t, e.d.WriteBuffer(src, off, b))
	}
	cl := e.list(ddi.CommandListTypeDirect)
	cl.CopyBufferRegion(dst, start, src, start, n)
	cl.Barrier([]ddi.Barrier{buf(ddi.SyncCopy, ddi.SyncComputeShading, ddi.AccessCopyDest, ddi.AccessUnorderedAccess, dst)})
	cl.Dispatch(Dispatch{Shader: Shader{UnorderedAccess: []View{BufferRange(dst, 4*gib-8*kib, 16*kib)}}})
	cl.Barrier([]ddi.Barrier{buf(ddi.SyncComputeShading, ddi.SyncCopy, ddi.AccessUnorderedAccess, ddi.AccessCopySource, dst)})
	cl.CopyBufferRegion(out, start, dst, start, n)
	e.run(cl)

	m := e.d.Machine()
	assert.Empty(t, m.Hazards())
	ro, _ := e.d.Resource(out)
	diffs, err := m.Compare(hwmodel.Region{Name: "OUT", Addr: ro.Addr + start, Size: n})
	require.NoError(t, err)
	assert.Empty(t, diffs, "the bytes equal the reference's")
	at := func(off uint64) []byte {
		b, err := m.Logical(ro.Addr+off, 4, 0)
		require.NoError(t, err)
		return b
	}
	assert.Equal(t, marks[start], at(start), "the first bytes")
	assert.Equal(t, marks[start+n-4], at(start+n-4), "the last bytes")
	dispatched := at(4 * gib)
	assert.NotEqual(t, marks[4*gib], dispatched, "the dispatch rewrote the bytes at 4 GiB")
	ref := m.Reference(ro.Addr+4*gib-4, 8)
	assert.Equal(t, ref, append(at(4*gib-4), dispatched...), "around 4 GiB, the reference's bytes")
	assert.Equal(t, []byte{0, 0, 0, 0}, at(4*gib+8*kib), "past the dispatch, the copied bytes (a committed buffer starts zeroed)")

	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("two 64 MiB copies and a dispatch across 4 GiB in 5 GiB buffers: %d MiB allocated", alloc>>20)
	assert.Less(t, alloc, uint64(16*n), "the model holds what the work touches, not the 5 GiB buffers")
}
