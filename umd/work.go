package umd

import (
	"fmt"
	"math"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
)

// Work recording. Each command becomes one WORK packet per pipeline stage
// it runs in, chained in pipeline order so that later stages' outputs
// depend on what earlier ones read, with the exact bytes it reads and
// writes, each through the client its access uses (hardware.go) and in the
// stage of the sync scope the spec gives it (000 "D3D12_BARRIER_SYNC" and
// "Synchronization"; DiscardResource: errata E-DISCARD-SCOPE):
//
//	draw        INDEX_INPUT (index buffer), VERTEX_SHADING (vertex buffers,
//	            vertex-stage constants, shader resources, unordered access,
//	            stream output), PIXEL_SHADING (pixel-stage ones, shading-rate
//	            image), DEPTH_STENCIL, RENDER_TARGET
//	dispatch    COMPUTE_SHADING; rays: RAYTRACING
//	indirect    EXECUTE_INDIRECT (the argument buffer, read by the CP)
//	copies      COPY; resolve: RESOLVE
//	clears      RENDER_TARGET, DEPTH_STENCIL, CLEAR_UNORDERED_ACCESS_VIEW
//	AS work     BUILD_/COPY_RAYTRACING_ACCELERATION_STRUCTURE, EMIT_..._POSTBUILD_INFO
//	video       VIDEO_DECODE / VIDEO_PROCESS / VIDEO_ENCODE
//
// A surface access through a client that decodes compression goes through
// compression when its subresource's layout is a compressed one
// (compression.go). When the list does not know the layout yet (no barrier
// on the subresource so far), the queue decides at submission, from the
// layout the subresource has then.

// accessSpec is one access of the WORK packet being built.
type accessSpec struct {
	acc   cmdbuf.Access
	res   *Resource
	sub   uint32
	patch bool // the layout is not known yet
}

// work is one command being recorded.
type work struct {
	cl      *CommandList
	command string
	id      uint32
	chained bool
	failed  bool
	// written spans the bytes the command writes, and writers are the
	// clients that write them, for the implicit flush of a synchronous
	// copy, discard or resolve.
	written span
	writers clientMask
	// unpredicated: the command is not predicated whatever its kind
	// (EndQuery, ResolveQueryData).
	unpredicated bool
}

// begin starts a command; it fails if the command list cannot take it or
// another goroutine is recording it. The caller leaves (cl.leave) when the
// command is recorded.
func (cl *CommandList) begin(command string, types ...ddi.CommandListType) *work {
	if !cl.enter() {
		return nil
	}
	if !cl.open(command) {
		cl.leave()
		return nil
	}
	ok := false
	for _, t := range types {
		ok = ok || t == cl.typ
	}
	if !ok {
		cl.fail(Message{Category: CategoryStateSetting, ID: MsgInvalidWork, Command: command, Call: -1, Barrier: -1,
			Rule: fmt.Sprintf("a %s command list cannot record %s", cl.typ, command)})
		cl.leave()
		return nil
	}
	cl.commands++
	cl.marker(command)
	cl.accs = cl.accs[:0]
	return &work{cl: cl, command: command, id: cl.d.workIDs.Add(1)}
}

// fail records a command error.
func (w *work) fail(id MessageID, field, value, format string, args ...any) {
	w.failed = true
	w.cl.fail(Message{Category: CategoryStateSetting, ID: id, Command: w.command, Call: -1, Barrier: -1,
		Field: field, Value: value, Rule: fmt.Sprintf(format, args...)})
}

// access adds the accesses of a view: access is the D3D12 access it is
// (which decides what the resource and its layout must allow), dir and
// client how the hardware performs it.
func (w *work) access(field string, v View, access ddi.BarrierAccess, dir cmdbuf.Dir, client cmdbuf.Client) {
	if w.failed {
		return
	}
	cl := w.cl
	r := cl.lookup(v.Resource)
	if r == nil {
		cl.badHandle(v.Resource, field, func(id MessageID, value, rule string) bool { w.fail(id, field, value, "%s", rule); return false })
		return
	}
	if access&^cl.rules.Accesses != 0 {
		w.fail(MsgIncompatibleAccessWork, field, access.String(),
			`%s is not an access a %s command list supports (000 "Command Queue Access Compatibility")`, access, cl.typ)
		return
	}
	if err := r.Desc.CheckAccess(field, access, r.Heap.Desc.Kind); err != nil {
		w.fail(MsgIncompatibleAccessWork, field, access.String(), "%v", err)
		return
	}
	t := cl.trackOf(r)
	if r.IsBuffer() {
		size := v.Size
		if size == 0 && v.Offset < r.Desc.DataSize {
			size = r.Desc.DataSize - v.Offset
		}
		switch {
		case v.Offset >= r.Desc.DataSize || size > r.Desc.DataSize-v.Offset:
			w.fail(MsgInvalidWork, field, fmt.Sprintf("%d+%d", v.Offset, v.Size), "outside the %d-byte buffer", r.Desc.DataSize)
			return
		case client != cmdbuf.ClientCopy && (v.Offset%4 != 0 || size%4 != 0):
			w.fail(MsgInvalidWork, field, fmt.Sprintf("%d+%d", v.Offset, size), "only copies address single bytes: offset and size must be multiples of 4")
			return
		}
		w.add(field, t, 0, true, r.Addr+v.Offset, size, access, dir, client)
		return
	}
	sel, err := r.Desc.Resolve(v.Subresources)
	if err != nil {
		w.fail(MsgInvalidWork, field, "", "%v", err)
		return
	}
	whole := sel.Count() == r.Desc.SubresourceCount()
	sel.Each(func(sub uint32) {
		fp := r.Desc.Footprints[sub]
		w.add(field, t, sub, whole, r.Addr+fp.Offset, fp.Size, access, dir, client)
	})
}

// add adds one contiguous access to a subresource, checked against what
// the list knows of it; whole says the command touches every subresource,
// field is the argument that names it.
func (w *work) add(field string, t *track, sub uint32, whole bool, addr, size uint64, access ddi.BarrierAccess, dir cmdbuf.Dir, client cmdbuf.Client) {
	if w.failed {
		return
	}
	cl, r := w.cl, t.res
	if !whole && t.uniform {
		t.expand()
	}
	s := t.sub(sub)
	switch {
	case s.ended:
		w.fail(MsgSyncNoneAccessed, field, subName(r, sub),
			`an earlier barrier had SyncAfter NONE: no access may follow it in this ExecuteCommandLists scope (000 "D3D12_BARRIER_SYNC_NONE")`)
		return
	case s.split.event != 0:
		w.fail(MsgSplitMismatch, field, subName(r, sub), `a split barrier is open on the subresource: end it before using it (000 "Split Barriers")`)
		return
	case s.known && !s.legacy && !r.IsBuffer() && !ddi.TextureLayoutAccessOK(s.layout, s.layout, access, r.simultaneous):
		id := MsgIncompatibleTextureLayout
		if access&(ddi.AccessCopySource|ddi.AccessCopyDest) != 0 {
			id = MsgCopyInvalidLayout // the debug layer's own message for copies
		}
		w.fail(id, field, subName(r, sub), `%s is not an access layout %s allows (000 "Layout Access Compatibility")`, access, s.layout)
		return
	}
	s.accessed, s.trailingAccess = true, true
	s.note(leadAccess)
	spec := accessSpec{acc: cmdbuf.Access{Addr: addr, Size: size, Dir: dir, Client: client, Surface: r.Surface},
		res: r, sub: sub}
	if r.Surface != 0 && cl.d.prof.Aware[cl.engine][client] {
		if s.known {
			spec.acc.Compressed = r.compressedIn(s.layout)
		} else {
			spec.patch = true
		}
	}
	if !s.known && !r.IsBuffer() && !r.Desc.Desc.IsSimultaneousAccess() {
		cl.assumptions = append(cl.assumptions, assumption{res: r, sub: sub, access: access, command: w.command,
			ordinal: cl.commands})
	}
	cl.accs = append(cl.accs, spec)
}

// emit writes the accesses added so far as WORK packets of one stage (at
// most MaxAccesses-1 per packet, chained), recording where the accesses
// that wait for their layout are.
func (w *work) emit(kind cmdbuf.WorkKind, stage cmdbuf.Stage, param uint32) {
	if w.failed {
		return
	}
	cl := w.cl
	const per = cmdbuf.MaxAccesses - 1
	accs := cl.accs
	for first := true; first || len(accs) > 0; first = false {
		n := min(len(accs), per)
		var bytes uint64
		acc := make([]cmdbuf.Access, n)
		for i := range acc {
			acc[i] = accs[i].acc
			bytes += acc[i].Size
			if acc[i].Dir == cmdbuf.DirWrite {
				w.written.add(acc[i].Addr, acc[i].End())
				w.writers |= clients(acc[i].Client)
			}
		}
		// 32 cycles and one per 256 bytes, saturating: 254 accesses of up
		// to the GPU's 16 GiB each could pass the 32-bit duration.
		dur := uint32(min(32+bytes/256, math.MaxUint32))
		cl.put(cmdbuf.AppendWork(cl.room(), cmdbuf.Work{Kind: kind, Stage: stage, Duration: dur, ID: w.id, Param: param,
			Chained: w.chained, Predicated: cl.predicated && predicable(kind) && !w.unpredicated}, acc...))
		w.chained = true
		pos := cl.buf.Last()
		for i := 0; i < n; i++ {
			if accs[i].patch {
				cl.patches = append(cl.patches, patch{pos: cmdbufPos(pos, cmdbuf.AccessAttrDword(i)), res: accs[i].res, sub: accs[i].sub})
			}
		}
		accs = accs[n:]
	}
	cl.accs = cl.accs[:0]
}

// emitSync emits a copy, discard or resolve, synchronous unless the list
// was created with ALLOW_EXTENDED_ASYNC (000 "Synchronous Copy, Discard and
// Resolve": "an implicit sync and flush after each command"; errata
// E-SYNC-COPY): the CP waits for the command's stage, holding everything
// after it, and the command's writes are flushed from its client's
// write-back caches to memory. That is what orders two copies into the same
// bytes (the last one wins) without a barrier, and what the extended-async
// flag saves.
func (w *work) emitSync(kind cmdbuf.WorkKind, stage cmdbuf.Stage) {
	w.emit(kind, stage, 0)
	cl := w.cl
	if w.failed || cl.flags&ddi.CommandListFlagAllowExtendedAsync != 0 || cl.d.opts.Faults.DropSyncCopy {
		return
	}
	w.syncTail(stage)
}

// syncTail waits for the command's stage, holding everything after it, and
// flushes its writes from its clients' write-back caches.
func (w *work) syncTail(stage cmdbuf.Stage) {
	cl := w.cl
	if w.failed {
		return
	}
	flush := cl.caches.of(w.writers).anyOf & cl.caches.writeBack
	words := cmdbuf.AppendWait(cl.room(), cmdbuf.Wait{Drain: stage.Mask(), Hold: stageMask(cmdbuf.StageCP)})
	if flush != 0 {
		addr, size := w.written.cacheRange()
		words = cmdbuf.AppendCache(words, cmdbuf.CacheOp{Flush: flush, Addr: addr, Size: size}, false)
	}
	cl.put(words)
}

func cmdbufPos(p cmdbuf.Pos, off int) cmdbuf.Pos { return cmdbuf.Pos{Chunk: p.Chunk, Off: p.Off + off} }

// stage emits the accesses added so far as one stage, if there are any.
func (w *work) stage(kind cmdbuf.WorkKind, stage cmdbuf.Stage) {
	if len(w.cl.accs) > 0 {
		w.emit(kind, stage, 0)
	}
}

func (w *work) shader(s Shader) {
	for _, v := range s.ConstantBuffers {
		w.access("ConstantBuffer", v, ddi.AccessConstantBuffer, cmdbuf.DirRead, cmdbuf.ClientConstFetch)
	}
	for _, v := range s.ShaderResources {
		w.access("ShaderResource", v, ddi.AccessShaderResource, cmdbuf.DirRead, cmdbuf.ClientShaderLoad)
	}
	for _, v := range s.UnorderedAccess {
		w.access("UnorderedAccess", v, ddi.AccessUnorderedAccess, cmdbuf.DirRead, cmdbuf.ClientShaderStore)
		w.access("UnorderedAccess", v, ddi.AccessUnorderedAccess, cmdbuf.DirWrite, cmdbuf.ClientShaderStore)
	}
}

// arguments emits the CP's fetch of indirect arguments, if any.
func (w *work) arguments(v *View) {
	if v != nil {
		w.access("Arguments", *v, ddi.AccessIndirectArgument, cmdbuf.DirRead, cmdbuf.ClientCP)
		w.emit(cmdbuf.WorkExecuteIndirect, cmdbuf.StageCP, 0)
	}
}

// Draw records a draw (DrawInstanced, DrawIndexedInstanced, or with
// Arguments an indirect draw through ExecuteIndirect).
func (cl *CommandList) Draw(d Draw) {
	w := cl.begin("Draw", ddi.CommandListTypeDirect, ddi.CommandListTypeBundle)
	if w == nil {
		return
	}
	defer cl.leave()
	cl.draws++
	w.arguments(d.Arguments)
	if d.IndexBuffer != nil {
		w.access("IndexBuffer", *d.IndexBuffer, ddi.AccessIndexBuffer, cmdbuf.DirRead, cmdbuf.ClientVertexFetch)
	}
	w.stage(cmdbuf.WorkDraw, cmdbuf.StageInput)
	for _, v := range d.VertexBuffers {
		w.access("VertexBuffer", v, ddi.AccessVertexBuffer, cmdbuf.DirRead, cmdbuf.ClientVertexFetch)
	}
	w.shader(d.Vertex)
	for _, v := range d.StreamOutput {
		w.access("StreamOutput", v, ddi.AccessStreamOutput, cmdbuf.DirWrite, cmdbuf.ClientStreamOut)
	}
	w.stage(cmdbuf.WorkDraw, cmdbuf.StageVertex)
	w.shader(d.Pixel)
	if d.ShadingRate != nil {
		w.access("ShadingRate", *d.ShadingRate, ddi.AccessShadingRateSource, cmdbuf.DirRead, cmdbuf.ClientConstFetch)
	}
	w.stage(cmdbuf.WorkDraw, cmdbuf.StagePixel)
	if d.DepthStencil != nil {
		w.access("DepthStencil", *d.DepthStencil, ddi.AccessDepthStencilRead, cmdbuf.DirRead, cmdbuf.ClientDepth)
		if d.DepthWrite {
			w.access("DepthStencil", *d.DepthStencil, ddi.AccessDepthStencilWrite, cmdbuf.DirWrite, cmdbuf.ClientDepth)
		}
	}
	w.stage(cmdbuf.WorkDraw, cmdbuf.StageDepth)
	for _, v := range d.RenderTargets {
		w.access("RenderTarget", v, ddi.AccessRenderTarget, cmdbuf.DirRead, cmdbuf.ClientColor)
		w.access("RenderTarget", v, ddi.AccessRenderTarget, cmdbuf.DirWrite, cmdbuf.ClientColor)
	}
	w.stage(cmdbuf.WorkDraw, cmdbuf.StageColor)
	if !w.chained && !w.failed {
		w.emit(cmdbuf.WorkDraw, cmdbuf.StageVertex, 0) // a draw that touches no memory still runs
	}
}

// Dispatch records a compute dispatch (with Arguments, through
// ExecuteIndirect).
func (cl *CommandList) Dispatch(d Dispatch) {
	w := cl.begin("Dispatch", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeBundle)
	if w == nil {
		return
	}
	defer cl.leave()
	w.arguments(d.Arguments)
	w.shader(d.Shader)
	w.emit(cmdbuf.WorkDispatch, cmdbuf.StageCompute, 0)
}

// DispatchRays records a raytracing dispatch.
func (cl *CommandList) DispatchRays(d DispatchRays) {
	w := cl.begin("DispatchRays", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	for _, v := range d.AccelerationStructures {
		w.access("AccelerationStructure", v, ddi.AccessRaytracingAccelerationStructureRead, cmdbuf.DirRead, cmdbuf.ClientRTTraverse)
	}
	w.shader(d.Shader)
	w.emit(cmdbuf.WorkDispatchRays, cmdbuf.StageRaytrace, 0)
}

// BuildRaytracingAccelerationStructure records a build: it reads its
// geometry (shader resources) and, for an update, the source structure,
// uses its scratch buffer (unordered access) and writes the destination.
func (cl *CommandList) BuildRaytracingAccelerationStructure(dest View, inputs []View, source *View, scratch View) {
	w := cl.begin("BuildRaytracingAccelerationStructure", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	for _, v := range inputs {
		w.access("Inputs", v, ddi.AccessShaderResource, cmdbuf.DirRead, cmdbuf.ClientShaderLoad)
	}
	if source != nil {
		w.access("SourceAccelerationStructure", *source, ddi.AccessRaytracingAccelerationStructureRead, cmdbuf.DirRead, cmdbuf.ClientASBuild)
	}
	w.access("ScratchAccelerationStructureData", scratch, ddi.AccessUnorderedAccess, cmdbuf.DirRead, cmdbuf.ClientShaderStore)
	w.access("ScratchAccelerationStructureData", scratch, ddi.AccessUnorderedAccess, cmdbuf.DirWrite, cmdbuf.ClientShaderStore)
	w.access("DestAccelerationStructureData", dest, ddi.AccessRaytracingAccelerationStructureWrite, cmdbuf.DirWrite, cmdbuf.ClientASBuild)
	w.emit(cmdbuf.WorkASBuild, cmdbuf.StageASBuild, 0)
}

// CopyRaytracingAccelerationStructure records an acceleration-structure
// copy (a byte copy between equally sized ranges).
func (cl *CommandList) CopyRaytracingAccelerationStructure(dest, source View) {
	w := cl.begin("CopyRaytracingAccelerationStructure", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	w.copyPair("SourceAccelerationStructureData", source, ddi.AccessRaytracingAccelerationStructureRead,
		"DestAccelerationStructureData", dest, ddi.AccessRaytracingAccelerationStructureWrite, cmdbuf.ClientASBuild)
	w.emit(cmdbuf.WorkASCopy, cmdbuf.StageASBuild, 0)
}

// EmitRaytracingAccelerationStructurePostbuildInfo records the postbuild
// query: it reads the structure and writes the info (unordered access).
func (cl *CommandList) EmitRaytracingAccelerationStructurePostbuildInfo(dest, source View) {
	w := cl.begin("EmitRaytracingAccelerationStructurePostbuildInfo", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	w.access("SourceAccelerationStructureData", source, ddi.AccessRaytracingAccelerationStructureRead, cmdbuf.DirRead, cmdbuf.ClientASBuild)
	w.access("DestBuffer", dest, ddi.AccessUnorderedAccess, cmdbuf.DirWrite, cmdbuf.ClientShaderStore)
	w.emit(cmdbuf.WorkASPostbuild, cmdbuf.StageASBuild, 0)
}

// copyPair adds a read and a write of equal size, in order, as a copy's
// accesses are paired.
func (w *work) copyPair(srcField string, src View, srcAccess ddi.BarrierAccess, dstField string, dst View, dstAccess ddi.BarrierAccess, client cmdbuf.Client) {
	before := len(w.cl.accs)
	w.access(srcField, src, srcAccess, cmdbuf.DirRead, client)
	mid := len(w.cl.accs)
	w.access(dstField, dst, dstAccess, cmdbuf.DirWrite, client)
	if w.failed {
		return
	}
	reads, writes := w.cl.accs[before:mid], w.cl.accs[mid:]
	var rn, wn uint64
	for _, a := range reads {
		rn += a.acc.Size
	}
	for _, a := range writes {
		wn += a.acc.Size
	}
	if rn != wn || len(reads) != len(writes) {
		w.fail(MsgInvalidWork, dstField, fmt.Sprintf("%d bytes", wn), "a copy's destination must have the source's shape (%d bytes)", rn)
		return
	}
	// Interleave as read/write pairs.
	pairs := make([]accessSpec, 0, 2*len(reads))
	for i := range reads {
		if reads[i].acc.Size != writes[i].acc.Size {
			w.fail(MsgInvalidWork, dstField, "", "a copy's destination must have the source's shape")
			return
		}
		pairs = append(pairs, reads[i], writes[i])
	}
	w.cl.accs = append(w.cl.accs[:before], pairs...)
}

// CopyBufferRegion records a buffer copy. The source and destination may be
// one buffer if the ranges do not intersect (000 "Self Resource Copy").
func (cl *CommandList) CopyBufferRegion(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset, size uint64) {
	w := cl.begin("CopyBufferRegion", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	defer cl.leave()
	if size == 0 {
		w.fail(MsgInvalidWork, "NumBytes", "0", "a copy moves at least one byte")
		return
	}
	for _, b := range []struct {
		h     ddi.HResource
		field string
		id    MessageID
	}{{dst, "pDstBuffer", MsgCopyBufferRegionInvalidDst}, {src, "pSrcBuffer", MsgCopyBufferRegionInvalidSrc}} {
		if r := cl.d.resource(b.h); r != nil && !r.IsBuffer() {
			w.fail(b.id, b.field, r.Name(), "CopyBufferRegion copies between buffers; this is a texture")
			return
		}
	}
	w.copyPair("pSrcBuffer", BufferRange(src, srcOffset, size), ddi.AccessCopySource,
		"pDstBuffer", BufferRange(dst, dstOffset, size), ddi.AccessCopyDest, cmdbuf.ClientCopy)
	// Checked once both ranges are known to lie in their buffers, so no
	// offset + size can wrap 64 bits (a failed command's accesses are
	// dropped: the list is in error).
	if !w.failed && dst == src && dstOffset < srcOffset+size && srcOffset < dstOffset+size {
		w.fail(MsgSelfCopyIntersects, "DstOffset", fmt.Sprint(dstOffset),
			"[%d,%d) and the source [%d,%d) of the same buffer intersect (000 \"Self Resource Copy\")",
			dstOffset, dstOffset+size, srcOffset, srcOffset+size)
		return
	}
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}

// CopyResource records a whole-resource copy (every subresource, or every
// byte of a buffer).
func (cl *CommandList) CopyResource(dst, src ddi.HResource) {
	w := cl.begin("CopyResource", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	defer cl.leave()
	if dst == src {
		w.fail(MsgSelfCopyIntersects, "pDstResource", fmt.Sprintf("0x%x", uint64(dst)), "a resource cannot be copied onto itself whole")
		return
	}
	w.copyPair("pSrcResource", wholeView(cl, src), ddi.AccessCopySource, "pDstResource", wholeView(cl, dst), ddi.AccessCopyDest, cmdbuf.ClientCopy)
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}

func wholeView(cl *CommandList, h ddi.HResource) View {
	if r := cl.d.resource(h); r != nil && !r.IsBuffer() {
		return WholeTexture(h)
	}
	return WholeBuffer(h)
}

// Box is a texel box in a subresource: [Left, Right) × [Top, Bottom) ×

// CopyTextureRegion records a copy of a box of one subresource to a point
// of another (or of the same one, if the boxes do not intersect, 000 "Self
// Resource Copy"). A nil box is the whole source subresource.
func (cl *CommandList) CopyTextureRegion(dst ddi.HResource, dstSub, x, y, z uint32, src ddi.HResource, srcSub uint32, box *Box) {
	w := cl.begin("CopyTextureRegion", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	defer cl.leave()
	rs, rd := w.resource("pSrc", src), w.resource("pDst", dst)
	switch {
	case rs == nil || rd == nil:
		return
	case rs.IsBuffer() || rd.IsBuffer():
		w.fail(MsgInvalidWork, "pSrc/pDst", "", "CopyTextureRegion copies between existing textures")
		return
	}
	sfp, err1 := rs.Desc.Footprint(srcSub)
	dfp, err2 := rd.Desc.Footprint(dstSub)
	if err1 != nil || err2 != nil {
		w.fail(MsgInvalidWork, "SubresourceIndex", "", "out of bounds")
		return
	}
	b := Box{Right: sfp.Width, Bottom: sfp.Height, Back: sfp.Depth}
	if box != nil {
		b = *box
	}
	bw, bh := rs.Desc.Format.BlockWidth, rs.Desc.Format.BlockHeight
	bw, bh = max(bw, 1), max(bh, 1)
	elem := rs.Desc.Format.Planes[sfp.Plane].BytesPerElement
	switch {
	case b.Left >= b.Right || b.Top >= b.Bottom || b.Front >= b.Back || b.Right > sfp.Width || b.Bottom > sfp.Height || b.Back > sfp.Depth:
		w.fail(MsgInvalidWork, "pSrcBox", fmt.Sprintf("%+v", b), "must be a non-empty box inside the %dx%dx%d source", sfp.Width, sfp.Height, sfp.Depth)
		return
	case !fits(x, b.Right-b.Left, dfp.Width) || !fits(y, b.Bottom-b.Top, dfp.Height) || !fits(z, b.Back-b.Front, dfp.Depth):
		w.fail(MsgInvalidWork, "DstX/DstY/DstZ", fmt.Sprintf("%d,%d,%d", x, y, z), "the box does not fit the %dx%dx%d destination", dfp.Width, dfp.Height, dfp.Depth)
		return
	case rd.Desc.Format.Planes[dfp.Plane].BytesPerElement != elem:
		w.fail(MsgInvalidWork, "pDst", rd.Desc.Desc.Format.String(), "copies need formats of the same element size")
		return
	case max(rd.Desc.Format.BlockWidth, 1) != bw || max(rd.Desc.Format.BlockHeight, 1) != bh:
		w.fail(MsgInvalidWork, "pDst", rd.Desc.Desc.Format.String(), "ebref copies a box only between formats of the same %dx%d blocks",
			bw, bh)
		return
	// A box of blocks (BC, packed formats) is whole blocks, but for the
	// subresource's right and bottom edges, and lands on a block: the copy
	// moves whole elements, so any other box or point would be rounded
	// down to one, silently.
	case b.Left%bw != 0 || b.Top%bh != 0 || b.Right%bw != 0 && b.Right != sfp.Width || b.Bottom%bh != 0 && b.Bottom != sfp.Height:
		w.fail(MsgInvalidWork, "pSrcBox", fmt.Sprintf("%+v", b), "a %s box must be whole %dx%d blocks (it may end at the subresource's edge)",
			rs.Desc.Desc.Format, bw, bh)
		return
	case x%bw != 0 || y%bh != 0:
		w.fail(MsgInvalidWork, "DstX/DstY/DstZ", fmt.Sprintf("%d,%d,%d", x, y, z), "a %s destination point must lie on a whole %dx%d block",
			rd.Desc.Desc.Format, bw, bh)
		return
	}
	if src == dst && srcSub == dstSub && x < b.Right && b.Left < x+(b.Right-b.Left) && y < b.Bottom && b.Top < y+(b.Bottom-b.Top) &&
		z < b.Back && b.Front < z+(b.Back-b.Front) {
		w.fail(MsgSelfCopyIntersects, "DstX/DstY/DstZ", fmt.Sprintf("%d,%d,%d", x, y, z),
			"the destination box intersects the source box in the same subresource (000 \"Self Resource Copy\")")
		return
	}
	// One read/write pair per row of elements.
	rowBytes := uint64((b.Right-b.Left+bw-1)/bw) * uint64(elem)
	for zz := uint32(0); zz < b.Back-b.Front; zz++ {
		for row := uint32(0); row < (b.Bottom-b.Top+bh-1)/bh; row++ {
			so := sfp.Offset + uint64(b.Front+zz)*sfp.SlicePitch + uint64(b.Top/bh+row)*sfp.RowPitch + uint64(b.Left/bw)*uint64(elem)
			do := dfp.Offset + uint64(z+zz)*dfp.SlicePitch + uint64(y/bh+row)*dfp.RowPitch + uint64(x/bw)*uint64(elem)
			w.pair(rs, srcSub, rs.Addr+so, rd, dstSub, rd.Addr+do, rowBytes)
			if w.failed {
				return
			}
		}
	}
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}

// fits reports whether n texels from at lie within size, in 64 bits: a
// destination coordinate near 2^32 wraps a uint32 sum past the check (issue
// 32: such a copy faulted the GPU instead of being refused).
func fits(at, n, size uint32) bool { return uint64(at)+uint64(n) <= uint64(size) }

// pair adds one copy read/write pair between subresources.
func (w *work) pair(rs *Resource, ssub uint32, saddr uint64, rd *Resource, dsub uint32, daddr, n uint64) {
	if !w.checkAccess("pSrc", rs, ddi.AccessCopySource) || !w.checkAccess("pDst", rd, ddi.AccessCopyDest) {
		return
	}
	w.add("pSrc", w.cl.trackOf(rs), ssub, false, saddr, n, ddi.AccessCopySource, cmdbuf.DirRead, cmdbuf.ClientCopy)
	w.add("pDst", w.cl.trackOf(rd), dsub, false, daddr, n, ddi.AccessCopyDest, cmdbuf.DirWrite, cmdbuf.ClientCopy)
}

// checkAccess checks an access against the queue and the resource.
func (w *work) checkAccess(field string, r *Resource, access ddi.BarrierAccess) bool {
	if access&^w.cl.rules.Accesses != 0 {
		w.fail(MsgIncompatibleAccessWork, field, access.String(),
			`%s is not an access a %s command list supports (000 "Command Queue Access Compatibility")`, access, w.cl.typ)
		return false
	}
	if err := r.Desc.CheckAccess(field, access, r.Heap.Desc.Kind); err != nil {
		w.fail(MsgIncompatibleAccessWork, field, access.String(), "%v", err)
		return false
	}
	return true
}

// ResolveSubresource records a multisample resolve of one subresource into
// another.
func (cl *CommandList) ResolveSubresource(dst ddi.HResource, dstSub uint32, src ddi.HResource, srcSub uint32) {
	w := cl.begin("ResolveSubresource", ddi.CommandListTypeDirect)
	if w == nil {
		return
	}
	defer cl.leave()
	w.access("pSrcResource", Subresource(src, srcSub), ddi.AccessResolveSource, cmdbuf.DirRead, cmdbuf.ClientColor)
	w.access("pDstResource", Subresource(dst, dstSub), ddi.AccessResolveDest, cmdbuf.DirWrite, cmdbuf.ClientColor)
	w.emitSync(cmdbuf.WorkResolve, cmdbuf.StageResolve)
}

// ClearRenderTargetView records a render-target clear to a 32-bit pattern.
func (cl *CommandList) ClearRenderTargetView(v View, value uint32) {
	cl.clear("ClearRenderTargetView", "RenderTargetView", v, value, ddi.AccessRenderTarget, cmdbuf.ClientColor, cmdbuf.StageColor,
		ddi.CommandListTypeDirect)
}

// ClearDepthStencilView records a depth-stencil clear.
func (cl *CommandList) ClearDepthStencilView(v View, value uint32) {
	cl.clear("ClearDepthStencilView", "DepthStencilView", v, value, ddi.AccessDepthStencilWrite, cmdbuf.ClientDepth, cmdbuf.StageDepth,
		ddi.CommandListTypeDirect)
}

// ClearUnorderedAccessView records an unordered-access clear (uint or
// float: a 32-bit pattern either way).
func (cl *CommandList) ClearUnorderedAccessView(v View, value uint32) {
	cl.clear("ClearUnorderedAccessView", "UnorderedAccessView", v, value, ddi.AccessUnorderedAccess, cmdbuf.ClientShaderStore,
		cmdbuf.StageClear, ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
}

// clear records a clear: one write of the view, in the clear's stage.
func (cl *CommandList) clear(command, field string, v View, value uint32, access ddi.BarrierAccess, client cmdbuf.Client,
	stage cmdbuf.Stage, types ...ddi.CommandListType) {
	w := cl.begin(command, types...)
	if w == nil {
		return
	}
	defer cl.leave()
	w.access(field, v, access, cmdbuf.DirWrite, client)
	w.emit(cmdbuf.WorkClear, stage, value)
}

// DiscardResource records a discard: the subresources' contents become
// undefined (the model writes a pattern). Its scope is the one of the
// view the resource is discarded as: render target, depth-stencil, or
// unordered access (errata E-DISCARD-SCOPE).
func (cl *CommandList) DiscardResource(v View) {
	w := cl.begin("DiscardResource", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	r := w.resource("pResource", v.Resource)
	if r == nil {
		return
	}
	f := r.Desc.Desc.Flags
	switch {
	case f&ddi.ResourceFlagRenderTarget != 0 && cl.typ == ddi.CommandListTypeDirect:
		w.access("pResource", v, ddi.AccessRenderTarget, cmdbuf.DirWrite, cmdbuf.ClientColor)
		w.emitSync(cmdbuf.WorkDiscard, cmdbuf.StageColor)
	case f&ddi.ResourceFlagDepthStencil != 0 && cl.typ == ddi.CommandListTypeDirect:
		w.access("pResource", v, ddi.AccessDepthStencilWrite, cmdbuf.DirWrite, cmdbuf.ClientDepth)
		w.emitSync(cmdbuf.WorkDiscard, cmdbuf.StageDepth)
	case f&ddi.ResourceFlagUnorderedAccess != 0:
		w.access("pResource", v, ddi.AccessUnorderedAccess, cmdbuf.DirWrite, cmdbuf.ClientShaderStore)
		w.emitSync(cmdbuf.WorkDiscard, cmdbuf.StageClear)
	default:
		w.fail(MsgInvalidWork, "pResource", f.String(),
			"only render-target, depth-stencil (on a direct list) and unordered-access resources can be discarded")
	}
}

// SetPredication is pfnSetPredication: the CP captures the 8-byte
// predicate at offset in buffer as it executes the command, and the
// predicated commands after it in the list (draws, dispatches, indirect
// execution, copies, resolves, clears: "rendering and resource
// manipulation") are skipped while it says so (op); buffer 0 (NULL) ends
// predication, and so does the end of the list: each list starts without
// it (D3D12 API, SetPredication). The offset must be 8-byte aligned.
func (cl *CommandList) SetPredication(buffer ddi.HResource, offset uint64, op ddi.PredicationOp) {
	w := cl.begin("SetPredication", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute)
	if w == nil {
		return
	}
	defer cl.leave()
	switch {
	case op > ddi.PredicationOpNotEqualZero:
		w.fail(MsgSetPredicationInvalid, "Operation", op.String(), "a predication operation is EQUAL_ZERO or NOT_EQUAL_ZERO (D3D12_PREDICATION_OP)")
		return
	case buffer == 0:
		w.emit(cmdbuf.WorkPredication, cmdbuf.StageCP, cmdbuf.PredicateOff)
		cl.predicated = false
		return
	case offset%8 != 0:
		w.fail(MsgSetPredicationInvalid, "AlignedBufferOffset", fmt.Sprint(offset), "the predicate's offset must be a multiple of 8")
		return
	}
	param := cmdbuf.PredicateSkipIfZero
	if op == ddi.PredicationOpNotEqualZero {
		param = cmdbuf.PredicateSkipIfNonZero
	}
	w.access("pBuffer", BufferRange(buffer, offset, 8), ddi.AccessPredication, cmdbuf.DirRead, cmdbuf.ClientCP)
	w.emit(cmdbuf.WorkPredication, cmdbuf.StageCP, param)
	if !w.failed {
		cl.predicated = true
	}
}

// predicable reports whether SetPredication's predicate governs a work
// kind: rendering and resource manipulation, not discards (which may do
// nothing anyway), atomic copies, acceleration-structure or video work.
func predicable(k cmdbuf.WorkKind) bool {
	switch k {
	case cmdbuf.WorkDraw, cmdbuf.WorkDispatch, cmdbuf.WorkDispatchRays, cmdbuf.WorkCopy, cmdbuf.WorkResolve,
		cmdbuf.WorkClear, cmdbuf.WorkExecuteIndirect:
		return true
	}
	return false
}

// AtomicCopyBufferUINT records an atomic copy of 4 (or, UINT64, 8) bytes,
// with the ranged barriers the runtime puts around it: ACQUIRE of the
// source and destination ranges before, RELEASE of the destination after
// (000 "D3D12DDI_RANGED_BARRIER_0094").
func (cl *CommandList) AtomicCopyBufferUINT(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset uint64, wide bool) {
	// The checks hold the list (cmdlist.go "The list guard"); the ranged
	// barriers and the copy are calls of their own, each holding it.
	if !cl.enter() {
		return
	}
	ok := cl.atomicCopyChecks(dst, dstOffset, src, srcOffset, wide)
	cl.leave()
	if !ok {
		return
	}
	n := uint64(4)
	if wide {
		n = 8
	}
	acquire := ddi.RangedBarrierFlagAtomicCopy | ddi.RangedBarrierFlagAcquire
	cl.Barrier([]ddi.Barrier{
		ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: acquire, Resource: src, Range: ddi.Range{Begin: srcOffset, End: srcOffset + n}}),
		ddi.NewRangedBarrier(ddi.RangedBarrier{Flags: acquire, Resource: dst, Range: ddi.Range{Begin: dstOffset, End: dstOffset + n}}),
	})
	w := cl.begin("AtomicCopyBufferUINT", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	w.copyPair("pSrcBuffer", BufferRange(src, srcOffset, n), ddi.AccessCopySource, "pDstBuffer", BufferRange(dst, dstOffset, n),
		ddi.AccessCopyDest, cmdbuf.ClientCopy)
	w.emit(cmdbuf.WorkAtomicCopy, cmdbuf.StageCopy, 0)
	cl.leave() // before the release barrier, a call of its own
	cl.Barrier([]ddi.Barrier{ddi.NewRangedBarrier(ddi.RangedBarrier{
		Flags: ddi.RangedBarrierFlagAtomicCopy | ddi.RangedBarrierFlagRelease, Resource: dst, Range: ddi.Range{Begin: dstOffset, End: dstOffset + n}})})
}

// atomicCopyChecks checks an atomic copy's offsets and buffers before its
// ranged barriers are recorded, so the message names the copy; false, with
// the list failed, if they are wrong.
func (cl *CommandList) atomicCopyChecks(dst ddi.HResource, dstOffset uint64, src ddi.HResource, srcOffset uint64, wide bool) bool {
	if !cl.open("AtomicCopyBufferUINT") {
		return false
	}
	n := uint64(4)
	if wide {
		n = 8
	}
	bad := func(id MessageID, field, value, rule string) {
		cl.fail(Message{Category: CategoryStateSetting, ID: id, Command: "AtomicCopyBufferUINT", Call: -1, Barrier: -1,
			Field: field, Value: value, Rule: rule})
	}
	if dstOffset%n != 0 || srcOffset%n != 0 {
		bad(MsgAtomicCopyInvalidOffsetAlignment, "DstOffset/SrcOffset", fmt.Sprintf("%d/%d", dstOffset, srcOffset),
			fmt.Sprintf("atomic copies of %d bytes need %d-byte aligned offsets", n, n))
		return false
	}
	// The ranges must lie in buffers (checked here, before the ranged
	// barriers are recorded, so the message names the copy).
	for _, b := range []struct {
		h      ddi.HResource
		off    uint64
		field  string
		bounds MessageID
	}{{dst, dstOffset, "pDstBuffer", MsgAtomicCopyDstRangeOutOfBounds}, {src, srcOffset, "pSrcBuffer", MsgAtomicCopySrcRangeOutOfBounds}} {
		r := cl.d.resource(b.h)
		switch {
		case r == nil:
			cl.badHandle(b.h, b.field, func(id MessageID, value, rule string) bool { bad(id, b.field, value, rule); return false })
			return false
		case !r.IsBuffer():
			bad(MsgInvalidWork, b.field, r.Name(), "atomic copies copy between buffers; this is a texture")
			return false
		case b.off > r.Desc.DataSize || n > r.Desc.DataSize-b.off:
			bad(b.bounds, b.field, fmt.Sprintf("%d+%d", b.off, n), fmt.Sprintf("outside the %d-byte %s", r.Desc.DataSize, r.Name()))
			return false
		}
	}
	return true
}

// DecodeFrame records a video decode (VIDEO_DECODE lists).
func (cl *CommandList) DecodeFrame(v Video) {
	cl.video("DecodeFrame", ddi.CommandListTypeVideoDecode, cmdbuf.WorkVideoDecode, ddi.AccessVideoDecodeRead, ddi.AccessVideoDecodeWrite, v)
}

// ProcessFrames records video processing (VIDEO_PROCESS lists).
func (cl *CommandList) ProcessFrames(v Video) {
	cl.video("ProcessFrames", ddi.CommandListTypeVideoProcess, cmdbuf.WorkVideoProcess, ddi.AccessVideoProcessRead, ddi.AccessVideoProcessWrite, v)
}

// EncodeFrame records a video encode (VIDEO_ENCODE lists).
func (cl *CommandList) EncodeFrame(v Video) {
	cl.video("EncodeFrame", ddi.CommandListTypeVideoEncode, cmdbuf.WorkVideoEncode, ddi.AccessVideoEncodeRead, ddi.AccessVideoEncodeWrite, v)
}

func (cl *CommandList) video(command string, t ddi.CommandListType, kind cmdbuf.WorkKind, read, write ddi.BarrierAccess, v Video) {
	w := cl.begin(command, t)
	if w == nil {
		return
	}
	defer cl.leave()
	for _, x := range append(append([]View(nil), v.Inputs...), v.References...) {
		w.access("Input", x, read, cmdbuf.DirRead, cmdbuf.ClientVideo)
	}
	for _, x := range v.Outputs {
		w.access("Output", x, write, cmdbuf.DirWrite, cmdbuf.ClientVideo)
	}
	w.emit(kind, cmdbuf.StageVideo, 0)
}

// CopyTextureToBuffer records CopyTextureRegion from a subresource to a
// buffer at offset laid out as the subresource's placed footprint (its
// rows, RowPitch apart).
func (cl *CommandList) CopyTextureToBuffer(dst ddi.HResource, offset uint64, src ddi.HResource, srcSub uint32) {
	w := cl.begin("CopyTextureRegion", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	defer cl.leave()
	fp, ok := w.footprint("pSrc", src, srcSub)
	if !ok {
		return
	}
	w.copyPair("pSrc", Subresource(src, srcSub), ddi.AccessCopySource, "pDst", BufferRange(dst, offset, fp), ddi.AccessCopyDest, cmdbuf.ClientCopy)
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}

// CopyBufferToTexture records CopyTextureRegion from a buffer at offset,
// laid out as the destination subresource's placed footprint.
func (cl *CommandList) CopyBufferToTexture(dst ddi.HResource, dstSub uint32, src ddi.HResource, offset uint64) {
	w := cl.begin("CopyTextureRegion", ddi.CommandListTypeDirect, ddi.CommandListTypeCompute, ddi.CommandListTypeCopy)
	if w == nil {
		return
	}
	defer cl.leave()
	fp, ok := w.footprint("pDst", dst, dstSub)
	if !ok {
		return
	}
	w.copyPair("pSrc", BufferRange(src, offset, fp), ddi.AccessCopySource, "pDst", Subresource(dst, dstSub), ddi.AccessCopyDest, cmdbuf.ClientCopy)
	w.emitSync(cmdbuf.WorkCopy, cmdbuf.StageCopy)
}

// resource is the resource a command's member names, or nil once the
// handle's error is recorded: a destroyed resource's, or a handle of
// nothing's (as every command reports them).
func (w *work) resource(field string, h ddi.HResource) *Resource {
	r := w.cl.d.resource(h)
	if r == nil {
		w.cl.badHandle(h, field, func(id MessageID, value, rule string) bool { w.fail(id, field, value, "%s", rule); return false })
	}
	return r
}

// footprint is a texture subresource's size in bytes.
func (w *work) footprint(field string, h ddi.HResource, sub uint32) (uint64, bool) {
	r := w.resource(field, h)
	switch {
	case r == nil:
		return 0, false
	case r.IsBuffer():
		w.fail(MsgInvalidWork, field, r.Name(), "not a texture")
		return 0, false
	}
	fp, err := r.Desc.Footprint(sub)
	if err != nil {
		w.fail(MsgInvalidWork, field, fmt.Sprint(sub), "%v", err)
		return 0, false
	}
	return fp.Size, true
}

// subName names a subresource in a message: the resource alone for a
// buffer or a one-subresource texture.
func subName(r *Resource, sub uint32) string {
	if r.IsBuffer() || r.Desc.SubresourceCount() == 1 {
		return r.Name()
	}
	return fmt.Sprintf("%s subresource %d", r.Name(), sub)
}
