package hlk

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/driver"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/resource"
)

// What commands touch: an independent reference.
//
// The sequentially consistent reference the bytes are compared with runs
// the driver's own WORK packets, so a driver that addresses the wrong
// bytes (a row pitch, a box, a placed footprint's offset, a subresource or
// plane, a buffer range) writes the same wrong bytes in both runs. So the
// judge also computes, from the program alone (the command's arguments as
// the API describes them, and the resources' layout from package
// resource), which bytes each work command reads and which it writes, and
// compares them with the bytes its WORK packets read and write: byte set
// against byte set, reads and writes apart, however the driver splits or
// merges its accesses. What the program says a command touches, by kind
// (driver's argument types; a texture subresource is its footprint's
// bytes, [Offset, Offset+Size) from the resource's address; a buffer view
// is [Offset, Offset+Size), Size 0 meaning to the end of the buffer):
//
//	Draw          reads: indirect arguments, index and vertex buffers,
//	              constant buffers, shader resources, the shading-rate
//	              image, the depth-stencil view; reads and writes:
//	              unordered-access views, render targets (blending);
//	              writes: stream output, the depth-stencil view with
//	              DepthWrite
//	Dispatch,     reads: arguments, acceleration structures, constant
//	DispatchRays  buffers, shader resources; reads and writes: UAVs
//	AS build      reads: inputs, the source structure; reads and writes:
//	              scratch; writes: the destination
//	AS copy,      reads: the source; writes: the destination
//	postbuild
//	CopyBufferRegion  reads [SrcOffset, +NumBytes), writes [DstOffset, +NumBytes)
//	CopyResource  reads every byte or subresource of the source, writes the
//	              destination's
//	CopyTextureRegion  per depth slice and row of elements (blocks) of the
//	              box (the whole source subresource without one), the
//	              row's bytes in the source and at (x, y, z) in the
//	              destination, rows RowPitch and slices SlicePitch apart
//	to/from a placed footprint  the subresource, and as many bytes of the
//	              buffer from the footprint's offset
//	Resolve       reads the source subresource, writes the destination's
//	clears        write the view
//	Discard       writes at most the view (a discard may do nothing)
//	SetPredication  reads the 8 bytes of the predicate; with NULL, nothing
//	EndQuery      writes the query's 8 bytes in its heap (BeginQuery: nothing)
//	ResolveQueryData  reads 8 bytes a query from the heap, writes as many
//	              to the destination from its offset
//	AtomicCopyBufferUINT(64)  reads 4 (8) bytes, writes 4 (8) bytes
//	video         reads inputs and reference frames, writes outputs
//
// A command's WORK packets are a WORK that is not chained and the chained
// WORKs after it (a draw's stages, a long access list's parts; a driver
// may also start a WORK of the same identity unchained); the commands of a
// list match them in order. Barriers emit none (their cache and
// compression packets are not WORK), nor need a discard. A list whose
// recording failed is not compared: its program is invalid.

// byteSet is a set of bytes: ranges sorted by address, disjoint and not
// touching.
type byteSet []span64

type span64 struct{ lo, hi uint64 }

// normalize sorts and merges the ranges of s in place.
func (s byteSet) normalize() byteSet {
	if len(s) < 2 {
		return s
	}
	if !slices.IsSortedFunc(s, func(a, b span64) int { return cmp.Compare(a.lo, b.lo) }) {
		slices.SortFunc(s, func(a, b span64) int { return cmp.Compare(a.lo, b.lo) })
	}
	out := s[:1]
	for _, r := range s[1:] {
		last := &out[len(out)-1]
		if r.lo <= last.hi {
			last.hi = max(last.hi, r.hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// firstDiff is the lowest byte in one normalized set and not the other:
// inA says it is a's.
func firstDiff(a, b byteSet) (addr uint64, inA, ok bool) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := a[i], b[j]
		switch {
		case x.lo != y.lo:
			return min(x.lo, y.lo), x.lo < y.lo, true
		case x.hi != y.hi:
			return min(x.hi, y.hi), x.hi > y.hi, true
		}
		i, j = i+1, j+1
	}
	switch {
	case i < len(a):
		return a[i].lo, true, true
	case j < len(b):
		return b[j].lo, false, true
	}
	return 0, false, false
}

// subset reports whether normalized a lies in normalized b, and if not the
// first byte of a outside it.
func subset(a, b byteSet) (uint64, bool) {
	j := 0
	for _, r := range a {
		for j < len(b) && b[j].hi <= r.lo {
			j++
		}
		if j == len(b) || b[j].lo > r.lo {
			return r.lo, false
		}
		if b[j].hi < r.hi {
			return b[j].hi, false
		}
	}
	return 0, true
}

// touched is what one work command touches by the program's account:
// its scenario line, what it reads and writes, whether it may write less
// (a discard), why the program cannot describe it (unknown: then it is
// not compared), and the resources it names (for messages).
type touched struct {
	cmd           scenario.Cmd
	reads, writes byteSet
	copies        bool // a copy: its i-th read lands on its i-th write
	atMost        bool // a discard: its WORK may write less, or be absent
	unknown       string
	names         []ddi.HResource
}

// touchList is the list the harness records work through: it forwards
// every call to the driver's list, and notes for each work command what
// the program says it touches.
type touchList struct {
	driver.CommandList
	x    *exec
	cmd  scenario.Cmd
	cmds []touched
	cur  *touched
}

// start begins the account of a work command.
func (t *touchList) start() *touched {
	t.cmds = append(t.cmds, touched{cmd: t.cmd})
	t.cur = &t.cmds[len(t.cmds)-1]
	return t.cur
}

// view adds the bytes a view names to set: a buffer's range, a texture's
// subresources' footprints.
func (t *touchList) view(set *byteSet, v driver.View) {
	c := t.cur
	c.names = append(c.names, v.Resource)
	desc, reg, ok := t.x.dev.Describe(v.Resource)
	if !ok {
		c.unknown = fmt.Sprintf("handle 0x%x names no resource", uint64(v.Resource))
		return
	}
	if desc.Desc.IsBuffer() {
		size := v.Size
		if size == 0 && v.Offset < desc.DataSize {
			size = desc.DataSize - v.Offset
		}
		t.buffer(set, v.Resource, reg.Addr, desc, v.Offset, size)
		return
	}
	sel, err := desc.Resolve(v.Subresources)
	if err != nil {
		c.unknown = err.Error()
		return
	}
	sel.Each(func(sub uint32) { t.sub(set, reg.Addr, desc, sub) })
}

func (t *touchList) buffer(set *byteSet, h ddi.HResource, base uint64, desc *resource.Resource, off, size uint64) {
	if off > desc.DataSize || size > desc.DataSize-off || size == 0 {
		t.cur.unknown = fmt.Sprintf("[%d,+%d) is not a range of a %d-byte buffer", off, size, desc.DataSize)
		return
	}
	*set = append(*set, span64{base + off, base + off + size})
}

func (t *touchList) sub(set *byteSet, base uint64, desc *resource.Resource, sub uint32) {
	fp, err := desc.Footprint(sub)
	if err != nil {
		t.cur.unknown = err.Error()
		return
	}
	*set = append(*set, span64{base + fp.Offset, base + fp.Offset + fp.Size})
}

func (t *touchList) reads(vs ...driver.View) {
	for _, v := range vs {
		t.view(&t.cur.reads, v)
	}
}

func (t *touchList) writes(vs ...driver.View) {
	for _, v := range vs {
		t.view(&t.cur.writes, v)
	}
}

func (t *touchList) opt(v *driver.View) []driver.View {
	if v == nil {
		return nil
	}
	return []driver.View{*v}
}

func (t *touchList) shader(s driver.Shader) {
	t.reads(s.ConstantBuffers...)
	t.reads(s.ShaderResources...)
	t.reads(s.UnorderedAccess...)
	t.writes(s.UnorderedAccess...)
}

func (t *touchList) Draw(d driver.Draw) {
	t.start()
	t.reads(t.opt(d.Arguments)...)
	t.reads(t.opt(d.IndexBuffer)...)
	t.reads(d.VertexBuffers...)
	t.shader(d.Vertex)
	t.writes(d.StreamOutput...)
	t.shader(d.Pixel)
	t.reads(t.opt(d.ShadingRate)...)
	t.reads(t.opt(d.DepthStencil)...)
	if d.DepthWrite {
		t.writes(t.opt(d.DepthStencil)...)
	}
	t.reads(d.RenderTargets...)
	t.writes(d.RenderTargets...)
	t.CommandList.Draw(d)
}

func (t *touchList) Dispatch(d driver.Dispatch) {
	t.start()
	t.reads(t.opt(d.Arguments)...)
	t.shader(d.Shader)
	t.CommandList.Dispatch(d)
}

func (t *touchList) DispatchRays(d driver.DispatchRays) {
	t.start()
	t.reads(d.AccelerationStructures...)
	t.shader(d.Shader)
	t.CommandList.DispatchRays(d)
}

func (t *touchList) BuildRaytracingAccelerationStructure(dest driver.View, inputs []driver.View, source *driver.View, scratch driver.View) {
	t.start()
	t.reads(inputs...)
	t.reads(t.opt(source)...)
	t.reads(scratch)
	t.writes(scratch, dest)
	t.CommandList.BuildRaytracingAccelerationStructure(dest, inputs, source, scratch)
}

func (t *touchList) CopyRaytracingAccelerationStructure(dest, source driver.View) {
	t.start().copies = true
	t.reads(source)
	t.writes(dest)
	t.CommandList.CopyRaytracingAccelerationStructure(dest, source)
}

func (t *touchList) EmitRaytracingAccelerationStructurePostbuildInfo(dest, source driver.View) {
	t.start()
	t.reads(source)
	t.writes(dest)
	t.CommandList.EmitRaytracingAccelerationStructurePostbuildInfo(dest, source)
}

func (t *touchList) CopyBufferRegion(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset, size uint64) {
	t.start().copies = true
	if size > 0 {
		t.reads(driver.BufferRange(src, srcOffset, size))
		t.writes(driver.BufferRange(dst, dstOffset, size))
	}
	t.CommandList.CopyBufferRegion(dst, dstOffset, src, srcOffset, size)
}

func (t *touchList) CopyResource(dst, src ddi.HResource) {
	t.start().copies = true
	t.reads(driver.WholeTexture(src)) // a buffer's: every byte
	t.writes(driver.WholeTexture(dst))
	t.CommandList.CopyResource(dst, src)
}

func (t *touchList) CopyTextureRegion(dst ddi.HResource, dstSub, x, y, z uint32, src ddi.HResource, srcSub uint32, box *driver.Box) {
	c := t.start()
	c.copies = true
	c.names = append(c.names, src, dst)
	t.textureRegion(dst, dstSub, x, y, z, src, srcSub, box)
	t.CommandList.CopyTextureRegion(dst, dstSub, x, y, z, src, srcSub, box)
}

// textureRegion adds a CopyTextureRegion's rows: for each depth slice and
// row of elements of the box, the row's bytes in the source and at the
// destination point.
func (t *touchList) textureRegion(dst ddi.HResource, dstSub, x, y, z uint32, src ddi.HResource, srcSub uint32, box *driver.Box) {
	c := t.cur
	sd, sreg, ok1 := t.x.dev.Describe(src)
	dd, dreg, ok2 := t.x.dev.Describe(dst)
	if !ok1 || !ok2 || sd.Desc.IsBuffer() || dd.Desc.IsBuffer() {
		c.unknown = "not a copy between textures"
		return
	}
	sfp, err1 := sd.Footprint(srcSub)
	dfp, err2 := dd.Footprint(dstSub)
	if err1 != nil || err2 != nil || int(sfp.Plane) >= len(sd.Format.Planes) {
		c.unknown = "a subresource out of range"
		return
	}
	b := driver.Box{Right: sfp.Width, Bottom: sfp.Height, Back: sfp.Depth}
	if box != nil {
		b = *box
	}
	if b.Left >= b.Right || b.Top >= b.Bottom || b.Front >= b.Back {
		c.unknown = "an empty box"
		return
	}
	bw, bh := max(sd.Format.BlockWidth, 1), max(sd.Format.BlockHeight, 1)
	elem := uint64(sd.Format.Planes[sfp.Plane].BytesPerElement)
	// The box in elements: columns [c0, c1), rows [r0, r1).
	c0, c1 := b.Left/bw, (b.Right+bw-1)/bw
	r0, r1 := b.Top/bh, (b.Bottom+bh-1)/bh
	rowBytes := uint64(c1-c0) * elem
	for d := uint64(0); d < uint64(b.Back-b.Front); d++ {
		for r := uint64(0); r < uint64(r1-r0); r++ {
			so := sfp.Offset + (uint64(b.Front)+d)*sfp.SlicePitch + (uint64(r0)+r)*sfp.RowPitch + uint64(c0)*elem
			do := dfp.Offset + (uint64(z)+d)*dfp.SlicePitch + (uint64(y/bh)+r)*dfp.RowPitch + uint64(x/bw)*elem
			c.reads = append(c.reads, span64{sreg.Addr + so, sreg.Addr + so + rowBytes})
			c.writes = append(c.writes, span64{dreg.Addr + do, dreg.Addr + do + rowBytes})
		}
	}
}

// footprint adds a copy between a subresource and a buffer laid out as
// its placed footprint at offset.
func (t *touchList) footprint(tex ddi.HResource, sub uint32, buf ddi.HResource, offset uint64, toBuffer bool) {
	c := t.start()
	c.copies = true
	c.names = append(c.names, tex, buf)
	desc, _, ok := t.x.dev.Describe(tex)
	if !ok || desc.Desc.IsBuffer() {
		c.unknown = "not a texture"
		return
	}
	fp, err := desc.Footprint(sub)
	if err != nil {
		c.unknown = err.Error()
		return
	}
	if toBuffer {
		t.reads(driver.Subresource(tex, sub))
		t.writes(driver.BufferRange(buf, offset, fp.Size))
	} else {
		t.reads(driver.BufferRange(buf, offset, fp.Size))
		t.writes(driver.Subresource(tex, sub))
	}
}

func (t *touchList) CopyTextureToBuffer(dst ddi.HResource, offset uint64, src ddi.HResource, srcSub uint32) {
	t.footprint(src, srcSub, dst, offset, true)
	t.CommandList.CopyTextureToBuffer(dst, offset, src, srcSub)
}

func (t *touchList) CopyBufferToTexture(dst ddi.HResource, dstSub uint32, src ddi.HResource, offset uint64) {
	t.footprint(dst, dstSub, src, offset, false)
	t.CommandList.CopyBufferToTexture(dst, dstSub, src, offset)
}

func (t *touchList) ResolveSubresource(dst ddi.HResource, dstSub uint32, src ddi.HResource, srcSub uint32) {
	t.start()
	t.reads(driver.Subresource(src, srcSub))
	t.writes(driver.Subresource(dst, dstSub))
	t.CommandList.ResolveSubresource(dst, dstSub, src, srcSub)
}

func (t *touchList) ClearRenderTargetView(v driver.View, value uint32) {
	t.start()
	t.writes(v)
	t.CommandList.ClearRenderTargetView(v, value)
}

func (t *touchList) ClearDepthStencilView(v driver.View, value uint32) {
	t.start()
	t.writes(v)
	t.CommandList.ClearDepthStencilView(v, value)
}

func (t *touchList) ClearUnorderedAccessView(v driver.View, value uint32) {
	t.start()
	t.writes(v)
	t.CommandList.ClearUnorderedAccessView(v, value)
}

func (t *touchList) DiscardResource(v driver.View) {
	t.start().atMost = true
	t.writes(v)
	t.CommandList.DiscardResource(v)
}

func (t *touchList) SetPredication(buffer ddi.HResource, offset uint64, op ddi.PredicationOp) {
	t.start()
	if buffer != 0 { // NULL ends predication and reads nothing
		t.reads(driver.BufferRange(buffer, offset, 8))
	}
	t.CommandList.SetPredication(buffer, offset, op)
}

// EndQuery writes the query's 8-byte result in its heap; BeginQuery
// touches nothing.
func (t *touchList) EndQuery(h ddi.HQueryHeap, typ ddi.QueryType, index uint32) {
	c := t.start()
	if addr, size, ok := t.x.dev.QueryHeapRange(h); ok && uint64(index) < size/ddi.QueryResultSize {
		a := addr + uint64(index)*ddi.QueryResultSize
		c.writes = append(c.writes, span64{a, a + ddi.QueryResultSize})
	} else {
		c.unknown = fmt.Sprintf("query %d of query heap 0x%x is none", index, uint64(h))
	}
	t.CommandList.EndQuery(h, typ, index)
}

// ResolveQueryData copies the results of queries [start, start+count)
// from its heap to dst at offset, 8 bytes each.
func (t *touchList) ResolveQueryData(h ddi.HQueryHeap, typ ddi.QueryType, start, count uint32, dst ddi.HResource, offset uint64) {
	c := t.start()
	c.copies = true
	n := uint64(count) * ddi.QueryResultSize
	if addr, size, ok := t.x.dev.QueryHeapRange(h); ok && uint64(start)*ddi.QueryResultSize+n <= size && n > 0 {
		a := addr + uint64(start)*ddi.QueryResultSize
		c.reads = append(c.reads, span64{a, a + n})
		t.writes(driver.BufferRange(dst, offset, n))
	} else {
		c.unknown = fmt.Sprintf("queries %d+%d of query heap 0x%x are none", start, count, uint64(h))
	}
	t.CommandList.ResolveQueryData(h, typ, start, count, dst, offset)
}

func (t *touchList) AtomicCopyBufferUINT(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset uint64, wide bool) {
	t.start().copies = true
	n := uint64(4)
	if wide {
		n = 8
	}
	t.reads(driver.BufferRange(src, srcOffset, n))
	t.writes(driver.BufferRange(dst, dstOffset, n))
	t.CommandList.AtomicCopyBufferUINT(dst, dstOffset, src, srcOffset, wide)
}

func (t *touchList) video(v driver.Video) {
	t.start()
	t.reads(v.Inputs...)
	t.reads(v.References...)
	t.writes(v.Outputs...)
}

func (t *touchList) DecodeFrame(v driver.Video) {
	t.video(v)
	t.CommandList.DecodeFrame(v)
}

func (t *touchList) ProcessFrames(v driver.Video) {
	t.video(v)
	t.CommandList.ProcessFrames(v)
}

func (t *touchList) EncodeFrame(v driver.Video) {
	t.video(v)
	t.CommandList.EncodeFrame(v)
}

// workGroup is one command's WORK packets: what they read and write.
type workGroup struct {
	id           uint32
	kind         cmdbuf.WorkKind
	reads, write byteSet
	copies       []copySeg // a copy kind's: each packet's i-th read onto its i-th write
}

// workGroups reads a list's WORK packets as commands' groups, in order.
func workGroups(b *cmdbuf.Buffer) []workGroup {
	var gs []workGroup
	b.Walk(func(_ int, p cmdbuf.Packet, err error) error {
		if err != nil || p.Op() != cmdbuf.OpWork {
			return nil
		}
		w := p.Work()
		if len(gs) == 0 || !w.Chained && w.ID != gs[len(gs)-1].id {
			gs = append(gs, workGroup{id: w.ID, kind: w.Kind})
		}
		g := &gs[len(gs)-1]
		if w.Kind.IsCopy() {
			g.copies = appendPairs(g.copies, p, w.NumAccesses)
		}
		for i := 0; i < w.NumAccesses; i++ {
			a := p.Access(i)
			if a.Size == 0 {
				continue
			}
			s := span64{a.Addr, a.End()}
			if a.Dir&cmdbuf.DirRead != 0 {
				g.reads = append(g.reads, s)
			}
			if a.Dir&cmdbuf.DirWrite != 0 {
				g.write = append(g.write, s)
			}
		}
		return nil
	})
	return gs
}

// copySeg is n bytes a copy reads at src and writes at dst.
type copySeg struct{ src, dst, n uint64 }

// appendPairs adds a copy WORK packet's pairs: its i-th read, written by
// its i-th write (the machine refuses a packet whose pairs differ in size).
func appendPairs(segs []copySeg, p cmdbuf.Packet, n int) []copySeg {
	r, w := 0, 0
	for {
		for r < n && p.Access(r).Dir != cmdbuf.DirRead {
			r++
		}
		for w < n && p.Access(w).Dir != cmdbuf.DirWrite {
			w++
		}
		if r == n || w == n {
			return segs
		}
		ra, wa := p.Access(r), p.Access(w)
		if ra.Size > 0 {
			segs = append(segs, copySeg{ra.Addr, wa.Addr, uint64(min(ra.Size, wa.Size))})
		}
		r, w = r+1, w+1
	}
}

// pairs is the program's account of a copy as segments: its i-th read
// range onto its i-th write range (before the sets are normalized).
func (c *touched) pairs() []copySeg {
	segs := make([]copySeg, 0, len(c.reads))
	for i := range min(len(c.reads), len(c.writes)) {
		r, w := c.reads[i], c.writes[i]
		segs = append(segs, copySeg{r.lo, w.lo, min(r.hi-r.lo, w.hi-w.lo)})
	}
	return segs
}

// normalizeSegs sorts segments by source and joins those that continue
// each other in both source and destination.
func normalizeSegs(s []copySeg) []copySeg {
	slices.SortFunc(s, func(a, b copySeg) int { return cmp.Compare(a.src, b.src) })
	out := s[:0]
	for _, x := range s {
		if n := len(out); n > 0 && out[n-1].src+out[n-1].n == x.src && out[n-1].dst+out[n-1].n == x.dst {
			out[n-1].n += x.n
			continue
		}
		out = append(out, x)
	}
	return out
}

// firstMisplaced compares two normalized copies of the same bytes: the
// first source byte they write to different places, and where each does.
func firstMisplaced(want, got []copySeg) (src, wantDst, gotDst uint64, ok bool) {
	for k := range min(len(want), len(got)) {
		w, g := want[k], got[k]
		switch {
		case w == g:
			continue
		case w.src != g.src:
			return min(w.src, g.src), w.dst, g.dst, true
		case w.dst != g.dst:
			return w.src, w.dst, g.dst, true
		}
		m := min(w.n, g.n) // the same start, one of them breaks off here
		at := w.src + m
		wd, gd := w.dst+m, g.dst+m
		if k+1 < len(want) && w.n < g.n {
			wd = want[k+1].dst
		}
		if k+1 < len(got) && g.n < w.n {
			gd = got[k+1].dst
		}
		return at, wd, gd, true
	}
	switch k := min(len(want), len(got)); {
	case len(got) > k: // a byte copied twice
		return got[k].src, 0, got[k].dst, true
	case len(want) > k:
		return want[k].src, want[k].dst, 0, true
	}
	return 0, 0, 0, false
}

// checkTouches compares what a list's work commands touch, by the
// program, with what its WORK packets touch, and returns a failure line
// per command that differs (at most three, then a count).
func (x *exec) checkTouches(list string, t *touchList, b *cmdbuf.Buffer) []string {
	gs := workGroups(b)
	var fails []string
	add := func(s string) { fails = append(fails, s) }
	gi := 0
	for i := range t.cmds {
		c := &t.cmds[i]
		var g *workGroup
		switch {
		case gi < len(gs) && (!c.atMost || gs[gi].kind == cmdbuf.WorkDiscard):
			g = &gs[gi]
			gi++
		case !c.atMost:
			add(fmt.Sprintf("%s: %s: list %s has no WORK packets for this command (%d groups of WORK packets for %d work commands)",
				c.cmd.Pos, c.cmd.Op, list, len(gs), len(t.cmds)))
			return fails
		}
		if c.unknown != "" {
			continue // the driver accepted what the program cannot describe; validation is judged elsewhere
		}
		var gr, gw byteSet
		if g != nil {
			gr, gw = g.reads.normalize(), g.write.normalize()
		}
		var want []copySeg
		if c.copies {
			want = c.pairs()
		}
		er, ew := c.reads.normalize(), c.writes.normalize()
		if c.atMost {
			if addr, ok := subset(gw, ew); !ok {
				add(fmt.Sprintf("%s: %s: its WORK packets write %s, which the command does not write", c.cmd.Pos, c.cmd.Op, x.placeOf(addr, c)))
			}
			if len(gr) > 0 {
				add(fmt.Sprintf("%s: %s: its WORK packets read %s, which the command does not read", c.cmd.Pos, c.cmd.Op, x.placeOf(gr[0].lo, c)))
			}
			continue
		}
		sameSets := true
		for _, d := range []struct {
			verb     string
			got, exp byteSet
		}{{"read", gr, er}, {"write", gw, ew}} {
			addr, extra, ok := firstDiff(d.got, d.exp)
			sameSets = sameSets && !ok
			switch {
			case !ok:
			case extra:
				add(fmt.Sprintf("%s: %s: its WORK packets %s %s, which the command does not %s", c.cmd.Pos, c.cmd.Op, d.verb, x.placeOf(addr, c), d.verb))
			default:
				add(fmt.Sprintf("%s: %s: its WORK packets do not %s %s, which the command %ss", c.cmd.Pos, c.cmd.Op, d.verb, x.placeOf(addr, c), d.verb))
			}
		}
		// A copy must also put each byte it reads where the command says:
		// the same bytes read and written can still be paired wrongly (rows
		// or subresources swapped), or not copied at all (a WORK of a kind
		// that computes rather than copies).
		switch {
		case !c.copies || !sameSets:
		case !g.kind.IsCopy():
			add(fmt.Sprintf("%s: %s: its WORK packets are %s work, which computes its writes rather than copying its reads", c.cmd.Pos, c.cmd.Op, g.kind))
		default:
			if src, wd, gd, ok := firstMisplaced(normalizeSegs(want), normalizeSegs(g.copies)); ok {
				add(fmt.Sprintf("%s: %s: its WORK packets copy %s to %s, where the command copies it to %s", c.cmd.Pos, c.cmd.Op,
					x.placeOf(src, c), x.placeOf(gd, c), x.placeOf(wd, c)))
			}
		}
	}
	if gi < len(gs) {
		add(fmt.Sprintf("list %s: %d groups of WORK packets for %d work commands: the last ones are no command's", list, len(gs), len(t.cmds)))
	}
	return fails
}

// placeOf names a GPU address as a byte of a resource: one the command
// names if it lies in one, else any resource of the case, else the bare
// address.
func (x *exec) placeOf(addr uint64, c *touched) string {
	in := func(h ddi.HResource) (string, bool) {
		_, reg, ok := x.dev.Describe(h)
		if !ok || addr < reg.Addr || addr >= reg.Addr+reg.Size {
			return "", false
		}
		name := reg.Name
		if name == "" {
			name = fmt.Sprintf("resource 0x%x", uint64(h))
		}
		return fmt.Sprintf("%s offset %d (address 0x%x)", name, addr-reg.Addr, addr), true
	}
	for _, h := range c.names {
		if s, ok := in(h); ok {
			return s
		}
	}
	names := make([]string, 0, len(x.res))
	for n := range x.res {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if s, ok := in(x.res[n]); ok {
			return s
		}
	}
	return fmt.Sprintf("address 0x%x", addr)
}
